import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

/// A deterministic random generator, so a failing run can be replayed from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What a resolution produced: which registration built it, and a serial per build.
final class Product: @unchecked Sendable {
    let registrationID: Int
    let serial: Int
    init(registrationID: Int, serial: Int) {
        self.registrationID = registrationID
        self.serial = serial
    }
}

/// The reference model: which registration is current per (name), and what a resolution must give.
struct ReferenceModel {
    struct Entry {
        let registrationID: Int
        let scope: Scope
        var singleton: Product?
    }

    var entries: [String: Entry] = [:]
    var heldWeak: [String: Product] = [:]
    var sessionInstances: [String: Product] = [:]
}

@Suite("Reliability: model-based randomized tests", .capturesLog)
struct ModelBasedTests {
    /// Steps per seed; set WEAVEDI_MODEL_STEPS for a longer run.
    static let steps = Int(ProcessInfo.processInfo.environment["WEAVEDI_MODEL_STEPS"] ?? "") ?? 1500
    static let seeds: [UInt64] = (1...12).map { UInt64($0) &* 0x5DEE_CE66D }

    static let names = ["a", "b", "c", "d", "e"]
    static let scopes: [Scope] = [.transient, .singleton, .weak, .session]

    @Test(arguments: seeds)
    func containerMatchesTheReferenceModel(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var model = ReferenceModel()
        let container = Container()
        let serials = Counter()
        var nextRegistrationID = 0
        var failures: [String] = []

        func check(_ condition: Bool, _ message: @autoclosure () -> String, step: Int) {
            if !condition { failures.append("seed \(seed) step \(step): \(message())") }
        }

        for step in 0..<Self.steps where failures.isEmpty {
            let name = Self.names.randomElement(using: &rng)!
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<25: // register
                nextRegistrationID += 1
                let id = nextRegistrationID
                let scope = Self.scopes.randomElement(using: &rng)!
                container.register(name, Product.self, scope: scope) {
                    Product(registrationID: id, serial: serials.next())
                }
                model.entries[name] = .init(registrationID: id, scope: scope, singleton: nil)
                model.heldWeak[name] = nil
                model.sessionInstances[name] = nil
            case 25..<80: // resolve and compare with the model
                let product = container.resolve(name, Product.self)
                guard let entry = model.entries[name] else {
                    check(product == nil, "\(name) is not registered but resolved", step: step)
                    continue
                }
                guard let product else {
                    check(false, "\(name) is registered (#\(entry.registrationID)) but did not resolve", step: step)
                    continue
                }
                check(
                    product.registrationID == entry.registrationID,
                    "\(name) built by registration #\(product.registrationID), expected #\(entry.registrationID)",
                    step: step)
                switch entry.scope {
                case .singleton:
                    if let first = entry.singleton {
                        check(first === product, "\(name) singleton was built twice", step: step)
                    } else {
                        model.entries[name]?.singleton = product
                    }
                case .weak:
                    if let held = model.heldWeak[name] {
                        check(held === product, "\(name) weak instance not shared while held", step: step)
                    } else if Bool.random(using: &rng) {
                        model.heldWeak[name] = product
                    }
                case .session:
                    if let current = model.sessionInstances[name] {
                        check(current === product, "\(name) session instance changed within the session", step: step)
                    } else {
                        model.sessionInstances[name] = product
                    }
                default:
                    break
                }
            case 80..<88: // drop a held weak instance: a later resolution must build anew
                // Keep only the serial: holding the instance here would keep it alive.
                if let serial = model.heldWeak.removeValue(forKey: name)?.serial {
                    let again = container.resolve(name, Product.self)
                    check(
                        again != nil && again!.serial != serial, "\(name) weak instance outlived its last holder",
                        step: step)
                }
            case 88..<94: // end the session scope
                container.endScope(.session)
                model.sessionInstances = [:]
            case 94..<97: // child containers see the parent, and their own registrations win
                let child = Container(parent: container)
                child.register(name, Product.self) { Product(registrationID: -1, serial: serials.next()) }
                check(
                    child.resolve(name, Product.self)?.registrationID == -1,
                    "child registration of \(name) did not win", step: step)
                let other = Self.names.filter { $0 != name }.randomElement(using: &rng)!
                check(
                    (child.resolve(other, Product.self) != nil) == (model.entries[other] != nil),
                    "child fallback to parent for \(other) disagrees with the model", step: step)
            default: // reset
                container.reset()
                model = ReferenceModel()
            }
        }
        #expect(failures.isEmpty, "\(failures.first ?? "") — replay with this seed")
    }

    @Test(arguments: seeds.prefix(4))
    func concurrentWorkersMatchTheirModels(seed: UInt64) async {
        // Several workers share one container: each owns its names (so its model is exact), and
        // all of them read a shared singleton that must stay one instance throughout.
        let container = Container()
        container.register("shared", Product.self, scope: .singleton) { Product(registrationID: 0, serial: 0) }
        let sharedInstance = container.resolve("shared", Product.self)!
        let failures = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var rng = SplitMix64(seed: seed &+ UInt64(worker))
                    let serials = Counter()
                    var current: [String: (id: Int, scope: Scope, first: Product?)] = [:]
                    var failures: [String] = []
                    var nextID = 0
                    for step in 0..<(Self.steps / 2) {
                        let name = "w\(worker)-\(Self.names.randomElement(using: &rng)!)"
                        if Int.random(in: 0..<4, using: &rng) == 0 {
                            nextID += 1
                            let id = nextID
                            let scope: Scope = Bool.random(using: &rng) ? .singleton : .transient
                            container.register(name, Product.self, scope: scope) {
                                Product(registrationID: id, serial: serials.next())
                            }
                            current[name] = (id, scope, nil)
                        } else if let entry = current[name] {
                            let product = container.resolve(name, Product.self)
                            if product?.registrationID != entry.id {
                                failures.append(
                                    "seed \(seed) worker \(worker) step \(step): \(name) gave #\(product?.registrationID ?? -99), expected #\(entry.id)"
                                )
                            } else if entry.scope == .singleton {
                                if let first = entry.first, first !== product {
                                    failures.append(
                                        "seed \(seed) worker \(worker) step \(step): singleton \(name) built twice")
                                }
                                current[name]?.first = product
                            }
                        }
                        if container.resolve("shared", Product.self) !== sharedInstance {
                            failures.append("seed \(seed) worker \(worker) step \(step): shared singleton changed")
                        }
                    }
                    return failures
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures.first ?? "")")
    }
}

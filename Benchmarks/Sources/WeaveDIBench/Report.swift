import Foundation

/// One performance goal, checked against this run's numbers.
struct GoalCheck: Codable, Sendable {
    var goal: String
    /// The measured ratio (or value) for WeaveDI in default mode and optimized mode.
    var weaveDI: Double?
    var weaveDIOptimized: Double?
    var target: String
    var metByDefault: Bool?
    var metOptimized: Bool?
}

enum Report {
    static func goals(_ r: Results) -> [GoalCheck] {
        typealias Value = (String) -> Double?
        func ratio(_ a: @escaping Value, _ b: @escaping Value) -> Value {
            { name in a(name).flatMap { x in b(name).map { x / $0 } } }
        }
        func own(_ id: CaseID) -> Value { { r.median(id, $0) } }
        func peer(_ id: CaseID, _ contestant: String) -> Value { { _ in r.median(id, contestant) } }
        func bytes(_ name: String) -> Double? {
            r.cases[CaseID.registration.rawValue]?[name]?.retainedBytesPerOperation
        }
        func threads(_ name: String) -> Double? { r.scaling[name]?.differentTypesRatio }

        let checks: [(String, Value, String, (Double) -> Bool)] = [
            (
                "Singleton: Swinject ÷ WeaveDI", ratio(peer(.singleton, Contestants.swinject), own(.singleton)), "≥ 50",
                { $0 >= 50 }
            ),
            (
                "Singleton: swift-dependencies ÷ WeaveDI",
                ratio(peer(.singleton, Contestants.dependencies), own(.singleton)), "≥ 20", { $0 >= 20 }
            ),
            (
                "Singleton: WeaveDI ÷ static let", ratio(own(.singleton), peer(.singleton, Contestants.handWritten)),
                "≤ 8", { $0 <= 8 }
            ),
            (
                "Transient: WeaveDI ÷ initializer", ratio(own(.transient), peer(.transient, Contestants.handWritten)),
                "≤ 2", { $0 <= 2 }
            ),
            (
                "3-level chain: WeaveDI ÷ initializers", ratio(own(.chain), peer(.chain, Contestants.handWritten)),
                "≤ 2.5", { $0 <= 2.5 }
            ),
            ("Named ÷ unnamed", ratio(own(.named), own(.singleton)), "≤ 1.5", { $0 <= 1.5 }),
            (
                "Named transient ÷ unnamed transient", ratio(own(.namedTransient), own(.transient)), "≤ 1.2",
                { $0 <= 1.2 }
            ),
            // A new name on a type that already has 1 000, against a new concrete type.
            (
                "Named registration ÷ concrete-type registration",
                ratio(own(.namedRegistration), own(.registration)), "≈ 1 (≤ 1.1)", { $0 <= 1.1 }
            ),
            ("Among 10 000 ÷ among 1", ratio(own(.among10k), own(.amongOne)), "≤ 1.3", { $0 <= 1.3 }),
            // A hook that does not read a miss's look-alikes must not pay for computing them.
            (
                "Miss with a hook ÷ without, 2 000 registrations", ratio(own(.missHook2k), own(.miss2k)),
                "≤ 1.5", { $0 <= 1.5 }
            ),
            (
                "Miss with a hook ÷ without, 100 000 registrations", ratio(own(.missHook100k), own(.miss100k)),
                "≤ 1.5", { $0 <= 1.5 }
            ),
            (
                "Registration (concrete types): Swinject ÷ WeaveDI",
                ratio(peer(.registration, Contestants.swinject), own(.registration)), "≥ 5", { $0 >= 5 }
            ),
            // The same from generic code, where both pay for a factory closure that captures `T`.
            (
                "Registration from generic code: Swinject ÷ WeaveDI",
                ratio(peer(.registrationGeneric, Contestants.swinject), own(.registrationGeneric)), "≥ 5", { $0 >= 5 }
            ),
            ("Bytes per registration", bytes, "≤ 200", { $0 <= 200 }),
            (
                "Bootstrap of 10 000 modules (ms)", { own(.bootstrap)($0).map { $0 * CaseID.bootstrap.displayScale } },
                "≤ 10", { $0 <= 10 }
            ),
            ("2 threads ÷ 1 thread throughput", threads, "≥ 1.6", { $0 >= 1.6 }),
            (
                "@Inject after the first ÷ stored property read",
                ratio(own(.injectAfterFirst), peer(.injectAfterFirst, Contestants.handWritten)), "close to 1",
                { $0 <= 3 }
            ),
            // The same goal against a stored reference handed to the caller (which, unlike a
            // `let` the compiler can lend, costs a retain and a release, as any accessor does).
            (
                "@Inject after the first ÷ returned stored reference",
                ratio(own(.injectAfterFirst), peer(.returnedReference, Contestants.handWritten)), "close to 1",
                { $0 <= 1.25 }
            ),
            (
                "@Dependency read ÷ @Injected(\\.key) read",
                ratio(peer(.injectedRead, Contestants.dependencies), own(.injectedRead)), "> 1", { $0 > 1 }
            ),
            (
                "Bridged @Dependency read ÷ plain @Dependency read",
                ratio(own(.bridgedDependencyRead), peer(.bridgedDependencyRead, Contestants.dependencies)), "≤ 1.2",
                { $0 <= 1.2 }
            ),
            (
                "Bridged @Injected read ÷ plain InjectedKey read",
                ratio(own(.bridgedInjectedRead), own(.injectedRead)), "≤ 1.2", { $0 <= 1.2 }
            ),
            (
                "The same, after overrides were set: bridged @Dependency ÷ plain @Dependency",
                ratio(
                    own(.bridgedDependencyReadAfterOverride),
                    peer(.bridgedDependencyReadAfterOverride, Contestants.dependencies)), "≤ 1.2", { $0 <= 1.2 }
            ),
            (
                "The same, after overrides were set: bridged @Injected ÷ plain InjectedKey",
                ratio(own(.bridgedInjectedReadAfterOverride), own(.injectedRead)), "≤ 1.2", { $0 <= 1.2 }
            ),
            (
                "The same, while another key's override is alive: bridged @Injected ÷ plain InjectedKey",
                ratio(own(.bridgedInjectedReadDuringOtherOverride), own(.injectedRead)), "≤ 1.2", { $0 <= 1.2 }
            ),
        ]
        return checks.map { goal, value, target, met in
            let plain = value(Contestants.weaveDI)
            let optimized = value(Contestants.weaveDIOptimized)
            return GoalCheck(
                goal: goal, weaveDI: plain, weaveDIOptimized: optimized, target: target,
                metByDefault: plain.map(met), metOptimized: optimized.map(met))
        }
    }

    static func markdown(_ r: Results, goals: [GoalCheck], header: String) -> String {
        var out = header + "\n\n"
        out += "Median ns per operation (bootstrap: ms per 10 000 modules); `—` = no equivalent.\n"
        out += "Ratios use WeaveDI default mode, then optimized mode in parentheses.\n\n"
        out += "| Case | " + Contestants.all.joined(separator: " | ")
        out += " | WeaveDI ÷ hand-written | Swinject ÷ WeaveDI | swift-dependencies ÷ WeaveDI |\n"
        out += "|" + String(repeating: " --- |", count: Contestants.all.count + 4) + "\n"
        for id in CaseID.allCases {
            let row = r.cases[id.rawValue] ?? [:]
            var cells = [id.title]
            for name in Contestants.all {
                cells.append(row[name].map { format($0.medianNanoseconds * id.displayScale) } ?? "—")
            }
            func pair(_ f: (Double) -> Double?) -> String {
                guard let plain = row[Contestants.weaveDI].flatMap({ f($0.medianNanoseconds) }) else { return "—" }
                let optimized = row[Contestants.weaveDIOptimized].flatMap { f($0.medianNanoseconds) }
                return "\(format(plain))× (\(optimized.map(format) ?? "—")×)"
            }
            let hand = row[Contestants.handWritten]?.medianNanoseconds
            let swinject = row[Contestants.swinject]?.medianNanoseconds
            let deps = row[Contestants.dependencies]?.medianNanoseconds
            cells.append(pair { w in hand.map { w / $0 } })
            cells.append(pair { w in swinject.map { $0 / w } })
            cells.append(pair { w in deps.map { $0 / w } })
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }

        out +=
            "\nHeap allocations per operation (counted by interposing malloc; `—` = no equivalent or not countable):\n\n"
        out += "| Case | " + Contestants.all.joined(separator: " | ") + " |\n"
        out += "|" + String(repeating: " --- |", count: Contestants.all.count + 1) + "\n"
        for id in CaseID.allCases {
            let row = r.cases[id.rawValue] ?? [:]
            let cells =
                [id.title]
                + Contestants.all.map { name in
                    row[name]?.allocationsPerOperation.map { format($0) } ?? "—"
                }
            out += "| " + cells.joined(separator: " | ") + " |\n"
        }
        let registration = r.cases[CaseID.registration.rawValue] ?? [:]
        out +=
            "| Heap bytes kept per registration | "
            + Contestants.all.map { name in
                registration[name]?.retainedBytesPerOperation.map { format($0) } ?? "—"
            }.joined(separator: " | ") + " |\n"

        if let closure = r.factoryClosure {
            out += "\nRegistration and bootstrap register 10 000 concrete types the way an app does (generated code, "
            out += "`register(Impl.self) { Impl() }`). The generic row registers them from one generic function, "
            out +=
                "whose `{ T() }` closure captures `T` and allocates (\(closure.allocationsPerOperation.map(format) ?? "—") "
            out +=
                "allocation, \(closure.retainedBytesPerOperation.map(format) ?? "—") bytes each, measured in this run); "
            out += "that row's counts exclude it, its times include it.\n"
        }

        out += "\nTwo threads resolving at once (throughput relative to one thread; 2.0 is perfect scaling):\n\n"
        out += "| Contestant | 1 thread ns/op | 2 threads, different types | 2 threads, same type |\n"
        out += "| --- | --- | --- | --- |\n"
        for name in Contestants.scalingRows {
            guard let s = r.scaling[name] else { continue }
            out +=
                "| \(name) | \(format(s.oneThreadNanoseconds)) | \(format(s.differentTypesRatio))× | \(format(s.sameTypeRatio))× |\n"
        }

        out += "\nGoals:\n\n"
        out += "| Goal | Target | WeaveDI | met | WeaveDI optimized | met |\n"
        out += "| --- | --- | --- | --- | --- | --- |\n"
        for g in goals {
            out += "| \(g.goal) | \(g.target) | \(g.weaveDI.map(format) ?? "—") | \(mark(g.metByDefault)) "
            out += "| \(g.weaveDIOptimized.map(format) ?? "—") | \(mark(g.metOptimized)) |\n"
        }
        if let returned = r.median(.returnedReference, Contestants.handWritten),
            let staticLet = r.median(.singleton, Contestants.handWritten),
            let plain = r.median(.singleton, Contestants.weaveDI),
            let optimized = r.median(.singleton, Contestants.weaveDIOptimized)
        {
            out += "\nFor scale: a hand-written function returning a stored reference (a retain and a release, "
            out += "which any resolution pays and a `static let` read does not) costs \(format(returned)) ns, "
            out += "\(format(returned / staticLet))× a `static let` read; a WeaveDI singleton resolution is "
            out += "\(format(plain / returned))× (\(format(optimized / returned))×) that.\n"
        }
        return out
    }

    static func mark(_ met: Bool?) -> String {
        switch met {
        case true?: return "yes"
        case false?: return "**no**"
        case nil: return "—"
        }
    }

    static func format(_ value: Double) -> String {
        if value >= 1000 { return String(format: "%.0f", value) }
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }
}

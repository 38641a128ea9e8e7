import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// How registrations keep what they own now that records are not generic: a factory stored
// type-erased (`ErasedFactory`), a shared instance stored in place in an `InstanceBuffer` (40
// bytes, alignment 8 at most) or in a heap `ValueBox` otherwise, and registration order kept in
// the slot. Every test uses its own container; instances and captured objects report their
// deinit to a `Counter` (thread-safe), and tests never hold what they check the release of.

// MARK: Value shapes

private protocol ISStamped: Sendable { var stamp: Int { get } }
/// Fits an existential's inline buffer (three words).
private struct ISInlineStamp: ISStamped {
    let stamp: Int
    let extra: Int
}
/// Too big for an existential's inline buffer: the existential boxes it.
private struct ISOutOfLineStamp: ISStamped {
    let stamp: Int
    let a: Int, b: Int, c: Int
}
private final class ISStampObject: ISStamped {
    let stamp: Int
    init(stamp: Int) { self.stamp = stamp }
}

/// Exactly the buffer's 40 bytes.
private struct ISFiveWords: Equatable, Sendable {
    var a: Int, b: Int, c: Int, d: Int, e: Int
    init(_ seed: Int) { (a, b, c, d, e) = (seed, seed &* 3, -seed, seed &+ 7, Int.max - seed) }
}

private final class ISMarker: Sendable {}

/// Six words and a class reference: 56 bytes, kept in a `ValueBox`.
private struct ISSixWordsAndObject: Sendable {
    var a: Int, b: Int, c: Int, d: Int, e: Int, f: Int
    let marker: ISMarker
    init(_ seed: Int) {
        (a, b, c, d, e, f) = (seed, seed + 1, seed + 2, seed + 3, seed + 4, seed + 5)
        marker = ISMarker()
    }
    var words: [Int] { [a, b, c, d, e, f] }
}

/// Small but 16-byte aligned: kept in a `ValueBox`.
private struct ISOverAligned: Equatable, Sendable {
    var vector: SIMD4<Float>
    var stamp: Int
}

private struct ISEmpty: Equatable, Sendable {}

private final class ISWidget: Sendable {
    let stamp: Int
    init(stamp: Int) { self.stamp = stamp }
}

private protocol ISObjectService: AnyObject, Sendable {}
private final class ISObjectServiceImpl: ISObjectService {
    let tracked: Tracked
    init(_ tracked: Tracked) { self.tracked = tracked }
}

// Registration-order fixtures.
private struct ISOrderA {}
private struct ISOrderB {}
private struct ISOrderC {}

/// A thread-safe on/off switch a factory reads.
private final class ISSwitch: @unchecked Sendable {
    private let lock = NSLock()
    private var on: Bool
    init(_ on: Bool) { self.on = on }
    var isOn: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return on
        }
        set {
            lock.lock()
            on = newValue
            lock.unlock()
        }
    }
}

/// Registers a singleton counting its factory's calls, resolves it `times` times (typed, alternating
/// `resolve` and `resolveOrThrow`), and returns what each resolution gave and how many builds ran.
private func resolveSingletonRepeatedly<T>(
    _ type: T.Type, times: Int = 4, build: @escaping @Sendable (Int) -> T
) -> (values: [T?], builds: Int, buildsBeforeResolving: Int) {
    let container = Container()
    let builds = Counter()
    container.register(type, scope: .singleton) {
        builds.increment()
        return build(builds.value)
    }
    let before = builds.value
    var values: [T?] = []
    for index in 0..<times {
        values.append(index.isMultiple(of: 2) ? container.resolve(type) : try? container.resolveOrThrow(type))
    }
    return (values, builds.value, before)
}

// MARK: Shapes holding a tracked object (for release tests)

private protocol ISTrackingValue: Sendable { var tracked: Tracked { get } }
private struct ISTrackingInline: ISTrackingValue {
    let tracked: Tracked
    let stamp: Int
}
private struct ISTrackingWide: ISTrackingValue {
    let tracked: Tracked
    let a: Int, b: Int, c: Int
}

private struct ISSmallHolder: Sendable {
    let tracked: Tracked
    let stamp: Int
}
private struct ISBigHolder: Sendable {
    let tracked: Tracked
    let words: ISFiveWords
}
private struct ISAlignedHolder: Sendable {
    let tracked: Tracked
    let vector: SIMD4<Float>
}

/// How one shape wraps a tracked object into the registered value, and back.
private protocol ISTrackingShape: Sendable {
    associatedtype Value
    static func wrap(_ tracked: Tracked) -> Value
    static func unwrap(_ value: Value) -> Tracked
}

private enum ISObjectShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> Tracked { tracked }
    static func unwrap(_ value: Tracked) -> Tracked { value }
}

private enum ISSmallStructShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> ISSmallHolder { ISSmallHolder(tracked: tracked, stamp: 7) }
    static func unwrap(_ value: ISSmallHolder) -> Tracked { value.tracked }
}

private enum ISExistentialShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> any ISTrackingValue { ISTrackingInline(tracked: tracked, stamp: 7) }
    static func unwrap(_ value: any ISTrackingValue) -> Tracked { value.tracked }
}

private enum ISBoxedExistentialShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> any ISTrackingValue { ISTrackingWide(tracked: tracked, a: 1, b: 2, c: 3) }
    static func unwrap(_ value: any ISTrackingValue) -> Tracked { value.tracked }
}

private enum ISBigStructShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> ISBigHolder { ISBigHolder(tracked: tracked, words: ISFiveWords(3)) }
    static func unwrap(_ value: ISBigHolder) -> Tracked { value.tracked }
}

private enum ISOverAlignedShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> ISAlignedHolder { ISAlignedHolder(tracked: tracked, vector: [1, 2, 3, 4]) }
    static func unwrap(_ value: ISAlignedHolder) -> Tracked { value.tracked }
}

private enum ISOptionalBigShape: ISTrackingShape {
    static func wrap(_ tracked: Tracked) -> ISBigHolder? { ISBigHolder(tracked: tracked, words: ISFiveWords(5)) }
    static func unwrap(_ value: ISBigHolder?) -> Tracked { value!.tracked }
}

/// The shapes a shared instance can take, each registered as its own type.
private enum ISShape: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case object, smallStruct, existential, boxedExistential, bigStruct, overAligned, optionalBig

    var testDescription: String { rawValue }

    var shape: any ISTrackingShape.Type {
        switch self {
        case .object: return ISObjectShape.self
        case .smallStruct: return ISSmallStructShape.self
        case .existential: return ISExistentialShape.self
        case .boxedExistential: return ISBoxedExistentialShape.self
        case .bigStruct: return ISBigStructShape.self
        case .overAligned: return ISOverAlignedShape.self
        case .optionalBig: return ISOptionalBigShape.self
        }
    }

    /// Whether the registered type is stored in place in an `InstanceBuffer`.
    var storesInPlace: Bool {
        func check<S: ISTrackingShape>(_: S.Type) -> Bool { InstanceBuffer.storesInPlace(S.Value.self) }
        return check(shape)
    }

    /// Registers this shape in `scope`; each build makes a new `Tracked`. `fails` makes the
    /// factory throw (after counting an attempt) while it is on.
    func register(
        in container: Container, scope: Scope, builds: Counter, deinits: Counter,
        attempts: Counter = Counter(), fails: ISSwitch = ISSwitch(false)
    ) {
        func register<S: ISTrackingShape>(_: S.Type) {
            container.register(S.Value.self, scope: scope) {
                attempts.increment()
                if fails.isOn { throw TestFailure(reason: "not yet") }
                return S.wrap(Tracked(builds, deinits: deinits))
            }
        }
        register(shape)
    }

    /// Registers an instance of this shape holding a new `Tracked` the caller never sees.
    func registerInstance(in container: Container, deinits: Counter) {
        func register<S: ISTrackingShape>(_: S.Type) {
            container.register(S.Value.self, instance: S.wrap(Tracked(Counter(), deinits: deinits)))
        }
        register(shape)
    }

    /// Resolves this shape (typed) and returns the identity of the tracked object it holds, without
    /// keeping the value.
    func resolvedID(in container: Container) -> ObjectIdentifier? {
        func resolve<S: ISTrackingShape>(_: S.Type) -> ObjectIdentifier? {
            container.resolve(S.Value.self).map { ObjectIdentifier(S.unwrap($0)) }
        }
        return resolve(shape)
    }

    /// ``resolvedID(in:)`` through `resolveOrThrow`.
    func resolvedIDOrThrow(in container: Container) throws -> ObjectIdentifier {
        func resolve<S: ISTrackingShape>(_: S.Type) throws -> ObjectIdentifier {
            ObjectIdentifier(S.unwrap(try container.resolveOrThrow(S.Value.self)))
        }
        return try resolve(shape)
    }

    /// ``resolvedID(in:)`` through the type-erased `resolve(_: Any.Type)`.
    func erasedResolvedID(in container: Container) -> ObjectIdentifier? {
        func resolve<S: ISTrackingShape>(_: S.Type) -> ObjectIdentifier? {
            guard let any = container.resolve(S.Value.self as Any.Type) else { return nil }
            guard let value = any as? S.Value else {
                Issue.record("type-erased resolution of \(S.Value.self) returned a \(type(of: any))")
                return nil
            }
            return ObjectIdentifier(S.unwrap(value))
        }
        return resolve(shape)
    }

    @discardableResult
    func unregister(in container: Container) -> Bool {
        func unregister<S: ISTrackingShape>(_: S.Type) -> Bool { container.unregister(S.Value.self) }
        return unregister(shape)
    }
}

/// A factory whose context is the only holder of a `Tracked` reporting to `deinits`.
private func capturingFactory(deinits: Counter) -> @Sendable () -> ISWidget {
    let captured = Tracked(Counter(), deinits: deinits)
    return { ISWidget(stamp: captured.counter.value) }
}

private let factoryScopes: [Scope] = [.transient, .singleton, .weak, .custom("instance-storage-factory")]

/// Resolves `ISWidget` once and drops it, in the container's current instance of a custom scope.
private func resolveWidgetOnce(in container: Container) -> Bool { container.resolve(ISWidget.self) != nil }

@Suite("Instance storage: erased factories, in-place and boxed instances, registration order", .capturesLog)
struct InstanceStorageTests {
    // MARK: 1. Singletons of many shapes

    @Test(
        "The fixtures take the storage path each test means: in place up to 40 bytes and 8-byte alignment, boxed beyond"
    )
    func fixturesTakeTheIntendedPath() {
        #expect(MemoryLayout<any ISStamped>.size == 40)
        #expect(MemoryLayout<ISFiveWords>.size == InstanceBuffer.inlineCapacity)
        #expect(InstanceBuffer.inlineCapacity == 40)
        #expect(InstanceBuffer.storesInPlace(ISWidget.self))
        #expect(InstanceBuffer.storesInPlace((any ISStamped).self))
        #expect(InstanceBuffer.storesInPlace(Int.self))
        #expect(InstanceBuffer.storesInPlace(String.self))
        #expect(InstanceBuffer.storesInPlace(ISFiveWords.self))
        #expect(InstanceBuffer.storesInPlace(Int?.self))
        #expect(InstanceBuffer.storesInPlace(ISEmpty.self))
        #expect(!InstanceBuffer.storesInPlace(ISSixWordsAndObject.self))
        #expect(!InstanceBuffer.storesInPlace(ISFiveWords?.self), "41 bytes")
        #expect(MemoryLayout<SIMD4<Float>>.alignment == 16)
        #expect(!InstanceBuffer.storesInPlace(SIMD4<Float>.self), "16 bytes, but 16-byte aligned")
        #expect(!InstanceBuffer.storesInPlace(ISOverAligned.self))

        let inPlace = ISShape.allCases.filter(\.storesInPlace)
        #expect(inPlace == [.object, .smallStruct, .existential, .boxedExistential])
    }

    @Test("A class singleton is built once and is the same instance every time")
    func classSingleton() {
        let result = resolveSingletonRepeatedly(ISWidget.self) { ISWidget(stamp: $0) }
        #expect(result.buildsBeforeResolving == 0)
        #expect(result.builds == 1)
        let first = result.values[0]
        #expect(first?.stamp == 1)
        #expect(result.values.allSatisfy { $0 != nil && $0 === first })
    }

    @Test(
        "An existential singleton (40 bytes) keeps its value, whether the existential holds it inline, boxed, or by reference"
    )
    func existentialSingleton() {
        let inline = resolveSingletonRepeatedly((any ISStamped).self) { ISInlineStamp(stamp: 100 + $0, extra: -1) }
        #expect(inline.builds == 1)
        #expect(
            inline.values.allSatisfy { ($0 as? ISInlineStamp)?.stamp == 101 && ($0 as? ISInlineStamp)?.extra == -1 })

        let outOfLine = resolveSingletonRepeatedly((any ISStamped).self) {
            ISOutOfLineStamp(stamp: 200 + $0, a: 1, b: 2, c: 3)
        }
        #expect(outOfLine.builds == 1)
        #expect(
            outOfLine.values.allSatisfy {
                guard let value = $0 as? ISOutOfLineStamp else { return false }
                return (value.stamp, value.a, value.b, value.c) == (201, 1, 2, 3)
            })

        let object = resolveSingletonRepeatedly((any ISStamped).self) { ISStampObject(stamp: 300 + $0) }
        #expect(object.builds == 1)
        let first = object.values[0] as? ISStampObject
        #expect(first?.stamp == 301)
        #expect(object.values.allSatisfy { ($0 as? ISStampObject) === first && first != nil })

        // Named singletons of the existential are stored the same way, each in its own record.
        let container = Container()
        let builds = Counter()
        container.register("inline", (any ISStamped).self, scope: .singleton) {
            builds.increment()
            return ISInlineStamp(stamp: 1, extra: 2)
        }
        container.register("boxed", (any ISStamped).self, scope: .singleton) {
            builds.increment()
            return ISOutOfLineStamp(stamp: 2, a: 3, b: 4, c: 5)
        }
        for _ in 0..<3 {
            #expect(container.resolve("inline", (any ISStamped).self)?.stamp == 1)
            #expect((container.resolve("boxed", (any ISStamped).self) as? ISOutOfLineStamp)?.c == 5)
        }
        #expect(builds.value == 2)
    }

    @Test("An Int singleton is built once")
    func intSingleton() {
        let result = resolveSingletonRepeatedly(Int.self) { 1_000 + $0 }
        #expect(result.builds == 1)
        #expect(result.values == Array(repeating: 1_001, count: 4))
    }

    @Test("A String singleton (heap-allocated) is built once and survives every read")
    func stringSingleton() {
        let padding = String(repeating: "é", count: 64)
        let result = resolveSingletonRepeatedly(String.self) { "built #\($0) " + padding }
        #expect(result.builds == 1)
        #expect(result.values == Array(repeating: "built #1 " + padding, count: 4))
    }

    @Test("A struct of exactly 40 bytes is stored in place and built once")
    func fortyByteStructSingleton() {
        let result = resolveSingletonRepeatedly(ISFiveWords.self) { ISFiveWords(10 + $0) }
        #expect(result.builds == 1)
        #expect(result.values == Array(repeating: ISFiveWords(11), count: 4))
    }

    @Test("A struct bigger than 40 bytes is boxed, built once, and keeps its class reference")
    func bigStructSingleton() {
        let result = resolveSingletonRepeatedly(ISSixWordsAndObject.self, times: 6) { ISSixWordsAndObject(20 + $0) }
        #expect(result.builds == 1)
        let first = result.values[0]
        #expect(first?.words == [21, 22, 23, 24, 25, 26])
        #expect(result.values.allSatisfy { $0?.words == first?.words && $0?.marker === first?.marker && first != nil })
    }

    @Test("A 16-byte-aligned type is boxed, built once, and read back intact")
    func overAlignedSingleton() {
        let vectors = resolveSingletonRepeatedly(SIMD4<Float>.self) { [Float($0), 2.5, -3, 1e9] }
        #expect(vectors.builds == 1)
        #expect(vectors.values == Array(repeating: [1, 2.5, -3, 1e9], count: 4))

        let structs = resolveSingletonRepeatedly(ISOverAligned.self) {
            ISOverAligned(vector: [1, 2, 3, Float($0)], stamp: 40 + $0)
        }
        #expect(structs.builds == 1)
        #expect(structs.values == Array(repeating: ISOverAligned(vector: [1, 2, 3, 1], stamp: 41), count: 4))
    }

    @Test("Optional singletons: a value, nil, and an optional too big to be stored in place")
    func optionalSingleton() {
        let some = resolveSingletonRepeatedly(Int?.self) { .some(50 + $0) }
        #expect(some.builds == 1)
        #expect(some.values == Array(repeating: .some(.some(51)), count: 4))

        // A singleton whose value is nil resolves (to `.some(nil)`), and is not built again.
        let none = resolveSingletonRepeatedly(Int?.self) { _ in nil }
        #expect(none.builds == 1)
        #expect(none.values == Array(repeating: .some(.none), count: 4))

        let big = resolveSingletonRepeatedly(ISFiveWords?.self) { ISFiveWords(60 + $0) }
        #expect(big.builds == 1)
        #expect(big.values == Array(repeating: .some(ISFiveWords(61)), count: 4))

        let bigNone = resolveSingletonRepeatedly(ISFiveWords?.self) { _ in nil }
        #expect(bigNone.builds == 1)
        #expect(bigNone.values == Array(repeating: .some(.none), count: 4))
    }

    @Test("An empty struct singleton is built once")
    func emptySingleton() {
        let result = resolveSingletonRepeatedly(ISEmpty.self) { _ in ISEmpty() }
        #expect(result.builds == 1)
        #expect(result.values == Array(repeating: ISEmpty(), count: 4))
    }

    @Test("Threads racing for in-place and boxed singletons get the one value built")
    func concurrentSingletonsOfEveryPath() {
        let container = Container()
        let builds = Counter()
        container.register(ISFiveWords.self, scope: .singleton) {
            builds.increment()
            return ISFiveWords(7)
        }
        container.register(ISSixWordsAndObject.self, scope: .singleton) {
            builds.increment()
            return ISSixWordsAndObject(8)
        }
        container.register(ISOverAligned.self, scope: .singleton) {
            builds.increment()
            return ISOverAligned(vector: [9, 9, 9, 9], stamp: 9)
        }
        container.register(String.self, scope: .singleton) {
            builds.increment()
            return String(repeating: "s", count: 100)
        }
        let results = runOnThreads(
            Array(
                repeating: { @Sendable () -> [String] in
                    var seen: Set<String> = []
                    for _ in 0..<200 {
                        let five = container.resolve(ISFiveWords.self)
                        let six = container.resolve(ISSixWordsAndObject.self)
                        let aligned = container.resolve(ISOverAligned.self)
                        let text = container.resolve(String.self)
                        seen.insert(
                            "\(five.map { [$0.a, $0.e] } ?? []) \(six?.words ?? []) "
                                + "\(six.map { ObjectIdentifier($0.marker).hashValue } ?? 0) \(aligned?.stamp ?? 0) \(text?.count ?? 0)"
                        )
                    }
                    return Array(seen)
                }, count: 8))
        #expect(builds.value == 4)
        let all = Set(results.flatMap { $0 })
        #expect(all.count == 1, "every thread saw the same values: \(all)")
    }

    // MARK: 2. Shared instances are released

    @Test("A singleton is kept until reset, then released", arguments: ISShape.allCases)
    fileprivate func singletonReleasedByReset(_ shape: ISShape) {
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        let first = shape.resolvedID(in: container)
        let second = shape.resolvedID(in: container)
        #expect(first != nil && first == second)
        #expect(builds.value == 1)
        #expect(deinits.value == 0, "the singleton holds its instance")
        container.reset()
        #expect(deinits.value == 1, "reset releases the instance")
        #expect(shape.resolvedID(in: container) == nil)
    }

    @Test("A singleton is released with its container", arguments: ISShape.allCases)
    fileprivate func singletonReleasedWithContainer(_ shape: ISShape) {
        let builds = Counter()
        let deinits = Counter()
        weak var released: Container?
        do {
            let container = Container()
            released = container
            shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
            #expect(shape.resolvedID(in: container) != nil)
            #expect(shape.resolvedID(in: container) != nil)
            #expect(deinits.value == 0)
        }
        #expect(released == nil, "the container is deallocated")
        #expect(builds.value == 1)
        #expect(deinits.value == 1)
    }

    @Test("An unbuilt singleton holds nothing to release", arguments: ISShape.allCases)
    fileprivate func unbuiltSingletonReleasesNothing(_ shape: ISShape) {
        let builds = Counter()
        let deinits = Counter()
        do {
            let container = Container()
            shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
            container.reset()
            shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        }
        #expect(builds.value == 0)
        #expect(deinits.value == 0)
    }

    @Test("A built singleton is released by unregistering and by replacement", arguments: ISShape.allCases)
    fileprivate func singletonReleasedByUnregisterAndReplacement(_ shape: ISShape) {
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        #expect(shape.resolvedID(in: container) != nil)
        #expect(shape.unregister(in: container))
        #expect(deinits.value == 1)

        shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        #expect(shape.resolvedID(in: container) != nil)
        shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        #expect(deinits.value == 2)
        #expect(shape.resolvedID(in: container) != nil)
        #expect(builds.value == 3)
        #expect(deinits.value == 2)
    }

    @Test("A registered instance is returned as is, and released by reset", arguments: ISShape.allCases)
    fileprivate func registeredInstanceReleasedByReset(_ shape: ISShape) throws {
        let container = Container()
        let deinits = Counter()
        shape.registerInstance(in: container, deinits: deinits)
        let first = shape.resolvedID(in: container)
        #expect(first != nil)
        #expect(shape.resolvedID(in: container) == first)
        #expect(try shape.resolvedIDOrThrow(in: container) == first)
        #expect(shape.erasedResolvedID(in: container) == first)
        #expect(deinits.value == 0)
        container.reset()
        #expect(deinits.value == 1)
    }

    @Test("A registered instance is released with its container, and by replacement", arguments: ISShape.allCases)
    fileprivate func registeredInstanceReleasedWithContainer(_ shape: ISShape) {
        let deinits = Counter()
        weak var released: Container?
        do {
            let container = Container()
            released = container
            shape.registerInstance(in: container, deinits: deinits)
            #expect(shape.resolvedID(in: container) != nil)
            shape.registerInstance(in: container, deinits: deinits)
            #expect(deinits.value == 1, "replacing the registration releases the first instance")
            #expect(shape.resolvedID(in: container) != nil)
        }
        #expect(released == nil)
        #expect(deinits.value == 2)
    }

    @Test("A custom scope's instance lives as long as its scope instance", arguments: ISShape.allCases)
    fileprivate func scopedInstanceReleasedWhenScopeEnds(_ shape: ISShape) {
        let scope = Scope.custom("instance-storage")
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        shape.register(in: container, scope: scope, builds: builds, deinits: deinits)

        let instance = container.beginScope(scope)
        container.withScope(instance) {
            let first = shape.resolvedID(in: container)
            #expect(first != nil)
            #expect(shape.resolvedID(in: container) == first)
            #expect(shape.erasedResolvedID(in: container) == first)
        }
        #expect(instance.instanceCount == 1)
        #expect(builds.value == 1)
        #expect(deinits.value == 0, "the scope instance holds its instance until it ends")
        instance.end()
        #expect(instance.instanceCount == 0)
        #expect(deinits.value == 1)

        // `withScope(_ scope:)` ends its fresh instance on return.
        container.withScope(scope) {
            #expect(shape.resolvedID(in: container) != nil)
            #expect(deinits.value == 1)
        }
        #expect(builds.value == 2)
        #expect(deinits.value == 2)

        // A scope instance dropped without `end()` releases what it holds too.
        do {
            let dropped = container.beginScope(scope)
            container.withScope(dropped) { #expect(shape.resolvedID(in: container) != nil) }
            #expect(deinits.value == 2)
        }
        #expect(builds.value == 3)
        #expect(deinits.value == 3)
    }

    @Test(
        "The container's own scope instance is released by endScope, reset and the container's deinit",
        arguments: ISShape.allCases)
    fileprivate func containerScopeInstanceReleased(_ shape: ISShape) {
        let scope = Scope.custom("instance-storage-container")
        let builds = Counter()
        let deinits = Counter()
        weak var released: Container?
        do {
            let container = Container()
            released = container
            shape.register(in: container, scope: scope, builds: builds, deinits: deinits)
            let first = shape.resolvedID(in: container)
            #expect(first != nil && shape.resolvedID(in: container) == first)
            #expect(deinits.value == 0)
            container.endScope(scope)
            #expect(deinits.value == 1)

            #expect(shape.resolvedID(in: container) != nil)
            container.reset()
            #expect(deinits.value == 2)

            shape.register(in: container, scope: scope, builds: builds, deinits: deinits)
            #expect(shape.resolvedID(in: container) != nil)
            #expect(deinits.value == 2)
        }
        #expect(released == nil)
        #expect(builds.value == 3)
        #expect(deinits.value == 3)
    }

    @Test("A weak registration's instance is released once the caller drops it")
    func weakInstanceReleasedWhenDropped() {
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        container.register(Tracked.self, scope: .weak) { Tracked(builds, deinits: deinits) }
        container.register((any ISObjectService).self, scope: .weak) {
            ISObjectServiceImpl(Tracked(builds, deinits: deinits))
        }
        do {
            let object = container.resolve(Tracked.self)
            let service = container.resolve((any ISObjectService).self)
            #expect(object != nil && service != nil)
            #expect(container.resolve(Tracked.self) === object)
            #expect(container.resolve((any ISObjectService).self) === service)
            #expect(container.resolve(Tracked.self as Any.Type) as? Tracked === object)
            #expect(builds.value == 2)
            #expect(deinits.value == 0)
        }
        #expect(deinits.value == 2, "the container does not keep a weak registration's instance")

        // Rebuilt on the next resolution, and released again (not twice) afterwards.
        #expect(container.resolve(Tracked.self) != nil)
        #expect(builds.value == 3)
        #expect(deinits.value == 3)
        container.reset()
        #expect(deinits.value == 3)
    }

    // MARK: 3. Factory contexts are released

    @Test("Replacing a registration releases its factory's captures", arguments: factoryScopes)
    func factoryContextReleasedByReplacement(_ scope: Scope) {
        let container = Container()
        let deinits = Counter()
        container.register(ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
        #expect(resolveWidgetOnce(in: container))
        #expect(deinits.value == 0)
        container.register(ISWidget.self, scope: scope) { ISWidget(stamp: -1) }
        #expect(deinits.value == 1)
        #expect(container.resolve(ISWidget.self)?.stamp == -1)

        // Named registrations too, replaced by name.
        container.register("named", ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
        #expect(container.resolve("named", ISWidget.self)?.stamp == 1)
        container.register("other", ISWidget.self, scope: scope) { ISWidget(stamp: -2) }
        #expect(deinits.value == 1, "a registration under another name leaves it alone")
        container.register("named", ISWidget.self, scope: scope) { ISWidget(stamp: -3) }
        #expect(deinits.value == 2)
    }

    @Test("Unregistering releases the factory's captures", arguments: factoryScopes)
    func factoryContextReleasedByUnregister(_ scope: Scope) {
        let container = Container()
        let deinits = Counter()
        container.register(ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
        container.register("named", ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
        #expect(resolveWidgetOnce(in: container))
        #expect(container.resolve("named", ISWidget.self) != nil)
        #expect(deinits.value == 0)
        #expect(container.unregister(ISWidget.self))
        #expect(deinits.value == 1)
        #expect(container.unregister(ISWidget.self, name: "named"))
        #expect(deinits.value == 2)
    }

    @Test("A container's deallocation releases its factories' captures", arguments: factoryScopes)
    func factoryContextReleasedWithContainer(_ scope: Scope) {
        let deinits = Counter()
        weak var released: Container?
        do {
            let container = Container()
            released = container
            container.register(ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
            container.register("named", ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
            #expect(resolveWidgetOnce(in: container))
            #expect(deinits.value == 0)
        }
        #expect(released == nil)
        #expect(deinits.value == 2)
    }

    @Test("reset releases the factories' captures", arguments: factoryScopes)
    func factoryContextReleasedByReset(_ scope: Scope) {
        let container = Container()
        let deinits = Counter()
        container.register(ISWidget.self, scope: scope, factory: capturingFactory(deinits: deinits))
        #expect(resolveWidgetOnce(in: container))
        container.reset()
        #expect(deinits.value == 1)
    }

    @Test("A transient factory keeps its captures for as long as it is registered")
    func transientFactoryKeepsItsCaptures() {
        let container = Container()
        let deinits = Counter()
        container.register(ISWidget.self, factory: capturingFactory(deinits: deinits))
        for _ in 0..<50 {
            #expect(container.resolve(ISWidget.self)?.stamp == 1)
            #expect((try? container.resolveOrThrow(ISWidget.self))?.stamp == 1)
            #expect((container.resolve(ISWidget.self as Any.Type) as? ISWidget)?.stamp == 1)
        }
        // Other registrations (growing the slot table, replacing other types) leave it alone.
        for index in 0..<200 { container.register("filler\(index)", Int.self) { index } }
        container.register(ISMarker.self) { ISMarker() }
        container.register(ISMarker.self) { ISMarker() }
        #expect(container.unregister(ISMarker.self))
        #expect(deinits.value == 0)
        #expect(container.resolve(ISWidget.self)?.stamp == 1)
        #expect(container.unregister(ISWidget.self))
        #expect(deinits.value == 1)
    }

    @Test("A transient factory running while its registration is replaced keeps its captures until it returns")
    func transientFactoryOutlivesReplacementWhileRunning() {
        let container = Container()
        let deinits = Counter()
        let captured = Tracked(Counter(), deinits: deinits)
        let seenDuringRun = Counter()
        weak let weakCaptured = captured
        container.register(ISWidget.self) { [captured] in
            // Replace this very registration while its factory runs.
            container.register(ISWidget.self) { ISWidget(stamp: -1) }
            seenDuringRun.increment()
            return ISWidget(stamp: captured.counter.value)
        }
        _ = consume captured
        #expect(weakCaptured != nil)
        #expect(container.resolve(ISWidget.self)?.stamp == 1)
        #expect(seenDuringRun.value == 1)
        #expect(deinits.value == 1, "released once the replaced factory returned")
        #expect(container.resolve(ISWidget.self)?.stamp == -1)
    }

    // MARK: 4. Type-erased resolution

    @Test("Type-erased resolution of a transient builds each time, values intact")
    func erasedTransient() {
        let container = Container()
        let builds = Counter()
        container.register(ISFiveWords.self) {
            builds.increment()
            return ISFiveWords(builds.value)
        }
        container.register(ISSixWordsAndObject.self) { ISSixWordsAndObject(30) }
        container.register(Int.self) { 42 }
        container.register("named", String.self) { "named value" }
        container.register((any ISStamped).self) { ISOutOfLineStamp(stamp: 4, a: 5, b: 6, c: 7) }

        #expect(container.resolve(ISFiveWords.self as Any.Type) as? ISFiveWords == ISFiveWords(1))
        #expect(container.resolve(ISFiveWords.self as Any.Type) as? ISFiveWords == ISFiveWords(2))
        #expect(builds.value == 2)
        #expect(
            (container.resolve(ISSixWordsAndObject.self as Any.Type) as? ISSixWordsAndObject)?.words == [
                30, 31, 32, 33, 34, 35,
            ])
        #expect(container.resolve(Int.self as Any.Type) as? Int == 42)
        #expect((try? container.resolveErased(String.self, name: "named")) as? String == "named value")
        #expect(container.resolve(String.self as Any.Type) == nil, "only the named registration exists")
        let stamped = container.resolve((any ISStamped).self as Any.Type) as? any ISStamped
        #expect((stamped as? ISOutOfLineStamp).map { [$0.stamp, $0.a, $0.b, $0.c] } == [4, 5, 6, 7])
        #expect(container.resolve(ISEmpty.self as Any.Type) == nil)
    }

    @Test(
        "Type-erased resolution of a singleton builds it once, whether it resolves it first or after a typed resolution"
    )
    func erasedSingleton() {
        let container = Container()
        let builds = Counter()
        container.register("erased-first", ISWidget.self, scope: .singleton) {
            builds.increment()
            return ISWidget(stamp: 1)
        }
        container.register("typed-first", ISWidget.self, scope: .singleton) {
            builds.increment()
            return ISWidget(stamp: 2)
        }

        let erasedFirst = (try? container.resolveErased(ISWidget.self, name: "erased-first")) as? ISWidget
        #expect(erasedFirst?.stamp == 1)
        #expect(container.resolve("erased-first", ISWidget.self) === erasedFirst)
        #expect((try? container.resolveErased(ISWidget.self, name: "erased-first")) as? ISWidget === erasedFirst)

        let typedFirst = container.resolve("typed-first", ISWidget.self)
        #expect(typedFirst?.stamp == 2)
        #expect((try? container.resolveErased(ISWidget.self, name: "typed-first")) as? ISWidget === typedFirst)
        #expect(builds.value == 2)
    }

    @Test("Type-erased resolution of singletons stored in place and boxed, built or not", arguments: ISShape.allCases)
    fileprivate func erasedSingletonOfEveryShape(_ shape: ISShape) {
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        let erasedFirst = shape.erasedResolvedID(in: container)
        #expect(erasedFirst != nil)
        #expect(shape.resolvedID(in: container) == erasedFirst)
        #expect(shape.erasedResolvedID(in: container) == erasedFirst)
        #expect(builds.value == 1)

        shape.register(in: container, scope: .singleton, builds: builds, deinits: deinits)
        #expect(deinits.value == 1)
        let typedFirst = shape.resolvedID(in: container)
        #expect(typedFirst != nil)
        #expect(shape.erasedResolvedID(in: container) == typedFirst)
        #expect(builds.value == 2)
        #expect(deinits.value == 1)
    }

    @Test("Type-erased resolution of a big value-type singleton returns the value built")
    func erasedBigValueSingleton() {
        let container = Container()
        let builds = Counter()
        container.register(ISSixWordsAndObject.self, scope: .singleton) {
            builds.increment()
            return ISSixWordsAndObject(70)
        }
        container.register(ISOverAligned.self, scope: .singleton) { ISOverAligned(vector: [1, 2, 3, 4], stamp: 5) }
        let erased = container.resolve(ISSixWordsAndObject.self as Any.Type) as? ISSixWordsAndObject
        #expect(erased?.words == [70, 71, 72, 73, 74, 75])
        let typed = container.resolve(ISSixWordsAndObject.self)
        #expect(typed?.marker === erased?.marker && typed != nil)
        #expect(builds.value == 1)
        #expect(
            container.resolve(ISOverAligned.self as Any.Type) as? ISOverAligned
                == ISOverAligned(vector: [1, 2, 3, 4], stamp: 5))
        #expect(
            container.resolve(ISOverAligned.self as Any.Type) as? ISOverAligned == container.resolve(ISOverAligned.self)
        )
    }

    @Test("Type-erased resolution of a weak registration shares the held instance")
    func erasedWeak() {
        let container = Container()
        let builds = Counter()
        container.register(ISWidget.self, scope: .weak) {
            builds.increment()
            return ISWidget(stamp: builds.value)
        }
        do {
            let held = container.resolve(ISWidget.self as Any.Type) as? ISWidget
            #expect(held?.stamp == 1)
            #expect(container.resolve(ISWidget.self) === held)
            #expect(container.resolve(ISWidget.self as Any.Type) as? ISWidget === held)
            #expect(builds.value == 1)
        }
        #expect((container.resolve(ISWidget.self as Any.Type) as? ISWidget)?.stamp == 2)
    }

    @Test("Type-erased resolution of a custom-scope registration uses the current scope instance")
    func erasedCustomScope() {
        let scope = Scope.custom("instance-storage-erased")
        let container = Container()
        let builds = Counter()
        container.register(ISWidget.self, scope: scope) {
            builds.increment()
            return ISWidget(stamp: builds.value)
        }
        container.register(ISSixWordsAndObject.self, scope: scope) { ISSixWordsAndObject(builds.value * 10) }
        let instance = container.beginScope(scope)
        container.withScope(instance) {
            let erased = container.resolve(ISWidget.self as Any.Type) as? ISWidget
            #expect(erased?.stamp == 1)
            #expect(container.resolve(ISWidget.self) === erased)
            let big = container.resolve(ISSixWordsAndObject.self as Any.Type) as? ISSixWordsAndObject
            #expect(big?.words == [10, 11, 12, 13, 14, 15])
            #expect(container.resolve(ISSixWordsAndObject.self)?.marker === big?.marker && big != nil)
        }
        #expect(instance.instanceCount == 2)
        container.withScope(scope) {
            #expect(
                (container.resolve(ISWidget.self as Any.Type) as? ISWidget)?.stamp == 2,
                "a new scope instance builds anew")
        }
        instance.end()
        container.withScope(instance) {
            #expect(container.resolve(ISWidget.self as Any.Type) == nil, "an ended scope instance resolves nothing")
        }
    }

    // MARK: 5. Registration order

    @Test("Registrations are listed in registration order; re-registering moves a type last")
    func registrationOrder() {
        let container = Container()
        container.register(ISOrderA.self) { ISOrderA() }
        container.register(ISOrderB.self) { ISOrderB() }
        container.register(ISOrderC.self) { ISOrderC() }
        #expect(labels(container) == ["A", "B", "C"])
        container.register(ISOrderA.self, scope: .singleton) { ISOrderA() }
        #expect(
            container.registrations.map { ObjectIdentifier($0.type) }
                == [ObjectIdentifier(ISOrderB.self), ObjectIdentifier(ISOrderC.self), ObjectIdentifier(ISOrderA.self)])
        #expect(container.registrations.map(\.scope) == [.transient, .transient, .singleton])

        // Registering an instance counts as a registration too; unregistering drops it.
        container.register(ISOrderB.self, instance: ISOrderB())
        #expect(labels(container) == ["C", "A", "B"])
        #expect(container.unregister(ISOrderC.self))
        #expect(labels(container) == ["A", "B"])
        container.register(ISOrderC.self) { ISOrderC() }
        #expect(labels(container) == ["A", "B", "C"])
        container.reset()
        #expect(container.registrations.isEmpty)
        container.register(ISOrderC.self) { ISOrderC() }
        container.register(ISOrderA.self) { ISOrderA() }
        #expect(labels(container) == ["C", "A"])
    }

    @Test("Named registrations are listed in the order they were made; re-registering a name moves it last")
    func namedRegistrationOrder() {
        let container = Container()
        container.register(ISOrderA.self) { ISOrderA() }
        container.register("x", ISOrderA.self) { ISOrderA() }
        container.register(ISOrderB.self) { ISOrderB() }
        container.register("y", ISOrderA.self) { ISOrderA() }
        container.register(ISOrderC.self) { ISOrderC() }
        container.register("z", ISOrderC.self) { ISOrderC() }
        #expect(labels(container) == ["A", "A[x]", "B", "A[y]", "C", "C[z]"])
        #expect(container.registrations.map(\.name) == [nil, "x", nil, "y", nil, "z"])

        container.register("x", ISOrderA.self) { ISOrderA() }
        #expect(labels(container) == ["A", "B", "A[y]", "C", "C[z]", "A[x]"])
        container.register(ISOrderA.self) { ISOrderA() }
        #expect(labels(container) == ["B", "A[y]", "C", "C[z]", "A[x]", "A"])
        container.register("y", ISOrderA.self, instance: ISOrderA())
        #expect(labels(container) == ["B", "C", "C[z]", "A[x]", "A", "A[y]"])
        #expect(container.unregister(ISOrderA.self, name: "x"))
        container.register("x", ISOrderB.self) { ISOrderB() }
        #expect(labels(container) == ["B", "C", "C[z]", "A", "A[y]", "B[x]"])
    }

    @Test("Names keep their order past the name index threshold")
    func manyNamesOrder() {
        let container = Container()
        let count = SlotStorage.indexThreshold * 2
        for index in 0..<count { container.register("n\(index)", ISOrderA.self) { ISOrderA() } }
        container.register(ISOrderB.self) { ISOrderB() }
        container.register("n3", ISOrderA.self) { ISOrderA() }
        let expected = (0..<count).filter { $0 != 3 }.map { "A[n\($0)]" } + ["B", "A[n3]"]
        #expect(labels(container) == expected)
    }

    @Test("A rejected duplicate leaves the order as it was")
    func rejectedDuplicateKeepsOrder() {
        let container = Container()
        container.duplicatePolicy = .reject
        container.register(ISOrderA.self) { ISOrderA() }
        container.register(ISOrderB.self) { ISOrderB() }
        container.register(ISOrderA.self) { ISOrderA() }
        #expect(labels(container) == ["A", "B"])
    }

    // MARK: 6. A throwing singleton factory

    @Test(
        "A singleton whose factory throws stays unbuilt, is built by a later resolution, then cached",
        arguments: ISShape.allCases)
    fileprivate func throwingSingletonFactory(_ shape: ISShape) throws {
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        let attempts = Counter()
        let fails = ISSwitch(true)
        shape.register(
            in: container, scope: .singleton, builds: builds, deinits: deinits, attempts: attempts, fails: fails)

        #expect(shape.resolvedID(in: container) == nil)
        expectFactoryFailure { try shape.resolvedIDOrThrow(in: container) }
        #expect(shape.erasedResolvedID(in: container) == nil)
        #expect(attempts.value == 3, "each resolution of the unbuilt singleton runs the factory")
        #expect(builds.value == 0)

        fails.isOn = false
        let built = shape.resolvedID(in: container)
        #expect(built != nil)
        #expect(attempts.value == 4)
        fails.isOn = true
        #expect(shape.resolvedID(in: container) == built)
        #expect(try shape.resolvedIDOrThrow(in: container) == built)
        #expect(shape.erasedResolvedID(in: container) == built)
        #expect(attempts.value == 4, "the instance is cached: the factory does not run again")
        #expect(builds.value == 1)
        #expect(deinits.value == 0)
        container.reset()
        #expect(deinits.value == 1)
    }

    @Test("After a failed build, another thread builds the singleton (the failed builder is cleared)")
    func throwingSingletonThenOtherThread() {
        let container = Container()
        let attempts = Counter()
        let fails = ISSwitch(true)
        container.register(ISSixWordsAndObject.self, scope: .singleton) {
            attempts.increment()
            if fails.isOn { throw TestFailure(reason: "not yet") }
            return ISSixWordsAndObject(attempts.value)
        }
        #expect(container.resolve(ISSixWordsAndObject.self) == nil)
        fails.isOn = false
        let words = runOnThreads(
            Array(repeating: { @Sendable in container.resolve(ISSixWordsAndObject.self)?.words ?? [] }, count: 4))
        #expect(words == Array(repeating: [2, 3, 4, 5, 6, 7], count: 4))
        #expect(attempts.value == 2)
    }

    @Test("A custom-scope factory that throws leaves the scope instance's cell unbuilt", arguments: ISShape.allCases)
    fileprivate func throwingScopedFactory(_ shape: ISShape) {
        let scope = Scope.custom("instance-storage-throwing")
        let container = Container()
        let builds = Counter()
        let deinits = Counter()
        let attempts = Counter()
        let fails = ISSwitch(true)
        shape.register(in: container, scope: scope, builds: builds, deinits: deinits, attempts: attempts, fails: fails)
        let instance = container.beginScope(scope)
        container.withScope(instance) {
            #expect(shape.resolvedID(in: container) == nil)
            expectFactoryFailure { try shape.resolvedIDOrThrow(in: container) }
            fails.isOn = false
            let built = shape.resolvedID(in: container)
            #expect(built != nil)
            fails.isOn = true
            #expect(shape.resolvedID(in: container) == built)
            #expect(shape.erasedResolvedID(in: container) == built)
        }
        #expect(attempts.value == 3)
        #expect(builds.value == 1)
        #expect(deinits.value == 0)
        instance.end()
        #expect(deinits.value == 1)
    }
}

/// Expects `body` to throw `DIError.factoryFailed` wrapping the fixtures' `TestFailure`.
private func expectFactoryFailure(sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> some Any) {
    do {
        _ = try body()
        Issue.record("expected the factory to fail", sourceLocation: sourceLocation)
    } catch {
        guard case .factoryFailed(_, _, let underlying)? = error as? DIError else {
            Issue.record("expected factoryFailed, got \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(underlying as? TestFailure == TestFailure(reason: "not yet"), sourceLocation: sourceLocation)
    }
}

/// `container.registrations` as "A", "B", "A[name]"….
private func labels(_ container: Container) -> [String] {
    let letters: [ObjectIdentifier: String] = [
        ObjectIdentifier(ISOrderA.self): "A", ObjectIdentifier(ISOrderB.self): "B",
        ObjectIdentifier(ISOrderC.self): "C",
    ]
    return container.registrations.map { info in
        let letter = letters[ObjectIdentifier(info.type)] ?? "\(info.type)"
        return info.name.map { "\(letter)[\($0)]" } ?? letter
    }
}

import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// The registry's storage and the resolution fast path: slot table growth, the per-slot record
// list (unnamed first, named after), shared instances kept in their records, the manually managed
// resolution stack, and all of it under concurrent use. Every test uses its own container.

private protocol Service: AnyObject, Sendable {}
private final class ServiceA: Service {}
private final class ServiceB: Service {}

/// Many distinct types, made from two generic wrappers, to fill a registry.
private protocol Tag: Sendable { init() }
private struct Root: Tag {}
private struct L<Inner: Tag>: Tag {}
private struct R<Inner: Tag>: Tag {}

private func manyTypes(_ count: Int) -> [any Tag.Type] {
    func left<T: Tag>(_: T.Type) -> any Tag.Type { L<T>.self }
    func right<T: Tag>(_: T.Type) -> any Tag.Type { R<T>.self }
    var all: [any Tag.Type] = [Root.self]
    var level: [any Tag.Type] = [Root.self]
    while all.count < count {
        level = level.flatMap { [left($0), right($0)] }
        all += level
    }
    return Array(all.prefix(count))
}

private func register<T: Tag>(_ type: T.Type, in container: Container) {
    container.register(type) { T() }
}

private func resolves<T: Tag>(_ type: T.Type, in container: Container) -> Bool {
    container.resolve(type) != nil
}

@Suite("Registry storage and the resolution fast path", .capturesLog)
struct RegistryStorageTests {
    @Test("A registry key's id is the type's metadata address, so distinct types never share a slot")
    func keyIsMetadataAddress() {
        #expect(RegistryKey(ServiceA.self).id == UInt(bitPattern: ObjectIdentifier(ServiceA.self)))
        #expect(RegistryKey(ServiceA.self).id != RegistryKey(ServiceB.self).id)
        #expect(RegistryKey(anyType: (any Service).self).id == RegistryKey((any Service).self).id)
        // Metadata is pointer-aligned, so odd `Factory` ids can never collide with a type's.
        #expect(RegistryKey(ServiceA.self).id & 1 == 0)
    }

    @Test("Thousands of types stay resolvable as the slot table grows")
    func tableGrowth() {
        let container = Container()
        let types = manyTypes(5_000)
        for type in types { register(type, in: container) }
        #expect(types.allSatisfy { resolves($0, in: container) })
        #expect(container.registrations.count == 5_000)
        #expect(container.resolve(ServiceA.self) == nil)
    }

    @Test("Named and unnamed registrations of one type live side by side, in any order")
    func namedAndUnnamed() {
        let container = Container()
        container.register("b", (any Service).self, scope: .singleton) { ServiceB() }
        container.register("a", (any Service).self, scope: .singleton) { ServiceA() }
        container.register((any Service).self, scope: .singleton) { ServiceA() }

        #expect(container.resolve((any Service).self) is ServiceA)
        #expect(container.resolve("a", (any Service).self) is ServiceA)
        #expect(container.resolve("b", (any Service).self) is ServiceB)
        #expect(container.resolve("c", (any Service).self) == nil)

        // Replacing a named registration keeps the others.
        container.register("a", (any Service).self) { ServiceB() }
        #expect(container.resolve("a", (any Service).self) is ServiceB)
        #expect(container.resolve("b", (any Service).self) is ServiceB)
        #expect(container.resolve((any Service).self) is ServiceA)

        // Removing the unnamed one keeps the named ones, and the reverse.
        #expect(container.unregister((any Service).self))
        #expect(container.resolve((any Service).self) == nil)
        #expect(container.resolve("b", (any Service).self) is ServiceB)
        #expect(container.unregister((any Service).self, name: "b"))
        #expect(container.resolve("b", (any Service).self) == nil)
        #expect(container.resolve("a", (any Service).self) is ServiceB)
        #expect(!container.unregister((any Service).self, name: "b"))

        // Listings stay in registration order.
        container.register((any Service).self) { ServiceA() }
        #expect(container.registrations.map(\.name) == ["a", nil])
    }

    @Test("Each registration counts its own resolutions, named ones included")
    func resolutionCounts() {
        let container = Container()
        container.register(ServiceA.self, scope: .singleton) { ServiceA() }
        container.register("x", ServiceA.self) { ServiceA() }
        for _ in 0..<3 { _ = container.resolve(ServiceA.self) }
        for _ in 0..<2 { _ = container.resolve("x", ServiceA.self) }
        let stats = Dictionary(uniqueKeysWithValues: container.statistics().map { ($0.typeName, $0.resolutions) })
        #expect(stats[TypeNames.qualified(ServiceA.self)] == 3)
        #expect(stats[TypeNames.qualified(ServiceA.self) + "[\"x\"]"] == 2)
    }

    @Test("A singleton is built once, kept in its registration, and released by reset or replacement")
    func singletonLifetime() {
        let container = Container()
        let builds = Counter()
        container.register(ServiceA.self, scope: .singleton) {
            builds.increment()
            return ServiceA()
        }
        weak let first = container.resolve(ServiceA.self)
        #expect(first != nil)
        #expect(container.resolve(ServiceA.self) === first)
        #expect(builds.value == 1)

        container.register(ServiceA.self, scope: .singleton) { ServiceA() }
        #expect(first == nil, "replacing the registration releases the instance it built")

        weak let second = container.resolve(ServiceA.self)
        #expect(second != nil)
        container.reset()
        #expect(second == nil, "reset releases the instance")
        #expect(container.resolve(ServiceA.self) == nil)
    }

    @Test("A registered instance is returned as is")
    func registeredInstance() {
        let container = Container()
        let instance = ServiceA()
        container.register(ServiceA.self, instance: instance)
        #expect(container.resolve(ServiceA.self) === instance)
        #expect(container.resolve(ServiceA.self) === instance)
    }

    @Test("A weak registration shares its instance while it is held and rebuilds it after")
    func weakLifetime() {
        let container = Container()
        let builds = Counter()
        container.register(ServiceA.self, scope: .weak) {
            builds.increment()
            return ServiceA()
        }
        var held = container.resolve(ServiceA.self)
        #expect(container.resolve(ServiceA.self) === held)
        #expect(builds.value == 1)
        held = nil
        #expect(held == nil)
        _ = container.resolve(ServiceA.self)
        #expect(builds.value == 2)
    }

    @Test("Cycles are still reported with their path, through transients and singletons")
    func cycles() {
        final class A: Sendable { init(_: B) {} }
        final class B: Sendable { init(_: A) {} }
        let container = Container()
        container.register(A.self) { A(try container.resolveOrThrow(B.self)) }
        container.register(B.self, scope: .singleton) { B(try container.resolveOrThrow(A.self)) }
        #expect(throws: DIError.self) { try container.resolveOrThrow(A.self) }
        do {
            _ = try container.resolveOrThrow(A.self)
        } catch {
            guard case .circularDependency(let path)? = error as? DIError else {
                Issue.record("expected a cycle, got \(error)")
                return
            }
            #expect(path.count == 3)
            #expect(path.first == path.last)
        }
        // The failed attempt leaves the thread's resolution stack empty.
        #expect(ResolutionStack.current.depth == 0)
    }

    @Test("A deep chain of nested resolutions grows the resolution stack past its first buffer")
    func deepChain() {
        final class Node: Sendable {
            let next: Node?
            init(next: Node?) { self.next = next }
        }
        let container = Container()
        let depth = 40
        for level in 0..<depth {
            container.register("\(level)", Node.self) {
                Node(next: level + 1 < depth ? try container.resolveOrThrow("\(level + 1)", Node.self) : nil)
            }
        }
        var node = container.resolve("0", Node.self)
        var count = 0
        while let current = node {
            count += 1
            node = current.next
        }
        #expect(count == depth)
        #expect(ResolutionStack.current.depth == 0)
    }

    @Test("Concurrent resolutions build each singleton once while registrations grow the table")
    func concurrentResolutionAndRegistration() async {
        let container = Container()
        let builds = Counter()
        container.register(ServiceA.self, scope: .singleton) {
            builds.increment()
            return ServiceA()
        }
        container.register(ServiceB.self) { ServiceB() }
        let types = manyTypes(600)
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for type in types { register(type, in: container) }
                return true
            }
            for _ in 0..<4 {
                group.addTask {
                    var ok = true
                    for _ in 0..<2_000 {
                        ok = ok && container.resolve(ServiceA.self) != nil && container.resolve(ServiceB.self) != nil
                    }
                    return ok
                }
            }
            for await ok in group { #expect(ok) }
        }
        #expect(builds.value == 1)
        #expect(types.allSatisfy { resolves($0, in: container) })
    }

    @Test("Concurrent replacement and resolution of one type never hands out a released instance")
    func concurrentReplacement() async {
        let container = Container()
        container.register((any Service).self, scope: .singleton) { ServiceA() }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for index in 0..<500 {
                    if index.isMultiple(of: 2) {
                        container.register((any Service).self, scope: .singleton) { ServiceB() }
                    } else {
                        container.register((any Service).self) { ServiceA() }
                    }
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<3_000 {
                        let service = container.resolve((any Service).self)
                        #expect(service is ServiceA || service is ServiceB)
                    }
                }
            }
        }
    }

    @Test("A child container shares its root's auto-registration state and falls back to the parent")
    func childContainer() {
        let parent = Container()
        parent.register(ServiceA.self, scope: .singleton) { ServiceA() }
        let child = Container(parent: parent)
        child.register(ServiceB.self) { ServiceB() }
        #expect(child.resolve(ServiceA.self) === parent.resolve(ServiceA.self))
        #expect(child.resolve(ServiceB.self) != nil)
        #expect(parent.resolve(ServiceB.self) == nil)
        #expect(
            child.autoRegistrationWord.load(ordering: .relaxed) == parent.autoRegistrationWord.load(ordering: .relaxed))
    }

    @Test("Thousands of names on one type: each resolves to its own registration, removal keeps the rest")
    func manyNamesOnOneType() {
        let container = Container()
        for index in 0..<5_000 { container.register("n\(index)", Int.self) { index } }
        #expect(container.resolve("n0", Int.self) == 0)
        #expect(container.resolve("n4999", Int.self) == 4_999)
        #expect(container.resolve("n5000", Int.self) == nil)
        #expect(container.unregister(Int.self, name: "n10"))
        #expect(container.resolve("n10", Int.self) == nil)
        #expect(container.resolve("n11", Int.self) == 11)
        #expect(container.resolve("n4999", Int.self) == 4_999)
        container.register("n11", Int.self) { -11 }
        #expect(container.resolve("n11", Int.self) == -11)
        #expect(container.registrations.count == 4_999)
    }
}

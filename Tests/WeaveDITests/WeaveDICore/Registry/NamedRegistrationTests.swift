import Foundation
import Testing
import WeaveDITestSupport

@testable import WeaveDI
@testable import WeaveDICore

// Named registrations on one type, below and past the name index threshold: registration,
// replacement, removal, duplicate policy, resolution counts, names that compare equal without
// being the same bytes, names kept on the resolution stack, and all of it under concurrent use.
// Every test uses its own container.

private final class Named: Sendable {
    let label: String
    init(_ label: String) { self.label = label }
}

private final class Chain: Sendable {
    let next: Chain?
    init(next: Chain?) { self.next = next }
}

/// Name counts on either side of the index threshold (and the threshold itself).
private let nameCounts = [
    1, SlotStorage.indexThreshold, SlotStorage.indexThreshold + 1, SlotStorage.indexThreshold * 4 + 3, 2_000,
]

/// Names long enough to be heap-allocated strings (a small string holds at most 15 UTF-8 bytes).
private func longName(_ index: Int) -> String { "a-name-long-enough-for-the-heap-\(index)" }

@Suite("Named registrations: many names on one type", .capturesLog)
struct NamedRegistrationTests {
    @Test("Every name resolves to its own registration and counts its own resolutions", arguments: nameCounts)
    func manyNamesResolveAndCount(count: Int) {
        let container = Container()
        container.register(Named.self) { Named("unnamed") }
        for index in 0..<count { container.register("n\(index)", Named.self) { Named("n\(index)") } }
        for index in 0..<count {
            for _ in 0..<(index % 3) { _ = container.resolve("n\(index)", Named.self) }
        }
        #expect((0..<count).allSatisfy { container.resolve("n\($0)", Named.self)?.label == "n\($0)" })
        #expect(container.resolve("n\(count)", Named.self) == nil)
        #expect(container.resolve(Named.self)?.label == "unnamed")
        for index in [0, count / 2, count - 1] {
            #expect(container.statistics(for: Named.self, name: "n\(index)")?.resolutions == index % 3 + 1)
        }
        #expect(container.statistics(for: Named.self)?.resolutions == 1)
        #expect(container.registrations.count == count + 1)
    }

    @Test("Replacing one name among many keeps the others and counts from zero again", arguments: nameCounts)
    func replaceAmongMany(count: Int) {
        let container = Container()
        for index in 0..<count { container.register("n\(index)", Named.self) { Named("n\(index)") } }
        let target = count / 2
        for _ in 0..<4 { _ = container.resolve("n\(target)", Named.self) }
        #expect(container.statistics(for: Named.self, name: "n\(target)")?.resolutions == 4)

        container.register("n\(target)", Named.self) { Named("replaced") }
        #expect(container.statistics(for: Named.self, name: "n\(target)")?.resolutions == 0)
        #expect(container.resolve("n\(target)", Named.self)?.label == "replaced")
        #expect(container.statistics(for: Named.self, name: "n\(target)")?.resolutions == 1)
        #expect(
            (0..<count).filter { $0 != target }.allSatisfy {
                container.resolve("n\($0)", Named.self)?.label == "n\($0)"
            })
        #expect(container.registrations.count == count)
        // The replacement moves the name last in the listing, as for a type.
        #expect(container.registrations.last?.name == "n\(target)")
    }

    @Test("Removing names among many (first, middle, last) keeps the rest resolving to their own")
    func removeAmongMany() {
        let container = Container()
        let count = SlotStorage.indexThreshold * 8
        for index in 0..<count { container.register("n\(index)", Named.self) { Named("n\(index)") } }
        for _ in 0..<2 { _ = container.resolve("n\(count - 1)", Named.self) }
        var removed: Set<Int> = []
        for index in [0, count / 2, count - 2, 1, count / 3] {
            #expect(container.unregister(Named.self, name: "n\(index)"))
            #expect(!container.unregister(Named.self, name: "n\(index)"), "already removed")
            removed.insert(index)
            #expect(container.resolve("n\(index)", Named.self) == nil)
            #expect(
                (0..<count).filter { !removed.contains($0) }
                    .allSatisfy { container.resolve("n\($0)", Named.self)?.label == "n\($0)" })
        }
        // Counts move with their registrations when positions shift.
        #expect(container.statistics(for: Named.self, name: "n\(count - 1)")?.resolutions == 2 + 5)
        // A removed name can be registered again, and is then listed last.
        container.register("n\(count / 2)", Named.self) { Named("back") }
        #expect(container.resolve("n\(count / 2)", Named.self)?.label == "back")
        #expect(container.registrations.count == count - removed.count + 1)
        #expect(container.registrations.last?.name == "n\(count / 2)")
    }

    @Test("Removing names down past the threshold and adding them back up again")
    func shrinkAndGrowAcrossTheThreshold() {
        let container = Container()
        let count = SlotStorage.indexThreshold + 5
        for round in 0..<3 {
            for index in 0..<count { container.register("n\(index)", Named.self) { Named("\(round):\(index)") } }
            #expect((0..<count).allSatisfy { container.resolve("n\($0)", Named.self)?.label == "\(round):\($0)" })
            for index in stride(from: count - 1, through: 2, by: -1) {
                #expect(container.unregister(Named.self, name: "n\(index)"))
                #expect(container.resolve("n\(index)", Named.self) == nil)
                #expect(container.resolve("n1", Named.self)?.label == "\(round):1")
            }
            #expect(container.registrations.map(\.name) == ["n0", "n1"])
        }
    }

    @Test("A handle removes its own name among many, and not a later registration of it")
    func handlesAmongMany() {
        let container = Container()
        let count = SlotStorage.indexThreshold * 3
        var handles: [RegistrationHandle] = []
        for index in 0..<count { handles.append(container.register("n\(index)", Named.self) { Named("n\(index)") }) }
        container.register("n5", Named.self) { Named("later") }
        #expect(!handles[5].unregister(), "n5 was replaced: its first handle removes nothing")
        #expect(container.resolve("n5", Named.self)?.label == "later")
        #expect(handles[6].unregister())
        #expect(container.resolve("n6", Named.self) == nil)
        #expect(container.resolve("n7", Named.self)?.label == "n7")
    }

    @Test("The reject policy refuses a name already registered among many, and accepts a new one")
    func rejectPolicyAmongMany() {
        let container = Container()
        container.duplicatePolicy = .reject
        let count = SlotStorage.indexThreshold * 3
        for index in 0..<count { container.register("n\(index)", Named.self) { Named("n\(index)") } }
        let refused = container.register("n7", Named.self) { Named("second") }
        #expect(!refused.unregister())
        #expect(container.resolve("n7", Named.self)?.label == "n7")
        container.register("n\(count)", Named.self) { Named("new") }
        #expect(container.resolve("n\(count)", Named.self)?.label == "new")
        #expect(container.registrations.count == count + 1)
    }

    @Test(
        "Names that compare equal are one name, whatever their bytes, below and past the index threshold",
        arguments: [0, SlotStorage.indexThreshold * 2])
    func canonicallyEquivalentNames(others: Int) {
        let composed = "caf\u{E9}" // é as one scalar
        let decomposed = "cafe\u{301}" // e and a combining acute accent
        #expect(composed == decomposed)
        let container = Container()
        for index in 0..<others { container.register("n\(index)", Named.self) { Named("n\(index)") } }
        container.register(composed, Named.self) { Named("first") }
        #expect(container.resolve(decomposed, Named.self)?.label == "first")
        container.register(decomposed, Named.self) { Named("second") }
        #expect(container.resolve(composed, Named.self)?.label == "second")
        #expect(container.registrations.count == others + 1)
        #expect(container.unregister(Named.self, name: decomposed))
        #expect(container.resolve(composed, Named.self) == nil)
    }

    @Test("Names equal to ASCII names through singleton scalars are the same name past the index threshold")
    func asciiEquivalentNames() {
        let container = Container()
        for index in 0..<(SlotStorage.indexThreshold * 2) {
            container.register("n\(index)", Named.self) { Named("n\(index)") }
        }
        for (ascii, other) in [("K", "\u{212A}"), ("a;b", "a\u{037E}b"), ("`x", "\u{1FEF}x")] {
            #expect(ascii == other)
            container.register(other, Named.self) { Named(other) }
            #expect(container.resolve(ascii, Named.self)?.label == other)
            container.register(ascii, Named.self) { Named(ascii) }
            #expect(container.resolve(other, Named.self)?.label == ascii)
        }
        #expect(container.registrations.count == SlotStorage.indexThreshold * 2 + 3)
    }

    @Test("Name tags agree wherever names are equal: ASCII, the three ASCII singletons, and any other NFC form")
    func tagsFollowEquality() {
        // The tag hashes a name's NFC form as ASCII when it has one: that holds only if no scalar
        // other than the three singletons it knows decomposes canonically into ASCII.
        var asciiDecomposing: [UInt32] = []
        for value in UInt32(0x80)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let nfc = String(Character(scalar))._nfcCodeUnits
            if nfc.allSatisfy({ $0 < 0x80 }) { asciiDecomposing.append(value) }
        }
        #expect(asciiDecomposing == [0x037E, 0x1FEF, 0x212A])

        let pairs = [
            ("name-1000", String("name-1000".utf8.map { Character(Unicode.Scalar($0)) })),
            ("K\u{301}", "\u{212A}\u{301}"), ("K\u{301}", "\u{1E30}"), ("caf\u{E9}", "cafe\u{301}"),
            ("\u{212A}", "K"), ("a\u{037E}", "a;"), ("\u{1FEF}", "`"), ("日本", "日本"),
            (longName(7), longName(7)),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(
                NameIndex.tag(a) == NameIndex.tag(b),
                "\(a.unicodeScalars.map(\.value)) vs \(b.unicodeScalars.map(\.value))")
            #expect(NameIndex.scalarTag(a) == NameIndex.tag(a))
        }
        // Both paths hash every length alike, across the eight-byte word boundaries.
        for length in 0...40 {
            let name = String(repeating: "abcdefghij", count: 5).prefix(length)
            #expect(NameIndex.scalarTag(String(name)) == NameIndex.tag(String(name)), "length \(length)")
        }
        // Similar names spread: 10 000 of them have (nearly) 10 000 different tags.
        #expect(Set((0..<10_000).map { NameIndex.tag("n\($0)") }).count >= 9_990)
        #expect(Set((0..<10_000).map { NameIndex.tag(longName($0)) }).count >= 9_990)
    }

    @Test("Heap-allocated names made at run time register, resolve and are removed among many")
    func longNamesMadeAtRunTime() {
        let container = Container()
        let count = SlotStorage.indexThreshold * 3
        for index in 0..<count { container.register(longName(index), Named.self) { Named(longName(index)) } }
        // Equal names built separately (other storage) find the same registrations.
        #expect((0..<count).allSatisfy { container.resolve(longName($0), Named.self)?.label == longName($0) })
        #expect(container.unregister(Named.self, name: longName(3)))
        #expect(container.resolve(longName(3), Named.self) == nil)
        #expect(container.resolve(longName(4), Named.self)?.label == longName(4))
    }

    @Test("A chain of named transients with heap-allocated names, deeper than the stack's first buffer")
    func namedChainWithLongNames() {
        let container = Container()
        let depth = 40
        for level in 0..<depth {
            container.register(longName(level), Chain.self) {
                Chain(next: level + 1 < depth ? try container.resolveOrThrow(longName(level + 1), Chain.self) : nil)
            }
        }
        for _ in 0..<3 {
            var node = container.resolve(longName(0), Chain.self)
            var count = 0
            while let current = node {
                count += 1
                node = current.next
            }
            #expect(count == depth)
        }
        #expect(ResolutionStack.current.depth == 0)
        #expect(container.statistics(for: Chain.self, name: longName(depth - 1))?.resolutions == 3)
    }

    @Test("A cycle through named registrations is reported with every name on its path")
    func namedCyclePath() {
        let container = Container()
        let names = (0..<3).map(longName)
        for (index, name) in names.enumerated() {
            let next = names[(index + 1) % names.count]
            container.register(name, Chain.self) { Chain(next: try container.resolveOrThrow(next, Chain.self)) }
        }
        do {
            _ = try container.resolveOrThrow(names[0], Chain.self)
            Issue.record("the cycle was not detected")
        } catch let error as DIError {
            guard case .circularDependency(let path) = error else {
                Issue.record("expected a cycle, got \(error)")
                return
            }
            #expect(path.count == 4)
            for (step, name) in zip(path, names + [names[0]]) { #expect(step.contains("[\"\(name)\"]")) }
        } catch {
            Issue.record("unexpected error \(error)")
        }
        #expect(ResolutionStack.current.depth == 0)
    }

    @Test("Threads registering new names on one type while others resolve its names")
    func concurrentNamedRegistrationAndResolution() {
        let container = Container()
        let initial = SlotStorage.indexThreshold * 2
        for index in 0..<initial { container.register("n\(index)", Named.self) { Named("n\(index)") } }
        let added = 1_500
        let results = runOnThreads([
            { @Sendable () -> Bool in
                for index in initial..<(initial + added) {
                    container.register("n\(index)", Named.self) { Named("n\(index)") }
                }
                return true
            },
            { @Sendable () -> Bool in
                var ok = true
                for round in 0..<(added * 2) {
                    let index = round % initial
                    ok = ok && container.resolve("n\(index)", Named.self)?.label == "n\(index)"
                }
                return ok
            },
            { @Sendable () -> Bool in
                var ok = true
                for round in 0..<added {
                    // A name being added resolves to its own registration once it is there.
                    let index = initial + round
                    if let found = container.resolve("n\(index)", Named.self) { ok = ok && found.label == "n\(index)" }
                }
                return ok
            },
        ])
        #expect(results.allSatisfy { $0 })
        #expect(container.registrations.count == initial + added)
        #expect(
            (0..<(initial + added)).allSatisfy { container.resolve("n\($0)", Named.self)?.label == "n\($0)" })
        let zeroHits = (0..<(added * 2)).filter { $0 % initial == 0 }.count
        #expect(container.statistics(for: Named.self, name: "n0")?.resolutions == zeroHits + 1)
    }
}

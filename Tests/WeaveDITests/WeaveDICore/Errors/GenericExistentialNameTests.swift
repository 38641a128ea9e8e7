import Foundation
import Testing
import WeaveDI
import WeaveDITestSupport

protocol NameRepository<Entity>: Sendable {
    associatedtype Entity
}
struct NameUser {}
struct NameOrder {}
final class NameUserRepository: NameRepository {
    typealias Entity = NameUser
}
protocol NameStore<Key, Value>: Sendable {
    associatedtype Key
    associatedtype Value
}
final class NameUserService: Sendable {
    init(_ repository: (any NameRepository<NameUser>)?) {}
}

/// Generic existentials (`any Repository<User>`) are named as source spells them, and the code a
/// message suggests is the code this file compiles (each suggestion is looked up in this file's
/// source, in a line the compiler has checked).
@Suite("Generic existential names", .capturesLog)
struct GenericExistentialNameTests {
    func message(_ body: () throws -> Void) -> String {
        do {
            try body()
            return ""
        } catch { return "\(error)" }
    }

    /// The code between the backticks that starts with `prefix`, without its `{ ... }` body.
    func suggestion(in text: String, startingWith prefix: String) -> String? {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        // Odd-numbered parts are between backticks.
        for (index, part) in parts.enumerated() where index % 2 == 1 && part.hasPrefix(prefix) {
            return part.replacingOccurrences(of: " { ... }", with: "")
        }
        return nil
    }

    /// Whether `code` is the start of a line of this file (so the compiler has checked it).
    func isCompiledHere(_ code: String, filePath: String = #filePath) throws -> Bool {
        let source = try String(contentsOfFile: filePath, encoding: .utf8)
        return source.split(separator: "\n").contains { line in
            let line = line.trimmingCharacters(in: .whitespaces)
            return line == code || line.hasPrefix(code + " ") || line.hasPrefix(code + ")")
        }
    }

    @Test func aMissNamesTheTypeAsSourceDoesAndItsSuggestionCompiles() throws {
        let container = Container()
        let text = message { _ = try container.resolveOrThrow((any NameRepository<NameUser>).self) }
        #expect(
            text.hasPrefix("No registration for any WeaveDITests.NameRepository<WeaveDITests.NameUser>."), "\(text)")
        #expect(!text.contains("Self."), "\(text)")
        #expect(!text.contains("=="), "\(text)")
        let code = try #require(suggestion(in: text, startingWith: "container.register("), "\(text)")
        #expect(code == "container.register((any NameRepository<NameUser>).self)")
        #expect(try isCompiledHere(code), "\(code)")
        // The suggestion, as printed, with a body:
        container.register((any NameRepository<NameUser>).self) { NameUserRepository() }
        #expect(container.resolve((any NameRepository<NameUser>).self) != nil)
    }

    @Test func aNamedMissSuggestsTheNamedRegistrationThatCompiles() throws {
        let container = Container()
        let text = message { _ = try container.resolveOrThrow("cache", (any NameRepository<NameUser>).self) }
        let code = try #require(suggestion(in: text, startingWith: "container.register("), "\(text)")
        #expect(code == #"container.register("cache", (any NameRepository<NameUser>).self)"#)
        #expect(try isCompiledHere(code), "\(code)")
        container.register("cache", (any NameRepository<NameUser>).self) { NameUserRepository() }
        #expect(container.resolve("cache", (any NameRepository<NameUser>).self) != nil)
    }

    @Test func resolvingByNameIsSuggestedInCodeThatCompiles() throws {
        let container = Container()
        container.register("primary", (any NameRepository<NameUser>).self) { NameUserRepository() }
        let text = message { _ = try container.resolveOrThrow((any NameRepository<NameUser>).self) }
        #expect(text.contains("any NameRepository<NameUser> is registered only under names: \"primary\""), "\(text)")
        let code = try #require(suggestion(in: text, startingWith: "resolve("), "\(text)")
        #expect(code == #"resolve("primary", (any NameRepository<NameUser>).self)"#)
        // The suggestion, as printed:
        #expect(container.resolve("primary", (any NameRepository<NameUser>).self) != nil)
        #expect(try isCompiledHere("#expect(container." + code + " != nil"))
    }

    @Test func anAsyncRegistrationResolvedSynchronouslySuggestsCodeThatCompiles() async throws {
        let container = Container()
        container.registerAsync((any NameRepository<NameUser>).self) { NameUserRepository() }
        let text = message { _ = try container.resolveOrThrow((any NameRepository<NameUser>).self) }
        #expect(
            text.hasPrefix("any WeaveDITests.NameRepository<WeaveDITests.NameUser> is registered with an async factory")
        )
        let code = try #require(suggestion(in: text, startingWith: "try await container.resolveAsync("), "\(text)")
        #expect(code == "try await container.resolveAsync((any NameRepository<NameUser>).self)")
        // The suggestion, as printed:
        let resolved = try await container.resolveAsync((any NameRepository<NameUser>).self)
        #expect(resolved is NameUserRepository)
        #expect(try isCompiledHere("let resolved = " + code))
    }

    @Test func nestedGenericArgumentsAndWrappersAreSpelledAsSourceDoes() {
        let container = Container()
        let nested = message { _ = try container.resolveOrThrow((any NameRepository<[NameOrder]>).self) }
        #expect(
            nested.hasPrefix(
                "No registration for any WeaveDITests.NameRepository<Swift.Array<WeaveDITests.NameOrder>>."),
            "\(nested)")
        #expect(
            nested.contains("`container.register((any NameRepository<Array<NameOrder>>).self) { ... }`"), "\(nested)")
        let optional = message { _ = try container.resolveOrThrow((any NameRepository<NameUser>)?.self) }
        #expect(
            optional.contains("`container.register(Optional<any NameRepository<NameUser>>.self) { ... }`"),
            "\(optional)")
        let inner = message {
            _ = try container.resolveOrThrow((any NameRepository<any NameRepository<NameUser>>).self)
        }
        #expect(
            inner.contains("`container.register((any NameRepository<any NameRepository<NameUser>>).self) { ... }`"),
            "\(inner)")
        let closure = message { _ = try container.resolveOrThrow(((any NameRepository<NameUser>) -> Void).self) }
        #expect(
            closure.contains("`container.register(((any NameRepository<NameUser>) -> ()).self) { ... }`"), "\(closure)")
        // The spellings above, compiled:
        // swift-format-ignore: UseShorthandTypeNames
        container.register((any NameRepository<Array<NameOrder>>).self) { NameOrderRepository() }
        container.register(Optional<any NameRepository<NameUser>>.self) { nil }
        container.register(((any NameRepository<NameUser>) -> ()).self) { { _ in } }
        #expect(container.resolve((any NameRepository<[NameOrder]>).self) != nil)
    }

    @Test("several primary associated types: named each, and no code that could name another type")
    func severalPrimaryAssociatedTypes() {
        let container = Container()
        let text = message { _ = try container.resolveOrThrow((any NameStore<String, Int>).self) }
        // The runtime orders them by name, not as the protocol lists them.
        #expect(
            text.hasPrefix("No registration for any WeaveDITests.NameStore<Key == Swift.String, Value == Swift.Int>."),
            "\(text)")
        #expect(!text.contains("Self."), "\(text)")
        #expect(!text.contains("`container.register(("), "\(text)")
        #expect(text.contains("in the order its protocol lists its primary associated types"), "\(text)")
    }

    @Test func validationReportsAndGraphLabelsUseTheSourceSpelling() throws {
        let container = Container()
        container.register(NameUserService.self) {
            NameUserService(container.resolve((any NameRepository<NameUser>).self))
        }
        let report = container.validate()
        let missing = try #require(report.missingDependencies.first)
        #expect(missing.missing == "any WeaveDITests.NameRepository<WeaveDITests.NameUser>")
        #expect(!report.description.contains("Self."), "\(report)")
        container.register((any NameRepository<NameUser>).self) { NameUserRepository() }
        _ = container.resolve(NameUserService.self)
        let graph = container.dependencyGraph()
        let node = try #require(graph.nodes.first { $0.typeName.contains("NameRepository") })
        #expect(node.typeName == "any WeaveDITests.NameRepository<WeaveDITests.NameUser>")
        #expect(node.label == "any NameRepository<NameUser>")
        #expect(!graph.dot().contains("Self."))
        #expect(!graph.mermaid().contains("Self."))
    }

    @Test func aWrapperTrapSuggestsAnOptionalDeclarationThatCompiles() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NameRequiredOwner().repository
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            stderr.contains("could not provide any WeaveDITests.NameRepository<WeaveDITests.NameUser> to"), "\(stderr)")
        #expect(stderr.contains("declare the property `@Inject var …: (any NameRepository<NameUser>)?`"), "\(stderr)")
        // The suggested declaration, compiled:
        #expect(NameOptionalOwner().repository == nil)
    }
}

final class NameRequiredOwner {
    @RequiredInject var repository: any NameRepository<NameUser>
}

final class NameOptionalOwner {
    @Inject var repository: (any NameRepository<NameUser>)?
}

final class NameOrderRepository: NameRepository {
    typealias Entity = [NameOrder]
}

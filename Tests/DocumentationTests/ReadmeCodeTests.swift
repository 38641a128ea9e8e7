import Foundation
import Testing

/// The README's Swift code is compiled: every block is a package-manifest fragment or appears, as
/// it is shown (imports aside), in a file of `Snippets/`, which `swift build` compiles.
@Suite struct ReadmeCodeTests {
    static let root = ArticleCodeTests.root

    static func swiftBlocks() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```swift\n").dropFirst().map { block in
            let code = block.components(separatedBy: "```").first ?? ""
            // A block inside a list item is indented; the snippet is not.
            let lines = code.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let indent =
                lines.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
                .map { $0.prefix { $0 == " " }.count }.min() ?? 0
            return lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }
                .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func isManifest(_ code: String) -> Bool {
        code.split(separator: "\n").allSatisfy {
            let line = $0.trimmingCharacters(in: .whitespaces)
            return line.hasPrefix("//") || line.hasPrefix(".package(") || line.hasPrefix(".product(")
        }
    }

    @Test func everySwiftBlockIsCompiledSnippetCode() throws {
        let snippets = try FileManager.default.contentsOfDirectory(
            atPath: Self.root.appendingPathComponent("Snippets").path
        )
        .filter { $0.hasSuffix(".swift") }
        .map { try String(contentsOf: Self.root.appendingPathComponent("Snippets/\($0)"), encoding: .utf8) }
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 6)
        for block in blocks where !Self.isManifest(block) {
            let code = block.split(separator: "\n", omittingEmptySubsequences: false)
                .drop { $0.hasPrefix("import ") || $0.isEmpty }.joined(separator: "\n")
            #expect(
                snippets.contains { $0.contains(code) }, "README shows Swift code that no snippet compiles:\n\(code)")
        }
    }

    @Test(
        "the quick start is on the first screen: package line, register, resolve, a key, @Injected, a test with a trait"
    )
    func quickStartComesFirst() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        let start = try #require(lines.firstIndex { $0 == "## Quick start" })
        #expect(start < 20, "the quick start starts at line \(start + 1)")
        let quickStart = lines[start...].prefix { !$0.hasPrefix("## The two commands") }.joined(separator: "\n")
        for part in [
            ".package(name: \"WeaveDI\"", "WeaveDITesting", "container.register(", "resolveOrThrow(",
            "InjectedKey", "extension InjectedValues", "@Injected(\\.apiClient)", "@Test(.container",
        ] {
            #expect(quickStart.contains(part), "the quick start lacks \(part)")
        }
        #expect(!readme.prefix(upTo: readme.range(of: "## Quick start")!.lowerBound).contains("lock"))
    }
}

import Foundation
import Testing

/// The articles show Swift code only through `@Snippet` (files in `Snippets/`, compiled by
/// `swift build`), so an API rename breaks the build instead of the documentation.
@Suite struct ArticleCodeTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let catalog = root.appendingPathComponent("Sources/WeaveDI/WeaveDI.docc")

    static func articles() throws -> [(name: String, text: String)] {
        try FileManager.default.contentsOfDirectory(atPath: catalog.path)
            .filter { $0.hasSuffix(".md") }
            .sorted()
            .map { ($0, try String(contentsOf: catalog.appendingPathComponent($0), encoding: .utf8)) }
    }

    @Test func swiftCodeBlocksAreOnlyPackageManifestFragments() throws {
        let articles = try Self.articles()
        #expect(articles.count >= 10)
        for (name, text) in articles {
            for block in text.components(separatedBy: "```swift\n").dropFirst() {
                let code = block.components(separatedBy: "\n```").first ?? ""
                // Manifest lines cannot be a snippet; anything else must be one.
                let isManifest = code.split(separator: "\n").allSatisfy {
                    let line = $0.trimmingCharacters(in: .whitespaces)
                    return line.isEmpty || line.hasPrefix("//") || line.hasPrefix(".package(")
                        || line.hasPrefix(".product(")
                        || line.hasPrefix(".testTarget(") || line.hasPrefix("\"") || line.hasPrefix("]")
                }
                // The migration article also shows other libraries' code, labelled on its first line.
                let isPeerCode = name == Self.migrationArticle && Self.peerLabel(of: code) != nil
                #expect(isManifest || isPeerCode, "\(name) has Swift code outside a snippet:\n\(code)")
            }
        }
    }

    static let migrationArticle = "MigratingToWeaveDI.md"
    /// The libraries (and versions) the migration article shows code of, which is not compiled.
    static let peerLabels = [
        "Swinject 2.10", "Swinject 2.10 with SwinjectAutoregistration", "Factory 3.2", "swift-dependencies 1.17",
        "WeaveDI 3.x",
    ]

    /// The label on the first line of a peer library's code block (`// Factory 3.2`), if any.
    static func peerLabel(of code: String) -> String? {
        guard let first = code.split(separator: "\n", omittingEmptySubsequences: false).first,
            first.hasPrefix("// ")
        else { return nil }
        let label = String(first.dropFirst(3))
        return peerLabels.contains(label) ? label : nil
    }

    /// Every other library's block is followed by the WeaveDI code that replaces it: a compiled
    /// snippet (Migration, SwiftDependencies).
    @Test func migrationArticlePairsEachPeerBlockWithASnippet() throws {
        let text = try String(
            contentsOf: Self.catalog.appendingPathComponent(Self.migrationArticle), encoding: .utf8)
        let blocks = text.components(separatedBy: "```swift\n").dropFirst()
        var labels: [String: Int] = [:]
        for (index, block) in blocks.enumerated() {
            let parts = block.components(separatedBy: "\n```")
            let code = parts.first ?? ""
            let label = try #require(Self.peerLabel(of: code), "unlabelled block in the migration article:\n\(code)")
            labels[label, default: 0] += 1
            // What follows, up to the next block (or the end).
            let after = parts.dropFirst().joined(separator: "\n```")
            // The WeaveDI 3.x table's first row is answered by the bridge section, not by a snippet.
            if code.contains(": DependencyKey") && label == "WeaveDI 3.x" { continue }
            #expect(
                after.contains("@Snippet(path: \"WeaveDI/Snippets/"),
                "block \(index + 1) (\(label)) has no WeaveDI snippet after it")
        }
        #expect(Set(labels.keys) == Set(Self.peerLabels))
        #expect(labels.values.reduce(0, +) >= 20)

        // Every slice of the migration snippets is shown.
        for file in ["Migration"] {
            let source = try String(
                contentsOf: Self.root.appendingPathComponent("Snippets/\(file).swift"), encoding: .utf8)
            let slices = source.components(separatedBy: "// snippet.").dropFirst()
                .map { String($0.prefix { $0.isLetter }) }
                .filter { !["hide", "show", "end"].contains($0) }
            #expect(slices.count >= 4)
            for slice in slices {
                #expect(
                    text.contains("@Snippet(path: \"WeaveDI/Snippets/\(file)\", slice: \"\(slice)\")"),
                    "the migration article does not show \(file) slice '\(slice)'")
            }
        }
    }

    @Test func everySnippetSliceAnArticleShowsExists() throws {
        let snippets = Self.root.appendingPathComponent("Snippets")
        let pattern = try NSRegularExpression(
            pattern: #"@Snippet\(path: "WeaveDI/Snippets/([A-Za-z]+)"(?:, slice: "([A-Za-z]+)")?\)"#)
        var references = 0
        for (name, text) in try Self.articles() {
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                guard let fileRange = Range(match.range(at: 1), in: text) else { continue }
                references += 1
                let file = String(text[fileRange])
                let source = try? String(contentsOf: snippets.appendingPathComponent("\(file).swift"), encoding: .utf8)
                #expect(source != nil, "\(name) shows Snippets/\(file).swift, which does not exist")
                if let sliceRange = Range(match.range(at: 2), in: text), let source {
                    let slice = String(text[sliceRange])
                    #expect(
                        source.contains("// snippet.\(slice)\n"),
                        "\(name) shows slice '\(slice)' of \(file), which does not exist")
                }
            }
        }
        #expect(references > 30)
    }
}

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
                #expect(isManifest, "\(name) has Swift code outside a snippet:\n\(code)")
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

import Foundation
import Testing

/// The documentation's landing page lists the library's public types, grouped by the module
/// that declares them: this checks that the list is exactly the top-level public types in the
/// sources, each under its own module, and that the count it states is right.
@Suite struct PublicSurfaceTests {
    /// The modules of the `WeaveDI` product, as the landing page names them.
    static let modules = ["WeaveDICore", "WeaveDIModules", "WeaveDIDiagnostics", "WeaveDI"]

    /// Top-level `public` types (struct, class, enum, protocol, actor, typealias) declared in
    /// `module`'s sources. A declaration counts when no brace is open around it; `#if` blocks
    /// open none, and comment lines are skipped. SPI (`@_spi`) is not public surface, nor are
    /// unavailable declarations (the WeaveDI 3.x shapes that fail to compile with a message) and
    /// the `Dependencies` trait's types (in `#if Dependencies`; its article lists them).
    static func publicTypes(in module: String) throws -> Set<String> {
        let root = ArticleCodeTests.root.appendingPathComponent("Sources/\(module)")
        let declaration = try NSRegularExpression(
            pattern:
                #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?:final\s+)?(?:struct|class|enum|protocol|actor|typealias)\s+(\w+)"#
        )
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.allObjects ?? []
        for case let url as URL in files where url.pathExtension == "swift" {
            var depth = 0
            var previous = ""
            var unavailable = false
            var inTrait = false
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
                let text = String(line)
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("//") { continue }
                if trimmed == "#if Dependencies" { inTrait = true }
                if inTrait, trimmed == "#endif" { inTrait = false }
                if depth == 0, text.contains("unavailable") { unavailable = true }
                defer { previous = text }
                // `@_spi` declarations (test hooks) are not part of the public surface.
                let isSPI = text.contains("@_spi(") || previous.trimmingCharacters(in: .whitespaces).hasPrefix("@_spi(")
                let range = NSRange(text.startIndex..., in: text)
                if depth == 0, let match = declaration.firstMatch(in: text, range: range),
                    let name = Range(match.range(at: 1), in: text)
                {
                    if !isSPI, !unavailable, !inTrait { names.insert(String(text[name])) }
                    unavailable = false
                }
                depth += text.filter { $0 == "{" }.count - text.filter { $0 == "}" }.count
            }
        }
        return names
    }

    /// The landing page's "The public types" section: the symbol links on each group's bullet,
    /// by the module named in its parentheses (single names only: not members, not functions).
    static func listedTypes() throws -> (byModule: [String: Set<String>], statedCount: Int?) {
        let page = try String(
            contentsOf: ArticleCodeTests.catalog.appendingPathComponent("WeaveDI.md"), encoding: .utf8)
        let section =
            page.components(separatedBy: "## The public types").dropFirst().first?
            .components(separatedBy: "\n## ").first ?? ""
        let link = try NSRegularExpression(pattern: #"``(\w+)``"#)
        var byModule: [String: Set<String>] = [:]
        for bullet in section.components(separatedBy: "\n- ").dropFirst() {
            guard let module = modules.first(where: { bullet.contains("(\($0))") }) else { continue }
            let range = NSRange(bullet.startIndex..., in: bullet)
            for match in link.matches(in: bullet, range: range) {
                if let name = Range(match.range(at: 1), in: bullet) {
                    byModule[module, default: []].insert(String(bullet[name]))
                }
            }
        }
        let count = try NSRegularExpression(pattern: #"brings in all (\d+) of them"#)
        let stated = count.firstMatch(in: section, range: NSRange(section.startIndex..., in: section))
            .flatMap { Range($0.range(at: 1), in: section) }
            .flatMap { Int(section[$0]) }
        return (byModule, stated)
    }

    @Test func theLandingPageListsEveryPublicTypeUnderItsModule() throws {
        let listed = try Self.listedTypes()
        var total = 0
        for module in Self.modules {
            let declared = try Self.publicTypes(in: module)
            total += declared.count
            let shown = listed.byModule[module] ?? []
            #expect(
                declared.subtracting(shown).isEmpty,
                "public in \(module) but not listed: \(declared.subtracting(shown).sorted())")
            #expect(
                shown.subtracting(declared).isEmpty,
                "listed under \(module) but not a public type there: \(shown.subtracting(declared).sorted())")
        }
        #expect(total > 30)
        #expect(listed.statedCount == total, "the page says \(listed.statedCount ?? -1), the sources have \(total)")
    }
}

import Foundation
import Testing

/// Every way the library can stop the program is in `Reliability.md`'s list of traps (with its
/// message checked by `ReliabilityMessagesTests`) and in README's Reliability bullet: a new
/// `fatalError` or `precondition` in `Sources/` fails this test until it is documented here.
@Suite struct TrapInventoryTests {
    /// The library's stops, by file: what each is, and where the article documents it.
    static let documentedStops: [String: [String]] = [
        // requireResolve (Container; UnifiedDI's calls it).
        "WeaveDICore/Container/Container+Resolution.swift": ["fatalError"],
        // A non-optional @Factory or @Injected property, and a Factory key's callAsFunction().
        "WeaveDI/PropertyWrappers/Factory.swift": ["fatalError"],
        // A ParameterFactory key's callAsFunction(_:) (documented with the Factory key's).
        "WeaveDI/PropertyWrappers/ParameterFactory.swift": ["fatalError"],
        // @RequiredInject.
        "WeaveDI/PropertyWrappers/RequiredInject.swift": ["fatalError"],
        // A read of a bridged swift-dependencies key (trait `Dependencies`) with nothing to give.
        "WeaveDI/DependenciesBridge/BridgedDependencyKey.swift": ["fatalError"],
        // The body of the unavailable WeaveDI 3.x shapes: no code that reaches it compiles.
        "WeaveDICore/Support/Unavailable.swift": ["fatalError"],
        // The system refusing a thread-local key (no use of the API causes it).
        "WeaveDICore/Resolution/ResolutionStack.swift": ["precondition"],
        // An internal invariant: tables are made with power-of-two capacities only.
        "WeaveDICore/Registry/SlotTable.swift": ["precondition"],
        // An internal invariant: the manager's layer factories keep the types its initializer
        // gave them (they are read-only outside the manager).
        "WeaveDIModules/Factories/ModuleFactoryManager.swift": ["preconditionFailure"],
    ]

    /// The article sections that show each trap's message.
    static let trapSections = [
        "requireResolve of a missing type",
        "RequiredInject of a missing type",
        "Factory property of a missing type",
        "Injected property of a missing type",
        "Factory key with no value to return",
    ]

    @Test func everyStopInTheSourcesIsDocumented() throws {
        #expect(try Self.stopsInSources() == Self.documentedStops)
    }

    @Test func theArticleShowsEveryTrapsMessage() {
        for title in Self.trapSections {
            #expect(Article.message(title) != nil, "Reliability.md has no message under '### \(title)'")
        }
        #expect(Article.text.contains("pthread_key_create"))
    }

    @Test func theReadmeNamesEveryTrap() throws {
        let bullet = try #require(Self.readmeTrapBullet())
        for api in [
            "`requireResolve`", "`Container`", "`UnifiedDI`", "`@RequiredInject`", "`@Factory`",
            "`@Injected`", "`Factory` key", "`resolveOrThrow()`", "`nil`", "`DIError`",
            "`UnifiedDI.onResolutionError`",
        ] {
            #expect(bullet.contains(api), "README's Reliability bullet does not mention \(api)")
        }
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// The targets that make up the `WeaveDI` product.
    static let libraryTargets = ["WeaveDI", "WeaveDICore", "WeaveDIDiagnostics", "WeaveDIModules"]

    /// `fatalError(`, `precondition(` and `preconditionFailure(` calls in the library's targets, by
    /// file (relative to `Sources/`), comments left out. `assert` is left out too: it is gone from
    /// release builds.
    static func stopsInSources() throws -> [String: [String]] {
        let root = repository.appendingPathComponent("Sources")
        var stops: [String: [String]] = [:]
        let pattern = try NSRegularExpression(pattern: #"\b(fatalError|preconditionFailure|precondition)\("#)
        let files = libraryTargets.compactMap {
            FileManager.default.enumerator(at: root.appendingPathComponent($0), includingPropertiesForKeys: nil)
        }.flatMap { $0.allObjects }
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let relative = String(url.path.dropFirst(root.path.count + 1))
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                let range = NSRange(code.startIndex..., in: code)
                for match in pattern.matches(in: code, range: range) {
                    let name = (code as NSString).substring(with: match.range(at: 1))
                    stops[relative, default: []].append(name)
                }
            }
        }
        return stops
    }

    /// README's bullet about traps: from "**Misuse gets a message**" to the next bullet or heading.
    static func readmeTrapBullet() -> String? {
        let url = repository.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8),
            let start = text.range(of: "- **Misuse gets a message**")
        else { return nil }
        let rest = text[start.lowerBound...]
        let end = rest.dropFirst(2).range(of: #"\n(- |#)"#, options: .regularExpression)?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}

/// The `Reliability/Reliability.swift:line` sites the article's messages show are lines of the
/// snippet slice shown with them (the tests compare messages with sites set aside).
@Suite struct ArticleSiteTests {
    @Test func everySiteIsALineOfItsSlice() throws {
        let snippet = try String(
            contentsOf: TrapInventoryTests.repository.appendingPathComponent("Snippets/Reliability.swift"),
            encoding: .utf8)
        let lines = snippet.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let sections = Article.text.components(separatedBy: "\n### ").dropFirst()
        var checked = 0
        for section in sections {
            let title = String(section.prefix { $0 != "\n" })
            guard let message = Article.message(title) else { continue }
            let sites = message.matches(of: /Reliability\/Reliability\.swift:(\d+)/).map { Int($0.1)! }
            guard !sites.isEmpty else { continue }
            let slice = try #require(section.firstMatch(of: /slice: "(\w+)"/)?.1, "'\(title)' shows no snippet")
            let start = try #require(lines.firstIndex(of: "// snippet.\(slice)"), "no slice \(slice)") + 1
            let end = try #require(lines[start...].firstIndex(of: "// snippet.end"))
            for site in sites {
                // `site` counts from 1.
                #expect(
                    (start + 1...end).contains(site),
                    "'\(title)' shows line \(site), outside slice '\(slice)' (lines \(start + 1)-\(end))")
                checked += 1
            }
        }
        #expect(checked >= 7)
    }
}

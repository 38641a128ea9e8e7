import Foundation
import Testing

/// What the compiler says to code that uses WeaveDI wrongly, and that the code it suggests
/// compiles: each case is type-checked by `swiftc` in a child process against the modules this
/// test was built with.
@Suite struct CompileMessagesTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder holding this test bundle: the build's products, `Modules/` among them.
    static var products: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Type-checks `source` (Swift 6 mode) importing WeaveDI; returns the compiler's exit status
    /// and output.
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("weavedi-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        // The C modules WeaveDI's Swift modules were built against: its own shims and swift-atomics'.
        let scratch = products.deletingLastPathComponent().deletingLastPathComponent()
        let moduleMaps = [
            products.appendingPathComponent("CWeaveDIShims.build/module.modulemap"),
            scratch.appendingPathComponent("checkouts/swift-atomics/Sources/_AtomicsShims/include/module.modulemap"),
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", products.appendingPathComponent("Modules").path]
            + moduleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] } + [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let declarations = """
        import WeaveDI
        protocol Repo: Sendable {}
        struct RepoKey: InjectedKey { static let liveValue: (any Repo)? = nil }
        extension InjectedValues {
            var repo: (any Repo)? {
                get { self[RepoKey.self] }
                set { self[RepoKey.self] = newValue }
            }
        }

        """

    #if os(Linux)
        @Test("a non-optional @Inject property is a compile error that names the three ways out")
        func nonOptionalInject() throws {
            let (status, output) = try Self.typecheck(
                Self.declarations + """
                    final class Service {
                        @Inject var repo: any Repo
                    }
                    """)
            #expect(status != 0)
            #expect(
                output.contains(
                    "error: 'init(_:)' is unavailable: an @Inject property must be optional (it reads nil until the dependency is registered): write `@Inject var name: Type?`, or use @RequiredInject for a dependency that must be there (it stops with a message naming the type when it is missing) or @Injected for an InjectedValues or Factory key"
                ), "\(output)")
        }

        @Test("each way out the message names compiles, named or not")
        func theWaysOutCompile() throws {
            let (status, output) = try Self.typecheck(
                Self.declarations + """
                    final class Service {
                        @Inject var repo: (any Repo)?
                        @Inject("primary") var primary: (any Repo)?
                        @RequiredInject var required: any Repo
                        @Injected(\\.repo) var injected
                    }
                    """)
            #expect(status == 0, "\(output)")
        }
    #endif
}

import Foundation
import Testing

/// `App --graph-dot PATH` with a path it cannot write: the app stops before it does any work, with
/// one line on stderr and a non-zero exit status. These tests run the built `App` executable,
/// which `swift test` builds with the tests.
struct GraphDotOptionTests {
    /// What a run of the app left behind.
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The directory holding the built products (the test bundle's, where `App` is built too).
    static var productsDirectory: URL {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
        #endif
        return Bundle.main.bundleURL
    }

    /// Runs `App` with `arguments`, its output going to files (a pipe could fill up and block it).
    static func runApp(_ arguments: [String], in directory: URL) throws -> Run {
        let executable = productsDirectory.appendingPathComponent("App")
        try #require(
            FileManager.default.isExecutableFile(atPath: executable.path),
            "no App executable at \(executable.path): build it with `swift build --package-path Examples`")
        let outURL = directory.appendingPathComponent("stdout.txt")
        let errURL = directory.appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        try process.run()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    static func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "weavedi-graph-dot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Paths no user can write, root included: one in a folder that does not exist, and a folder.
    @Test(arguments: [("missing/graph.dot", "No such file or directory"), ("folder", "Is a directory")])
    func anUnwritablePathStopsTheAppBeforeItDoesAnything(path: String, reason: String) throws {
        let directory = try Self.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("folder"), withIntermediateDirectories: false)
        let database = directory.appendingPathComponent("data/shop.sqlite")

        let run = try Self.runApp(["--database", database.path, "--graph-dot", path], in: directory)

        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot write the graph to \(path): \(reason)\n")
        // Nothing was done: no output, no database, nothing created at the path.
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database.deletingLastPathComponent().path))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing").path))
    }
}

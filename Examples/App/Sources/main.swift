import Foundation

// `swift run --package-path Examples App [--env …] [--database PATH] [--graph mermaid|dot] [--graph-dot PATH]`
let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n\n\(Arguments.usage)\n".utf8))
    exit(2)
}
if arguments.showHelp {
    print(Arguments.usage)
    exit(0)
}
do {
    try await ShopApp.run(arguments)
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

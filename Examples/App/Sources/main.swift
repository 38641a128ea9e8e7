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
// The `--graph-dot` file is opened before anything else: a path that cannot be opened for writing
// stops the app here, with one line, instead of after the whole run.
let graphFile: GraphFile?
do {
    graphFile = try arguments.dotPath.map(GraphFile.init(path:))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
do {
    try await ShopApp.run(arguments, graphFile: graphFile)
} catch {
    graphFile?.discard()
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

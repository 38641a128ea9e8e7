import DI
import Database

/// The command line, parsed by hand (four options need no parser library).
struct Arguments {
    enum GraphFormat: String { case mermaid, dot }

    var environment: AppEnvironment = .development
    var databasePath: String = AppDatabase.defaultPath
    /// How the dependency graph is printed.
    var graphFormat: GraphFormat = .mermaid
    /// Also write the graph as Graphviz DOT to this file.
    var dotPath: String?
    var showHelp = false

    static let usage = """
        USAGE: App [--env development|testing|production] [--database PATH] [--graph mermaid|dot] [--graph-dot PATH]

          --env          which module factories to use (default: development)
          --database     the SQLite file (default: .weavedi-example/shop.sqlite; --env testing uses a temporary one)
          --graph        print the dependency graph as Mermaid (default) or Graphviz DOT
          --graph-dot    also write the graph as Graphviz DOT to PATH (render with `dot -Tsvg PATH`);
                         a PATH that cannot be opened for writing stops the app before it starts
        """

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String]) throws {
        var remaining = arguments[...]
        func value(for option: String) throws -> String {
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
                throw Invalid(description: "\(option) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--env":
                let name = try value(for: argument)
                guard let environment = AppEnvironment(rawValue: name) else {
                    throw Invalid(description: "unknown environment '\(name)' (development, testing or production)")
                }
                self.environment = environment
            case "--database":
                databasePath = try value(for: argument)
            case "--graph":
                let name = try value(for: argument)
                guard let format = GraphFormat(rawValue: name) else {
                    throw Invalid(description: "unknown graph format '\(name)' (mermaid or dot)")
                }
                graphFormat = format
            case "--graph-dot":
                dotPath = try value(for: argument)
            case "--help", "-h":
                showHelp = true
            default:
                throw Invalid(description: "unknown argument '\(argument)'")
            }
        }
    }
}

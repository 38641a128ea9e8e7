import PackagePlugin

/// Generates the ConcreteFillers target's code at build time (see Sources/FillerGenerator).
@main
struct GenerateFillers: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let generator = try context.tool(named: "FillerGenerator")
        let directory = context.pluginWorkDirectoryURL
        let files = [
            "GeneratedFillerTypes.swift", "GeneratedWeaveDIRegistrations.swift", "GeneratedSwinjectRegistrations.swift",
        ]
        return [
            .buildCommand(
                displayName: "Generating 10 000 concrete filler types and their registrations",
                executable: generator.url,
                arguments: [directory.path],
                outputFiles: files.map { directory.appendingPathComponent($0) }
            )
        ]
    }
}

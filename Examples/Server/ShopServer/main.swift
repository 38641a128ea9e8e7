import DI
import Database
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import ShopHTTP
import WeaveDI
import WeaveDIServiceLifecycle

// `swift run --package-path Examples/Server ShopServer [--port 8080] [--database PATH] [--wiring weavedi|manual]`
let arguments: ServerArguments
do {
    arguments = try ServerArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n\n\(ServerArguments.usage)\n".utf8))
    exit(2)
}

@Sendable func log(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

var logger = Logger(label: "ShopServer")
logger.logLevel = .warning
let address = BindAddress.hostname("127.0.0.1", port: arguments.port)
@Sendable func announce(port: Int?) {
    log("ShopServer (\(arguments.wiring.rawValue) wiring) listening on http://127.0.0.1:\(port ?? arguments.port)")
}

do {
    switch arguments.wiring {
    case .weavedi:
        UnifiedDI.setLogLevel(.errors)
        // The database is opened (and migrated) here, with `await`, and registered as an instance:
        // the service-lifecycle integration and the routes resolve it synchronously.
        let database = try await AppDatabase.open(at: arguments.databasePath)
        _ = try await AppDI.bootstrap(
            AppConfiguration(environment: .production, databasePath: arguments.databasePath),
            database: database)
        ShopWiring.register(in: Container.shared, log: log)
        let app = Application(
            router: ShopRoutes.router(container: .shared, bindsSharedContainer: false),
            configuration: .init(address: address, serverName: "ShopServer"),
            onServerRunning: { announce(port: $0.localAddress?.port) }, logger: logger)
        // Services in the order of the dependency graph; SIGTERM / SIGINT shut them down in reverse.
        let group = try ContainerServiceGroup(
            container: .shared, additionalServices: [app],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        log("services (start order): \(group.services.map(\.description).joined(separator: "; "))")
        try await group.run()
    case .manual:
        let database = try AppDatabase.open(at: arguments.databasePath)
        let databaseService = ShopDatabaseService(database: database, log: log)
        let stats = ShopStatsService(databaseService: databaseService, log: log)
        let app = Application(
            router: ManualShopRoutes.router(database: database),
            configuration: .init(address: address, serverName: "ShopServer"),
            onServerRunning: { announce(port: $0.localAddress?.port) }, logger: logger)
        // The same services, ordered by hand: the database first, the server last.
        let services: [any Service] = [databaseService, stats, app]
        let configurations = services.map {
            ServiceGroupConfiguration.ServiceConfiguration(
                service: $0, successTerminationBehavior: .gracefullyShutdownGroup)
        }
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: configurations, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
    log("ShopServer stopped")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}

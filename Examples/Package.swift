// swift-tools-version: 6.1
import PackageDescription

// A multi-module shop wired by WeaveDI, laid out as the "Multi-Module Projects" guide shows:
// features see protocols (SharedModels, Networking), never each other's implementations; the DI
// module and the App wire everything together.
let package = Package(
    name: "WeaveDIExample",
    // macOS 15 / iOS 18: the server's unit of work guards its undo log with the standard library's
    // `Mutex` (Hummingbird itself needs macOS 14).
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "App", targets: ["App"]),
        // The shop over HTTP (Hummingbird 2), with a request scope per request.
        .executable(name: "ShopServer", targets: ["ShopServer"]),
    ],
    dependencies: [
        // Named explicitly: a path dependency is otherwise known by its folder name.
        // The `Hummingbird` trait turns on WeaveDIHummingbird (and WeaveDIServiceLifecycle).
        .package(name: "WeaveDI", path: "..", traits: ["Hummingbird"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // NIOCore, for the error a request body over the size limit throws.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // SQLite (the system libsqlite3 on Linux: `apt-get install libsqlite3-dev`).
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // App
        .executableTarget(
            name: "App",
            dependencies: [
                "UserFeature", "OrderFeature", "PaymentFeature", "DI", "SharedModels",
                .product(name: "WeaveDI", package: "WeaveDI"),
            ],
            path: "App/Sources"
        ),

        // The HTTP server: routes, request-scoped unit of work, services (a library, so tests
        // serve it on loopback), and its executable.
        .target(
            name: "ShopHTTP",
            dependencies: [
                "DI", "Database", "SharedModels", "UserFeature", "OrderFeature", "PaymentFeature",
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "WeaveDIHummingbird", package: "WeaveDI"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Server/ShopHTTP"
        ),
        .executableTarget(
            name: "ShopServer",
            dependencies: [
                "ShopHTTP", "DI", "Database",
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "WeaveDIServiceLifecycle", package: "WeaveDI"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Server/ShopServer"
        ),

        // Feature modules
        .target(
            name: "UserFeature",
            dependencies: ["Networking", "SharedModels", .product(name: "WeaveDI", package: "WeaveDI")],
            path: "Features/UserFeature/Sources"
        ),
        .target(
            name: "OrderFeature",
            dependencies: ["Networking", "SharedModels", .product(name: "WeaveDI", package: "WeaveDI")],
            path: "Features/OrderFeature/Sources"
        ),
        .target(
            name: "PaymentFeature",
            dependencies: ["Networking", "SharedModels", .product(name: "WeaveDI", package: "WeaveDI")],
            path: "Features/PaymentFeature/Sources"
        ),

        // Core modules
        .target(
            name: "Networking",
            dependencies: [.product(name: "WeaveDI", package: "WeaveDI")],
            path: "Core/Networking/Sources"
        ),
        .target(
            name: "Database",
            dependencies: ["SharedModels", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Core/Database/Sources"
        ),
        .target(
            name: "SharedModels",
            dependencies: [],
            path: "Core/SharedModels/Sources"
        ),

        // DI module: knows every module and wires them per environment.
        .target(
            name: "DI",
            dependencies: [
                "UserFeature", "OrderFeature", "PaymentFeature", "Networking", "Database",
                "SharedModels", .product(name: "WeaveDI", package: "WeaveDI"),
            ],
            path: "DI/Sources"
        ),

        // Tests
        .testTarget(
            name: "ExampleTests",
            dependencies: [
                "UserFeature", "OrderFeature", "PaymentFeature", "DI", "Database", "Networking",
                "SharedModels", .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "WeaveDITesting", package: "WeaveDI"),
            ],
            path: "Tests/ExampleTests"
        ),
        .testTarget(
            name: "ShopServerTests",
            dependencies: [
                "ShopHTTP", "DI", "Database", "SharedModels",
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "WeaveDIHummingbird", package: "WeaveDI"),
                .product(name: "WeaveDIServiceLifecycle", package: "WeaveDI"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ShopServerTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

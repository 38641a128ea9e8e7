// swift-tools-version: 6.1
import PackageDescription

// A multi-module shop wired by WeaveDI, laid out as the "Multi-Module Projects" guide shows:
// features see protocols (SharedModels, Networking), never each other's implementations; the DI
// module and the App wire everything together.
let package = Package(
    name: "WeaveDIExample",
    // macOS 15 / iOS 18, as the server package (Examples/Server) that reuses these modules needs.
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "App", targets: ["App"]),
        // The shop's modules, for the HTTP server's package (`Examples/Server`), which keeps
        // Hummingbird and SwiftNIO out of this package: `swift run --package-path Examples App`
        // fetches and builds WeaveDI and GRDB only.
        .library(name: "DI", targets: ["DI"]),
        .library(name: "Database", targets: ["Database"]),
        .library(name: "SharedModels", targets: ["SharedModels"]),
        .library(name: "UserFeature", targets: ["UserFeature"]),
        .library(name: "OrderFeature", targets: ["OrderFeature"]),
        .library(name: "PaymentFeature", targets: ["PaymentFeature"]),
    ],
    dependencies: [
        // Named explicitly: a path dependency is otherwise known by its folder name.
        .package(name: "WeaveDI", path: ".."),
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
    ],
    swiftLanguageModes: [.v6]
)

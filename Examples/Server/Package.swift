// swift-tools-version: 6.1
import PackageDescription

// The example shop over HTTP (Hummingbird 2), with a request scope per request: a package of its
// own, so that `swift run --package-path Examples App` fetches and builds only what the app uses
// (WeaveDI and GRDB), never Hummingbird, SwiftNIO or swift-service-lifecycle. It reuses the shop's
// modules from the Examples package.
//
//   swift run --package-path Examples/Server ShopServer     # http://127.0.0.1:8080
//   swift test --package-path Examples/Server               # the shop over real HTTP on loopback
let package = Package(
    name: "WeaveDIExampleServer",
    // macOS 15 / iOS 18: the unit of work guards its undo log with the standard library's `Mutex`
    // (Hummingbird itself needs macOS 14).
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "ShopServer", targets: ["ShopServer"])
    ],
    dependencies: [
        // Named explicitly: a path dependency is otherwise known by its folder name. The
        // `Hummingbird` trait turns on WeaveDIHummingbird (and WeaveDIServiceLifecycle).
        .package(name: "WeaveDI", path: "../..", traits: ["Hummingbird"]),
        // The shop's modules: DI, Database, SharedModels and the features.
        .package(name: "WeaveDIExample", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // NIOCore, for the error a request body over the size limit throws.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // Routes, the request-scoped unit of work and the services (a library, so tests serve it
        // on loopback), and the executable.
        .target(
            name: "ShopHTTP",
            dependencies: [
                .product(name: "DI", package: "WeaveDIExample"),
                .product(name: "Database", package: "WeaveDIExample"),
                .product(name: "SharedModels", package: "WeaveDIExample"),
                .product(name: "UserFeature", package: "WeaveDIExample"),
                .product(name: "OrderFeature", package: "WeaveDIExample"),
                .product(name: "PaymentFeature", package: "WeaveDIExample"),
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "WeaveDIHummingbird", package: "WeaveDI"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "ShopHTTP"
        ),
        .executableTarget(
            name: "ShopServer",
            dependencies: [
                "ShopHTTP",
                .product(name: "DI", package: "WeaveDIExample"),
                .product(name: "Database", package: "WeaveDIExample"),
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "WeaveDIServiceLifecycle", package: "WeaveDI"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "ShopServer"
        ),
        .testTarget(
            name: "ShopServerTests",
            dependencies: [
                "ShopHTTP",
                .product(name: "DI", package: "WeaveDIExample"),
                .product(name: "Database", package: "WeaveDIExample"),
                .product(name: "SharedModels", package: "WeaveDIExample"),
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

// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "WeaveDI",
    platforms: [
        .macOS(.v13), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1),
    ],
    products: [
        .library(name: "WeaveDI", targets: ["WeaveDI"]),
        .executable(name: "weavedi-demo", targets: ["WeaveDIDemo"]),
    ],
    dependencies: [
        // Portable atomics (the toolchain's Synchronization module needs iOS 18 / macOS 15).
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "WeaveDI",
            dependencies: [
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "WeaveDIDemo", dependencies: ["WeaveDI"]),
        .testTarget(name: "WeaveDITests", dependencies: ["WeaveDI"]),
        // The messages the Reliability article documents are the ones WeaveDI prints.
        .testTarget(name: "DocumentationTests", dependencies: ["WeaveDI"]),
    ],
    swiftLanguageModes: [.v6]
)

// Documentation: `WEAVEDI_DOCS=1 swift package generate-documentation --target WeaveDI`. The DocC
// plugin is added only when asked for, so building WeaveDI (or depending on it) never fetches it.
// The articles' code lives in `Snippets/`, which `swift build` compiles with the package.
if Context.environment["WEAVEDI_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

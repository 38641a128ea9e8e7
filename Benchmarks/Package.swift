// swift-tools-version: 6.1
// The benchmarks live in a package of their own so the library's build stays light: only this
// package pulls in Swinject and swift-dependencies.
import PackageDescription

let package = Package(
    name: "WeaveDIBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "weavedi-bench", targets: ["WeaveDIBench"])
    ],
    dependencies: [
        // The `Dependencies` trait: the bridged-key rows (`BridgeCases.swift`).
        .package(name: "WeaveDI", path: "..", traits: ["Dependencies"]),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        // Only the `Dependencies` product is used, so neither swift-syntax nor the macro plugin is
        // built. (`traits: []` asks for none of its traits, but WeaveDI's `Dependencies` trait
        // depends on it with its default traits, and SwiftPM enables the union.)
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1", traits: []),
    ],
    targets: [
        // Counts malloc calls (Linux) so every case can report allocations per operation.
        .target(name: "AllocationCounter"),
        // 10 000 concrete types and the registration code an app would write for them, generated at
        // build time, for the registration and bootstrap cases. Compiled without optimization, which
        // keeps its build to about a minute (optimizing 40 000 one-line closures takes several); the
        // calls it makes are the same for every contestant, and the libraries stay optimized.
        .executableTarget(name: "FillerGenerator"),
        .plugin(name: "GenerateFillers", capability: .buildTool(), dependencies: ["FillerGenerator"]),
        .target(
            name: "ConcreteFillers",
            dependencies: [
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "Swinject", package: "Swinject"),
            ],
            swiftSettings: [.unsafeFlags(["-Onone"])],
            plugins: ["GenerateFillers"]
        ),
        .executableTarget(
            name: "WeaveDIBench",
            dependencies: [
                "AllocationCounter",
                "ConcreteFillers",
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

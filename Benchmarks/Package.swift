// swift-tools-version: 6.1
// The benchmarks live in a package of their own so the library's build stays light: only this
// package pulls in Swinject and swift-dependencies.
import PackageDescription

let package = Package(
    name: "WeaveDIBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "weavedi-bench", targets: ["WeaveDIBench"]),
    ],
    dependencies: [
        .package(name: "WeaveDI", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
        // `traits: []` turns off the Clocks / CombineSchedulers / Foundation traits, and only the
        // `Dependencies` product is used, so neither swift-syntax nor the macro plugin is built.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1", traits: []),
    ],
    targets: [
        // Counts malloc calls (Linux) so every case can report allocations per operation.
        .target(name: "AllocationCounter"),
        .executableTarget(
            name: "WeaveDIBench",
            dependencies: [
                "AllocationCounter",
                .product(name: "WeaveDI", package: "WeaveDI"),
                .product(name: "Swinject", package: "Swinject"),
                .product(name: "Dependencies", package: "swift-dependencies"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

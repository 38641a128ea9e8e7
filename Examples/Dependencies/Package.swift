// swift-tools-version: 6.1
import PackageDescription

// An `@Observable` model on swift-dependencies (`@Dependency`, as TCA apps write it) whose values
// are WeaveDI modules, through the bridge of WeaveDI's `Dependencies` trait. A package of its own,
// so that only it turns the trait on: the root package and the other examples never fetch
// swift-dependencies.
//
//   swift run --package-path Examples/Dependencies QuotesApp
//   swift test --package-path Examples/Dependencies
let package = Package(
    name: "WeaveDIExampleDependencies",
    // macOS 14 / iOS 17: the Observation framework's `@Observable`.
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .executable(name: "QuotesApp", targets: ["QuotesApp"])
    ],
    dependencies: [
        // Named explicitly: a path dependency is otherwise known by its folder name. The
        // `Dependencies` trait makes `import WeaveDI` export pointfreeco's Dependencies and turns
        // on the bridge (`BridgedDependencyKey`).
        .package(name: "WeaveDI", path: "../..", traits: ["Dependencies"])
    ],
    targets: [
        // The modules, the bridged keys and the model.
        .target(
            name: "QuotesFeature",
            dependencies: [.product(name: "WeaveDI", package: "WeaveDI")]
        ),
        .executableTarget(
            name: "QuotesApp",
            dependencies: ["QuotesFeature", .product(name: "WeaveDI", package: "WeaveDI")]
        ),
        .testTarget(
            name: "QuotesFeatureTests",
            dependencies: ["QuotesFeature", .product(name: "WeaveDI", package: "WeaveDI")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.1
// WeaveDI: dependency injection for Swift apps and servers. MIT license (LICENSE). Its version is
// `DIVersion.current` (Sources/WeaveDICore/Support/Version.swift); CHANGELOG.md says what
// each version changed, and CONTRIBUTING.md how to build, test and contribute.
import PackageDescription

let package = Package(
    name: "WeaveDI",
    platforms: [
        .macOS(.v13), .iOS(.v15), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1),
    ],
    products: [
        .library(name: "WeaveDI", targets: ["WeaveDI"]),
        // Test support (Swift Testing traits, an XCTest base class); kept out of WeaveDI so apps
        // never link the testing frameworks.
        .library(name: "WeaveDITesting", targets: ["WeaveDITesting"]),
        .executable(name: "weavedi-demo", targets: ["WeaveDIDemo"]),
        // Server-side integrations. Each compiles to an empty module unless its package trait is
        // enabled, and a disabled trait's dependency is neither fetched nor built: `swift build`
        // and every app that depends on WeaveDI without the traits never see Hummingbird, NIO or
        // swift-service-lifecycle.
        .library(name: "WeaveDIServiceLifecycle", targets: ["WeaveDIServiceLifecycle"]),
        .library(name: "WeaveDIHummingbird", targets: ["WeaveDIHummingbird"]),
    ],
    traits: [
        .trait(
            name: "ServiceLifecycle",
            description:
                "WeaveDIServiceLifecycle: singletons that are Services run in a ServiceGroup in dependency order."
        ),
        .trait(
            name: "Hummingbird",
            description: "WeaveDIHummingbird: a request scope per Hummingbird 2 request (implies ServiceLifecycle).",
            enabledTraits: ["ServiceLifecycle"]
        ),
        .trait(
            name: "Dependencies",
            description:
                "`import WeaveDI` also exports pointfreeco's Dependencies (swift-dependencies; its macros' swift-syntax is fetched, not built), and bridges its keys to the container."
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        // Portable atomics (the toolchain's Synchronization module needs iOS 18 / macOS 15).
        .package(url: "https://github.com/apple/swift-atomics", from: "1.3.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Used only when the `Hummingbird` / `ServiceLifecycle` traits are enabled.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Used only when the `Dependencies` trait is enabled. It fetches swift-syntax for its macros,
        // which WeaveDI does not use, so swift-syntax is not built.
        .package(url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1"),
    ],
    targets: [
        // The library is layered; each layer sees the ones below it only through their `public`
        // and `package` declarations, so a layer cannot reach into another's internals:
        //
        //   WeaveDI             the one module users import: re-exports the layers below, and holds
        //                       the three injection styles (UnifiedDI facade, property wrappers,
        //                       InjectedValues)
        //   WeaveDIModules      modules, module factories, feature modules, async module groups
        //   WeaveDIDiagnostics  validation, the dependency graph, health checks, memory pressure,
        //                       statistics
        //   WeaveDICore         container, registry, lifetimes, resolution (the build/wait
        //                       protocol), errors, and the observation points the layers read
        .target(
            name: "WeaveDICore",
            dependencies: [
                "CWeaveDIShims",
                .product(name: "Atomics", package: "swift-atomics"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "WeaveDIModules", dependencies: ["WeaveDICore"]),
        .target(name: "WeaveDIDiagnostics", dependencies: ["WeaveDICore"]),
        .target(
            name: "WeaveDI",
            dependencies: [
                "WeaveDICore", "WeaveDIModules", "WeaveDIDiagnostics",
                .product(name: "Atomics", package: "swift-atomics"),
                // The bridge (Sources/WeaveDI/DependenciesBridge) and the re-export.
                .product(
                    name: "Dependencies", package: "swift-dependencies", condition: .when(traits: ["Dependencies"])),
            ]
        ),
        // What Swift cannot express itself on the resolution path: a C thread-local variable
        // (the current thread's resolution stack) and the slot lock's atomics.
        .target(name: "CWeaveDIShims"),
        .executableTarget(name: "WeaveDIDemo", dependencies: ["WeaveDI"]),
        .testTarget(
            name: "WeaveDITests",
            dependencies: [
                "WeaveDI", "WeaveDICore", "WeaveDIDiagnostics", "WeaveDIModules", "WeaveDITestSupport",
                // Diagnostics tests capture WeaveDI's log messages with a swift-log handler.
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "WeaveDITesting", dependencies: ["WeaveDI"]),
        .testTarget(name: "WeaveDITestingTests", dependencies: ["WeaveDI", "WeaveDICore", "WeaveDITesting"]),
        // `extension Container: AutoRegistering` is process-wide; its tests keep that conformance
        // in a target of its own and only act on containers they create.
        .testTarget(name: "AutoRegisteringTests", dependencies: ["WeaveDI", "WeaveDITesting", "WeaveDITestSupport"]),
        // The tests' shared thread-safe bookkeeping (a counter, a recorder, a locked value).
        // It also captures WeaveDI's log per test (`.capturesLog`), so it sees the core.
        .target(name: "WeaveDITestSupport", dependencies: ["WeaveDICore"], path: "Tests/TestSupport"),
        // The seeds' Swift 5 style (static var keys of non-Sendable protocols) must keep compiling.
        .testTarget(
            name: "SeedCompatSwift5Tests",
            dependencies: ["WeaveDI", "WeaveDITestSupport"],
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
        // The messages the Reliability article documents are the ones WeaveDI prints.
        .testTarget(name: "DocumentationTests", dependencies: ["WeaveDI", "WeaveDITestSupport"]),

        // Server-side integrations (package traits `ServiceLifecycle` and `Hummingbird`).
        .target(
            name: "WeaveDIServiceLifecycle",
            dependencies: [
                "WeaveDI", "WeaveDICore", "WeaveDIDiagnostics",
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(
                    name: "UnixSignals", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["ServiceLifecycle"])),
            ]
        ),
        .target(
            name: "WeaveDIHummingbird",
            dependencies: [
                "WeaveDI",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "Atomics", package: "swift-atomics", condition: .when(traits: ["Hummingbird"])),
            ]
        ),
        // Real HTTP on loopback: `swift test --traits Hummingbird --filter WeaveDIServerTests`.
        .testTarget(
            name: "WeaveDIServerTests",
            dependencies: [
                "WeaveDI", "WeaveDIHummingbird", "WeaveDIServiceLifecycle", "WeaveDITestSupport",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
                .product(
                    name: "ServiceLifecycle", package: "swift-service-lifecycle",
                    condition: .when(traits: ["ServiceLifecycle"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Atomics", package: "swift-atomics"),
            ]
        ),
        // The swift-dependencies bridge: `swift test --traits Dependencies --filter WeaveDIDependenciesTests`.
        .testTarget(
            name: "WeaveDIDependenciesTests",
            dependencies: [
                "WeaveDI", "WeaveDITestSupport",
                .product(
                    name: "Dependencies", package: "swift-dependencies", condition: .when(traits: ["Dependencies"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Documentation: `bash Scripts/build-docs.sh` (which says why it does not use
// `swift package generate-documentation`). It sets WEAVEDI_DOCS, which adds the DocC plugin's
// package (for its snippet extractor); building WeaveDI, or depending on it, never fetches it.
// The articles' code lives in `Snippets/`, which `swift build` compiles with the package.
if Context.environment["WEAVEDI_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}

// swift-tools-version: 6.1
// A project with a module named `DI` (as in the Multi-Module Projects guide) that also uses
// WeaveDI's `DI` facade: `bash Scripts/check-module-named-di.sh` builds and runs it (CI does).
import PackageDescription

let package = Package(
    name: "ModuleNamedDI",
    platforms: [.macOS(.v13), .iOS(.v15)],
    dependencies: [.package(name: "WeaveDI", path: "../../..")],
    targets: [
        // The composition root, named like the guide's: it imports WeaveDI and registers through
        // both facade spellings.
        .target(name: "DI", dependencies: [.product(name: "WeaveDI", package: "WeaveDI")]),
        // The app imports both the module `DI` and WeaveDI.
        .executableTarget(name: "App", dependencies: ["DI", .product(name: "WeaveDI", package: "WeaveDI")]),
    ],
    swiftLanguageModes: [.v6]
)

#!/usr/bin/env bash
# The WeaveDI 3.x app shapes that contradict the guides must fail to compile with a message
# naming the replacement, never with a compiler crash: builds each in a small package that
# depends on this one (in .build-app-shapes/) and checks the diagnostic.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$root/.build-app-shapes"
mkdir -p "$work/Sources/Shape"
cat > "$work/Package.swift" <<PKG
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "AppShape",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "WeaveDI", path: "$root")],
    targets: [.target(name: "Shape", dependencies: [.product(name: "WeaveDI", package: "WeaveDI")])],
    swiftLanguageModes: [.v6]
)
PKG

prelude='import WeaveDI
protocol Repo: Sendable { func load() -> Int }
struct RepoImpl: Repo { func load() -> Int { 1 } }
protocol Other: Sendable {}
struct OtherImpl: Other {}'

failures=0
# check NAME EXPECTED-MESSAGE SOURCE
check() {
    printf '%s\n%s\n' "$prelude" "$3" > "$work/Sources/Shape/Shape.swift"
    if swift build --package-path "$work" > "$work/$1.log" 2>&1; then
        echo "FAIL $1: compiled"; failures=$((failures + 1)); return
    fi
    if grep -qiE "failed to produce diagnostic|Stack dump|compiler crashed|PLEASE submit a bug report" "$work/$1.log"; then
        echo "FAIL $1: the compiler crashed"; failures=$((failures + 1)); return
    fi
    if ! grep -qF "$2" "$work/$1.log"; then
        echo "FAIL $1: no message \"$2\""; grep -E "error:" "$work/$1.log" | head -5; failures=$((failures + 1)); return
    fi
    echo "ok   $1: $(grep -m1 -F "$2" "$work/$1.log" | sed 's/^.*error: //')"
}

check resolve-or-register "UnifiedDI.register returns a RegistrationHandle, not an instance" '
func repo() -> any Repo { UnifiedDI.resolve((any Repo).self) ?? UnifiedDI.register((any Repo).self) { RepoImpl() } }'

check register-as-instance "UnifiedDI.register returns a RegistrationHandle, not the instance: resolve it with UnifiedDI.resolve(T.self)" '
func count() -> Int {
    let r = UnifiedDI.register((any Repo).self) { RepoImpl() }
    return r.load()
}'

check register-as-instance-statement "UnifiedDI.register returns a RegistrationHandle, not the instance" '
func use() {
    let r = UnifiedDI.register((any Repo).self) { RepoImpl() }
    _ = r.load()
}'

check register-as-instance-argument "UnifiedDI.register returns a RegistrationHandle, not the instance" '
func use() {
    let r = UnifiedDI.register((any Repo).self) { RepoImpl() }
    r.load()
}'

check builder "WeaveDI has no builder: use UnifiedDI.registerMany" '
func setUp() { WeaveDI.builder.register { RepoImpl() as any Repo }.register((any Other).self) { OtherImpl() }.configure() }'

check app-container "AppWeaveDI is not part of WeaveDI: extend WeaveDI.Container and register in WeaveDI.Container.bootstrap" '
extension AppWeaveDI.Container {
    func registerDefaultDependencies() async {
        await registerDependencies { c in c.register((any Repo).self) { RepoImpl() } }
    }
}'

check register-dependencies "registerDependencies is WeaveDI.Container.bootstrap { container in … }" '
extension WeaveDI.Container {
    func registerDefaultDependencies() async {
        await registerDependencies { c in c.register((any Repo).self) { RepoImpl() } }
    }
}'

# The shapes that agree with the guides compile (the same package, so a failure above is the shape's).
printf '%s\n%s\n' "$prelude" '
func fine() -> any Repo {
    let handle = UnifiedDI.register((any Repo).self) { RepoImpl() }
    _ = handle.site
    return UnifiedDI.resolve((any Repo).self) ?? RepoImpl()
}' > "$work/Sources/Shape/Shape.swift"
if ! swift build --package-path "$work" > "$work/fine.log" 2>&1; then
    echo "FAIL the agreeing shapes do not compile"; grep error: "$work/fine.log" | head; failures=$((failures + 1))
else
    echo "ok   the agreeing shapes compile"
fi
exit "$failures"

#!/usr/bin/env bash
# Builds the DocC archive of `WeaveDI`, warnings as errors: `bash Scripts/build-docs.sh [OUTPUT]`
# (default .build-docs/WeaveDI.doccarchive; preview it with `docc preview` or any static server).
#
# Why not `swift package generate-documentation`: `WeaveDI` re-exports its layers (WeaveDICore,
# WeaveDIModules, WeaveDIDiagnostics) so that users write one import, and the symbol graphs SwiftPM
# extracts leave re-exported declarations out. `swift-symbolgraph-extract` takes them in when asked
# (`-experimental-allowed-reexported-modules`), so the archive documents the module users import,
# whichever layer declares a type. The articles' snippets come from swift-docc-plugin's
# `snippet-extract`, which the package adds only when WEAVEDI_DOCS is set.
#
# What it builds: `WeaveDI` with the `Dependencies` package trait on, so the archive documents the
# swift-dependencies bridge (`BridgedDependencyKey`, `DependencyBridge`, the `bridged:` subscripts)
# as symbols, like the rest of the API. The trait makes this build fetch and compile
# swift-dependencies and the packages it depends on (not swift-syntax, which its macros alone
# need). From an empty scratch folder on the 2-core Linux machine, shared with other builds, the
# whole script took 40.6 s without the trait (load 2.8-4.6) and 60.8 s with it (load 4.6-6.4;
# 103.6 s at load 7.6); a rebuild recompiles none of it. Only swift-dependencies' own symbols stay
# out (the archive is WeaveDI's): its `DependencyValues` appears under Extended Modules with the
# `bridged:` subscript WeaveDI adds (`-emit-extension-block-symbols`).
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-docs
output=${1:-$scratch/WeaveDI.doccarchive}
layers=WeaveDICore,WeaveDIModules,WeaveDIDiagnostics
traits=(--traits Dependencies)

# The trait's build pins swift-dependencies in Package.resolved, and a later build without the
# trait would then check it out (not build it): put back the file this script found.
saved_resolved=$(mktemp)
if [ -f Package.resolved ]; then cp Package.resolved "$saved_resolved"; else rm -f "$saved_resolved"; fi
restore_resolved() {
    if [ -f "$saved_resolved" ]; then cp "$saved_resolved" Package.resolved; else rm -f Package.resolved; fi
    rm -f "$saved_resolved"
}
trap restore_resolved EXIT

export WEAVEDI_DOCS=1
swift build "${traits[@]}" --scratch-path "$scratch" --target WeaveDI
swift build "${traits[@]}" --scratch-path "$scratch" --product snippet-extract
bin=$(swift build "${traits[@]}" --scratch-path "$scratch" --show-bin-path)
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

graphs=$scratch/symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"

# The C modules WeaveDI's Swift modules import (its shims, swift-atomics'), found by their maps.
clang_flags=()
while IFS= read -r map; do
    clang_flags+=(-Xcc "-fmodule-map-file=$PWD/$map" -Xcc -I -Xcc "$PWD/$(dirname "$map")")
done < <(find Sources/CWeaveDIShims "$scratch" -name module.modulemap \
    \( -path '*CWeaveDIShims*' -o -path '*_AtomicsShims*' \) -not -path '*/index/*' | sort -u)

swift-symbolgraph-extract -module-name WeaveDI -target "$triple" -I "$bin/Modules" -I "$bin" \
    "${clang_flags[@]}" -minimum-access-level public -skip-inherited-docs \
    -experimental-allowed-reexported-modules="$layers" -emit-extension-block-symbols -output-dir "$graphs"

snippets=()
for file in Snippets/*.swift; do snippets+=("$PWD/$file"); done
"$bin/snippet-extract" --output "$graphs/WeaveDI-snippets.symbols.json" --module-name WeaveDI "${snippets[@]}"

rm -rf "$output"
docc convert Sources/WeaveDI/WeaveDI.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name WeaveDI --fallback-bundle-identifier WeaveDI \
    --output-path "$output" --warnings-as-errors
echo "Documentation: $output"

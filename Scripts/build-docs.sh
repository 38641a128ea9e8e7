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
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-docs
output=${1:-$scratch/WeaveDI.doccarchive}
layers=WeaveDICore,WeaveDIModules,WeaveDIDiagnostics

export WEAVEDI_DOCS=1
swift build --scratch-path "$scratch" --target WeaveDI
swift build --scratch-path "$scratch" --product snippet-extract
bin=$(swift build --scratch-path "$scratch" --show-bin-path)
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
    -experimental-allowed-reexported-modules="$layers" -output-dir "$graphs"

snippets=()
for file in Snippets/*.swift; do snippets+=("$PWD/$file"); done
"$bin/snippet-extract" --output "$graphs/WeaveDI-snippets.symbols.json" --module-name WeaveDI "${snippets[@]}"

rm -rf "$output"
docc convert Sources/WeaveDI/WeaveDI.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name WeaveDI --fallback-bundle-identifier WeaveDI \
    --output-path "$output" --warnings-as-errors
echo "Documentation: $output"

#!/usr/bin/env bash
# Times the README's two commands as a newcomer runs them: on a fresh clone of the current commit
# (no .build folders; packages come from SwiftPM's cache or the network), one after the other.
# Prints the wall time of each, the packages the example app fetched, and the WeaveDI log lines
# the test run printed (there should be none).
#
#   bash Scripts/time-readme-commands.sh
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git clone -q "$here" "$work/WeaveDI"
cd "$work/WeaveDI"
echo "clone of $(git rev-parse --short HEAD) in $work/WeaveDI; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

start=$(date +%s)
swift run --package-path Examples App > "$work/app.log" 2>&1 || { tail -20 "$work/app.log"; exit 1; }
app=$(( $(date +%s) - start ))
fetched=$(ls Examples/.build/checkouts | tr '\n' ' ')

start=$(date +%s)
swift test > "$work/test.log" 2>&1 || { tail -20 "$work/test.log"; exit 1; }
tests=$(( $(date +%s) - start ))
logged=$(grep -cE "(error|warning) WeaveDI:" "$work/test.log" || true)

echo "swift run --package-path Examples App: ${app} s (fetched: ${fetched})"
echo "swift test: ${tests} s ($(grep -E '^✔ Test run' "$work/test.log" | sed 's/^✔ //'); WeaveDI log lines: ${logged})"

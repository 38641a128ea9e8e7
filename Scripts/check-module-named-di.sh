#!/usr/bin/env bash
# Builds and runs Tests/Fixtures/ModuleNamedDI: a package with a module named `DI` (the
# Multi-Module Projects guide's composition root) that imports WeaveDI and uses its `DI` facade,
# unqualified, as `WeaveDI.DI` and as `UnifiedDI`, and names its own declarations `DI::Name`.
# Its app also resolves a 1 000-deep chain of named registrations on the process's main thread
# (Swift Testing runs no test there). Fails when the package stops compiling or a check fails.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures/ModuleNamedDI"
mkdir -p .build
if ! swift build > .build/check.log 2>&1; then
    cat .build/check.log
    exit 1
fi
tail -1 .build/check.log
swift run --skip-build App

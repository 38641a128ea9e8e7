#!/usr/bin/env bash
# Builds and runs Tests/Fixtures/ModuleNamedDI: a package with a module named `DI` (the
# Multi-Module Projects guide's composition root) that imports WeaveDI and uses its `DI` facade,
# unqualified, as `WeaveDI.DI` and as `UnifiedDI`, and names its own declarations `DI::Name`.
# Fails when that package stops compiling or when the spellings stop reaching one container.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures/ModuleNamedDI"
swift build 2>&1 | tail -1
swift run --skip-build App

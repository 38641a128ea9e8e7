#!/usr/bin/env bash
# Checks what a team looks for before adopting WeaveDI: LICENSE and CHANGELOG.md exist, the
# changelog has an Unreleased section, the library's version constant
# (Sources/WeaveDICore/Support/Version.swift, the one place it is written) is the changelog's
# newest released section, and the README and Getting Started name that version.
#
#   bash Scripts/check-version.sh
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-version: $*" >&2; exit 1; }

[ -s LICENSE ] || fail "LICENSE is missing"
grep -q "MIT License" LICENSE || fail "LICENSE is not the MIT license"
[ -s CHANGELOG.md ] || fail "CHANGELOG.md is missing"
grep -q '^## \[Unreleased\]' CHANGELOG.md || fail "CHANGELOG.md has no '## [Unreleased]' section"

constant=$(sed -n 's/^ *public static let current = "\([^"]*\)".*/\1/p' Sources/WeaveDICore/Support/Version.swift)
[ -n "$constant" ] || fail "no 'public static let current = \"…\"' in Sources/WeaveDICore/Support/Version.swift"
[ "$(grep -rn --include=*.swift 'static let current = "' Sources | wc -l)" -eq 1 ] || fail "the version is written in more than one place"
released=$(sed -n 's/^## \[\([0-9][0-9.]*[0-9]\)\].*/\1/p' CHANGELOG.md | head -1)
[ -n "$released" ] || fail "CHANGELOG.md has no released section ('## [x.y.z] - date')"
[ "$constant" = "$released" ] || fail "DIVersion.current is $constant but CHANGELOG.md's newest release is $released"
# The README and the Getting Started article say which version they describe.
grep -q "describes WeaveDI \*\*$constant\*\*" README.md || fail "README.md does not say it describes WeaveDI **$constant**"
grep -q "describes WeaveDI $constant" Sources/WeaveDI/WeaveDI.docc/GettingStarted.md \
    || fail "GettingStarted.md does not say it describes WeaveDI $constant"
echo "LICENSE, CHANGELOG.md, README.md, Getting Started and version $constant agree"

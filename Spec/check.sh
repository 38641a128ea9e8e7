#!/usr/bin/env bash
# Model-checks WeaveDI's build/wait protocol (Spec/BuildWait.pml) with SPIN, one run per
# configuration (Spec/configs/*.pml), and checks that the old, faulty protocol (-DSTALE_EDGES)
# is caught reporting a false cycle. See Spec/README.md.
#
# Usage: bash Spec/check.sh        (from anywhere; needs spin and gcc; installs spin via apt-get)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

if ! command -v spin >/dev/null 2>&1; then
    echo "spin not found; installing it with apt-get" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq spin >/dev/null
fi
command -v gcc >/dev/null 2>&1 || { echo "gcc is required" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R "$here/." "$work/"   # pan writes its files (and trails) next to the model

# name | configuration file | extra spin -D flags | expect
#   pass:    errors: 0
#   fail-P1: errors > 0, a cycle reported over a stale edge (the old protocol, -DSTALE_EDGES)
#   fail-P2: errors > 0, an invalid end state, i.e. a deadlock (-DNO_CYCLE_CHECK: the model's
#            deadlock check is not vacuous)
runs=(
    "handoff|handoff.pml||pass"
    "chain3|chain3.pml||pass"
    "diamond|diamond.pml||pass"
    "cycle2|cycle2.pml||pass"
    "cycle3|cycle3.pml||pass"
    "reset|reset.pml||pass"
    "scope_end|scope_end.pml||pass"
    "fail_retry|fail_retry.pml||pass"
    "defaults_autoreg|defaults_autoreg.pml||pass"
    "handoff_STALE_EDGES|handoff.pml|-DSTALE_EDGES|fail-P1"
    "cycle2_NO_CYCLE_CHECK|cycle2.pml|-DNO_CYCLE_CHECK|fail-P2"
    # The same protocol run by tasks (async factories): suspended waiters, cancellation.
    "async_handoff|handoff.pml|-DASYNC|pass"
    "async_chain3|chain3.pml|-DASYNC|pass"
    "async_cycle3|cycle3.pml|-DASYNC|pass"
    "async_scope_end|scope_end.pml|-DASYNC|pass"
    "async_fail_retry|fail_retry.pml|-DASYNC|pass"
    "async_cancel_waiter|async_cancel_waiter.pml|-DASYNC|pass"
    "async_cancel_builder|async_cancel_builder.pml|-DASYNC|pass"
    "async_cancel_waiter_CANCEL_KEEPS_EDGE|async_cancel_waiter.pml|-DASYNC -DCANCEL_KEEPS_EDGE|fail-P4"
)

passed=0
failed=0
for entry in "${runs[@]}"; do
    IFS='|' read -r name file flags expect <<<"$entry"
    dir="$work/run-$name"
    mkdir -p "$dir"
    cp "$work/configs/$file" "$dir/model.pml"
    # the configuration includes ../BuildWait.h and ../BuildWait.pml
    start=$(date +%s.%N)
    result=""
    if ! (cd "$dir" && spin $flags -a model.pml >spin.log 2>&1); then
        result="spin -a failed: $(tail -n 3 "$dir/spin.log" | tr '\n' ' ')"
    elif ! (cd "$dir" && gcc -w -O2 -DSAFETY -o pan pan.c >gcc.log 2>&1); then
        result="gcc failed: $(tail -n 3 "$dir/gcc.log" | tr '\n' ' ')"
    else
        # -m: search depth; -w: hash table 2^22 slots. pan exits 0 even when it finds errors.
        (cd "$dir" && ./pan -m200000 -w22 >pan.log 2>&1) || true
    fi
    end=$(date +%s.%N)
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    log="$dir/pan.log"
    states="?"
    errors=""
    if [[ -z "$result" ]]; then
        states=$(awk '/states, stored/ { print $1; exit }' "$log")
        errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' "$log" | head -n 1)
        if grep -q "max search depth too small" "$log"; then
            result="search depth too small"
        elif [[ -z "$errors" ]]; then
            result="no pan summary: $(tail -n 3 "$log" | tr '\n' ' ')"
        elif [[ "$expect" == "pass" ]]; then
            if [[ "$errors" == "0" ]]; then
                result="ok"
            else
                result="FAILED, errors: $errors: $(grep -m1 -E 'assertion violated|invalid end state' "$log" || true)"
            fi
        elif [[ "$expect" == "fail-P1" ]]; then
            # the faulty protocol must be caught reporting a cycle over a stale edge
            if [[ "$errors" != "0" ]] && grep -qE 'assertion violated (liveChain|reach)' "$log"; then
                result="ok (caught, as expected: $(grep -m1 'assertion violated' "$log" | sed 's/^pan:[0-9]*: //'))"
            else
                result="FAILED: expected a P1 violation (false cycle), errors: $errors"
            fi
        elif [[ "$expect" == "fail-P4" ]]; then
            # a cancellation handler that leaves the edge: a continuation resumed twice (or
            # the ticket's waiter list out of step with the graph)
            if [[ "$errors" != "0" ]] && grep -qE 'assertion violated \(?(resumes|waits)' "$log"; then
                result="ok (caught, as expected: $(grep -m1 'assertion violated' "$log" | sed 's/^pan:[0-9]*: //'))"
            else
                result="FAILED: expected a P4 violation (double resume), errors: $errors"
            fi
        else
            if [[ "$errors" != "0" ]] && grep -q 'invalid end state' "$log"; then
                result="ok (caught, as expected: $(grep -m1 'invalid end state' "$log" | sed 's/^pan:[0-9]*: //'))"
            else
                result="FAILED: expected a P2 violation (deadlock), errors: $errors"
            fi
        fi
    fi
    search=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\).*/\1/p' "$log" 2>/dev/null | head -n 1)
    printf '%-24s states stored: %-8s search %6ss, total %5ss  %s\n' \
        "$name" "$states" "${search:-?}" "$secs" "$result"
    if [[ "$result" == ok* ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        sed -n '1,40p' "$log" 2>/dev/null | sed 's/^/    /' >&2 || true
    fi
done

echo "$passed passed, $failed failed"
[[ "$failed" -eq 0 ]]

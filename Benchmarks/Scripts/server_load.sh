#!/usr/bin/env bash
# Load on loopback: the example ShopServer wired by WeaveDI against the same server wired by hand
# (`--wiring manual`), in one run, with wrk. Writes Benchmarks/results/server-load.md.
#
#   bash Benchmarks/Scripts/server_load.sh [ROUNDS] [SECONDS_PER_ROUND] [MIN_REQUESTS]
#
# Defaults: 3 rounds of 15 s per wiring, alternating (weavedi, manual, weavedi, …), wrk -t1 -c32
# on GET /orders/1 (a SQLite read of an order and its payments, one request scope, one unit of
# work and two request-scoped repositories per request). Then each server is driven on until it
# has served MIN_REQUESTS (default 1 000 000) requests in all, and its resident memory (VmRSS) is
# read after the warm-up and at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS="${1:-3}"
SECONDS_PER_ROUND="${2:-15}"
MIN_REQUESTS="${3:-1000000}"
CONNECTIONS=32
OUT=Benchmarks/results/server-load.md

if ! command -v wrk > /dev/null; then
    apt-get update -qq && apt-get install -y -qq wrk > /dev/null
fi
if [ ! -f /usr/include/sqlite3.h ]; then
    apt-get update -qq && apt-get install -y -qq libsqlite3-dev
fi

swift build -c release --package-path Examples/Server --product ShopServer 2>&1 | tail -1
BIN="$(swift build -c release --package-path Examples/Server --show-bin-path)/ShopServer"
WORK="$(mktemp -d)"
DB="$WORK/shop.sqlite"
PIDS=()
cleanup() { for pid in "${PIDS[@]}"; do kill "$pid" 2> /dev/null || true; done; rm -rf "$WORK"; }
trap cleanup EXIT

# start WIRING PORT: starts a server, waits until it listens, prints its pid.
start() {
    "$BIN" --wiring "$1" --port "$2" --database "$DB" > "$WORK/$1.log" 2>&1 &
    local pid=$!
    for _ in $(seq 1 100); do
        if curl -s -o /dev/null "http://127.0.0.1:$2/orders/1"; then echo "$pid"; return; fi
        sleep 0.1
    done
    echo "server $1 did not start:" >&2; cat "$WORK/$1.log" >&2; exit 1
}
rss_kib() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }

# wrk_run WIRING PORT SECONDS: prints "requests rps p99_ms"
wrk_run() {
    wrk -t1 -c"$CONNECTIONS" -d"$3"s --latency "http://127.0.0.1:$2/orders/1" > "$WORK/wrk.txt"
    local requests rps p99
    requests=$(awk '/requests in/ { print $1 }' "$WORK/wrk.txt")
    rps=$(awk '/^Requests\/sec/ { print $2 }' "$WORK/wrk.txt")
    p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v = v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v = v * 1000 }; print v }' "$WORK/wrk.txt")
    if grep -q "Non-2xx" "$WORK/wrk.txt"; then echo "non-2xx answers from $1:" >&2; cat "$WORK/wrk.txt" >&2; exit 1; fi
    echo "$requests $rps $p99"
}

# The data: one user, one order, one captured payment (through the WeaveDI server, all routes).
PORT_W=18080
PORT_M=18081
pid_w=$(start weavedi $PORT_W); PIDS+=("$pid_w")
curl -sf -X POST "http://127.0.0.1:$PORT_W/users" -d '{"name":"Load","email":"load@example.com"}' > /dev/null
curl -sf -X POST "http://127.0.0.1:$PORT_W/orders" -d '{"userID":1,"items":[{"sku":"mug","quantity":2}]}' > /dev/null
curl -sf -X POST "http://127.0.0.1:$PORT_W/orders/1/payments" -d '{"cardNumber":"4242 4242 4242 4242"}' > /dev/null
pid_m=$(start manual $PORT_M); PIDS+=("$pid_m")
# Same answer from both (as JSON values: key order differs between processes).
if ! python3 -c 'import json, sys; sys.exit(json.loads(sys.argv[1]) != json.loads(sys.argv[2]))' \
    "$(curl -s "http://127.0.0.1:$PORT_W/orders/1")" "$(curl -s "http://127.0.0.1:$PORT_M/orders/1")"; then
    echo "the two wirings answer differently" >&2; exit 1
fi

declare -A total rss_warm
for wiring in weavedi manual; do
    port=$PORT_W; pid=$pid_w
    if [ $wiring = manual ]; then port=$PORT_M; pid=$pid_m; fi
    read -r n _ _ < <(wrk_run $wiring $port 3)   # warm-up
    total[$wiring]=$n
    rss_warm[$wiring]=$(rss_kib "$pid")
done

declare -A rps_list p99_list
for round in $(seq 1 "$ROUNDS"); do
    for wiring in weavedi manual; do
        port=$PORT_W; [ $wiring = manual ] && port=$PORT_M
        read -r n rps p99 < <(wrk_run $wiring $port "$SECONDS_PER_ROUND")
        total[$wiring]=$(( ${total[$wiring]} + n ))
        rps_list[$wiring]="${rps_list[$wiring]:-} $rps"
        p99_list[$wiring]="${p99_list[$wiring]:-} $p99"
        echo "round $round $wiring: $rps req/s, p99 $p99 ms" >&2
    done
done

# Drive each server on to MIN_REQUESTS requests in all, then read its memory.
declare -A rss_end
for wiring in weavedi manual; do
    port=$PORT_W; pid=$pid_w
    if [ $wiring = manual ]; then port=$PORT_M; pid=$pid_m; fi
    while [ "${total[$wiring]}" -lt "$MIN_REQUESTS" ]; do
        read -r n _ _ < <(wrk_run $wiring $port 20)
        total[$wiring]=$(( ${total[$wiring]} + n ))
    done
    sleep 1
    rss_end[$wiring]=$(rss_kib "$pid")
done

# SIGTERM: both stop gracefully (exit status 0, services stopped in order).
# (The servers were started in command substitutions, so they are not this shell's children:
# wait for them to exit by polling, and read the outcome from their logs.)
for pid in "$pid_w" "$pid_m"; do kill -TERM "$pid"; done
for pid in "$pid_w" "$pid_m"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
done
stopped() { if grep -q "ShopServer stopped" "$WORK/$1.log"; then echo yes; else echo "**no**"; fi; }
status_w=$(stopped weavedi); status_m=$(stopped manual)
PIDS=()

median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
rps_w=$(echo "${rps_list[weavedi]}" | median); rps_m=$(echo "${rps_list[manual]}" | median)
p99_w=$(echo "${p99_list[weavedi]}" | median); p99_m=$(echo "${p99_list[manual]}" | median)
ratio=$(awk -v a="$rps_w" -v b="$rps_m" 'BEGIN { printf "%.3f", a / b }')

{
    echo "# ShopServer under load: WeaveDI wiring vs. wired by hand"
    echo
    echo "\`bash Benchmarks/Scripts/server_load.sh $ROUNDS $SECONDS_PER_ROUND $MIN_REQUESTS\`, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)), release build."
    echo "wrk -t1 -c$CONNECTIONS on loopback, GET /orders/1 (SQLite read of the order and its payment), $ROUNDS rounds of ${SECONDS_PER_ROUND} s per wiring, alternating; medians of the rounds."
    echo
    echo "| wiring | req/s (median) | rounds, req/s | p99 latency ms (median) | requests served | RSS after warm-up | RSS at the end | stopped gracefully on SIGTERM |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
    echo "| WeaveDI (request scope per request) | $rps_w |${rps_list[weavedi]} | $p99_w | ${total[weavedi]} | ${rss_warm[weavedi]} KiB | ${rss_end[weavedi]} KiB | $status_w |"
    echo "| by hand (\`--wiring manual\`) | $rps_m |${rps_list[manual]} | $p99_m | ${total[manual]} | ${rss_warm[manual]} KiB | ${rss_end[manual]} KiB | $status_m |"
    echo
    echo "Requests per second, WeaveDI ÷ by hand: **$ratio** (goal ≥ 0.97)."
} > "$OUT"
cat "$OUT"

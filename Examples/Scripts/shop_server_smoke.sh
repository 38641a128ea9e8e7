#!/usr/bin/env bash
# Smoke test of the real ShopServer process: the README's flow over HTTP with curl, a JSON error,
# then SIGTERM while requests are in flight: every request answered, services stopped in reverse
# dependency order, the database closed, exit status 0.
#
#   bash Examples/Scripts/shop_server_smoke.sh [PORT]
set -euo pipefail
cd "$(dirname "$0")/../.."
PORT="${1:-18090}"
WORK="$(mktemp -d)"
trap 'kill "${SERVER:-0}" 2> /dev/null || true; rm -rf "$WORK"' EXIT

swift build --package-path Examples/Server --product ShopServer 2>&1 | tail -1
"$(swift build --package-path Examples/Server --show-bin-path)/ShopServer" --port "$PORT" --database "$WORK/shop.sqlite" > "$WORK/server.log" 2>&1 &
SERVER=$!
for _ in $(seq 1 100); do
    grep -q "listening on" "$WORK/server.log" 2> /dev/null && break
    sleep 0.1
done
URL="http://127.0.0.1:$PORT"

expect_status() {  # METHOD PATH BODY STATUS
    local status
    status=$(curl -s -o "$WORK/body.json" -w '%{http_code}' -X "$1" "$URL$2" ${3:+-d "$3"})
    if [ "$status" != "$4" ]; then echo "$1 $2: expected $4, got $status: $(cat "$WORK/body.json")"; exit 1; fi
    echo "$1 $2 → $status $(head -c 160 "$WORK/body.json")"
}
expect_status POST /users '{"name":"Ada","email":"ada@example.com"}' 201
expect_status POST /orders '{"userID":1,"items":[{"sku":"coffee-beans","quantity":2},{"sku":"mug","quantity":1}]}' 201
expect_status POST /orders/1/payments '{"cardNumber":"4242 4242 4242 4242"}' 201
expect_status GET /orders/1 '' 200
grep -q '"status":"paid"' "$WORK/body.json"
expect_status POST /orders '{"userID":' 400
expect_status GET /orders/42 '' 404
expect_status DELETE /orders/1 '' 405

# Requests in flight when SIGTERM arrives are answered.
for i in $(seq 1 20); do
    curl -s -o /dev/null -w '%{http_code}\n' "$URL/orders/1" >> "$WORK/inflight.txt" &
done
kill -TERM "$SERVER"
wait "$SERVER"; STATUS=$?
wait
cat "$WORK/server.log"
test "$STATUS" -eq 0
# A request that reached the server got its 200; one that arrived after the listener closed was
# refused (000), never cut off half-way.
if grep -vE '^(200|000)$' "$WORK/inflight.txt"; then echo "a request in flight was cut off"; exit 1; fi
stats=$(grep -n "service stopped: ShopStatsService" "$WORK/server.log" | cut -d: -f1)
database=$(grep -n "service stopped: ShopDatabaseService (database closed)" "$WORK/server.log" | cut -d: -f1)
test -n "$stats" && test -n "$database" && test "$stats" -lt "$database"
grep -q "ShopServer stopped" "$WORK/server.log"
echo "ShopServer smoke test passed"

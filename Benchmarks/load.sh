#!/usr/bin/env bash
# Load figures of the foundation issue, on loopback only, bounded in time.
#  1. GET /healthz under wrk -c64 -d10s: latency distribution and errors.
#  2. The same while a ~5-second render runs.
#  3. Server CPU per request (utime+stime from /proc) for /healthz and a small POST /v1/render.
#  4. Resident memory before and after 100,000 requests.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/choreo
DATA=$(mktemp -d)
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
$BIN serve --port 0 --data "$DATA" 2> "$DATA/log" &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q '"port"' "$DATA/log" 2>/dev/null && break; sleep 0.1; done
PORT=$(grep -o '"port":[0-9]*' "$DATA/log" | head -1 | cut -d: -f2)
URL=http://127.0.0.1:$PORT
cpu() { awk '{print $14 + $15}' /proc/$PID/stat; }
rss() { awk '/VmRSS/ {print $2}' /proc/$PID/status; }
TICKS=$(getconf CLK_TCK)

echo "== healthz, wrk -t2 -c64 -d10s"
c0=$(cpu); out=$(wrk -t2 -c64 -d10s --latency "$URL/healthz"); c1=$(cpu)
echo "$out" | grep -E "Latency|50%|99%|Requests/sec|Non-2xx|Socket errors" || true
n=$(echo "$out" | awk '/requests in/ {print $1}')
echo "server CPU per request: $(python3 -c "print(round(($c1-$c0)/$TICKS/$n*1e6,1))") µs"

SMALL='{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":0,"toValue":1,"duration":1},"layer":"a"}]}]}'
printf 'wrk.method = "POST"\nwrk.body = [[%s]]\nwrk.headers["Content-Type"] = "application/json"\n' "$SMALL" > "$DATA/post.lua"
echo "== small POST /v1/render?fps=10, wrk -t2 -c16 -d10s"
c0=$(cpu); out=$(wrk -t2 -c16 -d10s --latency -s "$DATA/post.lua" "$URL/v1/render?fps=10"); c1=$(cpu)
echo "$out" | grep -E "Latency|99%|Requests/sec|Non-2xx" || true
n=$(echo "$out" | awk '/requests in/ {print $1}')
echo "server CPU per request: $(python3 -c "print(round(($c1-$c0)/$TICKS/$n*1e6,1))") µs"

echo "== healthz while a long render runs"
BIG=$(python3 - <<'PY'
import json
layers=[{"id":f"l{i}"} for i in range(1000)]
acts=[{"add":{"type":"spring","keyPath":"transform.scale","fromValue":0.5,"toValue":1,"duration":10},"layer":f"l{i}"} for i in range(1000)]
print(json.dumps({"layers":layers,"script":[{"at":0,"do":acts}]}))
PY
)
echo "$BIG" > "$DATA/big.json"
( start=$(date +%s.%N); curl -s -o /dev/null -w '%{http_code}' -X POST "$URL/v1/render?fps=60&format=ndjson" -H 'Content-Type: application/json' --data-binary @"$DATA/big.json"; echo " long render took $(python3 -c "import time;print(round(time.time()-$start,2))") s" ) &
sleep 0.5
wrk -t2 -c64 -d5s --latency "$URL/healthz" | grep -E "Latency|50%|99%|Requests/sec|Non-2xx|Socket errors" || true
wait %2 2>/dev/null || true

echo "== resident memory over 100,000 requests"
r0=$(rss)
wrk -t2 -c32 -d30s "$URL/healthz" >/dev/null 2>&1 &
W=$!
for i in $(seq 1 3000); do curl -s -o /dev/null -X POST "$URL/v1/render?fps=10" -H 'Content-Type: application/json' --data-binary "$SMALL"; [ $i -ge 300 ] && break; done
wait $W
r1=$(rss)
echo "RSS before: ${r0} kB, after: ${r1} kB (healthz + renders; see /metrics for the request count)"
curl -s "$URL/metrics" | grep -E '^choreo_http_requests_total' | awk '{s+=$2} END {print "requests served:", s}'

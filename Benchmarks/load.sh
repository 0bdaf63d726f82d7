#!/usr/bin/env bash
# Load figures of the foundation issue, on loopback only, every loop bounded in time.
#  1. GET /healthz under wrk -t2 -c64 -d10s: latency distribution and errors.
#  2. The same while a long render (≈5 s) runs, three times.
#  3. Server CPU per request (utime + stime from /proc/PID/stat) for /healthz, alternating five
#     times with a minimal C libmicrohttpd server doing the same work (Benchmarks/c-baseline),
#     measured as the libmicrohttpd notes do (wrk -t1 -c50 -d5s); and for a small POST /v1/render.
#  4. Resident memory before and after 100,000+ requests.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.build/release/choreo
WORK=$(mktemp -d)
command -v wrk >/dev/null || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
cc -O2 -Wall -o "$WORK/c-server" Benchmarks/c-baseline/healthz.c -lmicrohttpd -lsqlite3 -lpthread
TICKS=$(getconf CLK_TCK)
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
start_choreo() {  # prints the pid; the port goes to $WORK/port
    rm -f "$WORK/log"
    $BIN serve --port 0 --data "$WORK/data" "$@" > /dev/null 2> "$WORK/log" &
    local pid=$!
    for _ in $(seq 100); do grep -aq '"port"' "$WORK/log" 2>/dev/null && break; sleep 0.1; done
    grep -ao '"port":[0-9]*' "$WORK/log" | head -1 | cut -d: -f2 > "$WORK/port"
    echo $pid
}
# Runs wrk against $2 for server $1, printing req/s, p99 and server CPU per request.
measure() {
    local c0 c1 out n
    c0=$(cpu "$1"); out=$(wrk "${@:3}" --latency "$2"); c1=$(cpu "$1")
    n=$(echo "$out" | awk '/requests in/ {print $1}')
    echo "$(echo "$out" | awk '/Requests\/sec/ {print $2}') req/s, p50 $(echo "$out" | awk '/ 50%/ {print $2}'), p99 $(echo "$out" | awk '/ 99%/ {print $2}'), errors: $(echo "$out" | grep -cE 'Non-2xx|Socket errors' || true), CPU/request $(python3 -c "print(round(($c1-$c0)/$TICKS/$n*1e6,1))") µs"
}

PID=$(start_choreo); PORT=$(cat "$WORK/port"); URL=http://127.0.0.1:$PORT
trap 'kill $PID 2>/dev/null || true' EXIT
echo "== 1. /healthz, wrk -t2 -c64 -d10s"
measure "$PID" "$URL/healthz" -t2 -c64 -d10s

echo "== 2. /healthz (wrk -t2 -c64 -d5s) while a long NDJSON render runs"
python3 - > "$WORK/big.json" <<'PY'
import json
layers = [{"id": f"l{i}"} for i in range(1000)]
adds = [{"add": {"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1, "duration": 10},
         "layer": f"l{i}"} for i in range(1000)]
print(json.dumps({"layers": layers, "script": [{"at": 0, "do": adds}]}))
PY
for run in 1 2 3; do
    curl -s -o /dev/null -w "   render: HTTP %{http_code} in %{time_total} s\n" -X POST "$URL/v1/render?fps=120&format=ndjson" \
        -H 'Content-Type: application/json' --data-binary @"$WORK/big.json" &
    CURL=$!
    sleep 0.3
    echo -n "   healthz: "; measure "$PID" "$URL/healthz" -t2 -c64 -d5s
    wait $CURL
done

echo "== 3. server CPU per request"
SMALL='{"layers":[{"id":"a"}],"script":[{"at":0,"do":[{"add":{"type":"basic","keyPath":"opacity","fromValue":0,"toValue":1,"duration":1},"layer":"a"}]}]}'
printf 'wrk.method = "POST"\nwrk.body = [[%s]]\nwrk.headers["Content-Type"] = "application/json"\n' "$SMALL" > "$WORK/post.lua"
echo -n "   small POST /v1/render?fps=10 (wrk -t1 -c16 -d5s): "
measure "$PID" "$URL/v1/render?fps=10" -t1 -c16 -d5s -s "$WORK/post.lua"
kill $PID; wait $PID 2>/dev/null || true
for run in 1 2 3 4 5; do
    "$WORK/c-server" 18181 "$WORK/c.sqlite" > /dev/null 2>&1 & C=$!
    sleep 0.5
    echo -n "   C      /healthz (wrk -t1 -c50 -d5s): "; measure "$C" http://127.0.0.1:18181/healthz -t1 -c50 -d5s
    kill $C; wait $C 2>/dev/null || true
    PID=$(start_choreo); PORT=$(cat "$WORK/port")
    echo -n "   choreo /healthz (wrk -t1 -c50 -d5s): "; measure "$PID" "http://127.0.0.1:$PORT/healthz" -t1 -c50 -d5s
    kill $PID; wait $PID 2>/dev/null || true
done

echo "== 4. resident memory over many requests"
PID=$(start_choreo); PORT=$(cat "$WORK/port"); URL=http://127.0.0.1:$PORT
r0=$(rss "$PID")
wrk -t1 -c16 -d10s -s "$WORK/post.lua" "$URL/v1/render?fps=10" > /dev/null
wrk -t2 -c32 -d10s "$URL/healthz" > /dev/null
r1=$(rss "$PID")
served=$(curl -s "$URL/metrics" | awk '/^choreo_http_requests_total/ {s += $2} END {print s}')
echo "   RSS before: $r0 kB, after $served requests: $r1 kB"

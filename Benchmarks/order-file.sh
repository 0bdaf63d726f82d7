#!/usr/bin/env bash
# Writes Sources/choreo/choreo.order, the order in which the release link places choreo's
# functions (lld's --symbol-ordering-file, Package.swift): the functions that a start, an idle
# server, a render and a served render run, in that order, ahead of all others. Code is mapped
# from the binary a page at a time, and the kernel maps the 64 KiB around each page a process
# first touches: with the functions it runs packed together, a process keeps resident only
# those pages, not the neighbours of every function it calls (docs/architecture.md).
#
# The functions are recorded by callgrind (valgrind), which names every function a process ran,
# in four phases:
#   1. start:   choreo --version
#   2. idle:    choreo serve up to its first /healthz and /metrics
#   3. render:  choreo render of the benchmark's scene (JSON and NDJSON) and of every example
#   4. served:  the server rendering the benchmark's scene (JSON and NDJSON) over HTTP
# Run it (`make order`) when the hot paths change; functions renamed since are skipped by the
# link, and the release build keeps working with a stale order, only with more pages resident.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-.build/release}  # a static release build (make order)
BIN=$BUILD/choreo
BENCH=$BUILD/choreo-bench
ORDER=Sources/choreo/choreo.order
WORK=$(mktemp -d)
SERVER=
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
command -v valgrind >/dev/null || { echo "valgrind is needed: apt-get install valgrind" >&2; exit 1; }
record() {  # record NAME COMMAND...: runs COMMAND under callgrind into $WORK/NAME.out
    local name=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$WORK/$name.out" --compress-strings=no \
        --demangle=no "$@" > /dev/null 2>> "$WORK/valgrind.log"
}

"$BENCH" --scene-json 300 > "$WORK/scene.json"
record 1-start "$BIN" --version
record 3-render-json "$BIN" render "$WORK/scene.json" --fps 60 --end 2
record 3-render-ndjson "$BIN" render "$WORK/scene.json" --fps 60 --end 2 --format ndjson
for example in examples/*.json; do
    record "3-render-$(basename "$example" .json)" "$BIN" render "$example" --fps 30
done

# The server under callgrind: dumped once idle (callgrind_control), then at its exit.
valgrind --tool=callgrind --callgrind-out-file="$WORK/server.out" --compress-strings=no --demangle=no \
    "$BIN" serve --port 0 --data "$WORK/data" > /dev/null 2> "$WORK/server.log" &
SERVER=$!
for _ in $(seq 600); do grep -aq '"port"' "$WORK/server.log" 2>/dev/null && break; sleep 0.1; done
PORT=$(grep -ao '"port":[0-9]*' "$WORK/server.log" | head -1 | cut -d: -f2)
[ -n "$PORT" ] || { echo "choreo serve did not start under valgrind" >&2; cat "$WORK/server.log" >&2; exit 1; }
curl -sf -o /dev/null "http://127.0.0.1:$PORT/healthz"
curl -sf -o /dev/null "http://127.0.0.1:$PORT/metrics"
callgrind_control --dump=idle "$SERVER" > /dev/null 2>&1
for format in json ndjson; do
    curl -sf -o /dev/null -H 'Content-Type: application/json' --data-binary @"$WORK/scene.json" \
        "http://127.0.0.1:$PORT/v1/render?fps=60&end=2&format=$format"
done
kill "$SERVER"
wait "$SERVER" 2>/dev/null || true
SERVER=
# callgrind_control's dump is server.out.1, the rest of the run server.out.
mv "$WORK/server.out.1" "$WORK/2-idle.out"
mv "$WORK/server.out" "$WORK/4-served.out"

# Every function of the binary's text, in the phases' order, each once.
nm --defined-only "$BIN" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u > "$WORK/text"
{
    echo "# The functions that choreo's start, idle server, renders and served renders run, in that"
    echo "# order: Benchmarks/order-file.sh wrote this file with callgrind; \`make order\` writes it again."
    # Within a phase by name: a new recording differs only by what ran differently (a lock
    # that was contended, say).
    for phase in 1 2 3 4; do
        sed -n -e 's/^c\{0,1\}fn=\(([0-9]*) \)\{0,1\}//p' "$WORK/$phase"-*.out | sed "s/'.*//" | LC_ALL=C sort -u
    done | awk 'NR == FNR { text[$0] = 1; next } ($0 in text) && !seen[$0]++' "$WORK/text" -
} > "$ORDER"
# The next release build links again with the new order.
rm -f "$BIN"
echo "$ORDER: $(grep -vc '^#' "$ORDER") functions" >&2

#!/usr/bin/env bash
# The RPC benchmark (not a test): each contender's echo server in turn, driven by the same
# load generator with 1 and 64 connections, framed binary. Prints a markdown table with
# calls per second, p50/p99 latency, server allocations per call, and ratios to Apache.
#   benchmarks/rpc/run.sh [SECONDS]     (default 5 s per cell)
# Needs Debian's thrift compiler (benchmarks/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_CELL="${1:-5}"
CONTENDERS="${CONTENDERS:-ours-async ours-blocking apache volo}"
cargo build --release --quiet
BIN="target/release/thrift-rpc-benchmarks"
case " $CONTENDERS " in
    *" volo "*) (cd volo && cargo build --release --quiet) ;;
esac
VOLO="volo/target/release/volo-echo-server"
PORT=19190
results="$(mktemp)"
trap 'rm -f "$results"' EXIT
for connections in 1 64; do
    for contender in $CONTENDERS; do
        PORT=$((PORT + 1))
        server_seconds=$(python3 -c "print($SECONDS_PER_CELL + 2.5)")
        if [ "$contender" = volo ]; then
            "$VOLO" "$PORT" "$server_seconds" >"$results.server" &
        else
            "$BIN" server "$contender" "$PORT" "$server_seconds" >"$results.server" &
        fi
        server=$!
        load="$("$BIN" load "$PORT" "$connections" "$SECONDS_PER_CELL")"
        wait "$server"
        echo "$contender|$load|$(cat "$results.server")" >>"$results"
    done
done
python3 - "$results" <<'PY'
import json, sys
rows = []
for line in open(sys.argv[1]):
    contender, load, server = line.rstrip("\n").split("|")
    rows.append((contender, json.loads(load), json.loads(server)))
print("| connections | server | calls/s | p50 µs | p99 µs | server allocations per call | calls/s ÷ Apache |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for connections in (1, 64):
    cell = [r for r in rows if r[1]["connections"] == connections]
    apache = next((r[1]["rps"] for r in cell if r[0] == "apache"), None)
    for contender, load, server in cell:
        ratio = f"{load['rps'] / apache:.2f}x" if apache else "n/a"
        print(f"| {connections} | {contender} | {load['rps']:.0f} | {load['p50_us']:.0f} | "
              f"{load['p99_us']:.0f} | {server['allocations_per_call']:.2f} | {ratio} |")
PY

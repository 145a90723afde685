#!/usr/bin/env bash
# The RPC benchmark (not a test): each contender's echo server in turn, driven by the same
# load generator with 1 and 64 connections, framed binary, in ROUNDS interleaved rounds (the
# machine's noise moves single cells by tens of percent). Prints a markdown table with the
# median calls per second and p50/p99 latency over the rounds, server allocations per call,
# and the per-round ratios behind the targets.
#   ROUNDS=3 benchmarks/rpc/run.sh [SECONDS]     (default 3 rounds of 4 s per cell)
# Needs Debian's thrift compiler (benchmarks/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_CELL="${1:-4}"
ROUNDS="${ROUNDS:-3}"
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
for round in $(seq "$ROUNDS"); do
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
        echo "$round|$contender|$load|$(cat "$results.server")" >>"$results"
    done
done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = []
for line in open(sys.argv[1]):
    round_, contender, load, server = line.rstrip("\n").split("|")
    rows.append((int(round_), contender, json.loads(load), json.loads(server)))
contenders = list(dict.fromkeys(r[1] for r in rows))
def cells(contender, connections):
    return [r for r in rows if r[1] == contender and r[2]["connections"] == connections]
def median(contender, connections, key):
    return statistics.median(r[2][key] for r in cells(contender, connections))
print("| connections | server | calls/s | p50 µs | p99 µs | server allocations per call | calls/s ÷ Apache |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for connections in (1, 64):
    apache = median("apache", connections, "rps") if cells("apache", connections) else None
    for contender in contenders:
        if not cells(contender, connections):
            continue
        rps = median(contender, connections, "rps")
        allocations = statistics.median(r[3]["allocations_per_call"] for r in cells(contender, connections))
        ratio = f"{rps / apache:.2f}x" if apache else "n/a"
        print(f"| {connections} | {contender} | {rps:.0f} | {median(contender, connections, 'p50_us'):.0f} | "
              f"{median(contender, connections, 'p99_us'):.0f} | {allocations:.2f} | {ratio} |")
print()
def per_round(a, b, connections, key):
    out = []
    for round_ in sorted({r[0] for r in rows}):
        x = [r[2][key] for r in rows if r[0] == round_ and r[1] == a and r[2]["connections"] == connections]
        y = [r[2][key] for r in rows if r[0] == round_ and r[1] == b and r[2]["connections"] == connections]
        if x and y:
            out.append(x[0] / y[0])
    return ", ".join(f"{v:.2f}x" for v in out)
for a, b, connections, key, what in [
    ("ours-async", "apache", 64, "rps", "ours-async ÷ apache, calls/s, 64 connections (target ≥ 3x)"),
    ("ours-async", "volo", 64, "rps", "ours-async ÷ volo, calls/s, 64 connections (target ≥ 1x)"),
    ("ours-async", "volo", 64, "p99_us", "ours-async ÷ volo, p99, 64 connections (target < 1x)"),
    ("ours-blocking", "apache", 1, "rps", "ours-blocking ÷ apache, calls/s, 1 connection (target ≥ 1x)"),
]:
    print(f"- {what}, per round: {per_round(a, b, connections, key)}")
PY

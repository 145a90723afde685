#!/usr/bin/env bash
# The RPC benchmark (not a test): each contender's echo server in turn, driven once by the same
# load generator and once by the contender's own client, with 1 and 64 connections, framed
# binary (volo's own client: its default TTHeader), in ROUNDS interleaved rounds (the
# machine's noise moves single cells by tens of percent). Prints a markdown table with the
# median calls per second and p50/p99 latency over the rounds, server and client allocations
# per call, and the per-round ratios behind the targets.
#   ROUNDS=3 benchmarks/rpc/run.sh [SECONDS]     (default 3 rounds of 4 s per cell)
# ours-async-latency and ours-blocking-latency are our servers in latency mode
# (ServerOptions::busy_poll, 50 µs).
# ours-async-tls and ours-blocking-tls are our servers over TLS (certificates made for the run
# by interop/tls_certs.sh), driven by our clients over TLS: their rows beside the plain ones
# are the cost of TLS.
# Needs Debian's thrift compiler (benchmarks/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_CELL="${1:-4}"
ROUNDS="${ROUNDS:-3}"
CONTENDERS="${CONTENDERS:-ours-async ours-blocking ours-async-latency ours-blocking-latency ours-async-tls ours-blocking-tls ours-async-http ours-blocking-http apache volo}"
cargo build --release --quiet
BIN="target/release/thrift-rpc-benchmarks"
case " $CONTENDERS " in
    *" volo "*) (cd volo && cargo build --release --quiet) ;;
esac
VOLO="volo/target/release/volo-echo-server"
PORT=19190
results="$(mktemp)"
CERTS="$(mktemp -d)"
trap 'rm -rf "$results" "$CERTS"' EXIT
../../interop/tls_certs.sh "$CERTS"
own_client() {
    case "$1" in
        ours-async | ours-async-latency | ours-async-tls | ours-async-http) echo "$BIN load-async" ;;
        ours-blocking | ours-blocking-latency | ours-blocking-tls | ours-blocking-http) echo "$BIN load" ;;
        apache) echo "$BIN load-apache" ;;
        volo) echo "$VOLO load" ;;
    esac
}
for round in $(seq "$ROUNDS"); do
for connections in 1 64; do
    for contender in $CONTENDERS; do
        # "same": our blocking client drives every server; "own": the contender's own client.
        for mode in same own; do
            PORT=$((PORT + 1))
            case "$contender" in
                *-tls) export TLS_CERTS="$CERTS" ;;
                *) unset TLS_CERTS ;;
            esac
            case "$contender" in
                *-http) export HTTP=1 ;;
                *) unset HTTP ;;
            esac
            server_seconds=$(python3 -c "print($SECONDS_PER_CELL + 2.5)")
            if [ "$contender" = volo ]; then
                "$VOLO" "$PORT" "$server_seconds" >"$results.server" &
            else
                "$BIN" server "$contender" "$PORT" "$server_seconds" >"$results.server" &
            fi
            server=$!
            if [ "$mode" = same ]; then
                load="$("$BIN" load "$PORT" "$connections" "$SECONDS_PER_CELL")"
            else
                load="$($(own_client "$contender") "$PORT" "$connections" "$SECONDS_PER_CELL")"
            fi
            wait "$server"
            echo "$round|$mode|$contender|$load|$(cat "$results.server")" >>"$results"
        done
    done
done
done
python3 - "$results" <<'PY'
import json, statistics, sys
rows = []
for line in open(sys.argv[1]):
    round_, mode, contender, load, server = line.rstrip("\n").split("|")
    rows.append((int(round_), mode, contender, json.loads(load), json.loads(server)))
contenders = list(dict.fromkeys(r[2] for r in rows))
CLIENT = {"ours-async": "ours, async", "ours-blocking": "ours, blocking",
          "ours-async-latency": "ours, async", "ours-blocking-latency": "ours, blocking", "apache": "apache", "volo": "volo (TTHeader)",
          "ours-async-tls": "ours, async, TLS", "ours-blocking-tls": "ours, blocking, TLS",
          "ours-async-http": "ours, async, HTTP", "ours-blocking-http": "ours, blocking, HTTP"}
def cells(mode, contender, connections):
    return [r for r in rows if r[1] == mode and r[2] == contender and r[3]["connections"] == connections]
def median(mode, contender, connections, key):
    return statistics.median(r[3][key] for r in cells(mode, contender, connections))
for mode, title in (("same", "Every server driven by the same load generator (our blocking client):"),
                    ("own", "Each contender's own client calling its own server:")):
    print(title)
    print()
    print("| connections | server | client | calls/s | p50 µs | p99 µs | server allocations per call | client allocations per call | calls/s ÷ Apache |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for connections in (1, 64):
        apache = median(mode, "apache", connections, "rps") if cells(mode, "apache", connections) else None
        for contender in contenders:
            if not cells(mode, contender, connections):
                continue
            rps = median(mode, contender, connections, "rps")
            allocations = statistics.median(r[4]["allocations_per_call"] for r in cells(mode, contender, connections))
            client_allocations = statistics.median(r[3]["client_allocations_per_call"] for r in cells(mode, contender, connections))
            ratio = f"{rps / apache:.2f}x" if apache else "n/a"
            suffix = {"tls": ", TLS", "http": ", HTTP"}.get(contender.rsplit("-", 1)[-1], "")
            client = "ours, blocking" + suffix if mode == "same" else CLIENT[contender]
            print(f"| {connections} | {contender} | {client} | {rps:.0f} | {median(mode, contender, connections, 'p50_us'):.0f} | "
                  f"{median(mode, contender, connections, 'p99_us'):.0f} | {allocations:.2f} | {client_allocations:.2f} | {ratio} |")
    print()
def per_round(mode, a, b, connections, key):
    out = []
    for round_ in sorted({r[0] for r in rows}):
        x = [r[3][key] for r in rows if r[0] == round_ and r[1] == mode and r[2] == a and r[3]["connections"] == connections]
        y = [r[3][key] for r in rows if r[0] == round_ and r[1] == mode and r[2] == b and r[3]["connections"] == connections]
        if x and y:
            out.append(x[0] / y[0])
    return ", ".join(f"{v:.2f}x" for v in out)
for mode in ("same", "own"):
    for a, b, connections, key, what in [
        ("ours-async", "volo", 64, "rps", "ours-async ÷ volo, calls/s, 64 connections (target ≥ 1.5x)"),
        ("ours-async", "volo", 64, "p99_us", "ours-async ÷ volo, p99, 64 connections (target < 1x in every round)"),
        ("ours-async", "apache", 64, "rps", "ours-async ÷ apache, calls/s, 64 connections"),
        ("ours-async", "apache", 1, "rps", "ours-async ÷ apache, calls/s, 1 connection (target ≥ 1.2x)"),
        ("ours-async", "apache", 1, "p99_us", "ours-async ÷ apache, p99, 1 connection (target ≤ 1x)"),
        ("ours-blocking", "apache", 1, "rps", "ours-blocking ÷ apache, calls/s, 1 connection (target ≥ 1.2x)"),
        ("ours-blocking", "apache", 1, "p99_us", "ours-blocking ÷ apache, p99, 1 connection (target ≤ 1x)"),
        ("ours-async-latency", "apache", 1, "rps", "ours-async in latency mode ÷ apache, calls/s, 1 connection (target ≥ 1.2x)"),
        ("ours-async-latency", "apache", 1, "p99_us", "ours-async in latency mode ÷ apache, p99, 1 connection (target ≤ 1x)"),
        ("ours-blocking-latency", "apache", 1, "rps", "ours-blocking in latency mode ÷ apache, calls/s, 1 connection (target ≥ 1.2x)"),
        ("ours-blocking-latency", "apache", 1, "p99_us", "ours-blocking in latency mode ÷ apache, p99, 1 connection (target ≤ 1x)"),
        ("ours-async-latency", "ours-async", 64, "rps", "ours-async in latency mode ÷ default, calls/s, 64 connections (the cost of polling)"),
        ("ours-blocking-latency", "ours-blocking", 64, "rps", "ours-blocking in latency mode ÷ default, calls/s, 64 connections (the cost of polling)"),
        ("ours-async-tls", "ours-async", 1, "rps", "ours-async over TLS ÷ plain, calls/s, 1 connection (the cost of TLS)"),
        ("ours-async-tls", "ours-async", 64, "rps", "ours-async over TLS ÷ plain, calls/s, 64 connections"),
        ("ours-blocking-tls", "ours-blocking", 1, "rps", "ours-blocking over TLS ÷ plain, calls/s, 1 connection"),
        ("ours-blocking-tls", "ours-blocking", 64, "rps", "ours-blocking over TLS ÷ plain, calls/s, 64 connections"),
        ("ours-async-http", "ours-async", 1, "rps", "ours-async over HTTP ÷ framed TCP, calls/s, 1 connection (the cost of HTTP)"),
        ("ours-async-http", "ours-async", 64, "rps", "ours-async over HTTP ÷ framed TCP, calls/s, 64 connections"),
        ("ours-blocking-http", "ours-blocking", 1, "rps", "ours-blocking over HTTP ÷ framed TCP, calls/s, 1 connection"),
        ("ours-blocking-http", "ours-blocking", 64, "rps", "ours-blocking over HTTP ÷ framed TCP, calls/s, 64 connections"),
    ]:
        print(f"- [{mode} client] {what}, per round: {per_round(mode, a, b, connections, key)}")
PY

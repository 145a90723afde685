#!/usr/bin/env bash
# Self-test of the RPC peers: tt_client.py against tt_server.py (both Apache's Python library)
# over the whole matrix of protocols, transports, THeader payloads, zlib and multiplexing.
#
#   interop/py/selftest_rpc.sh
#
# Env:
#   PYTHON  Python with Apache's `thrift` package
#           (default: <checkout>/target/pyenv/bin/python, made by scripts/setup.sh)
#   KEEP_LOGS=1  keep the directory with every server's and client's output
#
# Each cell starts a server on a free port (--port 0; the port is read from its
# `listening on` line), runs its client(s) against it and stops the server (SIGTERM). Exits
# non-zero if any cell fails.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PYTHON="${PYTHON:-$ROOT/target/pyenv/bin/python}"

if ! "$PYTHON" -c 'import thrift' >/dev/null 2>&1; then
    echo "selftest_rpc: Python package 'thrift' not importable by $PYTHON; run ./scripts/setup.sh" >&2
    exit 1
fi

LOGS="$(mktemp -d "${TMPDIR:-/tmp}/thrift-rpc-selftest.XXXXXX")"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [ "${KEEP_LOGS:-0}" = "1" ]; then
        echo "selftest_rpc: kept $LOGS" >&2
    else
        rm -rf "$LOGS"
    fi
}
trap cleanup EXIT

# start_server LOG ARGS...: starts tt_server.py, sets server_pid and port.
start_server() {
    local log="$1"
    shift
    "$PYTHON" "$HERE/tt_server.py" --port 0 "$@" >"$log.out" 2>"$log.err" &
    server_pid=$!
    port=""
    for _ in $(seq 100); do
        port="$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' "$log.out")"
        if [ -n "$port" ]; then
            return 0
        fi
        if ! kill -0 "$server_pid" 2>/dev/null; then
            break
        fi
        sleep 0.1
    done
    echo "selftest_rpc: server $* did not start:" >&2
    cat "$log.err" >&2
    return 1
}

stop_server() {
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}

cells=0
failed_cells=0

# cell NAME "SERVER ARGS" "CLIENT ARGS"...: one server; one client per CLIENT ARGS, all at once.
cell() {
    local name="$1" server_args="$2"
    shift 2
    local log="$LOGS/cell$cells"
    cells=$((cells + 1))
    # shellcheck disable=SC2086  # the argument lists are split on purpose
    if ! start_server "$log.server" $server_args; then
        failed_cells=$((failed_cells + 1))
        printf 'FAIL  %-46s server did not start\n' "$name"
        return
    fi
    local pids=() status=0 i client_args
    for client_args in "$@"; do
        # shellcheck disable=SC2086
        "$PYTHON" "$HERE/tt_client.py" --port "$port" $client_args >"$log.client${#pids[@]}" 2>&1 &
        pids+=($!)
    done
    for i in "${!pids[@]}"; do
        wait "${pids[$i]}" || status=1
    done
    stop_server
    local summary=""
    for i in "${!pids[@]}"; do
        summary="$summary${summary:+ | }$(tail -n 1 "$log.client$i")"
    done
    if [ "$status" -eq 0 ]; then
        printf 'PASS  %-46s %s\n' "$name" "$summary"
        return
    fi
    failed_cells=$((failed_cells + 1))
    printf 'FAIL  %-46s %s\n' "$name" "$summary"
    echo "      server: $server_args"
    i=0
    for client_args in "$@"; do
        echo "      client: $client_args"
        grep -v -e '^PASS ' -e '^SKIP ' "$log.client$i" | head -n 20 | sed 's/^/        /'
        i=$((i + 1))
    done
    # the server's log (distinct lines), without the traceback testException("TException")
    # causes on purpose
    grep -v -e 'Unexpected exception in handler' -e '^Traceback' -e '^  ' -e 'This is a TException' \
        "$log.server.err" | awk '!seen[$0]++' | head -n 10 | sed 's/^/      server log: /' || true
}

py_thrift="$("$PYTHON" -c 'import importlib.metadata as m; print(m.version("thrift"))')"
echo "selftest_rpc: python thrift $py_thrift, $(thrift --version)"

# Not JSON: Apache Python's TJSONProtocol writes NaN and the infinities bare (nan, inf), which its
# own reader refuses, so its client and server fail testDouble(inf) against each other. (Against
# the Rust peers, which read the bare form and write the quoted one, the matrix's JSON cells pass.)
for transport in buffered framed; do
    for protocol in binary compact; do
        cell "$protocol/$transport" "--protocol $protocol --transport $transport" \
            "--protocol $protocol --transport $transport"
    done
done
# THeader server and client. zlib: "calls" = the client compresses, "replies" = the server
# does. Header over framed is a THeader frame inside a framed-transport frame, as in Apache's
# cross test.
for payload in binary compact; do
    client="--protocol header --header-payload $payload"
    cell "header($payload)/buffered" "--protocol header" "$client"
    cell "header($payload)/buffered, zlib calls" "--protocol header" "$client --zlib"
    cell "header($payload)/buffered, zlib replies" "--protocol header --zlib" "$client"
    cell "header($payload)/buffered, zlib both ways" "--protocol header --zlib" "$client --zlib"
    cell "header($payload)/framed" "--protocol header --transport framed" "$client --transport framed"
done
# A THeader server answers plain binary/compact clients, framed or not, in their dialect.
for transport in buffered framed; do
    for protocol in binary compact; do
        cell "header server, $protocol/$transport client" "--protocol header" \
            "--protocol $protocol --transport $transport"
    done
done
# Multiplexed: ThriftTest and SecondService on one connection.
for protocol in binary compact; do
    for transport in buffered framed; do
        cell "multiplexed $protocol/$transport" "--multiplexed --protocol $protocol --transport $transport" \
            "--multiplexed --protocol $protocol --transport $transport"
    done
done
cell "multiplexed header(binary)/buffered" "--multiplexed --protocol header" \
    "--multiplexed --protocol header"
cell "multiplexed header(compact)/buffered, zlib" "--multiplexed --protocol header --zlib" \
    "--multiplexed --protocol header --header-payload compact --zlib"
# Several connections at once (one thread per connection).
cell "binary/buffered, 3 clients at once" "--protocol binary" \
    "--protocol binary" "--protocol binary" "--protocol binary"
cell "header server, 4 dialects at once" "--protocol header" \
    "--protocol header" "--protocol header --header-payload compact --zlib" \
    "--protocol binary" "--protocol compact --transport framed"

echo "selftest_rpc: $((cells - failed_cells))/$cells cells passed"
[ "$failed_cells" -eq 0 ]

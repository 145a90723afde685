#!/usr/bin/env bash
# The guide's first service (docs/src/first-service.md) run as its reader runs it: the
# blocking server, then the blocking client against it; then the async pair. The page shows
# the commands between the ANCHOR lines; CI runs this script (scripts/test.sh), so they stay
# true.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --quiet --locked -p thrift-examples --bins

# Waits until the example server listens on 127.0.0.1:9090 (thrift_examples::ADDR).
wait_for_server() {
    for _ in $(seq 300); do
        if (exec 3<>/dev/tcp/127.0.0.1/9090) 2>/dev/null; then return 0; fi
        sleep 0.1
    done
    echo "first-service: the server did not start" >&2
    return 1
}

# ANCHOR: blocking_server
cargo run -p thrift-examples --bin server &
# ANCHOR_END: blocking_server
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
wait_for_server
# ANCHOR: blocking_client
cargo run -p thrift-examples --bin client
# ANCHOR_END: blocking_client
kill "$server"
wait "$server" 2>/dev/null || true

# ANCHOR: async_server
cargo run -p thrift-examples --bin async-server &
# ANCHOR_END: async_server
server=$!
wait_for_server
# ANCHOR: async_client
cargo run -p thrift-examples --bin async-client
# ANCHOR_END: async_client
# The async server stops gracefully on Ctrl-C (SIGINT).
kill -INT "$server"
wait "$server"

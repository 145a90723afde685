#!/usr/bin/env bash
# The commands docs/src/real-services.md ends its sections with (between the ANCHOR lines).
# Each example starts the stand-in servers it calls, so each runs alone; CI runs this
# script, so the commands stay true.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --quiet --locked -p thrift-examples --bins

# ANCHOR: hive
cargo run -p thrift-examples --bin hive-metastore-sasl
# ANCHOR_END: hive

# ANCHOR: jaeger
cargo run -p thrift-examples --bin jaeger
# ANCHOR_END: jaeger

# ANCHOR: https
cargo run -p thrift-examples --bin https-client
# ANCHOR_END: https

# ANCHOR: axum
cargo run -p thrift-examples --bin axum-json-http
# ANCHOR_END: axum

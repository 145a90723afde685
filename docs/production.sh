#!/usr/bin/env bash
# The commands docs/src/production.md ends with (between the ANCHOR lines): the page's server
# (limits, latency mode, TLS, SASL with a proxy user) and its client; three servers behind a
# timeout and a concurrency limit, one client balancing over them. The graceful
# shutdown of the async server runs in first-service.sh. CI runs this script, so the
# command stays true.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --quiet --locked -p thrift-examples --bins

# ANCHOR: production
cargo run -p thrift-examples --bin production
# ANCHOR_END: production

# ANCHOR: tower
cargo run -p thrift-examples --bin tower
# ANCHOR_END: tower

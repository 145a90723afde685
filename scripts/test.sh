#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
cargo test --workspace --locked

# Interop with Apache Thrift: first the harness checks itself against Apache alone, then
# Apache's Python library and our generated code exchange every vector.
python3 interop/selftest.py
QUIET=1 interop/run.sh
QUIET=1 SHARED=1 interop/run.sh

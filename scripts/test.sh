#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/setup.sh

cargo fmt --all --check
cargo clippy --workspace --all-targets --locked -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
cargo test --workspace --locked

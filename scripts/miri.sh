#!/usr/bin/env bash
# Runs the runtime's unit tests under Miri (nightly toolchain; installs the miri component
# when missing), where they can run: the RPC framing tests (zlib inflating megabytes) and the
# hostile-input tests (thousands of truncations and random inputs) take hours in the
# interpreter and are left out; property tests run 4 cases each. About 15 minutes on 2
# cores, so not part of scripts/test.sh.
#   scripts/miri.sh [TEST FILTER...]
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "miri: no nightly toolchain; skipped"
    exit 0
fi
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup component add --toolchain nightly miri
fi
# Isolation off: proptest looks for its failure-persistence files.
PROPTEST_CASES=4 MIRIFLAGS="-Zmiri-disable-isolation" \
    cargo +nightly miri test -p thrift-runtime --lib --all-features -- \
    --skip tests::rpc --skip tests::hostile "$@"

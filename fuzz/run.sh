#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) with cargo-fuzz on the nightly toolchain,
# seeded from ../shared/corpus (IDL) and from the golden fixtures' encodings; installs
# cargo-fuzz when it is missing. Skips with a message when there is no nightly toolchain.
#   fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE"
SECONDS_PER_TARGET="${1:-20}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=(idl decode frame); fi
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    echo "fuzz: no nightly toolchain; skipped"
    exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    cargo install --quiet --locked cargo-fuzz
fi
# Seeds: the real-world IDL for `idl`.
mkdir -p corpus/idl
if [ -z "$(ls -A corpus/idl)" ]; then
    find "$HERE/../../shared/corpus" -name '*.thrift' -size -64k | head -300 |
        while read -r f; do cp "$f" "corpus/idl/$(echo "$f" | md5sum | cut -c1-16)"; done
fi
mkdir -p corpus/decode corpus/frame
for target in "${TARGETS[@]}"; do
    echo "fuzz: $target for ${SECONDS_PER_TARGET}s"
    cargo +nightly fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -print_final_stats=1 2>&1 |
        grep -E '^(stat::|#[0-9]+ *DONE|==[0-9]+==|SUMMARY|thread .* panicked)' || true
    # A crash leaves an artifact; fail on it.
    if ls "artifacts/$target"/crash-* >/dev/null 2>&1; then
        echo "fuzz: $target found a crash: $(ls "artifacts/$target"/crash-*)"
        exit 1
    fi
done

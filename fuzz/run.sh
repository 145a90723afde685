#!/usr/bin/env bash
# Runs every fuzz target for SECONDS (default 20) with cargo-fuzz on the nightly toolchain,
# seeded from ../shared/corpus (IDL), the golden fixtures' encodings and their services'
# calls; installs cargo-fuzz when it is missing. Skips with a message when there is no nightly toolchain.
#   fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE"
SECONDS_PER_TARGET="${1:-20}"
shift || true
TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=(idl decode frame server dynamic); fi
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
    # (awk, not head: head would close the pipe early, and pipefail fail the script)
    find "$HERE/../../shared/corpus" -name '*.thrift' -size -16k | sort | awk 'NR <= 300' |
        while read -r f; do cp "$f" "corpus/idl/$(md5sum < "$f" | cut -c1-16)"; done
fi
# Seeds: encoded fixture values for `decode`, calls in every transport for `frame` and
# `server` (written by the test crate's example, with the stable toolchain).
cargo run --quiet --locked --manifest-path "$HERE/../Cargo.toml" -p thrift-tests \
    --example fuzz_seeds -- "$HERE/corpus"
for target in "${TARGETS[@]}"; do
    echo "fuzz: $target for ${SECONDS_PER_TARGET}s"
    # Built first, with its errors shown (the run's output is filtered below).
    cargo +nightly fuzz build "$target"
    log="$(mktemp)"
    status=0
    # New units go to corpus/TARGET; the inputs of past failures (regressions/TARGET, checked
    # in and run by the normal suite too) are read as seeds.
    mkdir -p "regressions/$target" "corpus/$target"
    # `dynamic` reads the same bytes as `decode`: its seeds too.
    seeds=("corpus/$target" "regressions/$target")
    if [ "$target" = dynamic ]; then seeds+=(corpus/decode); fi
    cargo +nightly fuzz run "$target" "${seeds[@]}" -- \
        -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log" 2>&1 || status=$?
    grep -E '^(stat::|#[0-9]+[[:space:]]+DONE|==[0-9]+==|SUMMARY|thread .* panicked)' "$log" || true
    # A crash, leak, out-of-memory or timeout exits non-zero and leaves an artifact.
    if [ "$status" -ne 0 ] || ls "artifacts/$target"/{crash,leak,oom,timeout}-* >/dev/null 2>&1; then
        tail -n 40 "$log"
        echo "fuzz: $target failed (exit $status): $(ls "artifacts/$target" 2>/dev/null | grep -v '^slow-unit' | tr '\n' ' ')"
        exit 1
    fi
    rm -f "$log"
done

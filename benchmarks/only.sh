#!/usr/bin/env bash
# What `--only` saves: generates FILE in full and with `--only PATH` for each PATH, and prints
# the bytes of Rust and the time of a `cargo build` (dev profile, the runtime already built)
# of a crate holding each.
#   benchmarks/only.sh [-I DIR]... FILE PATH...
# e.g. Hive's metastore IDL (not in the corpus: fetch it from apache/hive,
# standalone-metastore/metastore-common/src/main/thrift/hive_metastore.thrift, with fb303 under
# share/fb303/if/ beside it):
#   benchmarks/only.sh hive_metastore.thrift hive_metastore.ThriftHiveMetastore.get_database \
#     hive_metastore.ThriftHiveMetastore.get_table hive_metastore.ThriftHiveMetastore.get_partitions
set -euo pipefail
cd "$(dirname "$0")/.."
includes=()
while [ "${1:-}" = "-I" ]; do
    includes+=(-I "$2")
    shift 2
done
file="$1"
shift
only=()
for path in "$@"; do
    only+=(--only "$path")
done
cargo build --quiet --release -p thrift-codegen --features cli
codegen="$PWD/target/release/thrift-codegen"
work="$PWD/target/only-bench"
runtime="$PWD/thrift-runtime"
rm -rf "$work"
for variant in full only; do
    crate="$work/$variant"
    mkdir -p "$crate/src"
    if [ "$variant" = full ]; then
        "$codegen" generate "${includes[@]}" -o "$crate/src/generated" "$file"
    else
        "$codegen" generate "${includes[@]}" "${only[@]}" -o "$crate/src/generated" "$file"
    fi
    printf '#[path = "generated/mod.rs"]\npub mod generated;\n' >"$crate/src/lib.rs"
    cat >"$crate/Cargo.toml" <<EOF
[package]
name = "only-bench-$variant"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
thrift-runtime = { path = "$runtime" }

[workspace]
EOF
done
export CARGO_TARGET_DIR="$work/target"
# The runtime once, so that the timed builds are the generated code's alone.
(cd "$work/full" && cargo build --quiet 2>/dev/null) || true
for variant in full only; do
    crate="$work/$variant"
    bytes=$(cat "$crate"/src/generated/*.rs | wc -c)
    (cd "$crate" && cargo clean --quiet -p "only-bench-$variant" 2>/dev/null || true)
    start=$(date +%s.%N)
    (cd "$crate" && cargo build --quiet)
    end=$(date +%s.%N)
    python3 -c "print(f'$variant: {$bytes:,} bytes of Rust, cargo build {$end - $start:.1f} s')"
done

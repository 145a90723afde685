#!/usr/bin/env bash
# Packages the three published crates as `cargo publish` would (each package built from its
# .crate file alone, the others through a local overlay, in dependency order) and prints what
# each holds and its size. Nothing is uploaded. ALLOW_DIRTY=1 packages uncommitted changes too.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
cargo package --locked --quiet ${ALLOW_DIRTY:+--allow-dirty} -p thrift-parser -p thrift-runtime -p thrift-codegen
VERSION="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)"
for crate in thrift-parser thrift-runtime thrift-codegen; do
    file="target/package/$crate-$VERSION.crate"
    echo "package: $file: $(du -k "$file" | cut -f1) KiB compressed, $(tar -tzf "$file" | wc -l) files"
done

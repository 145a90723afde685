#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
# Apache's Python library, installed by setup.sh into a virtual environment
PYTHON="${PYTHON:-$ROOT/target/pyenv/bin/python}"
export PYTHON

./scripts/setup.sh

cargo fmt --all --check
# Every feature: the CLI (`thrift-codegen/cli`), serde and miette of the parser, the runtime's
# RPC and string options. A user's default build is checked by tests/tests/first_hour.rs.
cargo clippy --workspace --all-targets --all-features --locked -- -D warnings
# The runtime's transports one at a time (code only one side uses must not warn without
# the other).
for features in blocking,tls,sasl,udp async,tls,sasl,udp async,http; do
    cargo clippy -p thrift-runtime --lib --no-default-features --features "$features" --locked -- -D warnings
done
# What a build.rs user compiles: the generator and parser with their default features.
cargo clippy -p thrift-codegen -p thrift-idl-parser --lib --locked -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features --locked --quiet
# The runtime's docs as a user crate enabling some features builds them: no warning either.
for features in "" blocking,sasl async,http,blocking blocking,tls,sasl,udp async,tls,sasl,udp; do
    RUSTDOCFLAGS="-D warnings" cargo doc -p thrift-runtime --no-deps --no-default-features \
        --features "$features" --locked --quiet
done
# The published crates' API, documented item by item.
RUSTDOCFLAGS="-D warnings -D missing_docs" cargo doc -p thrift-idl-parser -p thrift-runtime -p thrift-codegen \
    --no-deps --all-features --locked --quiet
cargo test --workspace --all-features --locked
# The three published crates package and build from their .crate files alone.
./scripts/package.sh
# The README's first quick-start command.
cargo run --quiet --locked -p thrift-examples >/dev/null

# The guide (docs/): rendered by mdBook with every link and include resolving, and the
# commands of its pages run: the first service (server and client, blocking then async), the
# mapping's options, the real services and production examples (each starts the stand-in
# servers it calls), the IDL tools as a CI job runs them.
target/tools/bin/mdbook build docs >/dev/null
python3 docs/check_links.py
for page in first-service mapping real-services production idl-tools; do
    "docs/$page.sh" >/dev/null
done

# Interop with Apache Thrift: first the harness checks itself against Apache alone, then
# Apache's Python library and our generated code exchange every vector. Last, the RPC test
# peers built on Apache's Python library check each other (interop/py).
"$PYTHON" interop/selftest.py
QUIET=1 interop/run.sh
QUIET=1 SHARED=1 interop/run.sh
QUIET=1 UNKNOWN=1 interop/run.sh
QUIET=1 ARENA=1 interop/run.sh
# The same vectors through `thrift-codegen decode` and `encode` (no generated code).
QUIET=1 REENCODE=interop/dynamic_reencode.py interop/run.sh
interop/py/selftest_rpc.sh
# RPC against Apache's Python, Java and C++ libraries, and Rust against Rust, blocking and
# async: every protocol, transport, THeader (zlib too), multiplexed, TLS, HTTP, SASL and
# refusal cell each library has (interop/rpc_matrix.sh; the cells run 4 at once).
QUIET=1 interop/rpc_matrix.sh

# Every fuzz target for 20 s (skipped with a message when there is no nightly toolchain).
fuzz/run.sh 20

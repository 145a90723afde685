#!/usr/bin/env bash
# The IDL tools as a CI job runs them (docs/src/idl-tools.md shows the commands between the
# ANCHOR lines): `check` on the examples' IDL, then `fmt --check`, `compat` and `decode` on a
# temporary copy of it, so that nothing in the checkout changes. Each step fails the script
# when the tool does not answer as the page says.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ANCHOR: cli
# Inside this repository. Elsewhere, install it once
# (cargo install --locked --path thrift-codegen --features cli) and call `thrift-codegen`.
thrift_codegen() {
    cargo run --quiet --locked -p thrift-codegen --features cli -- "$@"
}
# ANCHOR_END: cli
cargo build --quiet --locked -p thrift-codegen --features cli

# ANCHOR: check
# Every error and warning of each file and what it includes; exit 1 on any error.
thrift_codegen check -I examples/idl \
    examples/idl/tutorial.thrift examples/idl/jaeger/agent.thrift \
    examples/idl/hive/hive_metastore.thrift
# The same as one JSON object per line, for a CI annotation step.
thrift_codegen check --error-format json examples/idl/tutorial.thrift
# ANCHOR_END: check

cp -r examples/idl "$work/idl"

# ANCHOR: fmt
# Format once (in place), commit; from then on CI checks: exit 1 and a diff when a file is
# not formatted.
thrift_codegen fmt "$work"/idl/*.thrift
thrift_codegen fmt --check "$work"/idl/*.thrift
# ANCHOR_END: fmt

# ANCHOR: compat_setup
# The previous release of the IDL beside the working copy. In CI, from git:
#   git show "v0.1.0:idl/tutorial.thrift" > old/tutorial.thrift (and its includes)
mkdir -p "$work/old" "$work/new"
cp examples/idl/tutorial.thrift examples/idl/shared.thrift "$work/old/"
cp examples/idl/tutorial.thrift examples/idl/shared.thrift "$work/new/"
# ANCHOR_END: compat_setup

# ANCHOR: compat_safe
# A new optional field: safe, exit 0 (`--show-safe` prints it).
sed -i 's|^  5: map<string, binary> attachments$|&\n  6: optional string note|' \
    "$work/new/tutorial.thrift"
thrift_codegen compat --show-safe "$work/old/tutorial.thrift" "$work/new/tutorial.thrift"
# ANCHOR_END: compat_safe
grep -q '6: optional string note' "$work/new/tutorial.thrift"

# ANCHOR: compat_breaking
# Field 3 becomes an i64: old and new peers no longer agree on its bytes. Exit 1, which
# fails the CI job; `--fail-on wire` would let source-breaking changes through.
sed -i 's|^  3: Kind kind = Kind.OTHER$|  3: i64 kind|' "$work/new/tutorial.thrift"
status=0
thrift_codegen compat "$work/old/tutorial.thrift" "$work/new/tutorial.thrift" || status=$?
test "$status" -eq 1
# ANCHOR_END: compat_breaking

# ANCHOR: decode
# Bytes of a `Place` in the compact protocol (here made by `encode` from JSON; in practice
# captured from a socket, a file or a queue), then back to JSON, with no generated code.
cat >"$work/place.json" <<'EOF'
{"name": "Lighthouse", "location": {"lat": 48.383, "lon": -4.495}, "kind": "WORK",
 "tags": ["coast"], "attachments": {"photo.jpg": [255, 216, 255]}}
EOF
thrift_codegen encode --idl examples/idl/tutorial.thrift --type tutorial.Place \
    --protocol compact "$work/place.json" >"$work/place.bin"
thrift_codegen decode --idl examples/idl/tutorial.thrift --type tutorial.Place \
    --protocol compact "$work/place.bin"
# ANCHOR_END: decode

# ANCHOR: decode_message
# A whole framed call, as a client sends it on the wire: the header, then the arguments.
echo '{"name": "get", "type": "call", "seq": 1, "args": {"name": "Lighthouse"}}' \
    >"$work/call.json"
thrift_codegen encode --idl examples/idl/tutorial.thrift --message --framed \
    "$work/call.json" >"$work/call.bin"
thrift_codegen decode --idl examples/idl/tutorial.thrift --message --framed "$work/call.bin"
# ANCHOR_END: decode_message

# ANCHOR: decode_error
# Bytes cut short: a located error (`byte N: …`) and exit 1.
head -c 10 "$work/place.bin" >"$work/cut.bin"
status=0
thrift_codegen decode --idl examples/idl/tutorial.thrift --type tutorial.Place \
    --protocol compact "$work/cut.bin" || status=$?
test "$status" -eq 1
# ANCHOR_END: decode_error
echo "idl-tools: every step answered as docs/src/idl-tools.md says"

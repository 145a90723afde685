#!/usr/bin/env bash
# The commands docs/src/mapping.md shows (between the ANCHOR lines): the generated types in
# use, and the Rust one IDL struct becomes under each mapping option. CI runs this script, so
# the commands stay true.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --quiet --locked -p thrift-examples --bins
cargo build --quiet --locked -p thrift-codegen --features cli

# ANCHOR: types
cargo run -p thrift-examples
# ANCHOR_END: types

# ANCHOR: generate
# The Rust definition of one struct (`Place`, or its borrowing form `PlaceRef`) as
# `generate` writes it with the options given (`-o -`: everything on stdout).
show() {
    local name=$1
    shift
    cargo run --quiet --locked -p thrift-codegen --features cli -- \
        generate "$@" -o - examples/idl/tutorial.thrift |
        sed -n "/pub struct $name[< {]/,/^ *}\$/p"
}
show Place                       # String, Vec<u8>, BTreeMap: the defaults
show Place --strings bytes       # ByteString, Bytes
show Place --strings compact     # CompactString
show Place --collections hash    # HashMap
show PlaceRef                    # &'de str, &'de [u8], Vec of pairs
show PlaceRef --arena            # slices in a thrift_runtime::Arena
# ANCHOR_END: generate

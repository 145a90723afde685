#!/usr/bin/env bash
# Apache Thrift interop check for the Rust Thrift toolchain.
#
#   interop/run.sh                 # uses the Rust re-encoder (cargo run ... thrift-reencode)
#   REENCODE=interop/python_reencode.py interop/run.sh   # self-test with Apache Python
#
# Env:
#   REENCODE         re-encoder command, run from the workspace root with
#                    VECTORS_DIR OUT_DIR appended
#                    (default: cargo run --release -p thrift-examples --bin thrift-reencode --)
#   THRIFT_TEST_IDL  ThriftTest.thrift (default: the shared corpus beside the checkout,
#                    <checkout>/../shared/corpus/apache__thrift/test/ThriftTest.thrift)
#   THRIFT           thrift compiler (default: thrift)
#   PYTHON           Python with Apache's `thrift` package (default: the virtual environment
#                    scripts/setup.sh creates, <checkout>/target/pyenv/bin/python); its
#                    directory is put first on PATH, so `python3` scripts given as REENCODE
#                    run with it too
#   KEEP_TMP=1       keep the temporary vectors/outputs directory for inspection
#   QUIET=1          compare.py prints failures only
#   SHARED=1         re-encode with the Strings::Bytes + Collections::Hash types
#                    (thrift-reencode --shared) and compare values only (hash order)
#   ARENA=1          re-encode with the arena-mode borrowing forms (thrift-reencode --arena,
#                    `decode_in`); their sets and maps keep the input's order
#   UNKNOWN=1        re-encode with the types that keep unknown fields
#                    (thrift-reencode --keep-unknown): vectors whose only departure from
#                    canonical is their unknown fields must then come back byte for byte
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
THRIFT="${THRIFT:-thrift}"
PYTHON="${PYTHON:-$ROOT/target/pyenv/bin/python}"
THRIFT_TEST_IDL="${THRIFT_TEST_IDL:-$ROOT/../shared/corpus/apache__thrift/test/ThriftTest.thrift}"
REENCODE="${REENCODE:-cargo run --quiet -p thrift-interop --bin thrift-reencode --}"
if [ "${SHARED:-0}" = "1" ]; then
    REENCODE="$REENCODE --shared"
fi
if [ "${UNKNOWN:-0}" = "1" ]; then
    REENCODE="$REENCODE --keep-unknown"
fi
if [ "${ARENA:-0}" = "1" ]; then
    REENCODE="$REENCODE --arena"
fi

# absolute path of an existing file (the re-encoder runs from the workspace root)
absolute() {
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

missing=0
if ! command -v "$THRIFT" >/dev/null 2>&1; then
    echo "interop: Apache Thrift compiler '$THRIFT' not found." >&2
    echo "         install it (project setup): apt-get install -y thrift-compiler" >&2
    missing=1
fi
if ! "$PYTHON" -c 'import thrift.protocol.TCompactProtocol' >/dev/null 2>&1; then
    echo "interop: Python package 'thrift' (Apache Thrift runtime) not importable by $PYTHON." >&2
    echo "         install it (project setup): ./scripts/setup.sh" >&2
    missing=1
fi
if [ ! -f "$THRIFT_TEST_IDL" ]; then
    echo "interop: ThriftTest.thrift not found at $THRIFT_TEST_IDL (set THRIFT_TEST_IDL)." >&2
    missing=1
fi
if [ "$missing" -ne 0 ]; then
    exit 1
fi
PYTHON="$(absolute "$(command -v "$PYTHON")")"
THRIFT_TEST_IDL="$(absolute "$THRIFT_TEST_IDL")"
PATH="$(dirname "$PYTHON"):$PATH"
export THRIFT THRIFT_TEST_IDL PATH

echo "interop: $("$THRIFT" --version), python thrift $("$PYTHON" -c 'import importlib.metadata as m; print(m.version("thrift"))' 2>/dev/null || echo '?')"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/thrift-interop.XXXXXX")"
cleanup() {
    if [ "${KEEP_TMP:-0}" = "1" ]; then
        echo "interop: kept $TMP" >&2
    else
        rm -rf "$TMP"
    fi
}
trap cleanup EXIT

VECTORS="$TMP/vectors"
OUT="$TMP/out"
mkdir -p "$VECTORS" "$OUT"

"$PYTHON" "$HERE/make_vectors.py" "$VECTORS"

echo "interop: re-encoding with: $REENCODE"
reencode_status=0
(cd "$ROOT" && bash -c "$REENCODE \"\$@\"" reencode "$VECTORS" "$OUT") || reencode_status=$?
if [ "$reencode_status" -ne 0 ]; then
    echo "interop: re-encoder exited with status $reencode_status (comparing what it produced)" >&2
fi

compare_status=0
compare_args=()
if [ "${QUIET:-0}" = "1" ]; then
    compare_args+=(--quiet)
fi
if [ "${SHARED:-0}" = "1" ]; then
    compare_args+=(--values-only)
fi
if [ "${UNKNOWN:-0}" = "1" ]; then
    compare_args+=(--keep-unknown)
fi
"$PYTHON" "$HERE/compare.py" ${compare_args[@]+"${compare_args[@]}"} "$VECTORS" "$OUT" || compare_status=$?

if [ "$compare_status" -ne 0 ] || [ "$reencode_status" -ne 0 ]; then
    echo "interop: FAILED (re-encoder status $reencode_status, compare status $compare_status)" >&2
    exit 1
fi
echo "interop: OK"

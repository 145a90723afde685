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
#   THRIFT_TEST_IDL  ThriftTest.thrift (default: /work/shared/corpus/apache__thrift/test/ThriftTest.thrift)
#   THRIFT           thrift compiler (default: thrift)
#   KEEP_TMP=1       keep the temporary vectors/outputs directory for inspection
#   QUIET=1          compare.py prints failures only
#   SHARED=1         re-encode with the Strings::Bytes + Collections::Hash types
#                    (thrift-reencode --shared) and compare values only (hash order)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
THRIFT="${THRIFT:-thrift}"
REENCODE="${REENCODE:-cargo run --quiet -p thrift-interop --bin thrift-reencode --}"
if [ "${SHARED:-0}" = "1" ]; then
    REENCODE="$REENCODE --shared"
fi

missing=0
if ! command -v "$THRIFT" >/dev/null 2>&1; then
    echo "interop: Apache Thrift compiler '$THRIFT' not found." >&2
    echo "         install it (project setup): apt-get install -y thrift-compiler" >&2
    missing=1
fi
if ! python3 -c 'import thrift.protocol.TCompactProtocol' >/dev/null 2>&1; then
    echo "interop: Python package 'thrift' (Apache Thrift runtime) not importable by python3." >&2
    echo "         install it (project setup): python3 -m pip install thrift" >&2
    missing=1
fi
if [ "$missing" -ne 0 ]; then
    exit 1
fi
export THRIFT

echo "interop: $("$THRIFT" --version), python thrift $(python3 -c 'import importlib.metadata as m; print(m.version("thrift"))' 2>/dev/null || echo '?')"

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

python3 "$HERE/make_vectors.py" "$VECTORS"

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
python3 "$HERE/compare.py" ${compare_args[@]+"${compare_args[@]}"} "$VECTORS" "$OUT" || compare_status=$?

if [ "$compare_status" -ne 0 ] || [ "$reencode_status" -ne 0 ]; then
    echo "interop: FAILED (re-encoder status $reencode_status, compare status $compare_status)" >&2
    exit 1
fi
echo "interop: OK"

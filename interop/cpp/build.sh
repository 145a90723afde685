#!/usr/bin/env bash
# Builds the C++ ThriftTest peer (tt_server, tt_client) on Apache Thrift's C++ library from
# Debian (libthrift-dev 0.17) into <checkout>/target/interop-cpp:
#   1. setup.sh installs what is missing (Debian packages)
#   2. Apache's ThriftTest.thrift (shared corpus beside the checkout, or THRIFT_TEST_IDL) is
#      made digestible for thrift 0.17 by interop/ttgen.py's derive_idl (no uuid), and
#      `thrift --gen cpp` generates target/interop-cpp/gen
#   3. make -j2 compiles with g++ -O1 (only what changed: generated files are rewritten only
#      when their content changes)
# Env: PYTHON (default <checkout>/target/pyenv/bin/python, made by scripts/setup.sh), THRIFT
# (default thrift), THRIFT_TEST_IDL, JOBS (make -j, default 2), CXXFLAGS (default -O1).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/target/interop-cpp"
GEN="$OUT/gen"
PYTHON="${PYTHON:-$ROOT/target/pyenv/bin/python}"
THRIFT="${THRIFT:-thrift}"
IDL="${THRIFT_TEST_IDL:-$ROOT/../shared/corpus/apache__thrift/test/ThriftTest.thrift}"

"$HERE/setup.sh"

if [ ! -x "$PYTHON" ]; then
    echo "build.sh: no $PYTHON (interop/ttgen.py needs Apache's Python thrift): run scripts/setup.sh" >&2
    exit 1
fi
if [ ! -f "$IDL" ]; then
    echo "build.sh: no ThriftTest.thrift at $IDL (set THRIFT_TEST_IDL)" >&2
    exit 1
fi

mkdir -p "$GEN"
STAGE="$(mktemp -d "$OUT/stage.XXXXXX")"
trap 'rm -rf "$STAGE"' EXIT

# The IDL thrift 0.17 compiles (interop/ttgen.py: uuid field as binary, testUuid removed).
"$PYTHON" - "$ROOT/interop" "$IDL" "$STAGE/ThriftTest.thrift" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import ttgen
with open(sys.argv[2]) as f:
    text, _notes = ttgen.derive_idl(f.read())
with open(sys.argv[3], "w") as f:
    f.write(text)
PY
"$THRIFT" --version >"$STAGE/thrift.version"
mkdir -p "$STAGE/gen"
# Warnings for the IDL's deliberately unknown namespaces (`namespace noexist ...`) are noise.
"$THRIFT" --gen cpp -out "$STAGE/gen" "$STAGE/ThriftTest.thrift" >"$STAGE/thrift.log" 2>&1 || {
    cat "$STAGE/thrift.log" >&2
    exit 1
}
# Only what changed is rewritten (make then skips the objects whose sources are the same).
for f in "$STAGE"/gen/*.cpp "$STAGE"/gen/*.h "$STAGE/ThriftTest.thrift" "$STAGE/thrift.version"; do
    case "$f" in *.skeleton.cpp) continue ;; esac
    target="$GEN/$(basename "$f")"
    cmp -s "$f" "$target" 2>/dev/null || cp "$f" "$target"
done

make --no-print-directory -s -f "$HERE/Makefile" OUT="$OUT" -j"${JOBS:-2}"
echo "build.sh: $OUT/tt_server, $OUT/tt_client ($("$THRIFT" --version), libthrift $(pkg-config --modversion thrift))" >&2

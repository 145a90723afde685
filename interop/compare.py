#!/usr/bin/env python3
"""Check re-encoded vectors against the originals with Apache Thrift (Python).

usage: compare.py [--quiet] [--values-only | --keep-unknown] VECTORS_DIR OUT_DIR

For every entry of VECTORS_DIR/index.json:
  * OUT_DIR/<file> must exist and decode (Apache Python, declared type and
    protocol) with no trailing bytes;
  * its value must equal the value Apache decodes from the ORIGINAL vector as the
    same ThriftTest type (so unknown fields are dropped on both sides); doubles
    compare NaN == NaN and -0.0 != 0.0; sets/maps are order-insensitive;
    on both sides, absent fields of DEFAULT requiredness (neither required nor
    optional; per Apache's `thrift --gen json`) count as their IDL default, or
    else their type's zero value (ttlib.normalize; see README);
  * every known field and every container header in the output must carry the
    wire type the schema prescribes (Apache's Python readers do not check
    container element types themselves);
  * if the entry is "canonical", the bytes must be identical too (not with
    --values-only: for re-encoders that write maps and sets in hash order);
  * if the entry is "unknown_canonical" (canonical but for its unknown fields):
    with --keep-unknown (a re-encoder keeping unknown fields) the bytes must be
    identical; otherwise they must be what Apache writes for the value it decodes
    (the unknown fields dropped, nothing else changed).
Prints one PASS/FAIL line per vector (--quiet: failures only) and a summary;
exits 1 on any failure.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttlib  # noqa: E402


def hint(orig, out, v):
    """Byte-level hint (only meaningful when the bytes are expected to match)."""
    if not v.get("canonical"):
        return ""
    return "\n        " + (ttlib.byte_diff(orig, out) or "bytes identical")


def check(v, vdir, odir, values_only=False, keep_unknown=False):
    """Return (ok, note)."""
    with open(os.path.join(vdir, v["file"]), "rb") as f:
        orig = f.read()
    opath = os.path.join(odir, v["file"])
    if not os.path.exists(opath):
        return False, "missing output %s (re-encoder skipped or failed on it)" % opath
    with open(opath, "rb") as f:
        out = f.read()
    try:
        expected = ttlib.decode(orig, v["type"], v["protocol"])
    except Exception as e:
        return False, "HARNESS BUG: original does not decode: %s: %s" % (type(e).__name__, e)
    try:
        actual = ttlib.decode(out, v["type"], v["protocol"])
    except Exception as e:
        return False, "output does not decode as %s/%s: %s%s" % (
            v["type"], v["protocol"], e, hint(orig, out, v))
    wt = ttlib.wire_type_problem(out, v["type"], v["protocol"])
    if wt:
        return False, "wrong wire type in output: %s%s" % (wt, hint(orig, out, v))
    # Default requiredness (IDL spec, "default requiredness (implicit)"): a reader
    # may get such a field or not, a writer may (Apache Python) or may not omit
    # it. Both sides: absent req_out field -> IDL default / zero value.
    d = ttlib.diff(ttlib.normalize(expected), ttlib.normalize(actual))
    if d:
        return False, "value differs (expected vs re-encoded): %s%s" % (d, hint(orig, out, v))
    if values_only:
        return True, "value equal (values only)"
    if v.get("unknown_canonical"):
        if keep_unknown:
            bd = ttlib.byte_diff(orig, out)
            if bd:
                return False, "unknown fields not kept byte-for-byte: " + bd
            return True, "bytes identical, unknown fields kept"
        dropped = ttlib.encode(expected, v["protocol"])
        bd = ttlib.byte_diff(dropped, out)
        if bd:
            return False, "unknown fields not dropped as Apache drops them: " + bd
        return True, "unknown fields dropped, the rest identical"
    if v.get("canonical"):
        bd = ttlib.byte_diff(orig, out)
        if bd:
            return False, "canonical vector not reproduced byte-for-byte (value is equal): " + bd
        return True, "bytes identical"
    return True, "value equal (non-canonical: %s)" % v.get("non_canonical_reason", "?")


def main(argv):
    args = argv[1:]
    quiet = "--quiet" in args
    values_only = "--values-only" in args
    keep_unknown = "--keep-unknown" in args
    args = [a for a in args if a not in ("--quiet", "--values-only", "--keep-unknown")]
    if len(args) != 2:
        sys.stderr.write("usage: compare.py [--quiet] [--values-only | --keep-unknown] VECTORS_DIR OUT_DIR\n")
        return 2
    vdir, odir = args
    with open(os.path.join(vdir, "index.json")) as f:
        vectors = json.load(f)["vectors"]
    if not vectors:
        print("FAIL: index.json lists no vectors")
        return 1
    failures = []
    for v in vectors:
        try:
            ok, note = check(v, vdir, odir, values_only, keep_unknown)
        except Exception as e:
            ok, note = False, "harness error: %s: %s" % (type(e).__name__, e)
        label = "%-48s %-22s %-8s" % (v["file"], v["type"], v["protocol"])
        if ok:
            if not quiet:
                print("PASS  %s %s" % (label, note))
        else:
            failures.append(v["file"])
            print("FAIL  %s %s" % (label, note))
    n = len(vectors)
    canon = sum(1 for v in vectors if v.get("canonical"))
    unknown = sum(1 for v in vectors if v.get("unknown_canonical"))
    print("-" * 78)
    print("%d vectors (%d canonical, %d canonical but for unknown fields): %d passed, %d failed"
          % (n, canon, unknown, n - len(failures), len(failures)))
    if failures:
        by_type = {}
        for v in vectors:
            if v["file"] in failures:
                by_type.setdefault(v["type"], []).append(v["file"])
        for t in sorted(by_type):
            print("  failed %-22s %s" % (t, " ".join(by_type[t])))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

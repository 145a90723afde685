#!/usr/bin/env python3
"""Self-test of the interop harness without the Rust re-encoder.

1. Positive: interop/run.sh with REENCODE=interop/python_reencode.py must pass.
2. Negative: corrupt Apache-Python re-encoded outputs in several ways and
   check that compare.py reports exactly those vectors as FAIL (exit 1);
   includes the default-requiredness normalization (zero-filled absent fields
   pass, non-zero values / written optional fields / omitted fields of
   canonical vectors fail).

usage: target/pyenv/bin/python interop/selftest.py   (a Python with Apache's thrift package)
"""

import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PY = sys.executable


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


def main():
    ok = True
    # run.sh uses this interpreter too (PYTHON), also for the re-encoder script
    env = dict(os.environ, REENCODE=os.path.join(HERE, "python_reencode.py"), QUIET="1",
               PYTHON=PY)
    r = run(["bash", os.path.join(HERE, "run.sh")], env=env)
    print("positive run (python re-encoder): exit %d" % r.returncode)
    if r.returncode != 0:
        print(r.stdout)
        ok = False

    tmp = tempfile.mkdtemp(prefix="thrift-interop-selftest-")
    try:
        vec, out = os.path.join(tmp, "v"), os.path.join(tmp, "o")
        subprocess.check_call([PY, os.path.join(HERE, "make_vectors.py"), vec], stdout=subprocess.DEVNULL)
        subprocess.check_call([PY, os.path.join(HERE, "python_reencode.py"), vec, out],
                              stderr=subprocess.DEVNULL)
        index = {v["file"]: v for v in json.load(open(os.path.join(vec, "index.json")))["vectors"]}

        def mutate(name, fn):
            p = os.path.join(out, name)
            with open(p, "rb") as f:
                data = bytearray(f.read())
            fn(data)
            with open(p, "wb") as f:
                f.write(bytes(data))

        expected = {}
        # a) one flipped byte inside a string of a canonical vector -> value differs
        def flip_last_string_byte(d):
            i = d.rfind(b"!")      # "Hello, Thrift!"
            d[i] ^= 0x01
        mutate("xtruct_min.binary.bin", flip_last_string_byte)
        expected["xtruct_min.binary.bin"] = "value differs"
        # b) NaN with another payload: equal value (NaN == NaN), different bytes
        def other_nan(d):
            i = d.find(struct.pack("<d", float("nan")))
            d[i:i + 8] = bytes.fromhex("7ff8000000000001")[::-1]
        mutate("double_nan.compact.bin", other_nan)
        expected["double_nan.compact.bin"] = "byte-for-byte"
        # c) -0.0 written as +0.0 in a non-canonical-looking place: value must differ
        def pos_zero(d):
            i = d.find(struct.pack(">d", -0.0))
            d[i] = 0
        mutate("double_neg_zero.binary.bin", pos_zero)
        expected["double_neg_zero.binary.bin"] = "value differs"
        # d) wrong element type in an empty list of a NON-canonical vector
        def empty_list_type(d):
            # compact CrazyNesting: first empty list<map> header (size 0, etype MAP=0x0b)
            i = d.find(b"\x0b", 2)
            d[i] ^= 0x01
        mutate("crazy_full.compact.bin", empty_list_type)
        expected["crazy_full.compact.bin"] = ""
        # e) trailing garbage
        mutate("insanity_all_enum_keys.binary.bin", lambda d: d.extend(b"\x00"))
        expected["insanity_all_enum_keys.binary.bin"] = "trailing"
        # f) missing output
        os.remove(os.path.join(out, "unknown_xtruct.compact.bin"))
        expected["unknown_xtruct.compact.bin"] = "missing output"
        # g) byte flip in the middle of the 256 KiB binary
        def flip_mid(d):
            d[len(d) // 2] ^= 0x80
        mutate("crazy_big_binary.compact.bin", flip_mid)
        expected["crazy_big_binary.compact.bin"] = "value differs"

        # default requiredness (see README): replace outputs with other encodings
        sys.path.insert(0, HERE)
        import ttlib
        tt = ttlib.tt

        def replace(name, obj):
            with open(os.path.join(out, name), "wb") as f:
                f.write(ttlib.encode(obj, index[name]["protocol"]))
        # h) absent default-requiredness fields written as zero values: must PASS
        replace("xtruct_no_fields.binary.bin", tt.Xtruct("", 0, 0, 0))
        replace("one_field_absent.compact.bin", tt.OneField(tt.EmptyStruct()))
        replace("bools_absent.binary.bin", tt.Bools(False, False))
        # i) ... but written as a non-zero value: value differs
        replace("xtruct_no_fields.compact.bin", tt.Xtruct("", 0, 1, 0))
        expected["xtruct_no_fields.compact.bin"] = "value differs"
        # j) an absent OPTIONAL field written (zero value): not normalized, value differs
        replace("struct_b_required_only.binary.bin",
                tt.StructB(aa=tt.StructA(""), ab=tt.StructA("ab")))
        expected["struct_b_required_only.binary.bin"] = "value differs"
        # k) canonical vector, a default-requiredness field that was written is
        #    omitted: value equal after normalization, but the bytes must match
        replace("xtruct_zero.compact.bin", tt.Xtruct("", 0, None, 0))
        expected["xtruct_zero.compact.bin"] = "byte-for-byte"

        r = run([PY, os.path.join(HERE, "compare.py"), "--quiet", vec, out])
        fails = {}
        for line in r.stdout.splitlines():
            if line.startswith("FAIL  "):
                fails[line.split()[1]] = line
        print("negative run: compare.py exit %d, %d FAIL line(s)" % (r.returncode, len(fails)))
        if r.returncode != 1:
            ok = False
            print("  expected exit status 1")
        for f, needle in sorted(expected.items()):
            line = fails.get(f)
            good = line is not None and needle in line
            print("  %-5s %s%s" % ("ok" if good else "BAD", f, "" if good else "  got: %r" % line))
            ok &= good
        extra = set(fails) - set(expected)
        if extra:
            ok = False
            print("  unexpected failures: %s" % sorted(extra))
        if not ok:
            print(r.stdout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("selftest: %s" % ("OK" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

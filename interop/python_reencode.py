#!/usr/bin/env python3
"""Reference re-encoder: the same contract as the Rust `thrift-reencode`, but
implemented with Apache Thrift's Python library (decode + encode).

usage: python_reencode.py VECTORS_DIR OUT_DIR

Used to self-test the harness:  REENCODE=interop/python_reencode.py interop/run.sh
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttlib  # noqa: E402


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: python_reencode.py VECTORS_DIR OUT_DIR\n")
        return 2
    vdir, odir = argv[1], argv[2]
    os.makedirs(odir, exist_ok=True)
    with open(os.path.join(vdir, "index.json")) as f:
        vectors = json.load(f)["vectors"]
    failed = 0
    for v in vectors:
        try:
            with open(os.path.join(vdir, v["file"]), "rb") as f:
                data = f.read()
            value = ttlib.decode(data, v["type"], v["protocol"])
            out = ttlib.encode(value, v["protocol"])
        except Exception as e:  # report and skip, like the Rust tool
            failed += 1
            sys.stderr.write("%s: cannot re-encode as %s/%s: %s: %s\n"
                             % (v["file"], v["type"], v["protocol"], type(e).__name__, e))
            continue
        with open(os.path.join(odir, v["file"]), "wb") as f:
            f.write(out)
    sys.stderr.write("python_reencode: %d/%d re-encoded\n" % (len(vectors) - failed, len(vectors)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

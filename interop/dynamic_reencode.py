#!/usr/bin/env python3
"""Re-encoder for interop/run.sh through `thrift-codegen decode` and `encode`: each vector
is decoded to JSON with ThriftTest.thrift and no generated code, and the JSON encoded again
with the same protocol; compare.py then checks the bytes against Apache's Python.

usage: REENCODE=interop/dynamic_reencode.py interop/run.sh
   or: dynamic_reencode.py VECTORS_DIR OUT_DIR   (from the workspace root)

THRIFT_TEST_IDL names ThriftTest.thrift (default: the shared corpus beside the checkout);
THRIFT_CODEGEN the binary (default: built here, target/debug/thrift-codegen).
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    vdir, odir = argv[1], argv[2]
    idl = os.environ.get("THRIFT_TEST_IDL") or os.path.join(
        ROOT, "..", "shared", "corpus", "apache__thrift", "test", "ThriftTest.thrift")
    codegen = os.environ.get("THRIFT_CODEGEN")
    if not codegen:
        subprocess.run(["cargo", "build", "--quiet", "-p", "thrift-codegen", "--features", "cli"],
                       cwd=ROOT, check=True)
        codegen = os.path.join(ROOT, "target", "debug", "thrift-codegen")
    with open(os.path.join(vdir, "index.json")) as f:
        vectors = json.load(f)["vectors"]
    os.makedirs(odir, exist_ok=True)
    failed = 0
    for v in vectors:
        common = ["--idl", idl, "--type", v["type"], "--protocol", v["protocol"]]
        decoded = subprocess.run([codegen, "decode", *common, os.path.join(vdir, v["file"])],
                                 capture_output=True)
        if decoded.returncode != 0:
            print(f"{v['file']}: decode: {decoded.stderr.decode().strip()}", file=sys.stderr)
            failed += 1
            continue
        encoded = subprocess.run([codegen, "encode", *common], input=decoded.stdout,
                                 capture_output=True)
        if encoded.returncode != 0:
            print(f"{v['file']}: encode: {encoded.stderr.decode().strip()}", file=sys.stderr)
            failed += 1
            continue
        with open(os.path.join(odir, v["file"]), "wb") as out:
            out.write(encoded.stdout)
    print(f"dynamic_reencode: {len(vectors) - failed} of {len(vectors)} vectors re-encoded",
          file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

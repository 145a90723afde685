"""Apache Thrift's Python code for ThriftTest.thrift, generated at run time.

Apache's compiler (Debian's thrift-compiler, 0.17) compiles a derived copy of
Apache's test/ThriftTest.thrift (see derive_idl) into a private temporary
directory, which is put on sys.path and removed at exit. Nothing generated is
ever written into the repository.

Used by the serialization harness (ttlib.py) and by the RPC test peers
(py/tt_server.py, py/tt_client.py):

    import ttgen
    gen = ttgen.generate()        # once per process
    from ThriftTest import ThriftTest, SecondService, ttypes

Environment:
  THRIFT_TEST_IDL  path of ThriftTest.thrift (default: the shared corpus beside
                   the checkout, ../shared/corpus/apache__thrift/test/ThriftTest.thrift)
  THRIFT           thrift compiler (default: `thrift` on PATH)
"""

import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

from thrift.Thrift import TType
from thrift.protocol import TBinaryProtocol, TCompactProtocol

HERE = os.path.dirname(os.path.abspath(__file__))
# <checkout>/interop/../../shared: the shared corpus lives beside the checkout.
DEFAULT_IDL = os.path.normpath(os.path.join(
    HERE, "..", "..", "shared", "corpus", "apache__thrift", "test", "ThriftTest.thrift"))

# Does the installed Python runtime know the uuid type (added in Apache 0.19/0.20)?
PY_HAS_UUID = (hasattr(TType, "UUID")
               and hasattr(TBinaryProtocol.TBinaryProtocol, "writeUuid")
               and hasattr(TCompactProtocol.TCompactProtocol, "writeUuid"))


def thrift_bin():
    return os.environ.get("THRIFT", "thrift")


def run_thrift(args):
    """Run Apache's compiler; exit with its output if it fails."""
    r = subprocess.run([thrift_bin()] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        raise SystemExit("thrift %s failed:\n%s%s" % (" ".join(args), r.stdout, r.stderr))


def derive_idl(src_text):
    """Return (text, notes): ThriftTest.thrift made digestible for thrift 0.17.

    thrift 0.17 does not know the `uuid` type. The struct field
    `5: uuid uuid_field` (CrazyNesting) is rewritten to `binary`, and is
    patched back to a real uuid field in the generated Python afterwards (if
    the Python runtime supports uuid, see patch_uuid_field). The `testUuid`
    service method is removed, so the generated ThriftTest service lacks it."""
    notes = []
    out = []
    for line in src_text.splitlines(keepends=True):
        if re.match(r"^\s*uuid\s+testUuid\s*\(", line):
            notes.append("removed service method: " + line.strip())
            continue
        m = re.match(r"^(\s*-?\d+\s*:\s*(?:required\s+|optional\s+)?)uuid(\s+\w+.*)$", line, re.S)
        if m:
            notes.append("uuid field rewritten to binary: " + line.strip())
            line = m.group(1) + "binary" + m.group(2)
        out.append(line)
    text = "".join(out)
    # any remaining use of uuid as a type would break thrift 0.17
    for ln in text.splitlines():
        code = ln.split("//")[0]
        if code.lstrip().startswith("*") or code.lstrip().startswith("/*"):
            continue
        if re.search(r"(^|[\s<,(])uuid[\s>,]", code):
            raise RuntimeError("unhandled uuid use in ThriftTest.thrift: %r" % ln)
    return text, notes


def patch_uuid_field(ttypes_path):
    """Turn CrazyNesting.uuid_field (generated as binary) back into a uuid field."""
    with open(ttypes_path) as f:
        src = f.read()
    reps = [
        ("                if ftype == TType.STRING:\n"
         "                    self.uuid_field = iprot.readBinary()\n",
         "                if ftype == TType.UUID:\n"
         "                    self.uuid_field = iprot.readUuid()\n"),
        ("            oprot.writeFieldBegin('uuid_field', TType.STRING, 5)\n"
         "            oprot.writeBinary(self.uuid_field)\n",
         "            oprot.writeFieldBegin('uuid_field', TType.UUID, 5)\n"
         "            oprot.writeUuid(self.uuid_field)\n"),
        ("    (5, TType.STRING, 'uuid_field', 'BINARY', None, ),  # 5\n",
         "    (5, TType.UUID, 'uuid_field', None, None, ),  # 5\n"),
    ]
    for old, new in reps:
        n = src.count(old)
        if n != 1:
            raise RuntimeError("uuid patch of generated code failed (%d matches for %r)" % (n, old[:60]))
        src = src.replace(old, new)
    with open(ttypes_path, "w") as f:
        f.write(src)


class Generated(object):
    """ThriftTest.thrift compiled with `thrift --gen py` into a temp directory.

    Attributes:
      dir               the temporary directory (removed at exit)
      derived_idl       the derived ThriftTest.thrift inside it
      gen_dir           the generated Python (on sys.path): package ThriftTest
      idl_notes         what derive_idl changed
      compiler_version  `thrift --version`
      uuid_patched      CrazyNesting.uuid_field is a real uuid field again
    """

    def __init__(self):
        idl = os.environ.get("THRIFT_TEST_IDL", DEFAULT_IDL)
        if not os.path.isfile(idl):
            raise SystemExit("ThriftTest.thrift not found at %s (set THRIFT_TEST_IDL)" % idl)
        self.dir = tempfile.mkdtemp(prefix="thrift-interop-py-")
        atexit.register(shutil.rmtree, self.dir, True)
        with open(idl) as f:
            text, self.idl_notes = derive_idl(f.read())
        self.derived_idl = os.path.join(self.dir, "ThriftTest.thrift")
        with open(self.derived_idl, "w") as f:
            f.write(text)
        self.gen_dir = os.path.join(self.dir, "gen")
        os.mkdir(self.gen_dir)
        self.compiler_version = subprocess.run(
            [thrift_bin(), "--version"], stdout=subprocess.PIPE,
            universal_newlines=True).stdout.strip()
        run_thrift(["--gen", "py", "-out", self.gen_dir, self.derived_idl])
        self.uuid_patched = False
        if PY_HAS_UUID:
            patch_uuid_field(os.path.join(self.gen_dir, "ThriftTest", "ttypes.py"))
            self.uuid_patched = True
        sys.path.insert(0, self.gen_dir)


_generated = None


def generate():
    """Generate ThriftTest's Python code (once per process) and return the Generated."""
    global _generated
    if _generated is None:
        _generated = Generated()
    return _generated

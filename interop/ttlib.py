"""Shared helpers for the Apache Thrift interop harness.

Generates Apache Thrift (0.17) Python code for ThriftTest.thrift and
interop/extended.thrift into a private temporary directory at import time and
exposes encode/decode/compare helpers built on the *pure Python* Apache
protocols (TBinaryProtocol with strict write, TCompactProtocol).

Nothing generated is ever written into the repository.

The code generation itself (derived IDL without uuid, temp directory) is
ttgen.py's, shared with the RPC test peers in py/.

Environment:
  THRIFT_TEST_IDL  path of ThriftTest.thrift (default: the shared corpus beside
                   the checkout, ../shared/corpus/apache__thrift/test/ThriftTest.thrift)
  THRIFT           thrift compiler (default: `thrift` on PATH)
"""

import importlib
import inspect
import json
import math
import os
import struct
import uuid

from thrift.Thrift import TType
from thrift.protocol import TBinaryProtocol, TCompactProtocol, TJSONProtocol
from thrift.transport import TTransport

from thrift.protocol.TProtocol import TProtocolBase

import ttgen
from ttgen import PY_HAS_UUID

# Apache Python limitation: TProtocolBase.skip() reads unknown STRING fields
# with readString(), i.e. it UTF-8-decodes them and raises on unknown *binary*
# fields that are not valid UTF-8. Skip them as raw bytes instead.
_orig_skip = TProtocolBase.skip


def _skip(self, ttype, *args, **kwargs):
    if ttype == TType.STRING:
        read_string_raw(self)
        return
    return _orig_skip(self, ttype, *args, **kwargs)


def read_string_raw(p):
    """A string or binary whose kind the schema does not say: its raw bytes, or in JSON
    (where a binary is base64 text and a string is not) its text, which both are."""
    from thrift.protocol.TJSONProtocol import TJSONProtocolBase
    if isinstance(p, TJSONProtocolBase):
        return p.readString()
    return p.readBinary()


TProtocolBase.skip = _skip

HERE = os.path.dirname(os.path.abspath(__file__))
EXT_IDL = os.path.join(HERE, "extended.thrift")

PROTOCOLS = ("binary", "compact", "json")


class _Gen(object):
    """ThriftTest (ttgen) plus what the harness needs besides: the "future"
    schemas of extended.thrift and Apache's JSON view of the derived IDL."""

    def __init__(self):
        base = ttgen.generate()
        self.dir = base.dir
        self.idl_notes = base.idl_notes
        self.compiler_version = base.compiler_version
        self.uuid_patched = base.uuid_patched
        ttgen.run_thrift(["--allow-neg-keys", "--gen", "py", "-out", base.gen_dir, EXT_IDL])
        # Apache's own view of the schema (field requiredness, IDL defaults,
        # unions): `thrift --gen json` of the same derived IDL.
        jdir = os.path.join(self.dir, "json")
        os.mkdir(jdir)
        ttgen.run_thrift(["--gen", "json", "-out", jdir, base.derived_idl])
        with open(os.path.join(jdir, "ThriftTest.json")) as f:
            self.schema_json = json.load(f)
        self.tt = importlib.import_module("ThriftTest.ttypes")
        self.ext = importlib.import_module("InteropExt.ttypes")
        # Apache Python limitation: Insanity is `python.immutable` (used as set
        # element / map key in CrazyNesting) but its generated __hash__ hashes its
        # dict/list members, which raises TypeError; TFrozenDict also sorts its
        # items, which needs `<` on Insanity. Give it a constant hash (correct,
        # since __eq__ is by value) and a repr-based order so Apache Python can
        # decode such values at all.
        ins = self.tt.Insanity
        ins.__hash__ = lambda self: hash(ins)
        ins.__lt__ = lambda a, b: repr(a) < repr(b)


GEN = _Gen()
tt = GEN.tt
ext = GEN.ext


# ---------------------------------------------------------------- protocols

def make_protocol(name, trans):
    if name == "binary":
        return TBinaryProtocol.TBinaryProtocol(trans, strictRead=False, strictWrite=True)
    if name == "compact":
        return TCompactProtocol.TCompactProtocol(trans)
    if name == "json":
        return TJSONProtocol.TJSONProtocol(trans)
    raise ValueError("unknown protocol %r" % name)


def encode(obj, protocol):
    trans = TTransport.TMemoryBuffer()
    obj.write(make_protocol(protocol, trans))
    return trans.getvalue()


def write_with(protocol, fn):
    """Hand-build bytes: fn(prot) drives the protocol API directly."""
    trans = TTransport.TMemoryBuffer()
    fn(make_protocol(protocol, trans))
    return trans.getvalue()


def tt_class(type_name):
    cls = getattr(tt, type_name, None)
    if cls is None or not hasattr(cls, "thrift_spec"):
        raise KeyError("not a ThriftTest struct type: %r" % type_name)
    return cls


class DecodeError(Exception):
    pass


def decode(data, type_name, protocol):
    """Decode bytes as ThriftTest.<type_name>; raise if trailing bytes remain."""
    cls = tt_class(type_name)
    trans = TTransport.TMemoryBuffer(data)
    prot = make_protocol(protocol, trans)
    try:
        if isinstance(inspect.getattr_static(cls, "read"), classmethod):
            obj = cls.read(prot)   # python.immutable structs
        else:
            obj = cls()
            obj.read(prot)
    except Exception as e:
        raise DecodeError("%s: %s (near byte offset %d of %d)"
                          % (type(e).__name__, e, trans._buffer.tell(), len(data)))
    rest = len(data) - trans._buffer.tell()
    if rest:
        raise ValueError("%d trailing byte(s) after the struct" % rest)
    return obj


# ---------------------------------------------------------------- raw walk

class WalkInfo(object):
    def __init__(self):
        self.ascending = True        # field ids strictly ascending in every struct
        self.max_set_map = 0         # largest set/map size seen
        self.field_types = set()     # TType of every field seen


def walk(data, protocol):
    """Schema-less walk of one struct using only the protocol API."""
    info = WalkInfo()
    trans = TTransport.TMemoryBuffer(data)
    prot = make_protocol(protocol, trans)
    _walk(prot, TType.STRUCT, info)
    rest = len(data) - trans._buffer.tell()
    if rest:
        raise ValueError("%d trailing byte(s)" % rest)
    return info


def _walk(p, t, info):
    if t == TType.STRUCT:
        p.readStructBegin()
        last = None
        while True:
            _, ft, fid = p.readFieldBegin()
            if ft == TType.STOP:
                break
            info.field_types.add(ft)
            if last is not None and fid <= last:
                info.ascending = False
            last = fid
            _walk(p, ft, info)
            p.readFieldEnd()
        p.readStructEnd()
    elif t == TType.MAP:
        kt, vt, n = p.readMapBegin()
        info.max_set_map = max(info.max_set_map, n)
        for _ in range(n):
            _walk(p, kt, info)
            _walk(p, vt, info)
        p.readMapEnd()
    elif t in (TType.SET, TType.LIST):
        if t == TType.SET:
            et, n = p.readSetBegin()
            info.max_set_map = max(info.max_set_map, n)
        else:
            et, n = p.readListBegin()
        for _ in range(n):
            _walk(p, et, info)
        (p.readSetEnd if t == TType.SET else p.readListEnd)()
    else:
        readers = {TType.BOOL: p.readBool, TType.BYTE: p.readByte, TType.I16: p.readI16,
                   TType.I32: p.readI32, TType.I64: p.readI64, TType.DOUBLE: p.readDouble,
                   TType.STRING: lambda: read_string_raw(p)}
        if PY_HAS_UUID:
            readers[TType.UUID] = p.readUuid
        if t not in readers:
            raise ValueError("unknown ttype %r" % t)
        readers[t]()


# ---------------------------------------------------------------- default requiredness

# Per struct, from Apache's `thrift --gen json` of the derived IDL:
#   SCHEMA[name] = {"union": bool, "fields": {field_name: (requiredness, has_idl_default)}}
# requiredness is "required", "optional" or "req_out" (default requiredness).
SCHEMA = {}
for _s in GEN.schema_json["structs"]:
    SCHEMA[_s["name"]] = {
        "union": bool(_s.get("isUnion")),
        "fields": {_f["name"]: (_f["required"], "default" in _f) for _f in _s["fields"]}}
    _cls = getattr(tt, _s["name"], None)
    if _cls is None or not hasattr(_cls, "thrift_spec"):
        raise RuntimeError("thrift --gen json lists struct %s, generated Python lacks it" % _s["name"])
    _pyf = {_sp[2]: _sp for _sp in _cls.thrift_spec if _sp is not None}
    if set(_pyf) != set(SCHEMA[_s["name"]]["fields"]):
        raise RuntimeError("field sets of %s differ between --gen json and --gen py" % _s["name"])
    for _n, (_req, _hasdef) in SCHEMA[_s["name"]]["fields"].items():
        if _req not in ("required", "optional", "req_out"):
            raise RuntimeError("%s.%s: unknown requiredness %r" % (_s["name"], _n, _req))
        # the IDL default itself is taken from the Python generator (thrift_spec[4],
        # correctly typed: str/bytes, set, ...); it must be there when the JSON has one
        if _hasdef and _pyf[_n][4] is None:
            raise RuntimeError("%s.%s: IDL default missing in thrift_spec" % (_s["name"], _n))


def _struct_schema(cls):
    sch = SCHEMA.get(cls.__name__)
    if sch is None or getattr(tt, cls.__name__, None) is not cls:
        raise KeyError("no Apache JSON schema for struct %r" % cls.__name__)
    return sch


def zero_value(ttype, args):
    """The value a Rust/C++-style mapping gives an absent default-requiredness
    field without IDL default: the zero value of its type."""
    if ttype == TType.BOOL:
        return False
    if ttype in (TType.BYTE, TType.I16, TType.I32, TType.I64):
        return 0            # also enums (plain ints in Python)
    if ttype == TType.DOUBLE:
        return 0.0
    if ttype == TType.STRING:
        return b"" if args == "BINARY" else ""
    if PY_HAS_UUID and ttype == TType.UUID:
        return uuid.UUID(int=0)
    if ttype == TType.LIST:
        return []
    if ttype == TType.SET:
        return set()
    if ttype == TType.MAP:
        return {}
    if ttype == TType.STRUCT:
        return default_struct(args[0])
    raise ValueError("no zero value for ttype %r" % ttype)


def _field_default(spec, req, has_default):
    """Value of an absent default-requiredness field: IDL default, else zero value."""
    if has_default:
        return spec[4]
    return zero_value(spec[1], spec[3])


def default_struct(cls):
    """A default-constructed struct: default-requiredness (and required) fields
    at their IDL default / zero value, optional fields absent; a union: its first
    declared variant at that variant's default/zero value."""
    sch = _struct_schema(cls)
    specs = [sp for sp in cls.thrift_spec if sp is not None]
    kw = {}
    if sch["union"]:
        first = next(iter(sch["fields"]))
        sp = next(sp for sp in specs if sp[2] == first)
        kw[first] = _field_default(sp, *sch["fields"][first])
    else:
        for sp in specs:
            req, has_default = sch["fields"][sp[2]]
            kw[sp[2]] = None if req == "optional" else _field_default(sp, req, has_default)
    return cls(**kw)


def normalize(value, ttype=TType.STRUCT, args=None):
    """Return a copy of an Apache-decoded value in which every default-requiredness
    ("req_out") field that is None -- at any depth, including inside containers --
    holds its IDL default, or else its type's zero value (see zero_value /
    default_struct). Optional and required fields are left as they are."""
    if value is None:
        return None
    if ttype == TType.STRUCT:
        cls = type(value) if args is None else args[0]
        if type(value) is not cls:
            return value        # let diff() report the type difference
        sch = _struct_schema(cls)
        kw = {}
        for sp in cls.thrift_spec:
            if sp is None:
                continue
            v = getattr(value, sp[2], None)
            req, has_default = sch["fields"][sp[2]]
            if v is None and req == "req_out" and not sch["union"]:
                v = _field_default(sp, req, has_default)
            kw[sp[2]] = normalize(v, sp[1], sp[3])
        return cls(**kw)
    if ttype == TType.LIST and isinstance(value, (list, tuple)):
        return type(value)(normalize(x, args[0], args[1]) for x in value)
    if ttype == TType.SET and isinstance(value, (set, frozenset)):
        return type(value)(normalize(x, args[0], args[1]) for x in value)
    if ttype == TType.MAP and isinstance(value, dict):
        return type(value)((normalize(k, args[0], args[1]), normalize(v, args[2], args[3]))
                           for k, v in value.items())
    return value


def absent_default_fields(value, ttype=TType.STRUCT, args=None, path="$"):
    """Paths of default-requiredness fields that are None in an Apache-decoded
    value, at any depth (a Rust/C++-style re-encoder writes them)."""
    out = []
    if value is None:
        return out
    if ttype == TType.STRUCT:
        cls = type(value) if args is None else args[0]
        sch = _struct_schema(cls)
        for sp in cls.thrift_spec:
            if sp is None:
                continue
            v = getattr(value, sp[2], None)
            fpath = "%s.%s" % (path, sp[2])
            if v is None:
                if sch["fields"][sp[2]][0] == "req_out" and not sch["union"]:
                    out.append(fpath)
            else:
                out.extend(absent_default_fields(v, sp[1], sp[3], fpath))
    elif ttype in (TType.LIST, TType.SET):
        for i, x in enumerate(value):
            out.extend(absent_default_fields(x, args[0], args[1], "%s[%d]" % (path, i)))
    elif ttype == TType.MAP:
        for i, (k, v) in enumerate(value.items()):
            out.extend(absent_default_fields(k, args[0], args[1], "%s{key %d}" % (path, i)))
            out.extend(absent_default_fields(v, args[2], args[3], "%s{value %d}" % (path, i)))
    return out


# ---------------------------------------------------------------- comparison

def _short(v, n=160):
    s = repr(v)
    return s if len(s) <= n else s[:n] + "...(%d chars)" % len(s)


def _is_struct(v):
    return hasattr(type(v), "thrift_spec")


def diff(a, b, path="$"):
    """Return None if equal, else a string describing the first difference.

    Floats: NaN == NaN; -0.0 != 0.0. Sets and maps are order-insensitive;
    lists are ordered."""
    if a is None or b is None:
        if a is None and b is None:
            return None
        return "%s: %s vs %s" % (path, _short(a), _short(b))
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, float) and isinstance(b, float)):
            return "%s: type %s vs %s" % (path, type(a).__name__, type(b).__name__)
        if math.isnan(a) and math.isnan(b):
            return None
        if a == b and math.copysign(1.0, a) == math.copysign(1.0, b):
            return None
        return "%s: %r vs %r (bits %s vs %s)" % (path, a, b, struct.pack(">d", a).hex(),
                                                  struct.pack(">d", b).hex())
    if _is_struct(a) or _is_struct(b):
        if type(a) is not type(b):
            return "%s: struct type %s vs %s" % (path, type(a).__name__, type(b).__name__)
        for spec in type(a).thrift_spec:
            if spec is None:
                continue
            name = spec[2]
            d = diff(getattr(a, name, None), getattr(b, name, None), "%s.%s" % (path, name))
            if d:
                return d
        return None
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return "%s: list length %d vs %d" % (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            d = diff(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if isinstance(a, (set, frozenset)) and isinstance(b, (set, frozenset)):
        if len(a) != len(b):
            return "%s: set size %d vs %d" % (path, len(a), len(b))
        rest = list(b)
        for x in a:
            for i, y in enumerate(rest):
                if diff(x, y) is None:
                    del rest[i]
                    break
            else:
                return "%s: set element %s missing in re-encoded value" % (path, _short(x))
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return "%s: map size %d vs %d" % (path, len(a), len(b))
        bitems = list(b.items())
        for k, v in a.items():
            kb = None
            try:
                if k in b:
                    kb = k
            except TypeError:
                pass
            if kb is not None and diff(k, kb) is None:
                idx = None
                vb = b[kb]
            else:
                idx = next((i for i, (k2, _) in enumerate(bitems) if diff(k, k2) is None), None)
                if idx is None:
                    return "%s: map key %s missing in re-encoded value" % (path, _short(k))
                vb = bitems[idx][1]
            d = diff(v, vb, "%s[%s]" % (path, _short(k, 60)))
            if d:
                return d
        return None
    if type(a) is not type(b):
        return "%s: type %s (%s) vs %s (%s)" % (path, type(a).__name__, _short(a),
                                                type(b).__name__, _short(b))
    if a != b:
        if isinstance(a, (bytes, str)) and len(a) > 40:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            return "%s: %s of length %d vs %d, first difference at index %d: %s vs %s" % (
                path, type(a).__name__, len(a), len(b), i, _short(a[i:i + 16]), _short(b[i:i + 16]))
        return "%s: %s vs %s" % (path, _short(a), _short(b))
    return None


def byte_diff(a, b):
    if a == b:
        return None
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    lo = max(0, i - 8)
    return ("bytes differ: length %d vs %d, first difference at offset %d (0x%x)\n"
            "        expected[%d:]: %s\n        actual  [%d:]: %s"
            % (len(a), len(b), i, i, lo, a[lo:i + 16].hex(" "), lo, b[lo:i + 16].hex(" ")))


# ---------------------------------------------------------------- wire-type check

_TNAMES = {TType.STOP: "STOP", TType.VOID: "VOID", TType.BOOL: "BOOL", TType.BYTE: "BYTE",
           TType.I16: "I16", TType.I32: "I32", TType.I64: "I64", TType.DOUBLE: "DOUBLE",
           TType.STRING: "STRING", TType.STRUCT: "STRUCT", TType.MAP: "MAP", TType.SET: "SET",
           TType.LIST: "LIST"}
if PY_HAS_UUID:
    _TNAMES[TType.UUID] = "UUID"


def _tn(t):
    return _TNAMES.get(t, str(t))


def _spec_fields(cls):
    return {s[0]: s for s in cls.thrift_spec if s is not None}


def wire_type_problem(data, type_name, protocol, allow_field_type_mismatch=False):
    """Walk the bytes against the ThriftTest schema of `type_name`.

    Apache's generated Python readers ignore container element-type headers
    (they read whatever the schema says), so a value-only comparison would not
    notice e.g. a list<i32> announced as list<i64>. Returns None, or a string
    naming the first place where a known field's wire type, or a container's
    element/key/value type, differs from the schema. Unknown fields (ids not
    in the schema) are skipped and allowed; so are known ids with a different
    wire type if allow_field_type_mismatch (Apache readers skip those).
    Element types of empty lists/sets are checked; key/value types of empty
    maps only in the binary protocol (compact writes none)."""
    trans = TTransport.TMemoryBuffer(data)
    prot = make_protocol(protocol, trans)
    try:
        return _wt(prot, TType.STRUCT, [tt_class(type_name), None], "$",
                   (protocol, allow_field_type_mismatch))
    except Exception as e:
        return "$: walk failed: %s: %s" % (type(e).__name__, e)


def _wt(p, t, args, path, opts):
    if t == TType.STRUCT:
        cls = args[0]
        fields = _spec_fields(cls)
        p.readStructBegin()
        while True:
            _, ft, fid = p.readFieldBegin()
            if ft == TType.STOP:
                break
            spec = fields.get(fid)
            if spec is None or (ft != spec[1] and opts[1]):
                p.skip(ft)
            else:
                fpath = "%s.%s" % (path, spec[2])
                if ft != spec[1]:
                    return "%s: field %d has wire type %s, schema says %s" % (
                        fpath, fid, _tn(ft), _tn(spec[1]))
                r = _wt(p, ft, spec[3], fpath, opts)
                if r:
                    return r
            p.readFieldEnd()
        p.readStructEnd()
        return None
    if t == TType.MAP:
        kt, vt, n = p.readMapBegin()
        if (n or opts[0] == "binary") and (kt != args[0] or vt != args[2]):
            return "%s: map<%s,%s> on the wire, schema says map<%s,%s>" % (
                path, _tn(kt), _tn(vt), _tn(args[0]), _tn(args[2]))
        for i in range(n):
            r = (_wt(p, kt, args[1], "%s{key %d}" % (path, i), opts)
                 or _wt(p, vt, args[3], "%s{value %d}" % (path, i), opts))
            if r:
                return r
        p.readMapEnd()
        return None
    if t in (TType.LIST, TType.SET):
        et, n = (p.readSetBegin if t == TType.SET else p.readListBegin)()
        if et != args[0]:
            return "%s: %s<%s> on the wire, schema says %s<%s>" % (
                path, _tn(t).lower(), _tn(et), _tn(t).lower(), _tn(args[0]))
        for i in range(n):
            r = _wt(p, et, args[1], "%s[%d]" % (path, i), opts)
            if r:
                return r
        (p.readSetEnd if t == TType.SET else p.readListEnd)()
        return None
    p.skip(t)
    return None

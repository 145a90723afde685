#!/usr/bin/env python3
"""Write Apache Thrift test vectors for ThriftTest types.

usage: make_vectors.py OUT_DIR

Every value is written with Apache Thrift's pure-Python TBinaryProtocol
(strict write) and TCompactProtocol to OUT_DIR/<name>.<protocol>.bin, and
described in OUT_DIR/index.json:

  {"vectors": [{"file": ..., "type": <ThriftTest struct>, "protocol": "binary"|"compact",
                "name": ..., "canonical": bool, "source": ..., "unknown_fields": bool,
                "unknown_canonical": bool,
                "description": ...}, ...]}

canonical == true means a conforming re-encoder must reproduce the bytes
exactly. It is computed, conservatively: no unknown fields, field ids strictly
ascending in every (nested) struct, every set/map has at most one entry,
Apache Python itself reproduces the bytes on decode+encode, and no field of
default requiredness is absent at any level (a re-encoder may write those).
unknown_canonical == true: the same, except that the vector has unknown fields.
"""

import json
import math
import os
import struct
import sys
import uuid

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttlib  # noqa: E402
from ttlib import tt, ext, TType  # noqa: E402
from thrift.Thrift import TFrozenDict  # noqa: E402

N = tt.Numberz

I8 = (-128, 127)
I16 = (-32768, 32767)
I32 = (-2 ** 31, 2 ** 31 - 1)
I64 = (-2 ** 63, 2 ** 63 - 1)

S_ASCII = "Hello, Thrift!"
S_LATIN = "h\u00e9llo w\u00f6rld \u00f1 \u00df"
S_CJK = "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8 \u4e2d\u6587 \ud55c\uad6d\uc5b4"
S_EMOJI = "\U0001F600\U0001F680\U0001F44D\U0001F3FD \U0001F468\u200d\U0001F469\u200d\U0001F467 \U0001F3F3\ufe0f\u200d\U0001F308"
# NUL, and the first/last code point of every UTF-8 length
S_UTF8_EDGES = "a\u0000b\u007f\u0080\u07ff\u0800\uffff\U00010000\U0010ffff"
S_LONG = "\u00fc" * 20000 + "\U0001F600end"

I32_EDGES = [0, 1, -1, 63, 64, -64, -65, 127, 128, 16383, 16384, 2 ** 21, 2 ** 28,
             0x55555555, -0x55555556, I32[0], I32[0] + 1, I32[1]]
I64_EDGES = [0, 1, -1, 63, 64, -64, -65, 127, 128, 255, 256, I32[1], I32[1] + 1, I32[0],
             I32[0] - 1, 2 ** 32, 2 ** 35, 2 ** 53 + 1, 2 ** 62, I64[0], I64[0] + 1, I64[1]]


def dbits(h):
    return struct.unpack(">d", bytes.fromhex(h))[0]


DOUBLES = [
    ("zero", 0.0),
    ("neg_zero", -0.0),
    ("nan", float("nan")),
    ("neg_nan", dbits("fff8000000000000")),
    ("nan_payload", dbits("7ff8000000000abc")),
    ("pos_inf", float("inf")),
    ("neg_inf", float("-inf")),
    ("min_subnormal", 5e-324),
    ("neg_min_subnormal", -5e-324),
    ("min_normal", 2.2250738585072014e-308),
    ("max", 1.7976931348623157e308),
    ("neg_max", -1.7976931348623157e308),
    ("tiny", 1e-300),
    ("huge", 1e300),
    ("pi", math.pi),
    ("one_third", 1.0 / 3.0),
    ("two_pow_53_plus", 9007199254740993.0),
]

BIG_BINARY = bytes((i * 131 + (i >> 8) * 7 + (i >> 16)) & 0xFF for i in range(256 * 1024))
ALL_BYTES = bytes(range(256))

UUIDS = [
    ("nil", uuid.UUID(int=0)),
    ("max", uuid.UUID(int=2 ** 128 - 1)),
    ("ordered", uuid.UUID("00112233-4455-6677-8899-aabbccddeeff")),
    ("v4", uuid.UUID("5f8f6e0b-0a3c-4b9e-9d1f-2c7e8a6b4d31")),
]

# vectors in which a KNOWN field id carries a different wire type (readers must skip it)
TYPE_MISMATCH = {"versioning_v2_as_v1"}

VECTORS = []   # (name, declared type, source, unknown_fields, description, producer)


def add(name, type_name, value, description="", source="apache-py"):
    """value: an Apache-generated ThriftTest object of type `type_name`."""
    assert type(value).__name__ == type_name and type(value).__module__ == tt.__name__, name
    VECTORS.append((name, type_name, source, False, description,
                    lambda proto, v=value: ttlib.encode(v, proto)))


def add_ext(name, type_name, value, description):
    """value: written with a schema from interop/extended.thrift (or another type),
    but declared as ThriftTest.<type_name>."""
    VECTORS.append((name, type_name, "extended-schema", True, description,
                    lambda proto, v=value: ttlib.encode(v, proto)))


def add_hand(name, type_name, fn, description, unknown=False):
    """fn(prot) writes one struct with the raw Apache protocol API."""
    VECTORS.append((name, type_name, "hand-built", unknown, description,
                    lambda proto, f=fn: ttlib.write_with(proto, f)))


def X(s=None, b=None, i=None, l=None):
    return tt.Xtruct(string_thing=s, byte_thing=b, i32_thing=i, i64_thing=l)


def Ins(user_map=None, xtructs=None):
    return tt.Insanity(userMap=user_map, xtructs=xtructs)


def V2(**kw):
    return tt.VersioningTestV2(**kw)


def V2Z(**kw):
    """VersioningTestV2 with every field present (zero values unless given), so
    the vector can stay canonical (no default-requiredness field absent)."""
    z = dict(begin_in_both=0, newint=0, newbyte=0, newshort=0, newlong=0, newdouble=0.0,
             newstruct=tt.Bonk("", 0), newlist=[], newset=set(), newmap={}, newstring="",
             end_in_both=0)
    z.update(kw)
    return tt.VersioningTestV2(**z)


def build():
    # ---------------------------------------------------------------- Xtruct
    add("xtruct_zero", "Xtruct", X("", 0, 0, 0), "empty string, all-zero integers")
    add("xtruct_min", "Xtruct", X(S_ASCII, I8[0], I32[0], I64[0]), "i8/i32/i64 minimum")
    add("xtruct_max", "Xtruct", X(S_LATIN, I8[1], I32[1], I64[1]), "i8/i32/i64 maximum, Latin-1 text")
    add("xtruct_minus_one", "Xtruct", X(S_EMOJI, -1, -1, -1), "-1 everywhere, emoji/ZWJ text")
    add("xtruct_cjk", "Xtruct", X(S_CJK, 1, 1, 1), "CJK/Hangul text")
    add("xtruct_utf8_edges", "Xtruct", X(S_UTF8_EDGES, 64, 64, 64), "NUL and UTF-8 length boundaries")
    add("xtruct_long_string", "Xtruct", X(S_LONG, -64, 16384, 2 ** 35), "~40 KB multi-byte string")
    add("xtruct_no_fields", "Xtruct", X(), "all fields absent")
    add("xtruct_only_i64", "Xtruct", X(l=I64[1]), "only the last field set")

    # ---------------------------------------------------------------- Xtruct2/3, Bonk, Bools
    add("xtruct2_full", "Xtruct2", tt.Xtruct2(I8[0], X(S_EMOJI, I8[1], I32[0], I64[0]), I32[1]),
        "nested Xtruct")
    add("xtruct2_empty_nested", "Xtruct2", tt.Xtruct2(0, X(), 0), "nested empty struct")
    add("xtruct2_no_nested", "Xtruct2", tt.Xtruct2(-1, None, -1), "nested struct absent")
    add("xtruct3_min", "Xtruct3", tt.Xtruct3(S_CJK, I32[0], I32[1], I64[0]), "")
    add("xtruct3_zero", "Xtruct3", tt.Xtruct3("", 0, 0, 0), "")
    add("bonk_empty", "Bonk", tt.Bonk("", 0), "")
    add("bonk_emoji", "Bonk", tt.Bonk(S_EMOJI, I32[0]), "")
    for a in (True, False):
        for b in (True, False):
            add("bools_%s_%s" % (str(a).lower(), str(b).lower()), "Bools", tt.Bools(a, b), "")
    add("bools_absent", "Bools", tt.Bools(), "no fields")

    # ---------------------------------------------------------------- Insanity
    add("insanity_empty_containers", "Insanity", Ins({}, []), "empty map and list")
    add("insanity_one_enum_key", "Insanity",
        Ins({N.EIGHT: I64[1]}, [X(S_EMOJI, I8[0], I32[0], I64[0]), X("", 0, 0, 0)]),
        "map keyed by enum (1 entry) + list of structs")
    add("insanity_all_enum_keys", "Insanity",
        Ins({N.ONE: I64[0], N.TWO: 0, N.THREE: -1, N.FIVE: 5, N.SIX: I64[1], N.EIGHT: 8},
            [X("a", 1, 2, 3)]),
        "map with every Numberz key, i64 extremes")
    add("insanity_i64_edges", "Insanity",
        Ins({N.ONE: 1}, [X(str(v), (v % 256) - 128, I32_EDGES[i % len(I32_EDGES)], v)
                         for i, v in enumerate(I64_EDGES)]),
        "varint/zigzag edge values of i8/i32/i64 in a list of %d structs" % len(I64_EDGES))
    add("insanity_absent", "Insanity", Ins(), "no fields")

    # ---------------------------------------------------------------- CrazyNesting
    ins_a = Ins({N.ONE: 1}, [X("in-key", 1, 2, 3)])
    ins_b = Ins({N.TWO: -2, N.SIX: I64[0]}, [])
    ins_c = Ins({}, [X(S_EMOJI, -1, -1, -1), X()])
    has_uuid = ttlib.GEN.uuid_patched
    u = UUIDS[2][1] if has_uuid else None
    add("crazy_minimal", "CrazyNesting", tt.CrazyNesting(list_field=[]), "only the required list")
    add("crazy_canonical_deep", "CrazyNesting", tt.CrazyNesting(
        string_field=S_EMOJI,
        set_field={ins_a},
        list_field=[{frozenset({7}): {1: {(TFrozenDict({ins_a: "v"}),)}}}],
        binary_field=b"\x00\xff\x80",
        uuid_field=u),
        "deepest nesting, every set/map with one entry" + (", with uuid" if has_uuid else ""))
    add("crazy_full", "CrazyNesting", tt.CrazyNesting(
        string_field=S_CJK,
        set_field={ins_a, ins_b, ins_c, Ins()},
        list_field=[
            {},
            {frozenset(): {}},
            {frozenset({1, 2, 3}): {I32[0]: set(), I32[1]: {(), (TFrozenDict(),)}},
             frozenset({-1}): {0: {(TFrozenDict({ins_a: "", ins_b: S_EMOJI}),
                                    TFrozenDict({ins_c: "c"}))}}},
        ],
        binary_field=ALL_BYTES,
        uuid_field=UUIDS[1][1] if has_uuid else None),
        "list<map<set<i32>,map<i32,set<list<map<Insanity,string>>>>>> with many entries")
    add("crazy_big_binary", "CrazyNesting",
        tt.CrazyNesting(string_field="256KiB", list_field=[], binary_field=BIG_BINARY, uuid_field=u),
        "256 KiB binary field")
    add("crazy_empty_binary", "CrazyNesting",
        tt.CrazyNesting(string_field="", set_field=set(), list_field=[{}], binary_field=b"",
                        uuid_field=UUIDS[0][1] if has_uuid else None),
        "empty binary, empty set, list of empty map")
    if has_uuid:
        for uname, uval in UUIDS:
            def w(p, uval=uval, uname=uname):
                p.writeStructBegin("CrazyNesting")
                p.writeFieldBegin("string_field", TType.STRING, 1)
                p.writeString("uuid " + uname)
                p.writeFieldEnd()
                p.writeFieldBegin("list_field", TType.LIST, 3)
                p.writeListBegin(TType.MAP, 0)
                p.writeListEnd()
                p.writeFieldEnd()
                p.writeFieldBegin("binary_field", TType.STRING, 4)
                p.writeBinary(b"\x00\xff")
                p.writeFieldEnd()
                p.writeFieldBegin("uuid_field", TType.UUID, 5)
                p.writeUuid(uval)
                p.writeFieldEnd()
                p.writeFieldStop()
                p.writeStructEnd()
            add_hand("crazy_uuid_%s" % uname, "CrazyNesting", w,
                     "uuid_field = %s (hand-built with the protocol API)" % uval)

    # ---------------------------------------------------------------- SomeUnion
    add("union_map", "SomeUnion", tt.SomeUnion(map_thing={N.FIVE: I64[1]}), "")
    add("union_map_empty", "SomeUnion", tt.SomeUnion(map_thing={}), "")
    add("union_map_multi", "SomeUnion", tt.SomeUnion(map_thing={N.ONE: 1, N.TWO: 2, N.EIGHT: I64[0]}), "")
    add("union_string", "SomeUnion", tt.SomeUnion(string_thing=S_EMOJI), "")
    add("union_string_empty", "SomeUnion", tt.SomeUnion(string_thing=""), "")
    add("union_i32", "SomeUnion", tt.SomeUnion(i32_thing=I32[0]), "")
    add("union_xtruct3", "SomeUnion", tt.SomeUnion(xtruct_thing=tt.Xtruct3(S_LATIN, -1, 0, I64[1])), "")
    add("union_insanity", "SomeUnion", tt.SomeUnion(insanity_thing=Ins({N.THREE: 3}, [X("u", 1, 1, 1)])), "")

    # ---------------------------------------------------------------- exceptions, tiny structs
    add("xception", "Xception", tt.Xception(I32[1], S_CJK), "exception type as struct")
    add("xception2", "Xception2", tt.Xception2(-1, X(S_EMOJI, 0, 0, 0)), "")
    add("empty_struct", "EmptyStruct", tt.EmptyStruct(), "")
    add("one_field", "OneField", tt.OneField(tt.EmptyStruct()), "")
    add("one_field_absent", "OneField", tt.OneField(), "")
    add("struct_a_empty", "StructA", tt.StructA(""), "")
    add("struct_a_cjk", "StructA", tt.StructA(S_CJK), "")
    add("struct_b_required_only", "StructB", tt.StructB(None, tt.StructA("ab")), "optional absent")
    add("struct_b_both", "StructB", tt.StructB(tt.StructA(S_EMOJI), tt.StructA("")), "")
    add("bool_test_defaults", "BoolTest", tt.BoolTest(), "default values written")
    add("bool_test_false_empty", "BoolTest", tt.BoolTest(False, ""), "")
    add("bool_test_absent", "BoolTest", tt.BoolTest(None, None),
        "fields with defaults absent on the wire (decoder may fill defaults)")
    add("bool_test_true_emoji", "BoolTest", tt.BoolTest(True, S_EMOJI), "")

    # ---------------------------------------------------------------- versioning, doubles, i16
    add("versioning_v1", "VersioningTestV1", tt.VersioningTestV1(I32[0], S_LATIN, I32[1]), "")
    full_v2 = V2(begin_in_both=I32[0], newint=I32[1], newbyte=I8[0], newshort=I16[0],
                 newlong=I64[1], newdouble=-0.0, newstruct=tt.Bonk(S_EMOJI, -1),
                 newlist=[I32[0], 0, I32[1]], newset={I32[1]}, newmap={I32[0]: I32[1]},
                 newstring=S_CJK, end_in_both=I32[1])
    add("versioning_v2_full", "VersioningTestV2", full_v2, "every field, i8/i16/i32/i64 extremes")
    add("versioning_v2_max", "VersioningTestV2",
        V2(begin_in_both=I32[1], newint=I32[0], newbyte=I8[1], newshort=I16[1], newlong=I64[0],
           newdouble=1.7976931348623157e308, newstruct=tt.Bonk("", 0), newlist=[], newset=set(),
           newmap={}, newstring="", end_in_both=I32[0]), "i16 max, empty containers")
    add("versioning_v2_multi", "VersioningTestV2",
        V2(begin_in_both=1, newshort=-1, newlist=list(range(-20, 20)), newset={1, -1, I32[0], I32[1]},
           newmap={i: -i for i in range(-10, 10)}, end_in_both=2), "multi-entry set and map")
    for dname, d in DOUBLES:
        add("double_%s" % dname, "VersioningTestV2",
            V2Z(begin_in_both=1, newdouble=d, end_in_both=2), "double %r (%s)"
            % (d, struct.pack(">d", d).hex()))
    add("list_versioning_v1", "ListTypeVersioningV1", tt.ListTypeVersioningV1([I32[0], 0, I32[1]], "hello"), "")
    add("list_versioning_v1_empty", "ListTypeVersioningV1", tt.ListTypeVersioningV1([], ""), "")
    add("list_versioning_v2", "ListTypeVersioningV2",
        tt.ListTypeVersioningV2(["", S_EMOJI, S_CJK, S_UTF8_EDGES], S_LATIN), "")
    add("list_versioning_v2_long", "ListTypeVersioningV2",
        tt.ListTypeVersioningV2(["s%d" % i for i in range(20)], ""), "list > 14 elements")

    # ---------------------------------------------------------------- maps, sets, nested lists
    add("guess_protocol_empty", "GuessProtocolStruct", tt.GuessProtocolStruct({}), "")
    add("guess_protocol_one", "GuessProtocolStruct", tt.GuessProtocolStruct({S_EMOJI: S_CJK}), "")
    add("guess_protocol_multi", "GuessProtocolStruct",
        tt.GuessProtocolStruct({"k%d" % i: "v" * i for i in range(20)}), "map with 20 entries")
    add("large_deltas_full", "LargeDeltas", tt.LargeDeltas(
        b1=tt.Bools(True, False), b10=tt.Bools(False, True), b100=tt.Bools(False, False),
        check_true=True, b1000=tt.Bools(True, True), check_false=False,
        vertwo2000=V2Z(begin_in_both=1, newshort=I16[1], newdouble=float("inf"), end_in_both=2),
        a_set2500={S_EMOJI}, vertwo3000=V2Z(newlist=[1, 2, 3], newstruct=tt.Bonk("b", 3)),
        big_numbers=I32_EDGES + list(range(1000))), "field ids up to 4000 (compact long field headers)")
    add("large_deltas_empty", "LargeDeltas", tt.LargeDeltas(), "")
    add("large_deltas_set", "LargeDeltas",
        tt.LargeDeltas(check_false=False, a_set2500={"a", "b", "", S_CJK}, big_numbers=[]), "multi-entry set")
    add("nested_x2_empty", "NestedListsI32x2", tt.NestedListsI32x2([]), "")
    add("nested_x2_inner_empty", "NestedListsI32x2", tt.NestedListsI32x2([[], []]), "")
    add("nested_x2", "NestedListsI32x2", tt.NestedListsI32x2([[1, 2, 3], [], [I32[0], I32[1]]]), "")
    add("nested_x2_big", "NestedListsI32x2",
        tt.NestedListsI32x2([[i * j for j in range(20)] for i in range(20)]), "20x20")
    add("nested_x3_empty", "NestedListsI32x3", tt.NestedListsI32x3([[[]]]), "")
    add("nested_x3", "NestedListsI32x3", tt.NestedListsI32x3([[[1], [2, 3]], [[], [I32[0]]], []]), "")
    add("nested_mixed_one", "NestedMixedx2", tt.NestedMixedx2(
        int_set_list=[set(), {1}], map_int_strset={1: {S_EMOJI}}, map_int_strset_list=[{}, {2: set()}]),
        "every set/map <= 1 entry")
    add("nested_mixed_multi", "NestedMixedx2", tt.NestedMixedx2(
        int_set_list=[{1, 2, 3}, set(), {I32[0], I32[1]}],
        map_int_strset={1: {"a", "b"}, 2: set(), -3: {S_CJK, S_EMOJI, ""}},
        map_int_strset_list=[{5: {"x", "y"}, 6: {"z"}}, {}]), "")
    add("list_bonks_empty", "ListBonks", tt.ListBonks([]), "")
    add("list_bonks", "ListBonks", tt.ListBonks([tt.Bonk("a", 1), tt.Bonk(S_EMOJI, I32[0]), tt.Bonk("", 0)]), "")
    add("nested_bonk", "NestedListsBonk", tt.NestedListsBonk([[[tt.Bonk("x", 1)]], [], [[]]]), "")
    add("optional_set_default", "OptionalSetDefaultTest", tt.OptionalSetDefaultTest(), "default {'test'}")
    add("optional_set_empty", "OptionalSetDefaultTest", tt.OptionalSetDefaultTest(set()), "")
    add("optional_set_absent", "OptionalSetDefaultTest", tt.OptionalSetDefaultTest(None), "")
    add("optional_set_multi", "OptionalSetDefaultTest", tt.OptionalSetDefaultTest({"a", "b", S_EMOJI}), "")
    add("optional_binary_default", "OptionalBinary", tt.OptionalBinary(), "empty set<binary>/map<binary,i32>")
    add("optional_binary_one", "OptionalBinary",
        tt.OptionalBinary({b"\x00\xff\xfe"}, {b"": I32[0]}), "")
    add("optional_binary_multi", "OptionalBinary",
        tt.OptionalBinary({b"", b"\x00", ALL_BYTES}, {b"\x80": 1, b"\xff" * 3: -1, b"": 0}), "")
    add("optional_binary_absent", "OptionalBinary", tt.OptionalBinary(None, None), "")

    # ---------------------------------------------------------------- unknown fields
    leaf = ext.Leaf(d=float("-inf"), shorts={I16[0], I16[1], 0}, blob=ALL_BYTES)
    inner = ext.Inner(name=S_EMOJI, nums=I64_EDGES, leaves={"l": leaf, "": ext.Leaf()}, flag=False,
                      leaf=ext.Leaf(d=float("nan"), shorts=set(), blob=b""))
    big_ext = ext.Xtruct(
        neg_i32=I32[0], string_thing=S_CJK, u_bool_true=True, u_bool_false=False,
        byte_thing=I8[0], u_i16=I16[0], u_double=-0.0, u_binary=ALL_BYTES, u_struct=inner,
        i32_thing=I32[1], u_nested=[{"a": [inner, ext.Inner()], "b": []}, {}],
        i64_thing=I64[0], u_map_of_sets={1: {"x", S_EMOJI}, 2: set()}, u_set={I64[0], I64[1]},
        u_list_bool=[True, False, True, True, False] * 4, u_enum=ext.Color.BLUE, u_i64=I64[1],
        u_string=S_LONG, u_byte=I8[1], u_list_list_binary=[[b"", b"\x00"], [], [BIG_BINARY[:70000]]],
        u_map_bool_double={True: float("nan"), False: 5e-324}, u_empty_list=[],
        u_max_id={"m": inner}, neg_struct=inner, neg_list=[leaf, ext.Leaf()],
        min_id={I64[0]: ["", S_EMOJI], 0: []}, u_empty_map={}, u_empty_set=set(),
        u_doubles=[d for _, d in DOUBLES])
    add_ext("unknown_xtruct", "Xtruct", big_ext,
            "Xtruct + 25 unknown fields of every type interleaved (ids -32768..32767, nested)")
    add_ext("unknown_xtruct_only_unknown", "Xtruct",
            ext.Xtruct(u_struct=inner, u_nested=[{"z": [inner]}], neg_list=[leaf], u_max_id={}),
            "only unknown fields on the wire")
    def reordered(with_unknown):
        def w(p):
            def field(name, ftype, fid, write):
                p.writeFieldBegin(name, ftype, fid)
                write()
                p.writeFieldEnd()
            p.writeStructBegin("Xtruct")
            field("i64_thing", TType.I64, 11, lambda: p.writeI64(I64[1]))
            if with_unknown:
                field("u_struct", TType.STRUCT, 50, lambda: inner.write(p))
            field("i32_thing", TType.I32, 9, lambda: p.writeI32(-7))
            if with_unknown:
                def lst():
                    p.writeListBegin(TType.STRUCT, 2)
                    leaf.write(p)
                    ext.Leaf().write(p)
                    p.writeListEnd()
                field("u_list", TType.LIST, 7, lst)
            field("byte_thing", TType.BYTE, 4, lambda: p.writeByte(I8[0]))
            if with_unknown:
                def mp():
                    p.writeMapBegin(TType.I32, TType.STRUCT, 1)
                    p.writeI32(1)
                    leaf.write(p)
                    p.writeMapEnd()
                field("u_map", TType.MAP, 2, mp)
            field("string_thing", TType.STRING, 1, lambda: p.writeString(S_EMOJI))
            if with_unknown:
                field("u_bool", TType.BOOL, -1, lambda: p.writeBool(True))
                field("u_bool2", TType.BOOL, 300, lambda: p.writeBool(False))
            p.writeFieldStop()
            p.writeStructEnd()
        return w
    add_hand("reordered_xtruct", "Xtruct", reordered(False),
             "known fields in descending id order (hand-built)")
    add_hand("reordered_xtruct_unknown", "Xtruct", reordered(True),
             "known fields in descending id order with unknown fields in between (hand-built)",
             unknown=True)
    add_ext("unknown_xtruct2", "Xtruct2",
            ext.Xtruct2(byte_thing=5, struct_thing=big_ext, i32_thing=6, u_xtruct=big_ext,
                        u_xtructs=[big_ext, ext.Xtruct()], u_inner=inner),
            "unknown fields inside a known nested struct and around it")
    add_ext("unknown_insanity", "Insanity",
            ext.Insanity(u_zero_id="field id 0", userMap={N.ONE: 1, N.EIGHT: I64[0]},
                         xtructs=[big_ext, ext.Xtruct(string_thing="plain")],
                         u_by_color={ext.Color.RED: [big_ext], ext.Color.GREEN: []}, u_neg_set={"n"}),
            "unknown fields in list elements, field id 0")
    add_ext("unknown_empty_struct", "EmptyStruct",
            ext.EmptyStruct(a="a", b=inner, c=[{1: inner}, {}], d=True, e=float("nan"), f=I64[0]),
            "EmptyStruct: everything unknown")
    add_ext("unknown_one_field", "OneField",
            ext.OneField(field=ext.EmptyStruct(a=S_EMOJI, d=False, f=-1), u_other=ext.EmptyStruct(b=inner),
                         u_flag=True),
            "unknown fields inside the known (empty) nested struct")
    add_ext("versioning_v2_as_v1", "VersioningTestV1", full_v2,
            "ThriftTest's own versioning test: VersioningTestV2 read as VersioningTestV1; "
            "field 3 is i8 on the wire but string in V1, so it must be skipped like an unknown field")
    if ttlib.PY_HAS_UUID:
        def w(p):
            p.writeStructBegin("Xtruct")
            p.writeFieldBegin("string_thing", TType.STRING, 1)
            p.writeString("has unknown uuid")
            p.writeFieldEnd()
            p.writeFieldBegin("u_uuid", TType.UUID, 5)
            p.writeUuid(UUIDS[2][1])
            p.writeFieldEnd()
            p.writeFieldBegin("i32_thing", TType.I32, 9)
            p.writeI32(9)
            p.writeFieldEnd()
            p.writeFieldBegin("u_uuids", TType.LIST, 10)
            p.writeListBegin(TType.UUID, 2)
            p.writeUuid(UUIDS[0][1])
            p.writeUuid(UUIDS[3][1])
            p.writeListEnd()
            p.writeFieldEnd()
            p.writeFieldStop()
            p.writeStructEnd()
        add_hand("unknown_uuid_xtruct", "Xtruct", w,
                 "unknown uuid field and list<uuid> (hand-built with the protocol API)", unknown=True)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write("usage: make_vectors.py OUT_DIR\n")
        return 2
    out = argv[1]
    os.makedirs(out, exist_ok=True)
    build()
    names = [v[0] for v in VECTORS]
    assert len(names) == len(set(names)), "duplicate vector names"
    index = []
    unreadable = []
    for name, type_name, source, unknown, desc, produce in VECTORS:
        for proto in ttlib.PROTOCOLS:
            data = produce(proto)
            if proto == "json":
                # Apache Python's TJSONProtocol writes NaN and the infinities as bare
                # nan/inf, which its own reader (and JSON) refuses: such a vector is left
                # out (the Rust reader's handling of them is a unit test).
                try:
                    ttlib.walk(data, proto)
                except Exception:
                    unreadable.append(name)
                    continue
            info = ttlib.walk(data, proto)             # well-formed, raw facts
            value = ttlib.decode(data, type_name, proto)   # Apache reads it as declared
            wt = ttlib.wire_type_problem(data, type_name, proto,
                                         allow_field_type_mismatch=(name in TYPE_MISMATCH))
            assert wt is None, "%s/%s: %s" % (name, proto, wt)
            reenc = ttlib.encode(value, proto)
            reasons = []
            if unknown:
                reasons.append("unknown fields")
            if not info.ascending:
                reasons.append("field ids not ascending")
            if info.max_set_map > 1:
                reasons.append("set/map with %d entries" % info.max_set_map)
            if reenc != data and not unknown:
                reasons.append("Apache Python does not reproduce the bytes")
            if proto == "json" and any(b < 0x20 for b in data):
                # Python writes control characters other than \b \f \n \r \t raw (not
                # JSON); C++ and Rust escape them as \u00XX.
                reasons.append("control characters unescaped by Apache Python's JSON writer")
            # an absent default-requiredness field is written by a re-encoder that
            # holds it as a plain value (Rust, C++); see README. (Absent fields with
            # an IDL default are filled in by Apache Python on decode, so those
            # already fail the reproduction check above.)
            absent = ttlib.absent_default_fields(value)
            if absent:
                reasons.append("default-requiredness field(s) absent: %s%s"
                               % (", ".join(absent[:4]), ", ..." if len(absent) > 4 else ""))
            # Canonical but for unknown fields: ids ascending, no absent default-requiredness
            # field, and no set or map of more than one entry among the known fields (Apache's
            # re-encoding has only those; sets and maps inside unknown fields keep their wire
            # order in a re-encoder that keeps them). A re-encoder that keeps unknown fields
            # must then reproduce the bytes, one that drops them write what Apache writes for
            # the value it decodes.
            unknown_canonical = (unknown and info.ascending and not absent
                                 and ttlib.walk(reenc, proto).max_set_map <= 1)
            fname = "%s.%s.bin" % (name, proto)
            with open(os.path.join(out, fname), "wb") as f:
                f.write(data)
            entry = {"file": fname, "type": type_name, "protocol": proto, "name": name,
                     "canonical": not reasons, "source": source, "unknown_fields": unknown,
                     "unknown_canonical": unknown_canonical,
                     "size": len(data), "description": desc}
            if name in TYPE_MISMATCH:
                entry["field_type_mismatch"] = True
            if reasons:
                entry["non_canonical_reason"] = "; ".join(reasons)
            index.append(entry)
    with open(os.path.join(out, "index.json"), "w") as f:
        json.dump({"generator": "interop/make_vectors.py (%s compiler, python thrift runtime)"
                   % ttlib.GEN.compiler_version, "uuid_covered": ttlib.GEN.uuid_patched,
                   "idl_changes": ttlib.GEN.idl_notes, "vectors": index}, f, indent=1, ensure_ascii=False)
    n_canon = sum(e["canonical"] for e in index)
    print("wrote %d vectors (%d types, %d canonical) to %s"
          % (len(index), len({e["type"] for e in index}), n_canon, out))
    if unreadable:
        print("left out in JSON (Apache Python cannot read its own nan/inf): %s"
              % ", ".join(unreadable))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

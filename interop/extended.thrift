/*
 * "Future version" schemas for the interop harness (interop/make_vectors.py).
 *
 * Each struct here has the SAME field ids/types as the ThriftTest struct it is
 * named after, plus extra fields of every Thrift type (including nested structs
 * and containers, high and negative ids), interleaved with the known ones.
 * Vectors written with these schemas are declared in index.json as the plain
 * ThriftTest type, so the decoder under test must skip every unknown field.
 * (Apache's Python generator always writes fields in ascending id order, so
 * out-of-order vectors are hand-built in make_vectors.py instead.)
 *
 * Needs `thrift --allow-neg-keys` (negative field ids).
 */

namespace py InteropExt

enum Color {
  RED = 1,
  GREEN = 2,
  BLUE = 0x7fffffff
}

struct Leaf {
  1: double d,
  2: set<i16> shorts,
  3: binary blob,
}

struct Inner {
  1: string name,
  2: list<i64> nums,
  3: map<string, Leaf> leaves,
  -4: bool flag,
  40: Leaf leaf,
}

/* ThriftTest.Xtruct: 1 string_thing, 4 i8 byte_thing, 9 i32 i32_thing, 11 i64 i64_thing */
struct Xtruct {
  -1:    i32 neg_i32,
  1:     string string_thing,
  2:     bool u_bool_true,
  3:     bool u_bool_false,
  4:     i8 byte_thing,
  5:     i16 u_i16,
  6:     double u_double,
  7:     binary u_binary,
  8:     Inner u_struct,
  9:     i32 i32_thing,
  10:    list<map<string, list<Inner>>> u_nested,
  11:    i64 i64_thing,
  12:    map<i32, set<string>> u_map_of_sets,
  13:    set<i64> u_set,
  14:    list<bool> u_list_bool,
  15:    Color u_enum,
  16:    i64 u_i64,
  17:    string u_string,
  18:    i8 u_byte,
  100:   list<list<binary>> u_list_list_binary,
  1000:  map<bool, double> u_map_bool_double,
  20000: list<i32> u_empty_list,
  32767: map<string, Inner> u_max_id,
  -2:    Inner neg_struct,
  -300:  list<Leaf> neg_list,
  -32768: map<i64, list<string>> min_id,
  30:    map<string, string> u_empty_map,
  31:    set<binary> u_empty_set,
  32:    list<double> u_doubles,
}

/* ThriftTest.Xtruct2: 1 i8 byte_thing, 2 Xtruct struct_thing, 3 i32 i32_thing */
struct Xtruct2 {
  1:  i8 byte_thing,
  2:  Xtruct struct_thing,
  3:  i32 i32_thing,
  4:  Xtruct u_xtruct,
  5:  list<Xtruct> u_xtructs,
  99: Inner u_inner,
}

/* ThriftTest.Insanity: 1 map<Numberz(i32), i64> userMap, 2 list<Xtruct> xtructs */
struct Insanity {
  0:  string u_zero_id,
  1:  map<i32, i64> userMap,
  2:  list<Xtruct> xtructs,
  3:  map<Color, list<Xtruct>> u_by_color,
  -3: set<string> u_neg_set,
}

/* ThriftTest.EmptyStruct: no fields at all -> everything is unknown */
struct EmptyStruct {
  1: string a,
  2: Inner b,
  3: list<map<i32, Inner>> c,
  4: bool d,
  5: double e,
  -5: i64 f,
}

/* ThriftTest.OneField: 1 EmptyStruct field */
struct OneField {
  1: EmptyStruct field,
  2: EmptyStruct u_other,
  3: bool u_flag,
}

/** Every base type, with each requiredness. */
struct BaseTypes {
  1: bool a_bool
  2: byte a_byte
  3: i8 an_i8
  4: i16 an_i16
  5: i32 an_i32
  6: i64 an_i64
  7: double a_double
  8: string a_string
  9: binary a_binary
  10: uuid a_uuid
}

struct Requiredness {
  1: required i32 req
  2: optional i32 opt
  3: i32 plain
  4: required string req_string
  5: optional string opt_string
  6: string plain_string
  7: optional bool opt_bool
  8: required bool req_bool
}

struct Defaults {
  1: i32 number = 42
  2: string text = "hello"
  3: optional double ratio = 0.5
  4: list<i32> numbers = [1, 2, 3]
  5: bool flag = true
  6: binary bytes = "raw"
  7: uuid id = "00112233-4455-6677-8899-aabbccddeeff"
  8: i64 big = -9223372036854775808
}

/** Fields out of id order are written in id order. */
struct OutOfOrder {
  3: i32 c
  1: i32 a
  2: optional i32 b
}

struct Empty {}

/** Nested structs, read in place (`read_into`) in each position. */
struct Nested {
  1: required BaseTypes base
  2: optional Requiredness inner
  3: list<Requiredness> items
  4: OutOfOrder plain
}

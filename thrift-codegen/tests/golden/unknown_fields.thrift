// Generated with `keep_unknown_fields(["unknown_fields"])`: every struct and exception here
// keeps the fields it does not declare and writes them back where they came.

struct Inner {
  1: string name,
}

struct Kept {
  1: i32 id,
  3: optional string label,
  5: bool flag,
  7: optional bool maybe,
  9: list<Inner> inners,
  11: optional Inner inner,
}

struct AllRequired {
  1: required i32 a,
  2: required string b,
}

struct Nothing {}

// A field with the member's name: the member becomes `unknown_fields_`.
struct Clash {
  1: i64 unknown_fields,
}

exception Failed {
  1: string message,
}

// Unions have no place for unknown fields: unaffected.
union Choice {
  1: i32 number,
  2: string text,
}

// A constant of a struct that keeps unknown fields: none.
const Kept EXAMPLE = {"id": 1, "inner": {"name": "n"}}

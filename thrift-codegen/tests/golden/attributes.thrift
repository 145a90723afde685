// Attributes added by the builder: `type_attribute`, `ref_type_attribute`, `field_attribute`
// and `ref_field_attribute`, by file, type and field path, and boxes (`boxed`; the options are
// in golden.rs); and the same from the IDL's annotations, `rust.attr` and `rust.box`.

enum Color {
  RED = 1,
  GREEN = 2
}

struct Tagged {
  1: string name
  2: optional i32 count
  3: Color color
}

union Choice {
  1: string text
  2: i64 number
  3: Tagged tagged (rust.box)
}

struct Holder {
  1: required Tagged boxed_by_annotation (rust.box)
  2: optional Tagged boxed_by_builder
  3: i32 count (rust.attr = "#[doc(alias = \"n\")]")
} (rust.attr = "#[doc(alias = \"holds\")]")

exception Failed {
  1: string why
}

// `rust.name`: Rust names chosen in the IDL (the IDL names stay on the wire and in serde).
struct Renamed {
  1: i32 count (rust.name = "total")
  2: string type (rust.name = "kind")
  3: Mode mode
  4: Alias alias
} (rust.name = "Better")

enum Mode {
  FAST (rust.name = "QUICK"),
  SLOW
} (rust.name = "Speed")

union Pick {
  1: i32 a (rust.name = "Number")
  2: string b
} (rust.name = "Picked")

typedef i32 Alias (rust.name = "Count")

service Renamer {
  Renamed rename(1: Renamed value)
} (rust.name = "Namer")

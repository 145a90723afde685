// Attributes added by the builder: `type_attribute`, `ref_type_attribute`, `field_attribute`
// and `ref_field_attribute`, by file, type and field path (the options are in golden.rs).

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
}

exception Failed {
  1: string why
}

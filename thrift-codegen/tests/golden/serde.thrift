// Generated with `serde(true)` (and into serde_bytes.rs, serde_compact.rs with the other string
// mappings, serde_hash.rs with `Collections::Hash`): every construct, for the serde_json round
// trips in tests/tests/serde.rs.

enum Color {
  RED = 1,
  GREEN = 2,
  CRIMSON = 1,
  NEGATIVE = -5,
}

typedef map<Point, string> Labels

struct Point {
  1: double x,
  2: double y,
}

struct Everything {
  1: bool aBool,
  2: byte aByte,
  3: i16 anI16,
  4: i32 anI32,
  5: i64 anI64,
  6: double aDouble,
  7: string aString,
  8: binary aBinary,
  9: uuid anUuid,
  10: Color color,
  11: list<Color> colors,
  12: set<double> doubles,
  13: map<i32, string> byNumber,
  14: map<string, list<i64>> byName,
  15: map<Color, bool> byColor,
  16: map<bool, i8> byBool,
  17: map<Point, string> byPoint,
  18: optional Labels labels,
  19: map<double, string> byDouble,
  20: map<binary, string> byBinary,
  21: list<map<i32, Point>> nested,
  22: Shape shape,
  23: string type,
}

struct Defaults {
  1: required i32 needed,
  2: optional string maybe,
  3: optional i32 maybeWithDefault = 7,
  4: string named = "default name",
  5: list<i32> numbers = [1, 2],
  6: i32 zero,
  7: Color color = Color.GREEN,
}

union Shape {
  1: Point point,
  2: double radius,
  3: map<Point, i32> counts,
  4: string label,
}

struct Tree {
  1: string name,
  2: list<Tree> children,
  3: optional Tree parent,
}

exception Oops {
  1: string message,
  2: i32 code = 500,
}

enum Color {
  RED = 1,
  GREEN,
  BLUE = 0x10
}

/** Values with negative numbers and an alias. */
enum Signed {
  MINUS_ONE = -1,
  ZERO,
  ALSO_ZERO = 0,
  MAX = 2147483647
}

enum Empty {}

enum Keywords {
  self,
  type,
  KNOWN,
  lowerCase
}

struct UsesEnums {
  1: Color color = Color.GREEN
  2: optional Signed signed
  3: list<Color> colors = [Color.RED, Color.BLUE]
  4: map<Color, string> names = {Color.RED: "red"}
}

struct Point {
  1: i32 x
  2: i32 y
}

union Shape {
  1: Point point
  2: list<Point> polygon
  3: string label
  4: bool flag
}

/** A union that contains itself. */
union Expr {
  1: i64 literal
  2: Expr negate
  3: list<Expr> sum
}

union Empty {}

union Named {
  1: string first_name
  2: string last_name
  3: string middle_name
}

struct HasUnion {
  1: Shape shape
  2: optional Expr expr
}

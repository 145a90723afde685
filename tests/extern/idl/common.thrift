// Types shared by two crates: `thrift-extern-common` generates them, `thrift-extern-user`
// takes them from it (`Builder::extern_path`).

enum Level {
  LOW = 1,
  HIGH = 2
}

struct Point {
  1: i32 x
  2: i32 y
}

/** Has a borrowing form, `LabelRef`. */
struct Label {
  1: string text
  2: Level level
}

const i32 MAX_POINTS = 8

typedef list<Point> Path

service Base {
  i32 ping()
}

include "common.thrift"

struct Shape {
  1: string name
  2: common.Path path
  3: common.Label label
  4: map<common.Level, common.Point> by_level
  5: i32 limit = common.MAX_POINTS
  6: optional list<common.Label> labels
}

exception NotFound {
  1: common.Label what
}

service Shapes extends common.Base {
  Shape get(1: string name) throws (1: NotFound missing)
}

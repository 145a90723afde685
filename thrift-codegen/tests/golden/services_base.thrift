// A service extended from another file (golden: services.thrift).

exception Oops {
  1: string why
}

service Base {
  void ping(),
  i32 add(1: i32 a, 2: i32 b) throws (1: Oops oops)
}

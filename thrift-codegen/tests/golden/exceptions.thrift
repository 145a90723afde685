exception NotFound {
  1: string message
  2: i32 code = 404
}

exception Empty {}

service Lookup {
  string find(1: string key) throws (1: NotFound missing)
}

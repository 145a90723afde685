exception NotFound {
  1: string message
  2: i32 code = 404
}

exception Empty {}

service Lookup {
  string find(1: string key) throws (1: NotFound missing)
}

/** Its message is optional: `Display` falls back to the fields when it is unset. */
exception Refused {
  1: optional string reason
  2: i32 code
}

// Services: extends across files, exceptions (one through a typedef of the other's type),
// oneway, optional and required arguments, names that are Rust keywords or clash with the
// generated code's own names, many arguments, a service without functions, and names that
// clash only in Rust (at the end).

include "services_base.thrift"

typedef services_base.Oops Alias

exception Busy {
  1: i32 retry_after_ms
}

struct Item {
  1: required string name,
  2: optional list<i64> tags
}

service Empty {}

service ChildOfEmpty extends Empty {}

/** Keeps items. */
service Store extends services_base.Base {
  /** Gets one. */
  Item get(1: string name) throws (1: Busy busy, 2: services_base.Oops oops, 3: Alias alias),
  void put(1: required Item item, 2: bool overwrite = true),
  oneway void forget(1: string name),
  bool type(1: string self, 2: i32 handler, 3: binary out, 4: map<string, Item> args,
            5: set<string> result, 6: double call, 7: list<Item> channel)
}

service Events {
  oneway void emit(1: string name),
  oneway void flush(),
  // clippy's placeholder names as parameters (`disallowed_names` in a consuming crate).
  oneway void poke(1: i32 foo, 2: i32 baz)
}

// Names that clash only after conversion to Rust: two functions that are both `get_foo`, a
// struct that takes the name of a generated args struct, two services that are both `Clash`
// (and both `dispatch_clash`), and a child whose function's Rust name the parent already has.
struct ClashGetFooArgs {
  1: i32 taken
}

service Clash {
  i32 getFoo(1: i32 a),
  i32 get_foo(1: i32 b)
}

service clash {}

service ClashChild extends Clash {
  i32 GetFoo(1: i32 c)
}

struct type {
  1: i32 fn
  2: i32 self
  3: i32 super
  4: string crate
  5: i32 fooBar
  6: i32 foo_bar
  7: i32 FooBar
  8: i32 async
}

struct snake_case_struct {
  1: i32 CamelCaseField
}

const i32 lowerConst = 1
const i32 LOWER_CONST = 2

union match {
  1: i32 if
  2: i32 else
}

/** Type names that clash after case conversion, and with a borrowing form's name. */
struct foo_bar {
  1: string a
}

struct FooBar {}

struct FooBarRef {}

// Defaults taken from consts of an included file, in a struct with a borrowing form.
include "included_const_common.thrift"

struct Book {
  1: string title = included_const_common.DEFAULT_TITLE
  2: i32 pages = included_const_common.DEFAULT_PAGES
  3: list<string> tags = included_const_common.DEFAULT_TAGS
  4: included_const_common.Title subtitle = included_const_common.ALIASED_TITLE
  5: optional binary cover
}

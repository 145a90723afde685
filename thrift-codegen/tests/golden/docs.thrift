/**
 * A struct with a doc comment of several paragraphs.
 *
 * It has a list:
 * - one
 * - two
 *
 * and code-like text: map<string, list<i32>> [see] http://example.com
 *     indented line that rustdoc would treat as a doctest
 */
struct Documented {
  /** A plain field doc. */
  1: i32 plain
  /// A line doc with `backticks` and <html>.
  2: i32 special
}

/// Enum doc.
enum E {
  /** Value doc. */
  A
}

/** A linked list. */
struct Node {
  1: i32 value
  2: optional Node next
}

/** A tree through a container: no box needed. */
struct Tree {
  1: list<Tree> children
}

/** Mutual recursion. */
struct Ping {
  1: optional Pong pong
}

struct Pong {
  1: Ping ping
}

/** Recursion through a typedef and a union. */
typedef Wrapper Alias

union Wrapper {
  1: Alias inner
  2: i32 leaf
}

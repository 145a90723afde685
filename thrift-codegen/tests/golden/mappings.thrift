// Per-path string and collection mappings: `rust.type` annotations, and the builder's
// `strings_for("mappings.Mixed.payload", Strings::Bytes)` and
// `collections_for("mappings.ByBuilder", Collections::Hash)`.

typedef map<string, i32> Counts
typedef string Name

struct Inner {
  1: map<string, i32> counts (rust.type = "HashMap"),
}

struct Mixed {
  1: map<string, i32> plain,
  2: map<string, i32> hashed (rust.type = "HashMap"),
  3: set<i32> hashedSet (rust.type = "HashSet"),
  4: Counts aliased (rust.type = "HashMap"),
  5: string text,
  6: string shared (rust.type = "ByteString"),
  7: binary payload,
  8: Name alias (rust.type = "CompactString"),
  9: list<map<string, set<i32>>> nested (rust.type = "HashMap"),
  10: string withDefault = "d" (rust.type = "ByteString"),
  11: map<string, i32> withDefaultMap = {"a": 1} (rust.type = "HashMap"),
  12: optional Inner inner,
  13: list<string> names (rust.type = "CompactString"),
}

// Every field of the type.
struct AllHashed {
  1: map<i32, string> a,
  2: set<string> b,
} (rust.type = "HashMap")

struct ByBuilder {
  1: map<i32, i32> a,
  2: list<set<i64>> b,
}

// `Inner` in a set element: its map stays a `BTreeMap` there.
struct Keys {
  1: set<Inner> inners,
}

union Choice {
  1: map<string, i32> counts (rust.type = "HashMap"),
  2: string text (rust.type = "CompactString"),
}

const Mixed EXAMPLE = {
  "hashed": {"x": 1},
  "shared": "s",
  "alias": "a",
  "payload": "p",
}

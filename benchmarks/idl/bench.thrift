// Shared IDL of the serialization benchmarks: every contender (ours, Apache's generated code,
// pilota's generated code) is generated from this one file.

enum Kind {
  UNKNOWN = 0
  ALPHA = 1
  BETA = 2
  GAMMA = 3
}

// The small struct: a typical RPC request header.
struct Small {
  1: required i64 id
  2: required i32 version
  3: required string name
  4: required bool enabled
  5: required double score
  6: optional i16 code
  7: required Kind kind
}

// An element of the lists in Large and Scaling.
struct Element {
  1: required i64 id
  2: required string name
  3: required binary payload
  4: required double value
  5: required list<string> labels
}

struct Inner {
  1: required i32 index
  2: required string label
  3: required binary digest
  4: required list<i64> samples
  5: required map<string, string> attributes
}

// The large nested struct.
struct Large {
  1: required i64 id
  2: required string title
  3: required list<Element> elements
  4: required list<Inner> inners
  5: required map<string, i64> counters
  6: required map<i32, Element> by_id
  7: required set<string> tags
  8: required set<i64> ids
  9: required binary blob
  10: required list<Small> smalls
  11: optional string note
}

// The scaling series: N elements.
struct Scaling {
  1: required list<Element> elements
}

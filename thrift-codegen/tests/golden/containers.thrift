struct Containers {
  1: list<list<i32>> matrix
  2: set<string> tags
  3: map<string, map<i32, list<string>>> nested
  4: set<double> doubles
  5: map<double, double> by_double
  6: list<set<double>> sets_of_doubles
  7: map<binary, bool> by_bytes
  8: optional list<bool> flags
  9: list<binary> blobs
  10: set<list<double>> nested_doubles
}

// A struct used as a map key and set element: its own set stays ordered in every mode, so
// that it can be hashed and ordered.
struct KeyWithSet {
  1: set<string> names
  2: double weight
}

struct UsesKeys {
  1: map<KeyWithSet, set<i32>> by_key
  2: set<KeyWithSet> keys
  3: map<string, list<map<i32, string>>> deep
}

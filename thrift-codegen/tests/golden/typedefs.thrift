typedef i64 Id
typedef list<Id> Ids
typedef map<string, Ids> Index
typedef double Score
typedef set<Score> Scores

struct Record {
  1: Id id
  2: Ids related
  3: Index index
  4: Scores scores
  5: map<Score, string> by_score
}

// A typedef of a map inside a struct used as a set element: with hash collections the alias
// names a `HashMap`, so the key form spells out the `BTreeMap`.
typedef list<map<i32, string>> Program

struct Procedure {
  1: Program steps
}

struct Catalog {
  1: set<Procedure> procedures
  2: Program main
}

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

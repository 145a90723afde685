include "unions.thrift"

enum Level { LOW = 1, HIGH = 2 }

const bool ENABLED = true
const i8 SMALL = -128
const i16 SHORT = 32767
const i32 HEX = 0x7fffffff
const i64 BIG = 9223372036854775807
const double PI = 3.14159
const double NEG = -2.5e-3
const double WHOLE = 7
const string GREETING = "hello \"world\"\n"
const binary MAGIC = "PAR1"
const uuid NIL = "00000000-0000-0000-0000-000000000000"
const Level DEFAULT_LEVEL = Level.HIGH
const string ALIAS = GREETING
const list<string> NAMES = ["a", "b"]
const set<i32> PRIMES = [2, 3, 5]
const set<double> RATIOS = [0.5, 1.5]
const map<string, Level> LEVELS = {"low": Level.LOW, "high": Level.HIGH}
const map<double, list<i32>> NESTED = {1.5: [1], 2.5: []}
const map<string, i32> NO_LEVELS = {}
const set<i64> NO_IDS = []
const unions.Point ORIGIN = {"x": 0, "y": 0}
const list<unions.Point> CORNERS = [{"x": 0, "y": 0}, {"x": 1}]
const unions.Shape LABEL = {"label": "here"}
const i64 WIDENED = HEX

// The checks of the C++ client (client_checks.h): every ThriftTest call with the values and
// expectations of Apache's test clients plus more edge cases, and how a result is compared and
// shown when it differs.
#include "client_checks.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <thrift/TApplicationException.h>
#include <thrift/TToString.h>

using namespace apache::thrift;
using namespace thrift::test;

namespace tt_client {

bool json_nan = false;

std::string shorten(const std::string& text, size_t limit) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + "...(" + std::to_string(text.size()) + " chars)";
}

namespace {

const double ONEWAY_LIMIT = 0.5; // seconds a oneway call may take

// ---------------------------------------------------------------- comparison

std::string show(const std::string& s) {
  std::ostringstream o;
  o << '"';
  for (size_t i = 0; i < s.size() && i < 60; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') o << '\\' << c;
    else if (c >= 0x20 && c < 0x7f) o << c;
    else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      o << buf;
    }
  }
  o << '"';
  if (s.size() > 60) o << "...(" << s.size() << " bytes)";
  return o.str();
}

std::string show(double d) {
  char buf[64];
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  std::snprintf(buf, sizeof buf, "%.17g (0x%016llx)", d, static_cast<unsigned long long>(bits));
  return buf;
}

std::string show(bool b) { return b ? "true" : "false"; }
std::string show(int8_t v) { return std::to_string(v); }

template <typename T>
std::string show(const T& v) {
  return shorten(apache::thrift::to_string(v));
}

// Doubles compare by their bits (-0.0 is not 0.0), but over JSON any NaN is NaN: the text has
// no sign nor payload for it, and Apache's C++ JSON reader makes "NaN" into x86's default NaN
// (sign bit set).
bool same(double a, double b) {
  if (json_nan && std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

template <typename T>
bool same(const T& a, const T& b) {
  return a == b;
}

template <typename T>
void expect(const T& actual, const T& expected) {
  if (!same(actual, expected))
    throw CheckFailed("got " + show(actual) + ", expected " + show(expected));
}

void expect_true(bool ok, const std::string& why) {
  if (!ok) throw CheckFailed(why);
}

// ---------------------------------------------------------------- values

const int32_t I32_MIN = std::numeric_limits<int32_t>::min();
const int32_t I32_MAX = std::numeric_limits<int32_t>::max();
const int64_t I64_MIN = std::numeric_limits<int64_t>::min();
const int64_t I64_MAX = std::numeric_limits<int64_t>::max();

template <size_t N>
std::string bytes(const char (&literal)[N]) { // keeps NULs
  return std::string(literal, N - 1);
}

std::string repeat(const std::string& s, size_t n) {
  std::string out;
  out.reserve(s.size() * n);
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}

std::string binary_pattern(size_t size) {
  std::string out(size, '\0');
  for (size_t i = 0; i < size; ++i) out[i] = static_cast<char>(i & 0xff);
  return out;
}

Xtruct xtruct(const std::string& s, int8_t b, int32_t i, int64_t l) {
  Xtruct x;
  x.string_thing = s;
  x.byte_thing = b;
  x.i32_thing = i;
  x.i64_thing = l;
  return x;
}

Insanity insanity_argument() {
  Insanity in;
  in.userMap[Numberz::FIVE] = 5;
  in.userMap[Numberz::EIGHT] = 8;
  in.xtructs.push_back(xtruct("Goodbye4", 4, 4, 4));
  in.xtructs.push_back(xtruct("Hello2", 2, 2, 2));
  return in;
}

typedef std::map<int32_t, int32_t> IntMap;
typedef std::map<std::string, std::string> StringMap;
typedef std::set<int32_t> IntSet;
typedef std::vector<int32_t> IntList;

typedef std::function<void(const std::string&, Check)> AddCheck;

// Strings: ASCII, escapes, many scripts, UTF-8 boundaries, 64 KiB and 1 MiB (not under zlib),
// and SecondService's when multiplexed.
void add_string_checks(const peer::Flags& f, const AddCheck& add) {
  const std::vector<std::pair<std::string, std::string> > strings = {
      {"'Test'", "Test"},
      {"empty", ""},
      {"ascii 1200", repeat("Thrift", 200)},
      {"escapes", f.protocol == "json"
                      ? bytes("quote: \" backslash: \\ slash: / \b\f\n\r\t {}[]:, end")
                      : bytes("quote: \" backslash: \\ slash: / \b\f\n\r\t {}[]:, NUL: \0 end")},
      {"multilingual",
       "Afrikaans, Ελληνικά, Русский, Українська, עברית, العربية, فارسی, हिन्दी, "
       "বাংলা, தமிழ், ไทย, ລາວ, ქართული, Հայերեն, ᏣᎳᎩ, ⰔⰎⰑⰂⰡⰐⰠⰔⰍⰟ, 日本語, "
       "한국어, 中文, 粵語, Tiếng Việt, Türkçe, Íslenska, Mìng-dĕ̤ng-ngṳ̄"},
      {"astral + emoji", "𝄞 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 👩‍👩‍👧‍👦 🇯🇵 👍🏽"},
      {"utf-8 boundaries",
       "\x7f" "\xc2\x80" "\xdf\xbf" "\xe0\xa0\x80" "\xef\xbf\xbf" "\xf0\x90\x80\x80" "\xf4\x8f\xbf\xbf"},
      // Apache's C++ client sends large strings; the huge one is left out under zlib (see
      // below)
      {"65536 ascii", repeat("0123456789abcdef", 4096)},
  };
  for (const auto& s : strings) {
    std::string v = s.second;
    add("testString(" + s.first + ")", [v](Connection& c) {
      std::string r;
      c.tt->testString(r, v);
      expect(r, v);
    });
  }
  // Apache's C++ 0.17 THeaderTransport reads a zlib frame by inflating into a buffer the size of
  // its write buffer and copying the result back over the compressed frame: a large reply
  // compressed by the server overflows it (a crash or a corrupt reply). 1 MiB goes out
  // uncompressed only.
  if (!f.zlib) {
    std::string huge = repeat("Ünïcødé 😀 ", 1 << 16); // 1 MiB of 1- to 4-byte characters
    add("testString(1 MiB unicode)", [huge](Connection& c) {
      std::string r;
      c.tt->testString(r, huge);
      expect(r, huge);
    });
  }
  if (f.multiplexed) {
    add("SecondService.secondtestString(\"foobar\")", [](Connection& c) {
      std::string r;
      c.second->secondtestString(r, "foobar");
      expect(r, std::string("testString(\"foobar\")"));
    });
  }
}

// bool, byte, i32, i64 and double, at their edges.
void add_number_checks(const AddCheck& add) {
  for (bool b : {true, false}) {
    add(std::string("testBool(") + (b ? "true" : "false") + ")",
        [b](Connection& c) { expect(c.tt->testBool(b), b); });
  }
  for (int v : {0, 1, -1, 42, -42, 63, -127, 127, -128}) {
    int8_t b = static_cast<int8_t>(v);
    add("testByte(" + std::to_string(v) + ")", [b](Connection& c) { expect(c.tt->testByte(b), b); });
  }
  for (int32_t v : {0, 1, -1, 63, -64, 64, -65, 190000013, -190000013, I32_MAX, I32_MIN}) {
    std::string label = v == I32_MAX ? "2^31-1" : v == I32_MIN ? "-2^31" : std::to_string(v);
    add("testI32(" + label + ")", [v](Connection& c) { expect(c.tt->testI32(v), v); });
  }
  const std::vector<std::pair<std::string, int64_t> > i64s = {
      {"0", 0},
      {"1", 1},
      {"-1", -1},
      {"2^32", 1LL << 32},
      {"-2^32", -(1LL << 32)},
      {"2^32+1", (1LL << 32) + 1},
      {"-2^32-1", -(1LL << 32) - 1},
      {"-34359738368", -34359738368LL},
      {"2^53+1", (1LL << 53) + 1},
      {"7000000000000000123", 7000000000000000123LL},
      {"-7000000000000000123", -7000000000000000123LL},
      {"2^63-1", I64_MAX},
      {"-2^63", I64_MIN},
  };
  for (const auto& p : i64s) {
    int64_t v = p.second;
    add("testI64(" + p.first + ")", [v](Connection& c) { expect(c.tt->testI64(v), v); });
  }
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<std::string, double> > doubles = {
      {"0.0", 0.0},
      {"-0.0", -0.0},
      {"1.0", 1.0},
      {"-1.0", -1.0},
      {"-5.235098235", -5.235098235},
      {"-0.000341012439638598279", -0.000341012439638598279},
      {"2^32", 4294967296.0},
      {"2^32+1", 4294967297.0},
      {"2^53-1", 9007199254740991.0},
      {"-2^32", -4294967296.0},
      {"-2^32-1", -4294967297.0},
      {"-(2^53-1)", -9007199254740991.0},
      {"1e307", 1e307},
      {"1e-292", 1e-292},
      {"max", 1.7976931348623157e308},
      {"min normal", 2.2250738585072014e-308},
      {"min subnormal", 5e-324},
      {"-min subnormal", -5e-324},
      {"inf", inf},
      {"-inf", -inf},
      {"nan", std::numeric_limits<double>::quiet_NaN()},
  };
  for (const auto& p : doubles) {
    double v = p.second;
    add("testDouble(" + p.first + ")", [v](Connection& c) { expect(c.tt->testDouble(v), v); });
  }
}

// Binaries up to 128 KiB, structs and a nested struct.
void add_binary_and_struct_checks(const AddCheck& add) {
  // Apache's C++ client: empty, all byte values, then growing sizes up to 128 KiB
  const std::vector<std::pair<std::string, std::string> > binaries = {
      {"empty", ""},
      {"all 256 byte values", binary_pattern(256)},
      {"1 byte", binary_pattern(1)},
      {"4097 bytes", binary_pattern(4097)},
      {"65535 bytes", binary_pattern(65535)},
      {"131073 bytes", binary_pattern(131073)},
  };
  for (const auto& p : binaries) {
    std::string v = p.second;
    add("testBinary(" + p.first + ")", [v](Connection& c) {
      std::string r;
      c.tt->testBinary(r, v);
      expect(r, v);
    });
  }

  const Xtruct zero = xtruct("Zero", 1, -3, -5);
  const std::vector<std::pair<std::string, Xtruct> > structs = {
      {"{Zero, 1, -3, -5}", zero},
      {"zeros", xtruct("", 0, 0, 0)},
      {"extremes", xtruct("Ünïcødé 😀", -128, I32_MIN, I64_MAX)},
  };
  for (const auto& p : structs) {
    Xtruct v = p.second;
    add("testStruct(" + p.first + ")", [v](Connection& c) {
      Xtruct r;
      c.tt->testStruct(r, v);
      expect(r, v);
    });
  }
  {
    Xtruct2 nest;
    nest.byte_thing = 1;
    nest.struct_thing = zero;
    nest.i32_thing = 5;
    add("testNest({1, {Zero, 1, -3, -5}, 5})", [nest](Connection& c) {
      Xtruct2 r;
      c.tt->testNest(r, nest);
      expect(r, nest);
    });
  }
}

// Maps, string maps, sets and lists.
void add_collection_checks(const AddCheck& add) {
  IntMap m5;
  for (int i = 0; i < 5; ++i) m5[i] = i - 10;
  const std::vector<std::pair<std::string, IntMap> > maps = {
      {"{0:-10 .. 4:-6}", m5},
      {"empty", {}},
      {"extremes", {{-1, -2}, {I32_MAX, I32_MIN}, {I32_MIN, I32_MAX}}},
  };
  for (const auto& p : maps) {
    IntMap v = p.second;
    add("testMap(" + p.first + ")", [v](Connection& c) {
      IntMap r;
      c.tt->testMap(r, v);
      expect(r, v);
    });
  }
  const std::vector<std::pair<std::string, StringMap> > smaps = {
      {"{a: 2, b: blah, some: thing}", {{"a", "2"}, {"b", "blah"}, {"some", "thing"}}},
      {"empty", {}},
      {"unicode", {{"", ""}, {"日本", "語"}, {"😀", "emoji"}}},
  };
  for (const auto& p : smaps) {
    StringMap v = p.second;
    add("testStringMap(" + p.first + ")", [v](Connection& c) {
      StringMap r;
      c.tt->testStringMap(r, v);
      expect(r, v);
    });
  }
  IntSet s100;
  for (int i = -50; i < 50; ++i) s100.insert(i);
  const std::vector<std::pair<std::string, IntSet> > sets = {
      {"{-2 .. 2}", {-2, -1, 0, 1, 2}},
      {"empty", {}},
      {"100 elements", s100},
  };
  for (const auto& p : sets) {
    IntSet v = p.second;
    add("testSet(" + p.first + ")", [v](Connection& c) {
      IntSet r;
      c.tt->testSet(r, v);
      expect(r, v);
    });
  }
  IntList l40;
  for (int i = -20; i < 20; ++i) l40.push_back(i);
  const std::vector<std::pair<std::string, IntList> > lists = {
      {"empty", {}},
      {"[-2 .. 2]", {-2, -1, 0, 1, 2}},
      {"[1, 4, 9, -42]", {1, 4, 9, -42}},
      {"40 elements", l40},
  };
  for (const auto& p : lists) {
    IntList v = p.second;
    add("testList(" + p.first + ")", [v](Connection& c) {
      IntList r;
      c.tt->testList(r, v);
      expect(r, v);
    });
  }
}

// Enums and a typedef, then the calls with nested or many arguments and results: testMapMap,
// testInsanity, testMulti.
void add_enum_and_nested_checks(const AddCheck& add) {
  const std::vector<std::pair<std::string, Numberz::type> > enums = {
      {"ONE", Numberz::ONE},
      {"TWO", Numberz::TWO},
      {"THREE", Numberz::THREE},
      {"FIVE", Numberz::FIVE},
      {"EIGHT", Numberz::EIGHT},
  };
  for (const auto& p : enums) {
    Numberz::type v = p.second;
    add("testEnum(" + p.first + ")", [v](Connection& c) {
      expect(static_cast<int>(c.tt->testEnum(v)), static_cast<int>(v));
    });
  }
  add("testTypedef(309858235082523)", [](Connection& c) {
    expect(c.tt->testTypedef(309858235082523LL), static_cast<UserId>(309858235082523LL));
  });
  add("testTypedef(0xffffffffffffff)", [](Connection& c) {
    expect(c.tt->testTypedef(0xffffffffffffffLL), static_cast<UserId>(0xffffffffffffffLL));
  });

  add("testMapMap(1)", [](Connection& c) {
    std::map<int32_t, IntMap> r;
    c.tt->testMapMap(r, 1);
    std::map<int32_t, IntMap> want = {{-4, {{-4, -4}, {-3, -3}, {-2, -2}, {-1, -1}}},
                                      {4, {{1, 1}, {2, 2}, {3, 3}, {4, 4}}}};
    expect(r, want);
  });
  add("testInsanity({FIVE: 5, EIGHT: 8}, [Goodbye4, Hello2])", [](Connection& c) {
    std::map<UserId, std::map<Numberz::type, Insanity> > r;
    Insanity arg = insanity_argument();
    c.tt->testInsanity(r, arg);
    expect_true(r.size() == 2 && r.count(1) && r.count(2),
                "got " + show(r) + ", expected keys {1, 2}");
    std::map<Numberz::type, Insanity> first = {{Numberz::TWO, arg}, {Numberz::THREE, arg}};
    expect(r[1], first);
    expect_true(r[2].size() == 1 && r[2].count(Numberz::SIX),
                "result[2] is " + show(r[2]) + ", expected {SIX: Insanity()}");
    const Insanity& empty = r[2][Numberz::SIX];
    expect_true(empty.userMap.empty() && empty.xtructs.empty(),
                "result[2][SIX] is " + show(empty) + ", expected Insanity()");
  });
  add("testMulti(42, 4242, 424242, ...)", [](Connection& c) {
    Xtruct r;
    c.tt->testMulti(r, 42, 4242, 424242, {{1, "blah"}, {2, "thing"}}, Numberz::EIGHT, 24);
    expect(r, xtruct("Hello2", 42, 4242, 424242));
  });
  add("testMulti(74, 0xff00ff, 0xffffffffd0d0, ...)", [](Connection& c) {
    Xtruct r;
    c.tt->testMulti(r, 74, 0xff00ff, 0xffffffffd0d0LL, {{0, "abc"}}, Numberz::FIVE, 0xf0f0f0);
    expect(r, xtruct("Hello2", 74, 0xff00ff, 0xffffffffd0d0LL));
  });
}

// Declared exceptions, an undeclared one (TApplicationException), and success.
void add_exception_checks(const AddCheck& add) {
  add("testException(\"Xception\")", [](Connection& c) {
    try {
      c.tt->testException("Xception");
    } catch (const Xception& e) {
      expect(e.errorCode, 1001);
      expect(e.message, std::string("Xception"));
      return;
    }
    throw CheckFailed("returned, expected Xception");
  });
  add("testException(\"TException\")", [](Connection& c) {
    try {
      c.tt->testException("TException");
    } catch (const TApplicationException& e) {
      // not the refusal of a server that requires info headers (tt_server --expect-header)
      std::string what = e.what();
      if (what.rfind("missing info header ", 0) == 0)
        throw CheckFailed("TApplicationException: " + what + " (the call was not served)");
      return;
    }
    throw CheckFailed("returned, expected TApplicationException");
  });
  add("testException(\"success\")", [](Connection& c) { c.tt->testException("success"); });
  add("testMultiException(\"Xception\", _)", [](Connection& c) {
    Xtruct r;
    try {
      c.tt->testMultiException(r, "Xception", "ignored");
    } catch (const Xception& e) {
      expect(e.errorCode, 1001);
      expect(e.message, std::string("This is an Xception"));
      return;
    }
    throw CheckFailed("returned " + show(r) + ", expected Xception");
  });
  add("testMultiException(\"Xception2\", _)", [](Connection& c) {
    Xtruct r;
    try {
      c.tt->testMultiException(r, "Xception2", "ignored");
    } catch (const Xception2& e) {
      expect(e.errorCode, 2002);
      expect(e.struct_thing.string_thing, std::string("This is an Xception2"));
      return;
    }
    throw CheckFailed("returned " + show(r) + ", expected Xception2");
  });
  add("testMultiException(\"success\", \"foobar\")", [](Connection& c) {
    Xtruct r;
    c.tt->testMultiException(r, "success", "foobar");
    expect(r.string_thing, std::string("foobar"));
  });
}

// A oneway call must return at once, and the connection must serve the next call.
void add_oneway_checks(const AddCheck& add) {
  add("testOneway(1)", [](Connection& c) {
    double start = now();
    c.tt->testOneway(1);
    double took = now() - start;
    if (took >= ONEWAY_LIMIT) {
      char buf[128];
      std::snprintf(buf, sizeof buf,
                    "took %.3f s (the server sleeps 1 s; a oneway call must not wait)", took);
      throw CheckFailed(buf);
    }
  });
  add("testI32(-1) after testOneway", [](Connection& c) { expect(c.tt->testI32(-1), -1); });
}

} // namespace

Checks make_checks(const peer::Flags& f) {
  Checks out;
  AddCheck add = [&](const std::string& name, Check c) { out.emplace_back(name, std::move(c)); };

  add("testVoid()", [](Connection& c) { c.tt->testVoid(); });

  add_string_checks(f, add);
  add_number_checks(add);
  add_binary_and_struct_checks(add);
  add_collection_checks(add);
  add_enum_and_nested_checks(add);
  add_exception_checks(add);
  add_oneway_checks(add);
  if (f.multiplexed) {
    add("SecondService.secondtestString(\"Ünïcødé 😀\")", [](Connection& c) {
      std::string r;
      c.second->secondtestString(r, "Ünïcødé 😀");
      expect(r, std::string("testString(\"Ünïcødé 😀\")"));
    });
  }
  return out;
}

} // namespace tt_client

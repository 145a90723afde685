// ThriftTest client on Apache Thrift's C++ library (Debian's libthrift-dev, 0.17): a trusted
// RPC peer for our Rust server. Same flags, checks and output as interop/py/tt_client.py:
//
//   tt_client [--host H] [--port N] [--protocol binary|compact|json|header]
//             [--transport buffered|framed|http] [--multiplexed] [--zlib]
//             [--header-payload binary|compact] [--domain-socket PATH]
//             [--ssl --ssl-ca FILE [--ssl-cert FILE --ssl-key FILE]]
//             [--header KEY=VALUE]... [--expect-refusal] [--binary-old-style]
//
// Opens one connection (retrying for up to 10 s while the server starts) and calls every
// ThriftTest method with the checks of Apache's test clients (test/cpp/src/TestClient.cpp,
// test/py/TestClient.py) plus more edge cases. Prints `PASS name` or `FAIL name: reason` per
// call and `N passed, N failed` at the end; exits 1 if anything failed. A call that breaks the
// connection (transport or protocol error, mismatched reply) fails and the client goes on on a
// new connection; after 3 such calls in a row it gives up and counts the calls not run as
// failed.
//
// Stricter than Apache's generated C++ client, which sends every call with sequence id 0 and
// never looks at a reply's sequence id: calls carry sequence ids 1, 2, 3, ...; each reply
// must carry its call's sequence id (with THeader also in the frame header), the bare method
// name (no "Service:" prefix, also for multiplexed calls) and type REPLY or EXCEPTION.
//
//   --header KEY=VALUE  (header only, repeatable) every call carries this THeader info header;
//                       every reply must carry it back as echo-KEY=VALUE (else the call fails)
//   --expect-refusal    the server must refuse the connection (TLS: an untrusted certificate):
//                       PASS when the first call fails at the transport, FAIL when it is answered
//   --binary-old-style  (binary only) write the old unversioned (non-strict) message headers,
//                       TBinaryProtocol with strict_write=false, and read either form
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <strings.h>

#include <thrift/TApplicationException.h>
#include <thrift/TToString.h>
#include <thrift/protocol/TMultiplexedProtocol.h>
#include <thrift/protocol/TProtocolDecorator.h>
#include <thrift/transport/THttpClient.h>
#include <thrift/transport/TSSLSocket.h>
#include <thrift/transport/TSocket.h>
#include <thrift/transport/TTransportUtils.h>

#include "SecondService.h"
#include "ThriftTest.h"
#include "peer.h"

using namespace apache::thrift;
using namespace apache::thrift::protocol;
using namespace apache::thrift::transport;
using namespace thrift::test;

namespace {

const double CONNECT_TIMEOUT = 10.0; // seconds to keep retrying the first connect
const int CALL_TIMEOUT_MS = 30000;   // socket timeout for every call (as our client: a 1 MiB
                                     // JSON string to a debug build under the matrix's load)
const double ONEWAY_LIMIT = 0.5;     // seconds a oneway call may take
const int MAX_BROKEN_IN_A_ROW = 3;   // connection-breaking failures in a row before giving up

// Apache's library logs through GlobalOutput to stderr; refused connects while the server
// starts and closes of failed connections are expected, and not logged.
bool library_quiet = false;
void library_output(const char* message) {
  if (!library_quiet) std::fprintf(stderr, "%s\n", message);
}
struct QuietLibrary {
  QuietLibrary() { library_quiet = true; }
  ~QuietLibrary() { library_quiet = false; }
};

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---------------------------------------------------------------- reply checks

// A check of a call's result failed (the connection is fine).
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A reply that does not belong to the call just made: the connection is out of step.
class ReplyMismatch : public TProtocolException {
public:
  explicit ReplyMismatch(const std::string& m) : TProtocolException(INVALID_DATA, m) {}
};

struct CallLog {
  int32_t last_seqid = 0;
  bool awaiting = false;
  std::string method; // bare name of the call awaiting its reply
  int32_t sent = 0;
};

// Numbers the calls and checks that each reply matches its call. With THeader info headers
// (--header), puts them on every call (Apache's 0.17 THeaderTransport clears its write headers
// once it has flushed a THeader frame) and, with --check-echo, checks that every reply carries
// each of them back as `echo-KEY` (the echo of this peer's server; our Rust server sends no
// reply headers yet).
class PedanticProtocol : public TProtocolDecorator {
public:
  PedanticProtocol(std::shared_ptr<TProtocol> inner, std::shared_ptr<CallLog> calls,
                   peer::InfoHeaders info_headers, bool check_echo)
    : TProtocolDecorator(inner),
      calls_(std::move(calls)),
      header_(std::dynamic_pointer_cast<THeaderTransport>(inner->getTransport())),
      info_headers_(std::move(info_headers)),
      check_echo_(check_echo) {}

  uint32_t writeMessageBegin_virt(const std::string& name, const TMessageType type,
                                  const int32_t) override {
    if (header_) {
      header_->clearHeaders(); // left by a call that failed before its flush
      for (const auto& h : info_headers_) header_->setHeader(h.first, h.second);
    }
    calls_->last_seqid++;
    auto colon = name.rfind(':');
    std::string method = colon == std::string::npos ? name : name.substr(colon + 1);
    calls_->awaiting = type != T_ONEWAY;
    calls_->method = method;
    calls_->sent = calls_->last_seqid;
    return TProtocolDecorator::writeMessageBegin_virt(name, type, calls_->last_seqid);
  }

  uint32_t readMessageBegin_virt(std::string& name, TMessageType& type, int32_t& seqid) override {
    uint32_t n = TProtocolDecorator::readMessageBegin_virt(name, type, seqid);
    bool awaiting = calls_->awaiting;
    calls_->awaiting = false;
    const std::string& method = calls_->method;
    if (!awaiting)
      throw ReplyMismatch("message '" + name + "' (type " + std::to_string(type)
                          + ") while no call awaits a reply");
    if (type != T_REPLY && type != T_EXCEPTION)
      throw ReplyMismatch("reply to " + method + " has message type " + std::to_string(type));
    if (name != method) throw ReplyMismatch("reply to " + method + " is named '" + name + "'");
    if (seqid != calls_->sent)
      throw ReplyMismatch("reply to " + method + " has seqid " + std::to_string(seqid)
                          + ", the call had " + std::to_string(calls_->sent));
    if (header_ && header_->getSequenceNumber() != calls_->sent)
      throw ReplyMismatch("THeader frame of the reply to " + method + " has seqid "
                          + std::to_string(header_->getSequenceNumber()) + ", the call had "
                          + std::to_string(calls_->sent));
    return n;
  }

  // After the whole reply is read (the connection stays in step): the echoed info headers.
  uint32_t readMessageEnd_virt() override {
    uint32_t n = TProtocolDecorator::readMessageEnd_virt();
    if (header_ && check_echo_ && !info_headers_.empty()) {
      const auto& got = header_->getHeaders();
      for (const auto& h : info_headers_) {
        auto it = got.find("echo-" + h.first);
        if (it == got.end())
          throw CheckFailed("reply to " + calls_->method + " lacks info header echo-" + h.first
                            + "=" + h.second);
        if (it->second != h.second)
          throw CheckFailed("reply to " + calls_->method + " has info header echo-" + h.first
                            + "=" + it->second + ", expected echo-" + h.first + "=" + h.second);
      }
    }
    return n;
  }

private:
  std::shared_ptr<CallLog> calls_;
  std::shared_ptr<THeaderTransport> header_;
  peer::InfoHeaders info_headers_;
  bool check_echo_;
};

// THttpClient with two workarounds for Apache's C++ 0.17 THttpClient, which keeps one
// connection and reads the responses in order:
//  - it sends a oneway call's POST and reads nothing: a server that answers that POST (with an
//    empty 200, as Apache's Python server and ours do) leaves that response before the next
//    call's, which THttpTransport then reads as the end of the stream. Before the next
//    request, a response still due is waited for (up to 3 s) and skipped; a connection that
//    gives none is opened again.
//  - it never reconnects: a server that closes the connection after each response (HTTP/1.0,
//    as Apache's Python THttpServer) breaks the next call. Before each request, the
//    connection is opened again when the last response said it would be closed (HTTP/1.0
//    without keep-alive, `Connection: close`) or the server has closed it (readable while no
//    response is due: end of stream or TLS close_notify).
class HttpClient : public THttpClient {
public:
  HttpClient(std::shared_ptr<TSocket> socket, const std::string& host, const std::string& path)
    : THttpClient(socket, host, path), socket_(std::move(socket)) {}

  void flush() override {
    if (socket_->isOpen() && responses_ < requests_) skip_due_response();
    if (socket_->isOpen() && (closing_ || readable(0))) reconnect();
    ++requests_;
    THttpClient::flush();
  }

protected:
  bool parseStatusLine(char* status) override {
    ++responses_;
    closing_ = std::strncmp(status, "HTTP/1.0", 8) == 0;
    return THttpClient::parseStatusLine(status);
  }
  void parseHeader(char* header) override {
    if (strncasecmp(header, "Connection:", 11) == 0) {
      std::string value(header + 11);
      for (auto& ch : value) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (value.find("close") != std::string::npos) closing_ = true;
      if (value.find("keep-alive") != std::string::npos) closing_ = false;
    }
    THttpClient::parseHeader(header);
  }

private:
  void skip_due_response() {
    QuietLibrary quiet;
    try {
      if (readable(3000)) {
        uint8_t sink[256];
        while (responses_ < requests_ || readBuffer_.available_read() > 0) {
          if (THttpTransport::read(sink, sizeof sink) == 0 && responses_ >= requests_) break;
        }
        return;
      }
    } catch (const TTransportException&) {
    }
    reconnect();
  }

  void reconnect() {
    QuietLibrary quiet;
    socket_->close();
    socket_->open();
    init(); // THttpTransport's read state: nothing buffered, headers next
    closing_ = false;
    responses_ = requests_;
  }

  bool readable(int timeout_ms) const {
    struct pollfd p = {socket_->getSocketFD(), POLLIN, 0};
    return ::poll(&p, 1, timeout_ms) > 0;
  }

  std::shared_ptr<TSocket> socket_;
  bool closing_ = false;
  unsigned long requests_ = 0, responses_ = 0;
};

// ---------------------------------------------------------------- connection

struct Connection {
  std::shared_ptr<TSocket> socket;
  std::shared_ptr<TTransport> transport;
  std::shared_ptr<ThriftTestClient> tt;
  std::shared_ptr<SecondServiceClient> second;
  std::shared_ptr<TSSLSocketFactory> tls; // keeps OpenSSL's context alive

  explicit Connection(const peer::Flags& f) {
    if (f.ssl) {
      if (f.ssl_ca.empty()) peer::usage_error("tt_client", "--ssl needs --ssl-ca");
      tls = std::make_shared<TSSLSocketFactory>();
      tls->loadTrustedCertificates(f.ssl_ca.c_str());
      tls->authenticate(true); // the server's certificate must check, for --host
      if (!f.ssl_cert.empty()) {
        tls->loadCertificate(f.ssl_cert.c_str());
        tls->loadPrivateKey(f.ssl_key.c_str());
      }
      socket = tls->createSocket(f.host, f.port);
    } else if (!f.domain_socket.empty()) {
      socket = std::make_shared<TSocket>(f.domain_socket);
    } else {
      socket = std::make_shared<TSocket>(f.host, f.port);
    }
    socket->setConnTimeout(CALL_TIMEOUT_MS);
    socket->setRecvTimeout(CALL_TIMEOUT_MS);
    socket->setSendTimeout(CALL_TIMEOUT_MS);

    if (f.transport == "http") {
      transport = std::make_shared<HttpClient>(socket, f.host, "/");
    } else if (f.transport == "framed") {
      transport = std::make_shared<TFramedTransport>(socket);
    } else if (f.protocol == "header") {
      transport = socket; // THeaderTransport frames by itself
    } else {
      transport = std::make_shared<TBufferedTransport>(socket);
    }

    std::shared_ptr<TProtocol> protocol;
    if (f.protocol == "binary") {
      bool strict = !f.binary_old_style;
      protocol = std::make_shared<TBinaryProtocol>(transport, 0, 0, strict, strict);
    } else if (f.protocol == "compact") {
      protocol = std::make_shared<TCompactProtocol>(transport);
    } else if (f.protocol == "json") {
      protocol = std::make_shared<TJSONProtocol>(transport);
    } else {
      auto header = std::make_shared<THeaderProtocol>(
          transport, f.header_payload == "compact" ? T_COMPACT_PROTOCOL : T_BINARY_PROTOCOL);
      // servers may compress their replies (to zlib calls, or always): see peer.h
      peer::presize_header_buffers(header);
      if (f.zlib) {
        std::dynamic_pointer_cast<THeaderTransport>(header->getTransport())
            ->setTransform(THeaderTransport::ZLIB_TRANSFORM);
      }
      protocol = header;
    }
    auto pedantic
        = std::make_shared<PedanticProtocol>(protocol, std::make_shared<CallLog>(), f.headers,
                                             f.check_echo);
    if (f.multiplexed) {
      tt = std::make_shared<ThriftTestClient>(
          std::make_shared<TMultiplexedProtocol>(pedantic, "ThriftTest"));
      second = std::make_shared<SecondServiceClient>(
          std::make_shared<TMultiplexedProtocol>(pedantic, "SecondService"));
    } else {
      tt = std::make_shared<ThriftTestClient>(pedantic);
    }
    open_with_retry();
  }

  void open_with_retry() {
    QuietLibrary quiet;
    double deadline = now() + CONNECT_TIMEOUT;
    for (;;) {
      try {
        transport->open();
        return;
      } catch (const TTransportException& e) {
        if (e.getType() != TTransportException::NOT_OPEN || now() >= deadline) throw;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }

  void close() {
    QuietLibrary quiet;
    try {
      transport->close();
    } catch (...) {
    }
  }
};

// ---------------------------------------------------------------- comparison

std::string shorten(const std::string& text, size_t limit = 120) {
  if (text.size() <= limit) return text;
  return text.substr(0, limit) + "...(" + std::to_string(text.size()) + " chars)";
}

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
bool json_nan = false;
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

typedef std::function<void(Connection&)> Check;
typedef std::vector<std::pair<std::string, Check> > Checks;

template <typename T>
std::string label_of(const T& v) {
  return show(v);
}

Checks make_checks(const peer::Flags& f) {
  Checks out;
  auto add = [&](const std::string& name, Check c) { out.emplace_back(name, std::move(c)); };

  add("testVoid()", [](Connection& c) { c.tt->testVoid(); });

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

  typedef std::map<int32_t, int32_t> IntMap;
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
  typedef std::map<std::string, std::string> StringMap;
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
  typedef std::set<int32_t> IntSet;
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
  typedef std::vector<int32_t> IntList;
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
  if (f.multiplexed) {
    add("SecondService.secondtestString(\"Ünïcødé 😀\")", [](Connection& c) {
      std::string r;
      c.second->secondtestString(r, "Ünïcødé 😀");
      expect(r, std::string("testString(\"Ünïcødé 😀\")"));
    });
  }
  return out;
}

// None if the check passed, else the reason and whether the connection is unusable.
struct Outcome {
  bool ok = true;
  std::string reason;
  bool broken = false;
};

std::string type_name(const std::exception& e) {
  if (dynamic_cast<const TSSLException*>(&e)) return "TSSLException";
  if (dynamic_cast<const TTransportException*>(&e)) return "TTransportException";
  if (dynamic_cast<const ReplyMismatch*>(&e)) return "ReplyMismatch";
  if (dynamic_cast<const TProtocolException*>(&e)) return "TProtocolException";
  if (dynamic_cast<const TApplicationException*>(&e)) return "TApplicationException";
  if (dynamic_cast<const TException*>(&e)) return "TException";
  return "exception";
}

Outcome run_check(Connection& c, const Check& check) {
  Outcome o;
  try {
    check(c);
  } catch (const CheckFailed& e) {
    o = {false, e.what(), false};
  } catch (const TTransportException& e) {
    o = {false, type_name(e) + ": " + e.what(), true};
  } catch (const TProtocolException& e) {
    o = {false, type_name(e) + ": " + e.what(), true};
  } catch (const std::exception& e) {
    o = {false, type_name(e) + ": " + shorten(e.what()), false};
  }
  return o;
}

std::string where(const peer::Flags& f) {
  if (!f.domain_socket.empty()) return f.domain_socket;
  return f.host + ":" + std::to_string(f.port);
}

// --expect-refusal: the first call must fail at the transport (a refused TLS handshake).
int expect_refusal(const peer::Flags& f) {
  std::unique_ptr<Connection> conn;
  try {
    conn.reset(new Connection(f));
    conn->tt->testVoid();
  } catch (const TTransportException& e) {
    if (conn) conn->close();
    std::printf("PASS connection refused: %s: %s\n", type_name(e).c_str(), e.what());
    std::printf("1 passed, 0 failed\n");
    return 0;
  } catch (const std::exception& e) {
    std::printf("FAIL connection refused: expected a refusal at the transport, got %s: %s\n",
                type_name(e).c_str(), e.what());
    std::printf("0 passed, 1 failed\n");
    return 1;
  }
  std::printf("FAIL connection refused: the server granted the connection and answered testVoid()\n");
  std::printf("0 passed, 1 failed\n");
  return 1;
}

} // namespace

int main(int argc, char** argv) {
  peer::Flags f = peer::parse_flags(argc, argv, true);
  std::signal(SIGPIPE, SIG_IGN);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  GlobalOutput.setOutputFunction(library_output);
  // The library's own logging (TOutput) goes to stderr; keep it there, away from the results.
  if (f.expect_refusal) return expect_refusal(f);

  std::unique_ptr<Connection> conn;
  try {
    conn.reset(new Connection(f));
  } catch (const std::exception& e) {
    std::printf("FAIL connect to %s: %s\n", where(f).c_str(), e.what());
    std::printf("0 passed, 1 failed\n");
    return 1;
  }
  std::printf("SKIP testUuid: Apache 0.17's compiler does not know uuid\n");
  if (f.protocol == "json") {
    json_nan = true;
    std::printf("SKIP NUL in testString(escapes): Apache's C++ 0.17 JSON reader drops \\u0000\n");
  }
  if (f.zlib) {
    std::printf("SKIP testString(1 MiB unicode): large frames under zlib (Apache's C++ 0.17 zlib "
                "reader, see peer.h)\n");
  }
  Checks todo = make_checks(f);
  int passed = 0, failed = 0, broken_in_a_row = 0;
  for (size_t i = 0; i < todo.size(); ++i) {
    Outcome o = run_check(*conn, todo[i].second);
    if (o.ok) {
      ++passed;
      broken_in_a_row = 0;
      std::printf("PASS %s\n", todo[i].first.c_str());
      continue;
    }
    ++failed;
    std::printf("FAIL %s: %s\n", todo[i].first.c_str(), o.reason.c_str());
    if (!o.broken) {
      broken_in_a_row = 0;
      continue;
    }
    // The connection is out of step (or gone): go on on a new one, unless that keeps happening.
    ++broken_in_a_row;
    conn->close();
    size_t rest = todo.size() - i - 1;
    if (!rest) break;
    if (broken_in_a_row >= MAX_BROKEN_IN_A_ROW) {
      failed += static_cast<int>(rest);
      std::printf("FAIL giving up: %d calls in a row broke the connection; %zu calls not run\n",
                  broken_in_a_row, rest);
      break;
    }
    try {
      conn.reset(new Connection(f));
    } catch (const std::exception& e) {
      failed += static_cast<int>(rest);
      std::printf("FAIL reconnect: %s; %zu calls not run\n", e.what(), rest);
      break;
    }
  }
  conn->close();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

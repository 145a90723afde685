// What tt_server.cpp and tt_client.cpp share: the flags (those of interop/py/tt_server.py and
// tt_client.py, Apache's cross-test names) and the protocol stacks they name.
#ifndef INTEROP_CPP_PEER_H
#define INTEROP_CPP_PEER_H

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <thrift/protocol/TBinaryProtocol.h>
#include <thrift/protocol/TCompactProtocol.h>
#include <thrift/protocol/THeaderProtocol.h>
#include <thrift/protocol/TJSONProtocol.h>
#include <thrift/transport/THeaderTransport.h>

namespace peer {

using apache::thrift::protocol::TProtocol;
using apache::thrift::transport::TTransport;

const char* const HOST = "127.0.0.1";

// THeader info (key/value) headers, in the order of the flags that gave them.
typedef std::vector<std::pair<std::string, std::string> > InfoHeaders;

struct Flags {
  std::string host = HOST;
  int port = 9090;
  std::string protocol = "binary";   // binary, compact, json, header
  std::string transport = "buffered"; // buffered, framed, http
  std::string header_payload;        // client: binary (default), compact
  bool multiplexed = false;
  bool zlib = false;
  std::string domain_socket;
  bool ssl = false;
  std::string ssl_cert, ssl_key, ssl_ca;
  // client only
  bool expect_refusal = false;
  bool binary_old_style = false;
  InfoHeaders headers; // --header KEY=VALUE: sent on every call
  bool check_echo = false; // --check-echo: every reply carries each header back as echo-KEY
  // server only
  InfoHeaders expect_headers; // --expect-header KEY=VALUE: required on every THeader call
};

[[noreturn]] inline void usage_error(const char* prog, const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", prog, why.c_str());
  std::exit(2);
}

// KEY=VALUE of --header / --expect-header (KEY not empty, each KEY once).
inline void add_info_header(const char* prog, const std::string& flag, const std::string& kv,
                            InfoHeaders& into) {
  auto eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) usage_error(prog, flag + ": not KEY=VALUE: " + kv);
  std::string key = kv.substr(0, eq);
  for (const auto& h : into)
    if (h.first == key) usage_error(prog, flag + ": " + key + " given twice");
  into.emplace_back(key, kv.substr(eq + 1));
}

// Parses the flags; `client` says which side (the client has --host, --header-payload,
// --header, --expect-refusal and --binary-old-style; the server --expect-header).
inline Flags parse_flags(int argc, char** argv, bool client) {
  const char* prog = client ? "tt_client" : "tt_server";
  Flags f;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    std::string v;
    auto eq = a.find('=');
    bool has_inline = a.rfind("--", 0) == 0 && eq != std::string::npos;
    if (has_inline) {
      v = a.substr(eq + 1);
      a = a.substr(0, eq);
    }
    auto value = [&]() -> std::string {
      if (has_inline) return v;
      if (i + 1 >= argc) usage_error(prog, a + " needs a value");
      return argv[++i];
    };
    if (a == "--port") {
      std::string s = value();
      char* end = nullptr;
      long p = std::strtol(s.c_str(), &end, 10);
      if (s.empty() || *end || p < 0 || p > 65535) usage_error(prog, "--port: not a port: " + s);
      f.port = static_cast<int>(p);
    } else if (a == "--protocol") {
      f.protocol = value();
      if (f.protocol != "binary" && f.protocol != "compact" && f.protocol != "json"
          && f.protocol != "header")
        usage_error(prog, "--protocol: binary, compact, json or header, not " + f.protocol);
    } else if (a == "--transport") {
      f.transport = value();
      if (f.transport == "udp" || f.transport == "sasl")
        usage_error(prog, "--transport " + f.transport
                              + ": Apache's C++ library (0.17) has no such transport");
      if (f.transport != "buffered" && f.transport != "framed" && f.transport != "http")
        usage_error(prog, "--transport: buffered, framed or http, not " + f.transport);
    } else if (a == "--multiplexed") {
      f.multiplexed = true;
    } else if (a == "--zlib") {
      f.zlib = true;
    } else if (a == "--domain-socket") {
      f.domain_socket = value();
    } else if (a == "--ssl") {
      f.ssl = true;
    } else if (a == "--ssl-cert") {
      f.ssl_cert = value();
    } else if (a == "--ssl-key") {
      f.ssl_key = value();
    } else if (a == "--ssl-ca") {
      f.ssl_ca = value();
    } else if (a == "--sasl" || a == "--sasl-user" || a == "--sasl-password") {
      usage_error(prog, a + ": Debian's Apache Thrift C++ library (0.17) has no SASL transport");
    } else if (client && a == "--host") {
      f.host = value();
    } else if (client && a == "--header-payload") {
      f.header_payload = value();
      if (f.header_payload != "binary" && f.header_payload != "compact")
        usage_error(prog, "--header-payload: binary or compact, not " + f.header_payload);
    } else if (client && a == "--header") {
      add_info_header(prog, a, value(), f.headers);
    } else if (client && a == "--check-echo") {
      f.check_echo = true;
    } else if (!client && a == "--expect-header") {
      add_info_header(prog, a, value(), f.expect_headers);
    } else if (client && a == "--expect-refusal") {
      f.expect_refusal = true;
    } else if (client && a == "--binary-old-style") {
      f.binary_old_style = true;
    } else if (client && a == "--no-nul-strings") {
      // Said for the Rust client of the JSON cells (the C++ JSON reader drops \u0000); this
      // client already sends no NUL over JSON.
    } else if (a == "-h" || a == "--help") {
      std::printf("usage: %s [--port N] [--protocol binary|compact|json|header] "
                  "[--transport buffered|framed|http] [--multiplexed] [--zlib] "
                  "[--domain-socket PATH] [--ssl --ssl-cert FILE --ssl-key FILE --ssl-ca FILE]%s\n",
                  prog,
                  client ? " [--host H] [--header-payload binary|compact] [--header KEY=VALUE]... "
                           "[--expect-refusal] [--binary-old-style] [--no-nul-strings]"
                         : " [--expect-header KEY=VALUE]...");
      std::exit(0);
    } else {
      usage_error(prog, "unknown flag " + a);
    }
  }
  if (f.zlib && f.protocol != "header") usage_error(prog, "--zlib needs --protocol header");
  if (!f.header_payload.empty() && f.protocol != "header")
    usage_error(prog, "--header-payload needs --protocol header");
  if (f.header_payload.empty()) f.header_payload = "binary";
  if (!f.headers.empty() && f.protocol != "header")
    usage_error(prog, "--header needs --protocol header");
  if (!f.expect_headers.empty() && f.protocol != "header")
    usage_error(prog, "--expect-header needs --protocol header");
  if (!f.ssl && (!f.ssl_cert.empty() || !f.ssl_key.empty() || !f.ssl_ca.empty()))
    usage_error(prog, "--ssl-cert, --ssl-key and --ssl-ca need --ssl");
  if (f.ssl_cert.empty() != f.ssl_key.empty())
    usage_error(prog, "--ssl-cert and --ssl-key go together");
  if (f.binary_old_style && f.protocol != "binary")
    usage_error(prog, "--binary-old-style needs --protocol binary");
  if (f.transport == "http" && !f.domain_socket.empty())
    usage_error(prog, "--transport http runs over TCP only");
  if (f.ssl && !f.domain_socket.empty())
    usage_error(prog, "--ssl over --domain-socket: Apache's C++ TSSLSocketFactory has no such socket");
  if (f.protocol == "header" && f.transport == "http")
    usage_error(prog, "--protocol header over --transport http is not a combination Apache tests");
  return f;
}

// Workaround for Apache's C++ 0.17 THeaderTransport, whose zlib reader inflates a frame into
// its transform buffer (sized after its write buffer, 1 KiB at first) and copies the result
// back over the compressed frame in its read buffer (sized after the largest frame read so
// far): a reply or call that inflates to more than the read buffer has room for overflows the
// heap (seen: a 1200-byte string, "free(): invalid next size", a crash or a garbled message).
// Presizing both buffers (the read buffer larger than the transform buffer plus the largest
// THeader header) makes every frame that inflates to at most ZLIB_BUFFER bytes safe; a larger
// one fails cleanly ("Error while zlib deflate"). The buffers are protected members: reached
// through a derived class, as C++ allows.
const uint32_t ZLIB_BUFFER = 4u << 20;

struct HeaderBuffers : apache::thrift::transport::THeaderTransport {
  // Whether the last frame read was a THeader frame (not framed or unframed binary/compact,
  // which a THeaderTransport also reads); its info headers (getHeaders()) are those of the
  // last THeader frame read, kept across frames of other kinds.
  static bool header_frame(const apache::thrift::transport::THeaderTransport& t) {
    uint16_t apache::thrift::transport::THeaderTransport::*client_type = &HeaderBuffers::clientType;
    return t.*client_type == THRIFT_HEADER_CLIENT_TYPE;
  }
  static void presize(apache::thrift::transport::THeaderTransport& t) {
    t.resizeTransformBuffer(ZLIB_BUFFER);
    uint32_t apache::thrift::transport::THeaderTransport::*transform_size = &HeaderBuffers::tBufSize_;
    void (apache::thrift::transport::THeaderTransport::*grow)(uint32_t)
        = &HeaderBuffers::ensureReadBuffer;
    (t.*grow)(t.*transform_size + 65536 + 64);
  }
};

// TT_CPP_NO_ZLIB_PRESIZE=1 leaves the buffers as Apache's library makes them (to see the bug).
inline void presize_header_buffers(const std::shared_ptr<TProtocol>& header_protocol) {
  const char* off = std::getenv("TT_CPP_NO_ZLIB_PRESIZE");
  if (off && *off && std::string(off) != "0") return;
  auto t = std::dynamic_pointer_cast<apache::thrift::transport::THeaderTransport>(
      header_protocol->getTransport());
  if (t) HeaderBuffers::presize(*t);
}

} // namespace peer

#endif

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
//
// This file runs the checks and prints the results; client_connection.{h,cpp} open the
// connection the flags name (peer.h parses them), client_checks.{h,cpp} make the checks.
#include <csignal>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <thrift/TApplicationException.h>
#include <thrift/transport/TSSLSocket.h>
#include <thrift/transport/TTransportException.h>

#include "client_checks.h"
#include "client_connection.h"
#include "peer.h"

using namespace apache::thrift;
using namespace apache::thrift::protocol;
using namespace apache::thrift::transport;
using namespace tt_client;

namespace {

const int MAX_BROKEN_IN_A_ROW = 3; // connection-breaking failures in a row before giving up

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

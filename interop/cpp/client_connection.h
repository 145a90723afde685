// The C++ client's connection to a ThriftTest server (tt_client.cpp): the transport and
// protocol stack its flags name (TLS, Unix socket or TCP; buffered, framed, HTTP or THeader;
// binary, compact, JSON or THeader; multiplexed or not), every call numbered and every reply
// checked against its call, and the library's logging kept quiet where failures are expected.
#ifndef INTEROP_CPP_CLIENT_CONNECTION_H
#define INTEROP_CPP_CLIENT_CONNECTION_H

#include <memory>
#include <stdexcept>
#include <string>

#include <thrift/Thrift.h>
#include <thrift/protocol/TProtocolException.h>
#include <thrift/transport/TSSLSocket.h>
#include <thrift/transport/TSocket.h>

#include "SecondService.h"
#include "ThriftTest.h"
#include "peer.h"

namespace tt_client {

// Apache's library logs through GlobalOutput to stderr (main installs library_output there);
// refused connects while the server starts and closes of failed connections are expected, and
// not logged while a QuietLibrary lives.
void library_output(const char* message);
struct QuietLibrary {
  QuietLibrary();
  ~QuietLibrary();
};

// Seconds on a steady clock.
double now();

// A check of a call's result failed (the connection is fine).
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A reply that does not belong to the call just made: the connection is out of step.
class ReplyMismatch : public apache::thrift::protocol::TProtocolException {
public:
  explicit ReplyMismatch(const std::string& m) : TProtocolException(INVALID_DATA, m) {}
};

// One open connection with its clients; opening retries for up to 10 s while the server starts.
struct Connection {
  std::shared_ptr<apache::thrift::transport::TSocket> socket;
  std::shared_ptr<apache::thrift::transport::TTransport> transport;
  std::shared_ptr<thrift::test::ThriftTestClient> tt;
  std::shared_ptr<thrift::test::SecondServiceClient> second;
  // Keeps OpenSSL's context alive.
  std::shared_ptr<apache::thrift::transport::TSSLSocketFactory> tls;

  explicit Connection(const peer::Flags& f);
  void open_with_retry();
  void close();
};

} // namespace tt_client

#endif

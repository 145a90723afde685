// The C++ client's connection (client_connection.h): the protocol that numbers the calls and
// checks the replies, the HTTP client with Apache's 0.17 workarounds, and the stack the flags
// name.
#include "client_connection.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include <poll.h>
#include <strings.h>

#include <thrift/protocol/TMultiplexedProtocol.h>
#include <thrift/protocol/TProtocolDecorator.h>
#include <thrift/transport/THttpClient.h>
#include <thrift/transport/TTransportUtils.h>

using namespace apache::thrift;
using namespace apache::thrift::protocol;
using namespace apache::thrift::transport;
using namespace thrift::test;

namespace tt_client {

namespace {

const double CONNECT_TIMEOUT = 10.0; // seconds to keep retrying the first connect
const int CALL_TIMEOUT_MS = 30000;   // socket timeout for every call (as our client: a 1 MiB
                                     // JSON string to a debug build under the matrix's load)

bool library_quiet = false;

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

} // namespace

void library_output(const char* message) {
  if (!library_quiet) std::fprintf(stderr, "%s\n", message);
}
QuietLibrary::QuietLibrary() { library_quiet = true; }
QuietLibrary::~QuietLibrary() { library_quiet = false; }

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Connection::Connection(const peer::Flags& f) {
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

void Connection::open_with_retry() {
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

void Connection::close() {
  QuietLibrary quiet;
  try {
    transport->close();
  } catch (...) {
  }
}

} // namespace tt_client

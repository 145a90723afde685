// ThriftTest server on Apache Thrift's C++ library (Debian's libthrift-dev, 0.17): a trusted
// RPC peer for our Rust client. Same flags and behaviour as interop/py/tt_server.py:
//
//   tt_server [--port N] [--protocol binary|compact|json|header]
//             [--transport buffered|framed|http] [--multiplexed] [--zlib]
//             [--domain-socket PATH] [--ssl --ssl-cert FILE --ssl-key FILE [--ssl-ca FILE]]
//             [--expect-header KEY=VALUE]...
//
// Serves on 127.0.0.1 with one thread per connection (TThreadedServer) until killed; prints
// `listening on 127.0.0.1:N` (or `listening on PATH`), flushed, once it accepts connections.
// The handler is that of Apache's test/cpp/src/TestServer.cpp (without its printing).
//
//   --protocol binary  TBinaryProtocol as Apache's servers make it: strict writes, and reads
//                      both the versioned and the old unversioned message headers
//   --protocol header  THeaderProtocol: answers THeader clients and plain binary/compact
//                      clients, framed or not, each in its own dialect
//   --zlib             (header only) compress replies to THeader clients with zlib
//   --expect-header KEY=VALUE
//                      (header only, repeatable) every call in a THeader frame must carry this
//                      info header, else it is answered with a TApplicationException
//                      (INTERNAL_ERROR, `missing info header KEY=VALUE`) and not served (a oneway
//                      call: that line on stdout); header servers always echo a THeader call's
//                      info headers on its reply as echo-KEY=VALUE (see InfoHeaderProcessor)
//   --transport http   THttpServer (one POST per call, HTTPS with --ssl). Apache's THttpServer
//                      never answers a oneway POST; this server answers it with an empty
//                      200 response before running the call (see OnewayAnsweringProtocol), so
//                      that HTTP clients that wait for every response can go on
//   --ssl              TSSLServerSocket; with --ssl-ca clients must present a certificate it
//                      signed (mutual TLS)
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>

#include <thrift/TApplicationException.h>
#include <thrift/TToString.h>
#include <thrift/protocol/TProtocolDecorator.h>
#include <thrift/processor/TMultiplexedProcessor.h>
#include <thrift/server/TThreadedServer.h>
#include <thrift/transport/THttpServer.h>
#include <thrift/transport/TSSLServerSocket.h>
#include <thrift/transport/TSSLSocket.h>
#include <thrift/transport/TServerSocket.h>
#include <thrift/transport/TTransportUtils.h>

#include "SecondService.h"
#include "ThriftTest.h"
#include "peer.h"

using namespace apache::thrift;
using namespace apache::thrift::protocol;
using namespace apache::thrift::transport;
using namespace apache::thrift::server;
using namespace thrift::test;

namespace {

class TestHandler : public ThriftTestIf {
public:
  // echo methods
  void testVoid() override {}
  void testString(std::string& out, const std::string& thing) override { out = thing; }
  bool testBool(const bool thing) override { return thing; }
  int8_t testByte(const int8_t thing) override { return thing; }
  int32_t testI32(const int32_t thing) override { return thing; }
  int64_t testI64(const int64_t thing) override { return thing; }
  double testDouble(const double thing) override { return thing; }
  void testBinary(std::string& out, const std::string& thing) override { out = thing; }
  void testStruct(Xtruct& out, const Xtruct& thing) override { out = thing; }
  void testNest(Xtruct2& out, const Xtruct2& thing) override { out = thing; }
  void testMap(std::map<int32_t, int32_t>& out, const std::map<int32_t, int32_t>& thing) override {
    out = thing;
  }
  void testStringMap(std::map<std::string, std::string>& out,
                     const std::map<std::string, std::string>& thing) override {
    out = thing;
  }
  void testSet(std::set<int32_t>& out, const std::set<int32_t>& thing) override { out = thing; }
  void testList(std::vector<int32_t>& out, const std::vector<int32_t>& thing) override {
    out = thing;
  }
  Numberz::type testEnum(const Numberz::type thing) override { return thing; }
  UserId testTypedef(const UserId thing) override { return thing; }

  // computed results
  void testMapMap(std::map<int32_t, std::map<int32_t, int32_t> >& out, const int32_t) override {
    std::map<int32_t, int32_t> pos, neg;
    for (int i = 1; i < 5; i++) {
      pos[i] = i;
      neg[-i] = -i;
    }
    out[4] = pos;
    out[-4] = neg;
  }

  void testInsanity(std::map<UserId, std::map<Numberz::type, Insanity> >& out,
                    const Insanity& argument) override {
    out[1][Numberz::TWO] = argument;
    out[1][Numberz::THREE] = argument;
    out[2][Numberz::SIX] = Insanity();
  }

  void testMulti(Xtruct& out, const int8_t arg0, const int32_t arg1, const int64_t arg2,
                 const std::map<int16_t, std::string>&, const Numberz::type,
                 const UserId) override {
    out.string_thing = "Hello2";
    out.byte_thing = arg0;
    out.i32_thing = arg1;
    out.i64_thing = arg2;
  }

  void testException(const std::string& arg) override {
    if (arg == "Xception") {
      Xception e;
      e.errorCode = 1001;
      e.message = arg;
      throw e;
    }
    if (arg == "TException") {
      // not declared by the method: the generated processor answers with a
      // TApplicationException (UNKNOWN, the exception's message)
      throw TException("This is a TException");
    }
  }

  void testMultiException(Xtruct& out, const std::string& arg0, const std::string& arg1) override {
    if (arg0 == "Xception") {
      Xception e;
      e.errorCode = 1001;
      e.message = "This is an Xception";
      throw e;
    }
    if (arg0 == "Xception2") {
      Xception2 e;
      e.errorCode = 2002;
      e.struct_thing.string_thing = "This is an Xception2";
      throw e;
    }
    out.string_thing = arg1;
  }

  void testOneway(const int32_t secondsToSleep) override {
    std::this_thread::sleep_for(std::chrono::seconds(secondsToSleep));
  }
};

class SecondHandler : public SecondServiceIf {
public:
  void secondtestString(std::string& out, const std::string& thing) override {
    out = "testString(\"" + thing + "\")";
  }
};

// THeaderProtocol for servers with its zlib buffers presized (peer::presize_header_buffers,
// a workaround for Apache's 0.17 zlib reader) and, with --zlib, the zlib transform on every
// reply (THeaderTransport applies write transforms to THeader clients only; Apache's servers
// never add one by themselves).
class HeaderProtocolFactory : public THeaderProtocolFactory {
public:
  explicit HeaderProtocolFactory(bool zlib) : zlib_(zlib) {}
  std::shared_ptr<TProtocol> getProtocol(std::shared_ptr<TTransport> trans) override {
    return prepared(THeaderProtocolFactory::getProtocol(trans));
  }
  std::shared_ptr<TProtocol> getProtocol(std::shared_ptr<TTransport> in,
                                         std::shared_ptr<TTransport> out) override {
    return prepared(THeaderProtocolFactory::getProtocol(in, out));
  }

private:
  std::shared_ptr<TProtocol> prepared(std::shared_ptr<TProtocol> p) const {
    peer::presize_header_buffers(p);
    if (zlib_) {
      std::dynamic_pointer_cast<THeaderTransport>(p->getTransport())
          ->setTransform(THeaderTransport::ZLIB_TRANSFORM);
    }
    return p;
  }
  bool zlib_;
};

// Workaround for Apache's THttpServer, which never answers a oneway call's POST (the
// processor writes no reply, so nothing flushes a response): HTTP clients that wait for every
// response hang there. The input protocol is wrapped so that once a oneway call's message is
// read, before the handler runs, the output transport (THttpServer) sends an empty `200 OK`.
class OnewayAnsweringProtocol : public TProtocolDecorator {
public:
  OnewayAnsweringProtocol(std::shared_ptr<TProtocol> in, std::shared_ptr<TTransport> out)
    : TProtocolDecorator(in), out_(std::move(out)) {}
  uint32_t readMessageBegin_virt(std::string& name, TMessageType& type, int32_t& seqid) override {
    uint32_t n = TProtocolDecorator::readMessageBegin_virt(name, type, seqid);
    oneway_ = type == T_ONEWAY;
    return n;
  }
  uint32_t readMessageEnd_virt() override {
    uint32_t n = TProtocolDecorator::readMessageEnd_virt();
    if (oneway_) {
      oneway_ = false;
      out_->flush();
    }
    return n;
  }

private:
  std::shared_ptr<TTransport> out_;
  bool oneway_ = false;
};

class OnewayAnsweringProcessor : public TProcessor {
public:
  explicit OnewayAnsweringProcessor(std::shared_ptr<TProcessor> inner) : inner_(std::move(inner)) {}
  bool process(std::shared_ptr<TProtocol> in, std::shared_ptr<TProtocol> out,
               void* context) override {
    auto answering = std::make_shared<OnewayAnsweringProtocol>(in, out->getTransport());
    return inner_->process(answering, out, context);
  }

private:
  std::shared_ptr<TProcessor> inner_;
};

// THeader info headers, once per call (outside TMultiplexedProcessor): reads the call's message
// header itself, then hands the call on to the inner processor through Apache's
// StoredMessageProtocol (as TMultiplexedProcessor does). For a call that came in a THeader
// frame:
//  - its info headers go back on the reply as echo-KEY=VALUE (write headers of the output
//    transport, which Apache's THeaderTransport clears once it has flushed the reply);
//  - with --expect-header, each expected KEY=VALUE must be among its info headers (read
//    headers); if one is missing or has another value, the call is read to its end and not
//    served: a TApplicationException (INTERNAL_ERROR, `missing info header KEY=VALUE`)
//    answers it, or for a oneway call that line is printed on stdout.
// Calls in other framings (plain binary/compact clients of a header server) are not checked.
class InfoHeaderProcessor : public TProcessor {
public:
  InfoHeaderProcessor(std::shared_ptr<TProcessor> inner, peer::InfoHeaders expected,
                      bool multiplexed)
    : inner_(std::move(inner)), expected_(std::move(expected)), multiplexed_(multiplexed) {}

  bool process(std::shared_ptr<TProtocol> in, std::shared_ptr<TProtocol> out,
               void* context) override {
    std::string name;
    TMessageType type;
    int32_t seqid;
    in->readMessageBegin(name, type, seqid);
    auto in_header = std::dynamic_pointer_cast<THeaderTransport>(in->getTransport());
    auto out_header = std::dynamic_pointer_cast<THeaderTransport>(out->getTransport());
    if (out_header) out_header->clearHeaders(); // left by a reply that was never flushed
    if (in_header && peer::HeaderBuffers::header_frame(*in_header)
        && (type == T_CALL || type == T_ONEWAY)) {
      const auto& got = in_header->getHeaders();
      if (out_header && type == T_CALL) {
        for (const auto& h : got) out_header->setHeader("echo-" + h.first, h.second);
      }
      for (const auto& h : expected_) {
        auto it = got.find(h.first);
        if (it == got.end() || it->second != h.second) {
          refuse(in, out, name, type, seqid, "missing info header " + h.first + "=" + h.second);
          return true;
        }
      }
    }
    auto stored = std::make_shared<StoredMessageProtocol>(in, name, type, seqid);
    return inner_->process(stored, out, context);
  }

private:
  void refuse(const std::shared_ptr<TProtocol>& in, const std::shared_ptr<TProtocol>& out,
              const std::string& name, TMessageType type, int32_t seqid, const std::string& why) {
    in->skip(T_STRUCT);
    in->readMessageEnd();
    in->getTransport()->readEnd();
    if (type == T_ONEWAY) {
      std::printf("%s\n", why.c_str());
      std::fflush(stdout);
      return;
    }
    // named as the served reply would be: without the "Service:" prefix of multiplexed calls
    std::string reply_name = name;
    auto colon = name.find(':');
    if (multiplexed_ && colon != std::string::npos) reply_name = name.substr(colon + 1);
    TApplicationException x(TApplicationException::INTERNAL_ERROR, why);
    out->writeMessageBegin(reply_name, T_EXCEPTION, seqid);
    x.write(out.get());
    out->writeMessageEnd();
    out->getTransport()->writeEnd();
    out->getTransport()->flush();
  }

  std::shared_ptr<TProcessor> inner_;
  peer::InfoHeaders expected_;
  bool multiplexed_;
};

// Says where the server listens once it does (TServerFramework::serve calls preServe after
// listen()).
class Announcer : public TServerEventHandler {
public:
  Announcer(std::shared_ptr<TServerSocket> socket, std::string path)
    : socket_(std::move(socket)), path_(std::move(path)) {}
  void preServe() override {
    if (!path_.empty()) {
      std::printf("listening on %s\n", path_.c_str());
    } else {
      std::printf("listening on %s:%d\n", peer::HOST, socket_->getPort());
    }
    std::fflush(stdout);
  }

private:
  std::shared_ptr<TServerSocket> socket_;
  std::string path_;
};

std::shared_ptr<TProtocolFactory> protocol_factory(const peer::Flags& f) {
  if (f.protocol == "binary") {
    // Apache's default: strict writes, lenient reads (old unversioned headers too)
    return std::make_shared<TBinaryProtocolFactory>(0, 0, false, true);
  }
  if (f.protocol == "compact") return std::make_shared<TCompactProtocolFactory>();
  if (f.protocol == "json") return std::make_shared<TJSONProtocolFactory>();
  return std::make_shared<HeaderProtocolFactory>(f.zlib);
}

std::shared_ptr<TTransportFactory> transport_factory(const peer::Flags& f) {
  if (f.transport == "http") return std::make_shared<THttpServerTransportFactory>();
  if (f.transport == "framed") return std::make_shared<TFramedTransportFactory>();
  // THeaderTransport does its own framing (and reads unframed clients): nothing between it and
  // the socket
  if (f.protocol == "header") return std::make_shared<TTransportFactory>();
  return std::make_shared<TBufferedTransportFactory>();
}

std::shared_ptr<TServerSocket> server_socket(const peer::Flags& f) {
  if (f.ssl) {
    auto factory = std::make_shared<TSSLSocketFactory>();
    factory->server(true);
    factory->loadCertificate(f.ssl_cert.c_str());
    factory->loadPrivateKey(f.ssl_key.c_str());
    if (!f.ssl_ca.empty()) {
      // mutual TLS: clients must present a certificate the CA signed
      factory->loadTrustedCertificates(f.ssl_ca.c_str());
      factory->authenticate(true);
    } else {
      factory->authenticate(false);
    }
    return std::make_shared<TSSLServerSocket>(peer::HOST, f.port, factory);
  }
  if (!f.domain_socket.empty()) {
    ::unlink(f.domain_socket.c_str());
    return std::make_shared<TServerSocket>(f.domain_socket);
  }
  return std::make_shared<TServerSocket>(peer::HOST, f.port);
}

} // namespace

int main(int argc, char** argv) {
  peer::Flags f = peer::parse_flags(argc, argv, false);
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGTERM, [](int) { ::_exit(0); });
  std::signal(SIGINT, [](int) { ::_exit(0); });

  std::shared_ptr<TProcessor> processor = std::make_shared<ThriftTestProcessor>(
      std::make_shared<TestHandler>());
  if (f.multiplexed) {
    // no default processor: a call without a "Service:" prefix is an error
    auto mux = std::make_shared<TMultiplexedProcessor>();
    mux->registerProcessor("ThriftTest", processor);
    mux->registerProcessor("SecondService",
                           std::make_shared<SecondServiceProcessor>(std::make_shared<SecondHandler>()));
    processor = mux;
  }
  if (f.protocol == "header")
    processor = std::make_shared<InfoHeaderProcessor>(processor, f.expect_headers, f.multiplexed);
  if (f.transport == "http") processor = std::make_shared<OnewayAnsweringProcessor>(processor);

  try {
    auto socket = server_socket(f);
    auto transports = transport_factory(f);
    auto protocols = protocol_factory(f);
    std::shared_ptr<TThreadedServer> server;
    if (f.protocol == "header") {
      // THeader answers in the dialect of the call it read: one protocol (and one
      // THeaderTransport) for both directions, which TServerFramework makes when the output
      // protocol factory is null
      server = std::make_shared<TThreadedServer>(processor, socket, transports, transports,
                                                 protocols, std::shared_ptr<TProtocolFactory>());
    } else {
      server = std::make_shared<TThreadedServer>(processor, socket, transports, protocols);
    }
    server->setServerEventHandler(std::make_shared<Announcer>(socket, f.domain_socket));
    server->serve();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tt_server: %s\n", e.what());
    return 1;
  }
  return 0;
}

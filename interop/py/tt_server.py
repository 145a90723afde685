#!/usr/bin/env python3
"""ThriftTest server on Apache Thrift's Python library: the trusted RPC peer
for our Rust client.

usage: tt_server.py [--port N] [--protocol binary|compact|json|header]
                    [--transport buffered|framed] [--multiplexed] [--zlib]
                    [--domain-socket PATH]
                    [--ssl --ssl-cert FILE --ssl-key FILE [--ssl-ca FILE]]

Serves Apache's test/ThriftTest.thrift on 127.0.0.1 (the Python code is
generated at run time by Apache's compiler, see ../ttgen.py) with one thread
per connection, until SIGTERM or SIGINT. Prints `listening on 127.0.0.1:N`
(flushed) once it accepts connections; `--port 0` picks a free port.

  --protocol header  THeaderProtocol: answers THeader clients and also plain
                     binary/compact clients, framed or not, each in its own dialect
  --multiplexed      TMultiplexedProcessor with "ThriftTest" and "SecondService"
                     (calls must carry a "Service:" prefix)
  --zlib             (header only) compress replies to THeader clients with zlib
  --transport http   THttpServer (one POST per call; HTTPS with --ssl)
  --transport udp    one oneway call per datagram; prints `received testOneway(N)` for each
  --sasl plain       clients authenticate with SASL PLAIN as --sasl-user and
                     --sasl-password (then every message is framed; --transport is unused)
  --ssl              TSSLServerSocket with --ssl-cert and --ssl-key; with --ssl-ca,
                     clients must present a certificate it signed (mutual TLS)

The handler behaves like Apache's reference test servers (test/py/TestServer.py,
test/cpp/src/TestServer.cpp). testUuid is not served: Apache 0.17's compiler
does not know uuid.
"""

import argparse
import logging
import os
import signal
import socket
import ssl
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttpeer  # noqa: E402  (generates the ThriftTest package)

from thrift.server import THttpServer, TServer  # noqa: E402
from thrift.Thrift import TException  # noqa: E402
from thrift.TMultiplexedProcessor import TMultiplexedProcessor  # noqa: E402
from thrift.transport import TSocket, TSSLSocket  # noqa: E402

from ThriftTest import SecondService, ThriftTest  # noqa: E402
from ThriftTest.ttypes import Insanity, Numberz, Xception, Xception2, Xtruct  # noqa: E402


class ThriftTestHandler(object):
    """ThriftTest as Apache's test servers implement it."""

    # echo methods: the argument comes back unchanged
    def testVoid(self):
        pass

    def testString(self, thing):
        return thing

    def testBool(self, thing):
        return thing

    def testByte(self, thing):
        return thing

    def testI32(self, thing):
        return thing

    def testI64(self, thing):
        return thing

    def testDouble(self, thing):
        return thing

    def testBinary(self, thing):
        return thing

    def testStruct(self, thing):
        return thing

    def testNest(self, thing):
        return thing

    def testMap(self, thing):
        return thing

    def testStringMap(self, thing):
        return thing

    def testSet(self, thing):
        return thing

    def testList(self, thing):
        return thing

    def testEnum(self, thing):
        return thing

    def testTypedef(self, thing):
        return thing

    # computed results
    def testMapMap(self, hello):
        return {
            -4: {-4: -4, -3: -3, -2: -2, -1: -1},
            4: {1: 1, 2: 2, 3: 3, 4: 4},
        }

    def testInsanity(self, argument):
        return {
            1: {Numberz.TWO: argument, Numberz.THREE: argument},
            2: {Numberz.SIX: Insanity()},
        }

    def testMulti(self, arg0, arg1, arg2, arg3, arg4, arg5):
        return Xtruct(string_thing="Hello2", byte_thing=arg0, i32_thing=arg1, i64_thing=arg2)

    def testException(self, arg):
        if arg == "Xception":
            raise Xception(errorCode=1001, message=arg)
        if arg == "TException":
            # not declared by the method: the generated processor answers with
            # a TApplicationException (INTERNAL_ERROR, "Internal error")
            raise TException(message="This is a TException")

    def testMultiException(self, arg0, arg1):
        if arg0 == "Xception":
            raise Xception(errorCode=1001, message="This is an Xception")
        if arg0 == "Xception2":
            raise Xception2(errorCode=2002, struct_thing=Xtruct(string_thing="This is an Xception2"))
        return Xtruct(string_thing=arg1)

    def testOneway(self, secondsToSleep):
        time.sleep(secondsToSleep)


class SecondServiceHandler(object):
    def secondtestString(self, thing):
        return 'testString("' + thing + '")'


class Announcing(object):
    """A server socket that prints `listening on HOST:PORT` once it listens."""

    def listen(self):
        super().listen()
        name = self.handle.getsockname()
        if isinstance(name, str):  # a Unix domain socket's path
            print("listening on %s" % name, flush=True)
        else:
            print("listening on %s:%d" % name[:2], flush=True)


class AnnouncingServerSocket(Announcing, TSocket.TServerSocket):
    pass


class AnnouncingSSLServerSocket(Announcing, TSSLSocket.TSSLServerSocket):
    pass


def server_socket(args):
    if args.ssl:
        if not args.ssl_cert:
            raise SystemExit("tt_server: --ssl needs --ssl-cert and --ssl-key")
        # TSSLBase's default context is PROTOCOL_TLS_CLIENT's, for servers too, which checks
        # host names and so cannot serve: a server context, as Apache's test server makes.
        tls = dict(certfile=args.ssl_cert, keyfile=args.ssl_key, ca_certs=args.ssl_ca,
                   ssl_version=ssl.PROTOCOL_TLS_SERVER,
                   cert_reqs=ssl.CERT_REQUIRED if args.ssl_ca else ssl.CERT_NONE)
        if args.domain_socket:
            return AnnouncingSSLServerSocket(unix_socket=args.domain_socket, **tls)
        return AnnouncingSSLServerSocket(ttpeer.HOST, args.port, **tls)
    if args.domain_socket:
        return AnnouncingServerSocket(unix_socket=args.domain_socket)
    return AnnouncingServerSocket(ttpeer.HOST, args.port, socket_family=socket.AF_INET)


def make_processor(multiplexed):
    processor = ThriftTest.Processor(ThriftTestHandler())
    if not multiplexed:
        return processor
    # No default processor: a call without a "Service:" prefix is an error
    # (Apache's Python test server would route it to ThriftTest).
    mux = TMultiplexedProcessor()
    mux.registerProcessor("ThriftTest", processor)
    mux.registerProcessor("SecondService", SecondService.Processor(SecondServiceHandler()))
    return mux


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="ThriftTest server on Apache Thrift's Python library.")
    ttpeer.add_stack_arguments(parser)
    args = parser.parse_args(argv)
    ttpeer.check_stack_arguments(parser, args)
    return args


class UdpHandler(ThriftTestHandler):
    """Over UDP: says what each oneway call carried instead of sleeping."""

    def testOneway(self, secondsToSleep):
        print("received testOneway(%d)" % secondsToSleep, flush=True)


def serve_udp(args):
    """One oneway call per datagram, decoded with --protocol and handed to the processor; a
    datagram that does not decode is logged and dropped."""
    from thrift.transport import TTransport
    processor = ThriftTest.Processor(UdpHandler())
    factory = ttpeer.server_protocol_factory(args.protocol)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((ttpeer.HOST, args.port))
        print("listening on %s:%d" % s.getsockname()[:2], flush=True)
        while True:
            data, _ = s.recvfrom(65536)
            try:
                iprot = factory.getProtocol(TTransport.TMemoryBuffer(data))
                oprot = factory.getProtocol(TTransport.TMemoryBuffer())
                processor.process(iprot, oprot)
            except Exception as e:
                print("tt_server: dropped a datagram: %s" % e, file=sys.stderr, flush=True)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="tt_server: %(levelname)s %(name)s: %(message)s")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    if args.transport == "udp":
        try:
            serve_udp(args)
        except KeyboardInterrupt:
            pass
        return 0
    if args.transport == "http":
        if args.domain_socket:
            raise SystemExit("tt_server: THttpServer listens on TCP only")
        tls = {}
        if args.ssl:
            tls = dict(cert_file=args.ssl_cert, key_file=args.ssl_key)
            if args.ssl_ca:
                tls["cafile"] = args.ssl_ca
        server = THttpServer.THttpServer(
            make_processor(args.multiplexed), (ttpeer.HOST, args.port),
            ttpeer.server_protocol_factory(args.protocol, zlib=args.zlib), **tls)
        print("listening on %s:%d" % server.httpd.server_address[:2], flush=True)
        try:
            server.serve()
        except KeyboardInterrupt:
            pass
        return 0
    transports = (ttpeer.SaslServerTransportFactory(args.sasl_user, args.sasl_password)
                  if args.sasl else ttpeer.transport_factory(args.transport))
    server = TServer.TThreadedServer(
        make_processor(args.multiplexed),
        server_socket(args),
        transports,
        ttpeer.server_protocol_factory(args.protocol, zlib=args.zlib),
        daemon=True)  # connection threads do not keep the process alive
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))
    try:
        server.serve()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

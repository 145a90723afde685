"""What tt_server.py and tt_client.py share: Apache's generated ThriftTest code
and the protocol/transport stacks named by the flags of Apache's cross-language
test (test/py/TestServer.py, test/py/TestClient.py).

Importing this module generates the Python code for ThriftTest.thrift with
Apache's compiler into a temporary directory (../ttgen.py) and makes the
package `ThriftTest` importable.
"""

import os
import sys

from thrift.protocol import TBinaryProtocol, TCompactProtocol, THeaderProtocol, TJSONProtocol
from thrift.transport import TTransport
from thrift.transport.THeaderTransport import (
    THeaderClientType,
    THeaderSubprotocolID,
    THeaderTransformID,
)

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import ttgen  # noqa: E402

GENERATED = ttgen.generate()

HOST = "127.0.0.1"
DEFAULT_PORT = 9090
PROTOCOLS = ("binary", "compact", "json", "header")
TRANSPORTS = ("buffered", "framed", "http", "udp")
HEADER_PAYLOADS = {
    "binary": THeaderSubprotocolID.BINARY,
    "compact": THeaderSubprotocolID.COMPACT,
}

# A THeader server answers every client dialect it can detect, in that dialect.
ALL_HEADER_CLIENT_TYPES = (
    THeaderClientType.HEADERS,
    THeaderClientType.FRAMED_BINARY,
    THeaderClientType.UNFRAMED_BINARY,
    THeaderClientType.FRAMED_COMPACT,
    THeaderClientType.UNFRAMED_COMPACT,
)


def add_stack_arguments(parser):
    """The flags both peers take (Apache's cross-test names)."""
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help="TCP port (default %(default)s)")
    parser.add_argument("--protocol", choices=PROTOCOLS, default="binary",
                        help="message protocol (default %(default)s)")
    parser.add_argument("--transport", choices=TRANSPORTS, default="buffered",
                        help="transport below the protocol (default %(default)s)")
    parser.add_argument("--multiplexed", action="store_true",
                        help='services "ThriftTest" and "SecondService" over one connection')
    parser.add_argument("--zlib", action="store_true",
                        help="add THeader's zlib transform (only with --protocol header)")
    parser.add_argument("--domain-socket", metavar="PATH",
                        help="a Unix domain socket at PATH instead of TCP (--port is unused)")
    parser.add_argument("--sasl", choices=("plain",),
                        help="SASL below the protocol (Apache's TSaslTransport framing)")
    parser.add_argument("--sasl-user", default="thrift", help="SASL PLAIN user name")
    parser.add_argument("--sasl-password", default="thrift", help="SASL PLAIN password")
    parser.add_argument("--ssl", action="store_true",
                        help="TLS (TSSLSocket, TSSLServerSocket) below the transport")
    parser.add_argument("--ssl-cert", metavar="FILE",
                        help="PEM certificate chain: the server's, or the client's for mutual TLS")
    parser.add_argument("--ssl-key", metavar="FILE", help="PEM private key of --ssl-cert")
    parser.add_argument("--ssl-ca", metavar="FILE",
                        help="PEM CA certificates: a client trusts them to sign the server's "
                             "certificate; a server given them requires client certificates "
                             "they signed (mutual TLS)")


def check_stack_arguments(parser, args):
    if args.zlib and args.protocol != "header":
        parser.error("--zlib needs --protocol header")
    if not args.ssl and (args.ssl_cert or args.ssl_key or args.ssl_ca):
        parser.error("--ssl-cert, --ssl-key and --ssl-ca need --ssl")
    if bool(args.ssl_cert) != bool(args.ssl_key):
        parser.error("--ssl-cert and --ssl-key go together")


# ---------------------------------------------------------------- transports

class SaslServerTransport(TTransport.TTransportBase):
    """The server side of Apache's TSaslTransport with PLAIN: the negotiation (status byte,
    4-byte length, payload), then each message in a frame of its own. Python's thrift has a
    SASL client (thrift_sasl) but no server; this is its wire format, written out."""

    START, OK, BAD, ERROR, COMPLETE = 1, 2, 3, 4, 5

    def __init__(self, trans, user, password):
        self._trans = trans
        self._user = user.encode()
        self._password = password.encode()
        self._negotiated = False
        self._rbuf = b""
        self._wbuf = []

    def isOpen(self):
        return self._trans.isOpen()

    def open(self):
        self._trans.open()

    def close(self):
        self._trans.close()

    def _recv(self):
        import struct
        status, length = struct.unpack(">BI", self._trans.readAll(5))
        if length > (1 << 20):
            raise TTransport.TTransportException(message="SASL message too large")
        return status, self._trans.readAll(length) if length else b""

    def _send(self, status, payload):
        import struct
        self._trans.write(struct.pack(">BI", status, len(payload)) + payload)
        self._trans.flush()

    def _refuse(self, why):
        self._send(self.BAD, why)
        raise TTransport.TTransportException(message="SASL: refused: %s" % why.decode())

    def _negotiate(self):
        status, mechanism = self._recv()
        if status != self.START:
            self._refuse(b"expected START")
        if mechanism != b"PLAIN":
            self._refuse(b"unsupported mechanism")
        status, response = self._recv()
        if status not in (self.OK, self.COMPLETE):
            self._refuse(b"expected a response")
        parts = response.split(b"\0")
        if len(parts) != 3 or parts[1:] != [self._user, self._password]:
            self._refuse(b"authentication failed")
        # RFC 4616 section 2: the user may act as itself only (no proxy users here).
        if parts[0] not in (b"", self._user):
            self._refuse(b"not authorized to act as the requested identity")
        self._send(self.COMPLETE, b"")
        self._negotiated = True

    def read(self, sz):
        import struct
        if not self._negotiated:
            self._negotiate()
        while len(self._rbuf) < sz:
            (length,) = struct.unpack(">I", self._trans.readAll(4))
            self._rbuf += self._trans.readAll(length)
        out, self._rbuf = self._rbuf[:sz], self._rbuf[sz:]
        return out

    def write(self, buf):
        self._wbuf.append(buf)

    def flush(self):
        import struct
        data = b"".join(self._wbuf)
        self._wbuf = []
        self._trans.write(struct.pack(">I", len(data)) + data)
        self._trans.flush()


class SaslServerTransportFactory(object):
    def __init__(self, user, password):
        self._user, self._password = user, password

    def getTransport(self, trans):
        return SaslServerTransport(trans, self._user, self._password)


class PureSaslClient(object):
    """pure-sasl's PLAIN client in the shape thrift_sasl's TSaslClientTransport calls."""

    def __init__(self, user, password):
        from puresasl.client import SASLClient
        self._client = SASLClient("127.0.0.1", service="thrift", mechanism="PLAIN",
                                  username=user, password=password)

    def start(self, mechanism):
        return True, mechanism.encode(), self._client.process()

    def step(self, challenge):
        return True, self._client.process(challenge)

    def encode(self, data):
        return True, data

    def decode(self, data):
        return True, data

    def getError(self):
        return "pure-sasl failed"


def sasl_client_transport(socket, user, password):
    """Client side: thrift_sasl's TSaslClientTransport with PLAIN over the socket."""
    import thrift_sasl
    return thrift_sasl.TSaslClientTransport(lambda: PureSaslClient(user, password), "PLAIN", socket)


def transport_factory(name):
    """Server side: wraps each accepted connection."""
    if name == "buffered":
        return TTransport.TBufferedTransportFactory()
    if name == "framed":
        return TTransport.TFramedTransportFactory()
    raise ValueError("unknown transport %r" % name)


def wrap_transport(name, socket):
    """Client side: the transport around the connected socket."""
    if name == "buffered":
        return TTransport.TBufferedTransport(socket)
    if name == "framed":
        return TTransport.TFramedTransport(socket)
    raise ValueError("unknown transport %r" % name)


# ---------------------------------------------------------------- protocols
#
# binary: strict both ways. Apache's default binary reader also accepts the old
# unversioned message header; we refuse it, so that a peer under test must send
# the versioned (strict) form every current Apache writer sends.

class _ZlibHeaderProtocolFactory(THeaderProtocol.THeaderProtocolFactory):
    """A THeader server protocol that zlib-compresses its replies to THeader
    clients (Apache's own servers never add a transform by themselves)."""

    def getProtocol(self, trans):
        protocol = super().getProtocol(trans)
        protocol.add_transform(THeaderTransformID.ZLIB)
        return protocol


def server_protocol_factory(name, zlib=False):
    if name == "binary":
        return TBinaryProtocol.TBinaryProtocolFactory(strictRead=True, strictWrite=True)
    if name == "compact":
        return TCompactProtocol.TCompactProtocolFactory()
    if name == "json":
        return TJSONProtocol.TJSONProtocolFactory()
    if name == "header":
        factory = _ZlibHeaderProtocolFactory if zlib else THeaderProtocol.THeaderProtocolFactory
        return factory(allowed_client_types=ALL_HEADER_CLIENT_TYPES)
    raise ValueError("unknown protocol %r" % name)


def client_protocol(name, transport, header_payload="binary", zlib=False):
    if name == "binary":
        return TBinaryProtocol.TBinaryProtocol(transport, strictRead=True, strictWrite=True)
    if name == "compact":
        return TCompactProtocol.TCompactProtocol(transport)
    if name == "json":
        return TJSONProtocol.TJSONProtocol(transport)
    if name == "header":
        # A THeader client accepts THeader replies only.
        protocol = THeaderProtocol.THeaderProtocol(
            transport, allowed_client_types=(THeaderClientType.HEADERS,),
            default_protocol=HEADER_PAYLOADS[header_payload])
        if zlib:
            protocol.add_transform(THeaderTransformID.ZLIB)
        return protocol
    raise ValueError("unknown protocol %r" % name)


# ---------------------------------------------------------------- UDP

# The testOneway arguments a `--transport udp` client sends, one datagram each (the Rust
# client sends the same: interop/src/args.rs UDP_ONEWAY_SECONDS).
UDP_ONEWAY_SECONDS = (0, 1, 2)


class UdpClientTransport(TTransport.TTransportBase):
    """Each flush sends what was written as one datagram, as Jaeger's Python client does
    (Python's thrift has no UDP transport); nothing is ever read."""

    def __init__(self, host, port):
        import socket
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self._address = (host, port)
        self._wbuf = []

    def isOpen(self):
        return True

    def open(self):
        pass

    def close(self):
        self._socket.close()

    def write(self, buf):
        self._wbuf.append(buf)

    def flush(self):
        datagram = b"".join(self._wbuf)
        self._wbuf = []
        self._socket.sendto(datagram, self._address)

    def read(self, sz):
        raise TTransport.TTransportException(
            TTransport.TTransportException.NOT_OPEN, "nothing is read over UDP")

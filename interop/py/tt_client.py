#!/usr/bin/env python3
"""ThriftTest client on Apache Thrift's Python library: the trusted RPC peer
for our Rust server.

usage: tt_client.py [--host H] [--port N] [--protocol binary|compact|json|header]
                    [--transport buffered|framed] [--multiplexed] [--zlib]
                    [--header-payload binary|compact] [--domain-socket PATH]
                    [--ssl --ssl-ca FILE [--ssl-cert FILE --ssl-key FILE]]

Opens one connection (retrying for up to 10 s while the server starts) and
calls every ThriftTest method with the checks of Apache's test clients
(test/py/TestClient.py, test/cpp/src/TestClient.cpp) plus more edge cases.
Prints `PASS name` or `FAIL name: reason` per call and `N passed, N failed`
at the end; exits 1 if anything failed. A call that breaks the connection
(transport error, undecodable or mismatched reply) fails and the client goes
on on a new connection; after 3 such calls in a row it gives up and counts
the calls not run as failed.

testUuid is not called: Apache 0.17's compiler does not know uuid.

Stricter than Apache's generated Python client, which sends every call with
sequence id 0 and ignores the name and sequence id of replies: calls are sent
with sequence ids 1, 2, 3, ..., and every reply must carry its call's sequence
id (also in the THeader frame) and the method's bare name (without the
"Service:" prefix of a multiplexed call).

  --protocol header        THeaderProtocol client (it accepts THeader replies only)
  --header-payload P       the protocol inside THeader frames (default binary)
  --zlib                   (header only) compress calls with THeader's zlib transform
  --multiplexed            calls go to "ThriftTest:..."; also calls SecondService
  --transport http         THttpClient: one POST per call (HTTPS with --ssl)
  --transport udp          testOneway calls only, one datagram each (as Jaeger's clients)
  --sasl plain             thrift_sasl's TSaslClientTransport with pure-sasl's PLAIN,
                           as --sasl-user with --sasl-password
  --ssl                    TSSLSocket, checking the server's certificate against
                           --ssl-ca and --host; --ssl-cert and --ssl-key for mutual TLS
"""

import argparse
import logging
import math
import os
import socket
import ssl
import struct
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttpeer  # noqa: E402  (generates the ThriftTest package)

from thrift.protocol import TMultiplexedProtocol, TProtocolDecorator  # noqa: E402
from thrift.protocol.TProtocol import TProtocolException  # noqa: E402
from thrift.Thrift import TApplicationException, TMessageType  # noqa: E402
from thrift.transport import THttpClient, TSocket, TSSLSocket  # noqa: E402
from thrift.transport.THeaderTransport import THeaderTransport  # noqa: E402
from thrift.transport.TTransport import TTransportException  # noqa: E402

from ThriftTest import SecondService, ThriftTest  # noqa: E402
from ThriftTest.ttypes import Insanity, Numberz, Xception, Xception2, Xtruct, Xtruct2  # noqa: E402

CONNECT_TIMEOUT = 10.0      # seconds to keep retrying the first connect
CALL_TIMEOUT_MS = 10000     # socket timeout for every call
ONEWAY_LIMIT = 0.5          # seconds a oneway call may take (it must not wait for the server)
MAX_BROKEN_IN_A_ROW = 3     # connection-breaking failures in a row before giving up


# ---------------------------------------------------------------- reply checks

class ReplyMismatch(TProtocolException):
    """A reply that does not belong to the call just made."""

    def __init__(self, message):
        super().__init__(TProtocolException.INVALID_DATA, message)


class CallLog(object):
    """The calls of one connection, shared by its (multiplexed) protocols."""

    def __init__(self):
        self.last_seqid = 0
        self.awaiting = None    # (bare method name, seqid) of the call awaiting its reply


class PedanticProtocol(TProtocolDecorator.TProtocolDecorator):
    """Numbers the calls and checks that each reply matches its call."""

    def __init__(self, protocol, calls):
        self._calls = calls

    def writeMessageBegin(self, name, mtype, seqid):
        calls = self._calls
        calls.last_seqid += 1
        method = name.rsplit(TMultiplexedProtocol.SEPARATOR, 1)[-1]
        calls.awaiting = None if mtype == TMessageType.ONEWAY else (method, calls.last_seqid)
        super().writeMessageBegin(name, mtype, calls.last_seqid)

    def readMessageBegin(self):
        name, mtype, seqid = super().readMessageBegin()
        awaiting, self._calls.awaiting = self._calls.awaiting, None
        if awaiting is None:
            raise ReplyMismatch("message %r (type %d) while no call awaits a reply" % (name, mtype))
        method, sent = awaiting
        if mtype not in (TMessageType.REPLY, TMessageType.EXCEPTION):
            raise ReplyMismatch("reply to %s has message type %d" % (method, mtype))
        if name != method:
            raise ReplyMismatch("reply to %s is named %r" % (method, name))
        if seqid != sent:
            raise ReplyMismatch("reply to %s has seqid %d, the call had %d" % (method, seqid, sent))
        if isinstance(self.trans, THeaderTransport) and self.trans.sequence_id != sent:
            raise ReplyMismatch("THeader frame of the reply to %s has seqid %d, the call had %d"
                                % (method, self.trans.sequence_id, sent))
        return name, mtype, seqid


class Connection(object):
    """One client connection: the socket, transport and protocol stack, the clients."""

    def __init__(self, args):
        if args.transport == "http":
            scheme = "https" if args.ssl else "http"
            tls = {}
            if args.ssl:
                # THttpClient's own cafile= calls load_cert_chain(None) without a client
                # certificate: a context of ours instead.
                context = ssl.create_default_context(cafile=args.ssl_ca)
                if args.ssl_cert:
                    context.load_cert_chain(certfile=args.ssl_cert, keyfile=args.ssl_key)
                tls = dict(ssl_context=context)
            self.transport = THttpClient.THttpClient(
                "%s://%s:%d/" % (scheme, args.host, args.port), **tls)
            self.transport.setTimeout(CALL_TIMEOUT_MS)
            self.transport.open()
            self._make_clients(args)
            return
        if args.ssl:
            if not args.ssl_ca:
                raise SystemExit("tt_client: --ssl needs --ssl-ca")
            tls = dict(ca_certs=args.ssl_ca, certfile=args.ssl_cert, keyfile=args.ssl_key,
                       cert_reqs=ssl.CERT_REQUIRED)
            if args.domain_socket:
                sock = TSSLSocket.TSSLSocket(unix_socket=args.domain_socket,
                                             server_hostname="localhost", **tls)
            else:
                sock = TSSLSocket.TSSLSocket(args.host, args.port, **tls)
        elif args.domain_socket:
            sock = TSocket.TSocket(unix_socket=args.domain_socket)
        else:
            sock = TSocket.TSocket(args.host, args.port, socket_family=socket.AF_INET)
        sock.setTimeout(CALL_TIMEOUT_MS)
        if args.sasl:
            # thrift_sasl (PyPI) with pure-sasl's PLAIN; messages framed by the SASL transport.
            self.transport = ttpeer.sasl_client_transport(sock, args.sasl_user, args.sasl_password)
        else:
            self.transport = ttpeer.wrap_transport(args.transport, sock)
        self._open_with_retry()
        self._make_clients(args)

    def _make_clients(self, args):
        protocol = PedanticProtocol(
            ttpeer.client_protocol(args.protocol, self.transport,
                                   header_payload=args.header_payload, zlib=args.zlib),
            CallLog())
        self.second = None
        if args.multiplexed:
            self.tt = ThriftTest.Client(TMultiplexedProtocol.TMultiplexedProtocol(protocol, "ThriftTest"))
            self.second = SecondService.Client(
                TMultiplexedProtocol.TMultiplexedProtocol(protocol, "SecondService"))
        else:
            self.tt = ThriftTest.Client(protocol)

    def _open_with_retry(self):
        # TSocket logs every refused attempt; only the last one matters.
        socket_log = logging.getLogger(TSocket.__name__)
        level = socket_log.level
        socket_log.setLevel(logging.CRITICAL)
        try:
            deadline = time.monotonic() + CONNECT_TIMEOUT
            while True:
                try:
                    self.transport.open()
                    return
                except TTransportException:
                    if time.monotonic() >= deadline:
                        raise
                    time.sleep(0.1)
        finally:
            socket_log.setLevel(level)

    def close(self):
        self.transport.close()


# ---------------------------------------------------------------- comparison

class CheckFailed(Exception):
    pass


def short(value, limit=120):
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "...(%d chars)" % len(text)


def same(a, b):
    """Equality without Python's leniencies: True is not 1, 0.0 is not -0.0,
    NaN is NaN (doubles compare by their bits), str is not bytes. Lists and
    tuples, dicts and frozen dicts, sets and frozensets compare alike."""
    if isinstance(a, float) or isinstance(b, float):
        return (isinstance(a, float) and isinstance(b, float)
                and struct.pack("<d", a) == struct.pack("<d", b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (set, frozenset)) and isinstance(b, (set, frozenset)):
        return a == b
    if hasattr(type(a), "thrift_spec") or hasattr(type(b), "thrift_spec"):
        return type(a) is type(b) and all(
            same(getattr(a, spec[2]), getattr(b, spec[2]))
            for spec in type(a).thrift_spec if spec is not None)
    return type(a) is type(b) and a == b


def expect(actual, expected):
    if not same(actual, expected):
        raise CheckFailed("got %s, expected %s" % (short(actual), short(expected)))


def expect_raises(exc_type, call):
    """Run call(); it must raise exc_type, which is returned."""
    try:
        result = call()
    except exc_type as e:
        return e
    except (TTransportException, TProtocolException):
        raise
    except Exception as e:
        raise CheckFailed("raised %s: %s, expected %s" % (type(e).__name__, short(e), exc_type.__name__))
    raise CheckFailed("returned %s, expected %s" % (short(result), exc_type.__name__))


# ---------------------------------------------------------------- values

I32_MIN, I32_MAX = -2 ** 31, 2 ** 31 - 1
I64_MIN, I64_MAX = -2 ** 63, 2 ** 63 - 1

STRINGS = [
    ("'Test'", "Test"),
    ("empty", ""),
    ("ascii 1200", "Thrift" * 200),
    ("escapes", 'quote: " backslash: \\ slash: / \b\f\n\r\t {}[]:, NUL: \x00 end'),
    ("multilingual", "Afrikaans, Ελληνικά, Русский, Українська, עברית, العربية, فارسی, हिन्दी, "
                     "বাংলা, தமிழ், ไทย, ລາວ, ქართული, Հայերեն, ᏣᎳᎩ, ⰔⰎⰑⰂⰡⰐⰠⰔⰍⰟ, 日本語, "
                     "한국어, 中文, 粵語, Tiếng Việt, Türkçe, Íslenska, Mìng-dĕ̤ng-ngṳ̄"),
    ("astral + emoji", "𝄞 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 👩‍👩‍👧‍👦 🇯🇵 👍🏽"),
    ("utf-8 boundaries", "\x7f\x80\u07ff\u0800\uffff\U00010000\U0010ffff"),
]

DOUBLES = [
    ("0.0", 0.0), ("-0.0", -0.0), ("1.0", 1.0), ("-1.0", -1.0),
    ("-5.235098235", -5.235098235), ("-0.000341012439638598279", -0.000341012439638598279),
    ("2^32", 2.0 ** 32), ("2^32+1", 2.0 ** 32 + 1), ("2^53-1", 2.0 ** 53 - 1),
    ("-2^32", -2.0 ** 32), ("-2^32-1", -2.0 ** 32 - 1), ("-(2^53-1)", -(2.0 ** 53 - 1)),
    ("1e307", 1e307), ("1e-292", 1e-292), ("max", 1.7976931348623157e308),
    ("min normal", 2.2250738585072014e-308), ("min subnormal", 5e-324),
    ("-min subnormal", -5e-324), ("inf", math.inf), ("-inf", -math.inf), ("nan", math.nan),
]

ALL_BYTES = bytes(range(256))


def binary_pattern(size):
    return (ALL_BYTES * (size // 256 + 1))[:size]


def insanity_argument():
    return Insanity(
        userMap={Numberz.FIVE: 5, Numberz.EIGHT: 8},
        xtructs=[Xtruct(string_thing="Goodbye4", byte_thing=4, i32_thing=4, i64_thing=4),
                 Xtruct(string_thing="Hello2", byte_thing=2, i32_thing=2, i64_thing=2)])


def check_insanity(result, argument):
    if not isinstance(result, dict) or set(result) != {1, 2}:
        raise CheckFailed("got %s, expected keys {1, 2}" % short(result))
    expect(result[1], {Numberz.TWO: argument, Numberz.THREE: argument})
    if not isinstance(result[2], dict) or set(result[2]) != {Numberz.SIX}:
        raise CheckFailed("result[2] is %s, expected {SIX: Insanity()}" % short(result[2]))
    empty = result[2][Numberz.SIX]
    # a default Insanity: its fields are absent (Python writes nothing for
    # None) or empty (C++, Rust: default-requiredness fields are always written)
    if type(empty) is not Insanity or empty.userMap or empty.xtructs:
        raise CheckFailed("result[2][SIX] is %s, expected Insanity()" % short(empty))


def check_oneway(conn):
    start = time.monotonic()
    conn.tt.testOneway(1)
    elapsed = time.monotonic() - start
    if elapsed >= ONEWAY_LIMIT:
        raise CheckFailed("took %.3f s (the server sleeps 1 s; a oneway call must not wait)" % elapsed)


def check_testException(conn):
    e = expect_raises(Xception, lambda: conn.tt.testException("Xception"))
    expect((e.errorCode, e.message), (1001, "Xception"))


def check_undeclared_exception(conn):
    expect_raises(TApplicationException, lambda: conn.tt.testException("TException"))


def check_multi_exception(conn, arg0, exc_type, check):
    e = expect_raises(exc_type, lambda: conn.tt.testMultiException(arg0, "ignored"))
    check(e)


def xception2_check(e):
    if e.struct_thing is None:
        raise CheckFailed("Xception2.struct_thing is absent")
    expect((e.errorCode, e.struct_thing.string_thing), (2002, "This is an Xception2"))


def checks(multiplexed):
    """(name, function(connection)) for every call, in order."""
    out = []

    def echo(method, value, label=None, expected=None):
        name = "%s(%s)" % (method, label if label is not None else short(value, 40))
        want = value if expected is None else expected
        out.append((name, lambda c: expect(getattr(c.tt, method)(value), want)))

    out.append(("testVoid()", lambda c: expect(c.tt.testVoid(), None)))
    for label, s in STRINGS:
        echo("testString", s, label)
    if multiplexed:
        out.append(('SecondService.secondtestString("foobar")',
                    lambda c: expect(c.second.secondtestString("foobar"), 'testString("foobar")')))
    for b in (True, False):
        echo("testBool", b)
    for v in (0, 1, -1, 42, -42, 63, -127, 127, -128):
        echo("testByte", v)
    for v in (0, 1, -1, 63, -64, 64, -65, 190000013, -190000013, I32_MAX, I32_MIN):
        echo("testI32", v, {I32_MAX: "2^31-1", I32_MIN: "-2^31"}.get(v))
    for label, v in (("0", 0), ("1", 1), ("-1", -1), ("2^32", 2 ** 32), ("-2^32", -2 ** 32),
                     ("2^32+1", 2 ** 32 + 1), ("-2^32-1", -2 ** 32 - 1),
                     ("-34359738368", -34359738368), ("2^53+1", 2 ** 53 + 1),
                     ("7000000000000000123", 7000000000000000123),
                     ("-7000000000000000123", -7000000000000000123),
                     ("2^63-1", I64_MAX), ("-2^63", I64_MIN)):
        echo("testI64", v, label)
    for label, v in DOUBLES:
        echo("testDouble", v, label)
    echo("testBinary", b"", "empty")
    echo("testBinary", ALL_BYTES, "all 256 byte values")
    echo("testBinary", binary_pattern(131073), "131073 bytes")

    zero = Xtruct(string_thing="Zero", byte_thing=1, i32_thing=-3, i64_thing=-5)
    echo("testStruct", zero, "{Zero, 1, -3, -5}")
    echo("testStruct", Xtruct(string_thing="", byte_thing=0, i32_thing=0, i64_thing=0), "zeros")
    echo("testStruct", Xtruct(string_thing="Ünïcødé 😀", byte_thing=-128, i32_thing=I32_MIN,
                              i64_thing=I64_MAX), "extremes")
    echo("testNest", Xtruct2(byte_thing=1, struct_thing=zero, i32_thing=5), "{1, {Zero, 1, -3, -5}, 5}")

    echo("testMap", {i: i - 10 for i in range(5)}, "{0:-10 .. 4:-6}")
    echo("testMap", {}, "empty")
    echo("testMap", {-1: -2, I32_MAX: I32_MIN, I32_MIN: I32_MAX}, "extremes")
    echo("testStringMap", {"a": "2", "b": "blah", "some": "thing"})
    echo("testStringMap", {}, "empty")
    echo("testStringMap", {"": "", "日本": "語", "😀": "emoji"}, "unicode")
    echo("testSet", set(range(-2, 3)), "{-2 .. 2}")
    echo("testSet", set(), "empty")
    echo("testSet", set(range(-50, 50)), "100 elements")
    echo("testList", [], "empty")
    echo("testList", list(range(-2, 3)), "[-2 .. 2]")
    echo("testList", [1, 4, 9, -42])
    echo("testList", list(range(-20, 20)), "40 elements")
    for name in ("ONE", "TWO", "THREE", "FIVE", "EIGHT"):
        echo("testEnum", getattr(Numberz, name), name)
    echo("testTypedef", 309858235082523)
    echo("testTypedef", 0xffffffffffffff, "0xffffffffffffff")

    out.append(("testMapMap(1)", lambda c: expect(c.tt.testMapMap(1), {
        -4: {-4: -4, -3: -3, -2: -2, -1: -1}, 4: {1: 1, 2: 2, 3: 3, 4: 4}})))
    out.append(("testInsanity({FIVE: 5, EIGHT: 8}, [Goodbye4, Hello2])",
                lambda c: check_insanity(c.tt.testInsanity(insanity_argument()), insanity_argument())))
    out.append(("testMulti(42, 4242, 424242, ...)", lambda c: expect(
        c.tt.testMulti(42, 4242, 424242, {1: "blah", 2: "thing"}, Numberz.EIGHT, 24),
        Xtruct(string_thing="Hello2", byte_thing=42, i32_thing=4242, i64_thing=424242))))
    out.append(("testMulti(74, 0xff00ff, 0xffffffffd0d0, ...)", lambda c: expect(
        c.tt.testMulti(74, 0xff00ff, 0xffffffffd0d0, {0: "abc"}, Numberz.FIVE, 0xf0f0f0),
        Xtruct(string_thing="Hello2", byte_thing=74, i32_thing=0xff00ff, i64_thing=0xffffffffd0d0))))

    out.append(('testException("Xception")', check_testException))
    out.append(('testException("TException")', check_undeclared_exception))
    out.append(('testException("success")', lambda c: expect(c.tt.testException("success"), None)))
    out.append(('testMultiException("Xception", _)', lambda c: check_multi_exception(
        c, "Xception", Xception,
        lambda e: expect((e.errorCode, e.message), (1001, "This is an Xception")))))
    out.append(('testMultiException("Xception2", _)', lambda c: check_multi_exception(
        c, "Xception2", Xception2, xception2_check)))
    out.append(('testMultiException("success", "foobar")',
                lambda c: expect(c.tt.testMultiException("success", "foobar").string_thing, "foobar")))

    out.append(("testOneway(1)", check_oneway))
    out.append(("testI32(-1) after testOneway", lambda c: expect(c.tt.testI32(-1), -1)))
    if multiplexed:
        out.append(('SecondService.secondtestString("Ünïcødé 😀")', lambda c: expect(
            c.second.secondtestString("Ünïcødé 😀"), 'testString("Ünïcødé 😀")')))
    return out


# ---------------------------------------------------------------- main

def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="ThriftTest client on Apache Thrift's Python library.")
    parser.add_argument("--host", default=ttpeer.HOST, help="server address (default %(default)s)")
    ttpeer.add_stack_arguments(parser)
    parser.add_argument("--header-payload", choices=sorted(ttpeer.HEADER_PAYLOADS),
                        help="protocol inside THeader frames (only with --protocol header; "
                             "default binary)")
    args = parser.parse_args(argv)
    ttpeer.check_stack_arguments(parser, args)
    if args.header_payload is not None and args.protocol != "header":
        parser.error("--header-payload needs --protocol header")
    if args.header_payload is None:
        args.header_payload = "binary"
    return args


def run_check(conn, check):
    """None if the check passed, else (reason, whether the connection is unusable)."""
    try:
        check(conn)
    except CheckFailed as e:
        return str(e), False
    except (TTransportException, TProtocolException) as e:
        return "%s: %s" % (type(e).__name__, e), True
    except Exception as e:
        return "%s: %s" % (type(e).__name__, short(e)), False
    return None


def udp_calls(args):
    """--transport udp: ThriftTest's one oneway method, one datagram per call, each returning
    at once (nothing comes back; the server says what it received)."""
    protocol = ttpeer.client_protocol(args.protocol, ttpeer.UdpClientTransport(args.host, args.port))
    client = ThriftTest.Client(protocol)
    passed = failed = 0
    for seconds in ttpeer.UDP_ONEWAY_SECONDS:
        started = time.monotonic()
        try:
            client.testOneway(seconds)
            took = time.monotonic() - started
            if took >= 0.5:
                raise CheckFailed("took %.3f s" % took)
            print("PASS testOneway(%d) over udp" % seconds)
            passed += 1
        except Exception as e:
            print("FAIL testOneway(%d) over udp: %s" % (seconds, e))
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def main(argv=None):
    args = parse_args(argv)
    if args.transport == "udp":
        return udp_calls(args)
    try:
        conn = Connection(args)
    except TTransportException as e:
        print("FAIL connect to %s:%d: %s" % (args.host, args.port, e))
        print("0 passed, 1 failed")
        return 1
    print("SKIP testUuid: Apache 0.17's compiler does not know uuid")
    todo = checks(args.multiplexed)
    passed = failed = broken_in_a_row = 0
    for index, (name, check) in enumerate(todo):
        failure = run_check(conn, check)
        if failure is None:
            passed += 1
            broken_in_a_row = 0
            print("PASS %s" % name)
            continue
        reason, broken = failure
        failed += 1
        print("FAIL %s: %s" % (name, reason))
        if not broken:
            broken_in_a_row = 0
            continue
        # The connection is out of step (or gone): go on on a new one, unless
        # that keeps happening.
        broken_in_a_row += 1
        conn.close()
        rest = len(todo) - index - 1
        if not rest:
            break
        if broken_in_a_row >= MAX_BROKEN_IN_A_ROW:
            failed += rest
            print("FAIL giving up: %d calls in a row broke the connection; %d calls not run"
                  % (broken_in_a_row, rest))
            break
        try:
            conn = Connection(args)
        except TTransportException as e:
            failed += rest
            print("FAIL reconnect: %s; %d calls not run" % (e, rest))
            break
    conn.close()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""UDP peer on Apache Thrift's Python library, as Jaeger's clients use Thrift over UDP: one
oneway call per datagram, compact, built with TCompactProtocol over a TMemoryBuffer (Python's
thrift has no UDP transport; Jaeger's Python client does exactly this).

usage: udp_peer.py send PORT SECONDS   sends testOneway(SECONDS) to 127.0.0.1:PORT
       udp_peer.py receive             binds 127.0.0.1:0, prints `listening on 127.0.0.1:N`,
                                       decodes one datagram, prints `NAME TYPE ARG`
"""

import os
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttpeer  # noqa: E402,F401  (generates the ThriftTest package)

from thrift.protocol import TCompactProtocol  # noqa: E402
from thrift.Thrift import TMessageType  # noqa: E402
from thrift.transport import TTransport  # noqa: E402

from ThriftTest import ThriftTest  # noqa: E402


def send(port, seconds):
    buf = TTransport.TMemoryBuffer()
    protocol = TCompactProtocol.TCompactProtocol(buf)
    protocol.writeMessageBegin("testOneway", TMessageType.ONEWAY, 1)
    ThriftTest.testOneway_args(secondsToSleep=seconds).write(protocol)
    protocol.writeMessageEnd()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.sendto(buf.getvalue(), ("127.0.0.1", port))


def receive():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        s.settimeout(10)
        print("listening on 127.0.0.1:%d" % s.getsockname()[1], flush=True)
        data, _ = s.recvfrom(65536)
    protocol = TCompactProtocol.TCompactProtocol(TTransport.TMemoryBuffer(data))
    name, mtype, _ = protocol.readMessageBegin()
    args = ThriftTest.testOneway_args()
    args.read(protocol)
    protocol.readMessageEnd()
    kind = "oneway" if mtype == TMessageType.ONEWAY else "type-%d" % mtype
    print("%s %s %d" % (name, kind, args.secondsToSleep), flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["send"]:
        send(int(sys.argv[2]), int(sys.argv[3]))
    elif sys.argv[1:2] == ["receive"]:
        receive()
    else:
        sys.exit(__doc__)

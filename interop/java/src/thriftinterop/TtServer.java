package thriftinterop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import org.apache.thrift.TException;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.apache.thrift.transport.TSaslServerTransport;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TServerTransport;
import org.apache.thrift.transport.TTransportFactory;
import org.apache.thrift.transport.layered.TFramedTransport;
import thrift.test.Insanity;
import thrift.test.Numberz;
import thrift.test.SecondService;
import thrift.test.ThriftTest;
import thrift.test.Xception;
import thrift.test.Xception2;
import thrift.test.Xtruct;
import thrift.test.Xtruct2;

/**
 * ThriftTest server on Apache Thrift's Java library (libthrift 0.16 from Debian): the trusted RPC
 * peer for our Rust client. Flags as interop/py/tt_server.py; see interop/java/README.md.
 */
public final class TtServer {
  private TtServer() {}

  /** ThriftTest as Apache's test servers implement it. */
  static class Handler implements ThriftTest.Iface {
    @Override public void testVoid() {}
    @Override public String testString(String thing) { return thing; }
    @Override public boolean testBool(boolean thing) { return thing; }
    @Override public byte testByte(byte thing) { return thing; }
    @Override public int testI32(int thing) { return thing; }
    @Override public long testI64(long thing) { return thing; }
    @Override public double testDouble(double thing) { return thing; }
    @Override public ByteBuffer testBinary(ByteBuffer thing) { return thing; }
    @Override public Xtruct testStruct(Xtruct thing) { return thing; }
    @Override public Xtruct2 testNest(Xtruct2 thing) { return thing; }
    @Override public Map<Integer, Integer> testMap(Map<Integer, Integer> thing) { return thing; }
    @Override public Map<String, String> testStringMap(Map<String, String> thing) { return thing; }
    @Override public Set<Integer> testSet(Set<Integer> thing) { return thing; }
    @Override public List<Integer> testList(List<Integer> thing) { return thing; }
    @Override public Numberz testEnum(Numberz thing) { return thing; }
    @Override public long testTypedef(long thing) { return thing; }

    @Override
    public Map<Integer, Map<Integer, Integer>> testMapMap(int hello) {
      Map<Integer, Integer> neg = new HashMap<>();
      Map<Integer, Integer> pos = new HashMap<>();
      for (int i = 1; i <= 4; i++) {
        neg.put(-i, -i);
        pos.put(i, i);
      }
      Map<Integer, Map<Integer, Integer>> out = new HashMap<>();
      out.put(-4, neg);
      out.put(4, pos);
      return out;
    }

    @Override
    public Map<Long, Map<Numberz, Insanity>> testInsanity(Insanity argument) {
      Map<Numberz, Insanity> first = new HashMap<>();
      first.put(Numberz.TWO, argument);
      first.put(Numberz.THREE, argument);
      Map<Numberz, Insanity> second = new HashMap<>();
      second.put(Numberz.SIX, new Insanity());
      Map<Long, Map<Numberz, Insanity>> out = new HashMap<>();
      out.put(1L, first);
      out.put(2L, second);
      return out;
    }

    @Override
    public Xtruct testMulti(byte arg0, int arg1, long arg2, Map<Short, String> arg3, Numberz arg4, long arg5) {
      return new Xtruct("Hello2", arg0, arg1, arg2);
    }

    @Override
    public void testException(String arg) throws TException {
      if (arg.equals("Xception")) throw new Xception(1001, arg);
      // Not declared by the method: the generated processor answers with a
      // TApplicationException (INTERNAL_ERROR).
      if (arg.equals("TException")) throw new TException("This is a TException");
    }

    @Override
    public Xtruct testMultiException(String arg0, String arg1) throws TException {
      if (arg0.equals("Xception")) throw new Xception(1001, "This is an Xception");
      if (arg0.equals("Xception2")) {
        Xtruct thing = new Xtruct();
        thing.setString_thing("This is an Xception2");
        throw new Xception2(2002, thing);
      }
      Xtruct result = new Xtruct();
      result.setString_thing(arg1);
      return result;
    }

    @Override
    public void testOneway(int secondsToSleep) {
      try {
        Thread.sleep(secondsToSleep * 1000L);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  static class SecondHandler implements SecondService.Iface {
    @Override
    public String secondtestString(String thing) {
      return "testString(\"" + thing + "\")";
    }
  }

  /** Over UDP: says what each oneway call carried instead of sleeping. */
  static class UdpHandler extends Handler {
    @Override
    public void testOneway(int secondsToSleep) {
      System.out.println("received testOneway(" + secondsToSleep + ")");
      System.out.flush();
    }
  }

  static TProcessor makeProcessor(boolean multiplexed) {
    TProcessor processor = new ThriftTest.Processor<>(new Handler());
    if (!multiplexed) return processor;
    // No default processor: a call without a "Service:" prefix is an error.
    TMultiplexedProcessor mux = new TMultiplexedProcessor();
    mux.registerProcessor("ThriftTest", processor);
    mux.registerProcessor("SecondService", new SecondService.Processor<>(new SecondHandler()));
    return mux;
  }

  static void listening(String where) {
    System.out.println("listening on " + where);
    System.out.flush();
  }

  public static void main(String[] argv) throws Exception {
    Peer.Flags f;
    try {
      f = Peer.parse(argv, false);
    } catch (Peer.UsageError e) {
      System.err.println("tt_server: " + e.getMessage());
      System.exit(2);
      return;
    }
    TProtocolFactory protocols = Peer.serverProtocolFactory(f.protocol);
    if (f.transport.equals("udp")) {
      serveUdp(f, protocols);
      return;
    }
    TProcessor processor = makeProcessor(f.multiplexed);
    SSLContext tls = f.ssl ? Peer.sslContext(f.sslCert, f.sslKey, f.sslCa) : null;
    if (f.transport.equals("http")) {
      serveHttp(f, processor, protocols, tls);
      return;
    }

    TServerTransport serverTransport;
    String where;
    if (f.domainSocket != null) {
      serverTransport = new Peer.UnixServerTransport(f.domainSocket);
      where = f.domainSocket;
    } else {
      ServerSocket socket;
      if (tls != null) {
        SSLServerSocket ssl = (SSLServerSocket) tls.getServerSocketFactory()
            .createServerSocket(f.port, 50, InetAddress.getByName(Peer.HOST));
        // With --ssl-ca, clients must present a certificate it signed (mutual TLS).
        if (f.sslCa != null) ssl.setNeedClientAuth(true);
        socket = ssl;
      } else {
        socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(Peer.HOST, f.port), 50);
      }
      serverTransport = new TServerSocket(socket);
      where = Peer.HOST + ":" + socket.getLocalPort();
    }

    TTransportFactory transports;
    if (f.sasl != null) {
      // Clients authenticate with SASL PLAIN; then every message is framed by the SASL
      // transport (--transport is unused, as in Apache's and the Python peer).
      Peer.installPlainSaslServer();
      TSaslServerTransport.Factory sasl = new TSaslServerTransport.Factory();
      sasl.addServerDefinition("PLAIN", "thrift", "localhost", new HashMap<>(),
          PlainSaslServer.singleUser(f.saslUser, f.saslPassword));
      transports = sasl;
    } else if (f.transport.equals("framed")) {
      transports = new TFramedTransport.Factory();
    } else {
      // Java's TSocket is buffered already: Apache's Java test server uses the plain factory.
      transports = new TTransportFactory();
    }

    TServer server = new TThreadPoolServer(new TThreadPoolServer.Args(serverTransport)
        .processor(processor)
        .transportFactory(transports)
        .protocolFactory(protocols)
        .minWorkerThreads(2));
    listening(where);
    server.serve();
  }

  // ------------------------------------------------------------------ HTTP

  /**
   * One POST per call, on the JDK's HTTP server (TServlet needs a servlet container): the body
   * goes to the processor, the reply comes back as the response body. A oneway call is answered
   * (200, empty body) before it runs, so that the client does not wait for the handler.
   */
  static void serveHttp(Peer.Flags f, TProcessor processor, TProtocolFactory protocols, SSLContext tls)
      throws Exception {
    InetSocketAddress address = new InetSocketAddress(Peer.HOST, f.port);
    HttpServer server;
    if (tls != null) {
      HttpsServer https = HttpsServer.create(address, 50);
      boolean needClientAuth = f.sslCa != null;
      https.setHttpsConfigurator(new HttpsConfigurator(tls) {
        @Override
        public void configure(HttpsParameters params) {
          SSLParameters p = tls.getDefaultSSLParameters();
          p.setNeedClientAuth(needClientAuth);
          params.setSSLParameters(p);
        }
      });
      server = https;
    } else {
      server = HttpServer.create(address, 50);
    }
    server.createContext("/", exchange -> {
      try {
        handleHttp(exchange, processor, protocols);
      } catch (Exception e) {
        System.err.println("tt_server: HTTP request failed: " + e);
        try {
          exchange.sendResponseHeaders(500, -1);
        } catch (Exception ignored) {
          // the response was under way already
        }
      } finally {
        exchange.close();
      }
    });
    server.setExecutor(Executors.newCachedThreadPool());
    server.start();
    listening(Peer.HOST + ":" + server.getAddress().getPort());
  }

  static void handleHttp(HttpExchange exchange, TProcessor processor, TProtocolFactory protocols)
      throws Exception {
    if (!exchange.getRequestMethod().equals("POST")) {
      exchange.sendResponseHeaders(405, -1);
      return;
    }
    byte[] body = exchange.getRequestBody().readAllBytes();
    boolean oneway;
    try {
      TMessage message = protocols.getProtocol(new TMemoryInputTransport(body)).readMessageBegin();
      oneway = message.type == TMessageType.ONEWAY;
    } catch (TException e) {
      exchange.sendResponseHeaders(400, -1);
      return;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/x-thrift");
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    TProtocol in = protocols.getProtocol(new TMemoryInputTransport(body));
    TProtocol out = protocols.getProtocol(new TIOStreamTransport(reply));
    if (oneway) {
      exchange.sendResponseHeaders(200, -1);
      exchange.close();
      processor.process(in, out);
      return;
    }
    processor.process(in, out);
    byte[] bytes = reply.toByteArray();
    exchange.sendResponseHeaders(200, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream os = exchange.getResponseBody()) {
        os.write(bytes);
      }
    }
  }

  // ------------------------------------------------------------------ UDP

  /** One oneway call per datagram; a datagram that does not decode is logged and dropped. */
  static void serveUdp(Peer.Flags f, TProtocolFactory protocols) throws Exception {
    TProcessor processor = new ThriftTest.Processor<>(new UdpHandler());
    try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(Peer.HOST, f.port))) {
      listening(Peer.HOST + ":" + socket.getLocalPort());
      byte[] buffer = new byte[65536];
      while (true) {
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        socket.receive(packet);
        try {
          TProtocol in = protocols.getProtocol(
              new TMemoryInputTransport(buffer, packet.getOffset(), packet.getLength()));
          TProtocol out = protocols.getProtocol(new TIOStreamTransport(new ByteArrayOutputStream()));
          processor.process(in, out);
        } catch (Exception e) {
          System.err.println("tt_server: dropped a datagram: " + e);
        }
      }
    }
  }
}

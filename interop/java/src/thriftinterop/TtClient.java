package thriftinterop;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import org.apache.thrift.protocol.TProtocolException;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.transport.THttpClient;
import org.apache.thrift.transport.TSaslClientTransport;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;
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
 * ThriftTest client on Apache Thrift's Java library (libthrift 0.16 from Debian): the trusted RPC
 * peer for our Rust server. Flags and output as interop/py/tt_client.py: `PASS name` or `FAIL
 * name: reason` per call, then `N passed, N failed`; exit status 1 if anything failed.
 *
 * <p>Stricter than Apache's generated Java client, which checks a reply's sequence id against its
 * own counter only (each client object numbers from 1, so two multiplexed clients on one
 * connection reuse ids) and never looks at a reply's name or at a REPLY/CALL mix-up: calls on a
 * connection carry sequence ids 1, 2, 3, ... across services, and every reply must carry its
 * call's sequence id, the bare method name and type REPLY or EXCEPTION.
 */
public final class TtClient {
  static final int CONNECT_TIMEOUT_MS = 10_000; // keep retrying the first connect this long
  static final int CALL_TIMEOUT_MS = 30_000; // socket timeout for every call (as our client)
  static final double ONEWAY_LIMIT_S = 0.5; // a oneway call must not wait for the server
  static final int MAX_BROKEN_IN_A_ROW = 3;

  private TtClient() {}

  // ------------------------------------------------------------------ reply checks

  /** A reply that does not belong to the call just made: the connection is out of step. */
  static final class ReplyMismatch extends TProtocolException {
    private static final long serialVersionUID = 1L;

    ReplyMismatch(String message) {
      super(TProtocolException.INVALID_DATA, message);
    }
  }

  /** The calls of one connection, shared by its (multiplexed) protocols. */
  static final class CallLog {
    int lastSeqid;
    String awaitingMethod; // null: no call awaits a reply
    int awaitingSeqid;
    int callerSeqid; // the sequence id the generated client chose, given back to it
  }

  /** Numbers the calls of a connection and checks that each reply matches its call. */
  static final class PedanticProtocol extends TProtocolDecorator {
    private final CallLog calls;

    PedanticProtocol(TProtocol protocol, CallLog calls) {
      super(protocol);
      this.calls = calls;
    }

    @Override
    public void writeMessageBegin(TMessage message) throws TException {
      int seqid = ++calls.lastSeqid;
      String name = message.name;
      int colon = name.lastIndexOf(TMultiplexedProtocol.SEPARATOR);
      String method = colon >= 0 ? name.substring(colon + 1) : name;
      calls.awaitingMethod = message.type == TMessageType.ONEWAY ? null : method;
      calls.awaitingSeqid = seqid;
      calls.callerSeqid = message.seqid;
      super.writeMessageBegin(new TMessage(name, message.type, seqid));
    }

    @Override
    public TMessage readMessageBegin() throws TException {
      TMessage m = super.readMessageBegin();
      String method = calls.awaitingMethod;
      calls.awaitingMethod = null;
      if (method == null) {
        throw new ReplyMismatch("message '" + m.name + "' (type " + m.type + ") while no call awaits a reply");
      }
      if (m.type != TMessageType.REPLY && m.type != TMessageType.EXCEPTION) {
        throw new ReplyMismatch("reply to " + method + " has message type " + m.type);
      }
      if (!m.name.equals(method)) {
        throw new ReplyMismatch("reply to " + method + " is named '" + m.name + "'");
      }
      if (m.seqid != calls.awaitingSeqid) {
        throw new ReplyMismatch("reply to " + method + " has seqid " + m.seqid + ", the call had " + calls.awaitingSeqid);
      }
      return new TMessage(m.name, m.type, calls.callerSeqid);
    }
  }

  // ------------------------------------------------------------------ connection

  static boolean isConnectRefused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof NoSuchFileException) return true;
      if (t instanceof java.net.SocketException && String.valueOf(t.getMessage()).contains("No such file")) {
        return true;
      }
    }
    return false;
  }

  /** One client connection: the transport and protocol stack, the clients. */
  static final class Connection {
    final TTransport transport;
    final TProtocol protocol; // the pedantic protocol (below any multiplexing)
    final TProtocol ttProtocol; // what ThriftTest calls go through
    final ThriftTest.Client tt;
    final SecondService.Client second;

    Connection(Peer.Flags f, SSLContext tls) throws Exception {
      if (f.transport.equals("http")) {
        String scheme = tls != null ? "https" : "http";
        THttpClient http = new THttpClient(scheme + "://" + f.host + ":" + f.port + "/");
        http.setConnectTimeout(CALL_TIMEOUT_MS);
        http.setReadTimeout(CALL_TIMEOUT_MS);
        transport = http;
      } else {
        transport = openWithRetry(f, tls);
      }
      protocol = new PedanticProtocol(Peer.clientProtocol(f, transport), new CallLog());
      if (f.multiplexed) {
        ttProtocol = new TMultiplexedProtocol(protocol, "ThriftTest");
        second = new SecondService.Client(new TMultiplexedProtocol(protocol, "SecondService"));
      } else {
        ttProtocol = protocol;
        second = null;
      }
      tt = new ThriftTest.Client(ttProtocol);
    }

    private static TTransport openWithRetry(Peer.Flags f, SSLContext tls) throws Exception {
      long deadline = System.nanoTime() + CONNECT_TIMEOUT_MS * 1_000_000L;
      while (true) {
        try {
          return open(f, tls);
        } catch (Exception e) {
          if (!isConnectRefused(e) || System.nanoTime() >= deadline) throw e;
          Thread.sleep(100);
        }
      }
    }

    private static TTransport open(Peer.Flags f, SSLContext tls) throws Exception {
      TTransport base;
      if (f.domainSocket != null) {
        base = Peer.connectUnix(f.domainSocket);
      } else if (tls != null) {
        Socket plain = new Socket();
        try {
          plain.connect(new InetSocketAddress(f.host, f.port), CALL_TIMEOUT_MS);
          SSLSocket ssl = (SSLSocket) tls.getSocketFactory().createSocket(plain, f.host, f.port, true);
          // Check the server's certificate against --host too, as TLS clients do.
          SSLParameters params = ssl.getSSLParameters();
          params.setEndpointIdentificationAlgorithm("HTTPS");
          ssl.setSSLParameters(params);
          ssl.setSoTimeout(CALL_TIMEOUT_MS);
          ssl.startHandshake();
          base = new TSocket(ssl);
        } catch (Exception e) {
          plain.close();
          throw e;
        }
      } else {
        TSocket socket = new TSocket(f.host, f.port, CALL_TIMEOUT_MS);
        socket.open();
        base = socket;
      }
      if (base instanceof TSocket) ((TSocket) base).setTimeout(CALL_TIMEOUT_MS);
      if (f.sasl != null) {
        // The JDK's PLAIN client; messages framed by the SASL transport.
        CallbackHandler credentials = (Callback[] callbacks) -> {
          for (Callback cb : callbacks) {
            if (cb instanceof NameCallback) {
              ((NameCallback) cb).setName(f.saslUser);
            } else if (cb instanceof PasswordCallback) {
              ((PasswordCallback) cb).setPassword(f.saslPassword.toCharArray());
            } else {
              throw new UnsupportedCallbackException(cb);
            }
          }
        };
        TSaslClientTransport sasl = new TSaslClientTransport("PLAIN", f.saslAuthzid, "thrift",
            f.host, new HashMap<>(), credentials, base);
        try {
          sasl.open();
        } catch (TTransportException e) {
          base.close();
          throw e;
        }
        return sasl;
      }
      if (f.transport.equals("framed")) {
        TTransport framed = new TFramedTransport(base);
        return framed;
      }
      // "buffered": Java's TSocket buffers its streams itself (no TBufferedTransport in Java).
      return base;
    }

    void close() {
      transport.close();
    }
  }

  // ------------------------------------------------------------------ comparison

  static final class CheckFailed extends Exception {
    private static final long serialVersionUID = 1L;

    CheckFailed(String message) {
      super(message);
    }
  }

  interface Check {
    void run(Connection c) throws Exception;
  }

  static final class Named {
    final String name;
    final Check check;

    Named(String name, Check check) {
      this.name = name;
      this.check = check;
    }
  }

  static String shortText(Object value) {
    String text;
    if (value instanceof ByteBuffer) {
      ByteBuffer b = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[b.remaining()];
      b.get(bytes);
      text = "bytes" + Arrays.toString(bytes);
    } else if (value instanceof String) {
      text = "\"" + value + "\"";
    } else if (value instanceof Double) {
      double d = (Double) value;
      text = d + " (0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + ")";
    } else {
      text = String.valueOf(value);
    }
    return text.length() <= 120 ? text : text.substring(0, 120) + "...(" + text.length() + " chars)";
  }

  /**
   * Equality without leniencies: doubles compare by their bits (0.0 is not -0.0, NaN is NaN),
   * binaries by content, structs by the generated equals (which also compares which fields are set).
   */
  static boolean same(Object a, Object b) {
    if (a instanceof Double || b instanceof Double) {
      return a instanceof Double && b instanceof Double
          && Double.doubleToLongBits((Double) a) == Double.doubleToLongBits((Double) b);
    }
    if (a instanceof ByteBuffer && b instanceof ByteBuffer) {
      return ((ByteBuffer) a).duplicate().equals(((ByteBuffer) b).duplicate());
    }
    if (a instanceof List && b instanceof List) {
      List<?> x = (List<?>) a;
      List<?> y = (List<?>) b;
      if (x.size() != y.size()) return false;
      for (int i = 0; i < x.size(); i++) {
        if (!same(x.get(i), y.get(i))) return false;
      }
      return true;
    }
    if (a instanceof Set && b instanceof Set) {
      return a.equals(b);
    }
    if (a instanceof Map && b instanceof Map) {
      Map<?, ?> x = (Map<?, ?>) a;
      Map<?, ?> y = (Map<?, ?>) b;
      if (!x.keySet().equals(y.keySet())) return false;
      for (Object k : x.keySet()) {
        if (!same(x.get(k), y.get(k))) return false;
      }
      return true;
    }
    return a != null && b != null && a.getClass() == b.getClass() && a.equals(b) || a == null && b == null;
  }

  static void expect(Object actual, Object expected) throws CheckFailed {
    if (!same(actual, expected)) {
      throw new CheckFailed("got " + shortText(actual) + ", expected " + shortText(expected));
    }
  }

  interface Call {
    Object run() throws Exception;
  }

  /** Runs call; it must throw type, which is returned. */
  static <E extends Exception> E expectThrows(Class<E> type, Call call) throws Exception {
    Object result;
    try {
      result = call.run();
    } catch (Exception e) {
      if (type.isInstance(e)) return type.cast(e);
      if (e instanceof TTransportException || e instanceof TProtocolException) throw e;
      throw new CheckFailed("threw " + e.getClass().getSimpleName() + ": " + shortText(e.getMessage())
          + ", expected " + type.getSimpleName());
    }
    throw new CheckFailed("returned " + shortText(result) + ", expected " + type.getSimpleName());
  }

  // ------------------------------------------------------------------ values

  static final String[][] STRINGS = {
      {"'Test'", "Test"},
      {"empty", ""},
      {"ascii 1200", "Thrift".repeat(200)},
      {"escapes", "quote: \" backslash: \\ slash: / \b\f\n\r\t {}[]:, NUL: \0 end"},
      {"multilingual", "Afrikaans, \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac, \u0420\u0443\u0441\u0441\u043a\u0438\u0439, \u0423\u043a\u0440\u0430\u0457\u043d\u0441\u044c\u043a\u0430, \u05e2\u05d1\u05e8\u05d9\u05ea, \u0627\u0644\u0639\u0631\u0628\u064a\u0629, \u0641\u0627\u0631\u0633\u06cc, \u0939\u093f\u0928\u094d\u0926\u0940, \u09ac\u09be\u0982\u09b2\u09be, \u0ba4\u0bae\u0bbf\u0bb4\u0bcd, \u0e44\u0e17\u0e22, \u0ea5\u0eb2\u0ea7, \u10e5\u10d0\u10e0\u10d7\u10e3\u10da\u10d8, \u0540\u0561\u0575\u0565\u0580\u0565\u0576, \u13e3\u13b3\u13a9, \u2c14\u2c0e\u2c11\u2c02\u2c21\u2c10\u2c20\u2c14\u2c0d\u2c1f, \u65e5\u672c\u8a9e, \ud55c\uad6d\uc5b4, \u4e2d\u6587, \u7cb5\u8a9e, Ti\u1ebfng Vi\u1ec7t, T\u00fcrk\u00e7e, \u00cdslenska, M\u00ecng-d\u0115\u0324ng-ng\u1e73\u0304"},
      {"astral + emoji", "\ud834\udd1e \ud835\udd18\ud835\udd2b\ud835\udd26\ud835\udd20\ud835\udd2c\ud835\udd21\ud835\udd22 \ud83d\ude00 \ud83d\udc69\u200d\ud83d\udc69\u200d\ud83d\udc67\u200d\ud83d\udc66 \ud83c\uddef\ud83c\uddf5 \ud83d\udc4d\ud83c\udffd"},
      {"utf-8 boundaries", "\u007f\u0080\u07ff\u0800\uffff\ud800\udc00\udbff\udfff"},
      {"131072 chars, 1-4 byte UTF-8", "a\u00e9\u20ac\ud83d\ude00".repeat(26214) + "ab"},
  };

  static final String UNICODE = "\u00dcn\u00efc\u00f8d\u00e9 \ud83d\ude00";

  static final Object[][] DOUBLES = {
      {"0.0", 0.0}, {"-0.0", -0.0}, {"1.0", 1.0}, {"-1.0", -1.0},
      {"-5.235098235", -5.235098235}, {"-0.000341012439638598279", -0.000341012439638598279},
      {"2^32", 4294967296.0}, {"2^32+1", 4294967297.0}, {"2^53-1", 9007199254740991.0},
      {"-2^32", -4294967296.0}, {"-2^32-1", -4294967297.0}, {"-(2^53-1)", -9007199254740991.0},
      {"1e307", 1e307}, {"1e-292", 1e-292}, {"max", Double.MAX_VALUE},
      {"min normal", Double.MIN_NORMAL}, {"min subnormal", Double.MIN_VALUE},
      {"-min subnormal", -Double.MIN_VALUE}, {"inf", Double.POSITIVE_INFINITY},
      {"-inf", Double.NEGATIVE_INFINITY}, {"nan", Double.NaN},
  };

  static ByteBuffer binaryPattern(int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) b[i] = (byte) i;
    return ByteBuffer.wrap(b);
  }

  static Xtruct xtruct(String s, int b, int i, long l) {
    return new Xtruct(s, (byte) b, i, l);
  }

  static Insanity insanityArgument() {
    Insanity insane = new Insanity();
    Map<Numberz, Long> userMap = new HashMap<>();
    userMap.put(Numberz.FIVE, 5L);
    userMap.put(Numberz.EIGHT, 8L);
    insane.setUserMap(userMap);
    insane.setXtructs(new ArrayList<>(List.of(xtruct("Goodbye4", 4, 4, 4), xtruct("Hello2", 2, 2, 2))));
    return insane;
  }

  static void checkInsanity(Map<Long, Map<Numberz, Insanity>> result, Insanity argument) throws CheckFailed {
    if (result == null || !result.keySet().equals(Set.of(1L, 2L))) {
      throw new CheckFailed("got " + shortText(result) + ", expected keys {1, 2}");
    }
    Map<Numberz, Insanity> first = new HashMap<>();
    first.put(Numberz.TWO, argument);
    first.put(Numberz.THREE, argument);
    expect(result.get(1L), first);
    Map<Numberz, Insanity> second = result.get(2L);
    if (second == null || !second.keySet().equals(Set.of(Numberz.SIX))) {
      throw new CheckFailed("result[2] is " + shortText(second) + ", expected {SIX: Insanity()}");
    }
    // A default Insanity: its fields absent (what Java and Python write) or empty (C++, Rust).
    Insanity empty = second.get(Numberz.SIX);
    if (empty == null || empty.getUserMapSize() != 0 || empty.getXtructsSize() != 0) {
      throw new CheckFailed("result[2][SIX] is " + shortText(empty) + ", expected Insanity()");
    }
  }

  /** A call of a method ThriftTest does not have: the server must answer UNKNOWN_METHOD. */
  static void checkUnknownMethod(Connection c) throws Exception {
    TProtocol p = c.ttProtocol;
    p.writeMessageBegin(new TMessage("noSuchMethod", TMessageType.CALL, 0));
    p.writeStructBegin(new TStruct("noSuchMethod_args"));
    p.writeFieldStop();
    p.writeStructEnd();
    p.writeMessageEnd();
    p.getTransport().flush();
    TMessage reply = p.readMessageBegin();
    if (reply.type != TMessageType.EXCEPTION) {
      throw new ReplyMismatch("reply to noSuchMethod has type " + reply.type + ", expected EXCEPTION");
    }
    TApplicationException x = new TApplicationException();
    x.read(p);
    p.readMessageEnd();
    if (x.getType() != TApplicationException.UNKNOWN_METHOD) {
      throw new CheckFailed("TApplicationException type " + x.getType() + " (" + x.getMessage()
          + "), expected UNKNOWN_METHOD (" + TApplicationException.UNKNOWN_METHOD + ")");
    }
  }

  static List<Named> checks(boolean multiplexed) {
    List<Named> out = new ArrayList<>();
    out.add(new Named("testVoid()", c -> {
      c.tt.testVoid();
    }));
    for (String[] s : STRINGS) {
      String value = s[1];
      out.add(new Named("testString(" + s[0] + ")", c -> expect(c.tt.testString(value), value)));
    }
    if (multiplexed) {
      out.add(new Named("SecondService.secondtestString(\"foobar\")",
          c -> expect(c.second.secondtestString("foobar"), "testString(\"foobar\")")));
    }
    for (boolean b : new boolean[] {true, false}) {
      out.add(new Named("testBool(" + b + ")", c -> expect(c.tt.testBool(b), b)));
    }
    for (int v : new int[] {0, 1, -1, 42, -42, 63, -127, 127, -128}) {
      byte b = (byte) v;
      out.add(new Named("testByte(" + v + ")", c -> expect(c.tt.testByte(b), b)));
    }
    for (int v : new int[] {0, 1, -1, 63, -64, 64, -65, 190000013, -190000013, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      String label = v == Integer.MAX_VALUE ? "2^31-1" : v == Integer.MIN_VALUE ? "-2^31" : Integer.toString(v);
      out.add(new Named("testI32(" + label + ")", c -> expect(c.tt.testI32(v), v)));
    }
    Object[][] i64s = {
        {"0", 0L}, {"1", 1L}, {"-1", -1L}, {"2^32", 1L << 32}, {"-2^32", -(1L << 32)},
        {"2^32+1", (1L << 32) + 1}, {"-2^32-1", -(1L << 32) - 1}, {"-34359738368", -34359738368L},
        {"2^53+1", (1L << 53) + 1}, {"7000000000000000123", 7000000000000000123L},
        {"-7000000000000000123", -7000000000000000123L}, {"2^63-1", Long.MAX_VALUE}, {"-2^63", Long.MIN_VALUE},
    };
    for (Object[] v : i64s) {
      long l = (Long) v[1];
      out.add(new Named("testI64(" + v[0] + ")", c -> expect(c.tt.testI64(l), l)));
    }
    for (Object[] v : DOUBLES) {
      double d = (Double) v[1];
      out.add(new Named("testDouble(" + v[0] + ")", c -> expect(c.tt.testDouble(d), d)));
    }
    Object[][] binaries = {
        {"empty", ByteBuffer.allocate(0)}, {"all 256 byte values", binaryPattern(256)},
        {"131073 bytes", binaryPattern(131073)},
    };
    for (Object[] v : binaries) {
      ByteBuffer b = (ByteBuffer) v[1];
      out.add(new Named("testBinary(" + v[0] + ")", c -> expect(c.tt.testBinary(b.duplicate()), b.duplicate())));
    }

    Xtruct zero = xtruct("Zero", 1, -3, -5);
    Object[][] structs = {
        {"{Zero, 1, -3, -5}", zero}, {"zeros", xtruct("", 0, 0, 0)},
        {"extremes", xtruct(UNICODE, -128, Integer.MIN_VALUE, Long.MAX_VALUE)},
    };
    for (Object[] v : structs) {
      Xtruct x = (Xtruct) v[1];
      out.add(new Named("testStruct(" + v[0] + ")", c -> expect(c.tt.testStruct(x), x)));
    }
    Xtruct2 nest = new Xtruct2((byte) 1, zero, 5);
    out.add(new Named("testNest({1, {Zero, 1, -3, -5}, 5})", c -> expect(c.tt.testNest(nest), nest)));

    Map<Integer, Integer> map = new LinkedHashMap<>();
    for (int i = 0; i < 5; i++) map.put(i, i - 10);
    Map<Integer, Integer> extremes = new LinkedHashMap<>();
    extremes.put(-1, -2);
    extremes.put(Integer.MAX_VALUE, Integer.MIN_VALUE);
    extremes.put(Integer.MIN_VALUE, Integer.MAX_VALUE);
    for (Object[] v : new Object[][] {{"{0:-10 .. 4:-6}", map}, {"empty", Map.of()}, {"extremes", extremes}}) {
      @SuppressWarnings("unchecked")
      Map<Integer, Integer> m = (Map<Integer, Integer>) v[1];
      out.add(new Named("testMap(" + v[0] + ")", c -> expect(c.tt.testMap(m), m)));
    }
    Map<String, String> smap = new LinkedHashMap<>();
    smap.put("a", "2");
    smap.put("b", "blah");
    smap.put("some", "thing");
    Map<String, String> umap = new LinkedHashMap<>();
    umap.put("", "");
    umap.put("\u65e5\u672c", "\u8a9e");
    umap.put("\ud83d\ude00", "emoji");
    for (Object[] v : new Object[][] {{"{a: 2, b: blah, some: thing}", smap}, {"empty", Map.of()}, {"unicode", umap}}) {
      @SuppressWarnings("unchecked")
      Map<String, String> m = (Map<String, String>) v[1];
      out.add(new Named("testStringMap(" + v[0] + ")", c -> expect(c.tt.testStringMap(m), m)));
    }
    Set<Integer> small = new HashSet<>();
    for (int i = -2; i < 3; i++) small.add(i);
    Set<Integer> hundred = new HashSet<>();
    for (int i = -50; i < 50; i++) hundred.add(i);
    for (Object[] v : new Object[][] {{"{-2 .. 2}", small}, {"empty", Set.of()}, {"100 elements", hundred}}) {
      @SuppressWarnings("unchecked")
      Set<Integer> s = (Set<Integer>) v[1];
      out.add(new Named("testSet(" + v[0] + ")", c -> expect(c.tt.testSet(s), s)));
    }
    List<Integer> forty = new ArrayList<>();
    for (int i = -20; i < 20; i++) forty.add(i);
    Object[][] lists = {
        {"empty", List.of()}, {"[-2 .. 2]", List.of(-2, -1, 0, 1, 2)},
        {"[1, 4, 9, -42]", List.of(1, 4, 9, -42)}, {"40 elements", forty},
    };
    for (Object[] v : lists) {
      @SuppressWarnings("unchecked")
      List<Integer> l = (List<Integer>) v[1];
      out.add(new Named("testList(" + v[0] + ")", c -> expect(c.tt.testList(l), l)));
    }
    for (Numberz n : new Numberz[] {Numberz.ONE, Numberz.TWO, Numberz.THREE, Numberz.FIVE, Numberz.EIGHT}) {
      out.add(new Named("testEnum(" + n + ")", c -> expect(c.tt.testEnum(n), n)));
    }
    out.add(new Named("testTypedef(309858235082523)",
        c -> expect(c.tt.testTypedef(309858235082523L), 309858235082523L)));
    out.add(new Named("testTypedef(0xffffffffffffff)",
        c -> expect(c.tt.testTypedef(0xffffffffffffffL), 0xffffffffffffffL)));

    Map<Integer, Map<Integer, Integer>> mapmap = new HashMap<>();
    mapmap.put(-4, Map.of(-4, -4, -3, -3, -2, -2, -1, -1));
    mapmap.put(4, Map.of(1, 1, 2, 2, 3, 3, 4, 4));
    out.add(new Named("testMapMap(1)", c -> expect(c.tt.testMapMap(1), mapmap)));
    out.add(new Named("testInsanity({FIVE: 5, EIGHT: 8}, [Goodbye4, Hello2])",
        c -> checkInsanity(c.tt.testInsanity(insanityArgument()), insanityArgument())));
    out.add(new Named("testMulti(42, 4242, 424242, ...)", c -> expect(
        c.tt.testMulti((byte) 42, 4242, 424242L, Map.of((short) 1, "blah", (short) 2, "thing"), Numberz.EIGHT, 24L),
        xtruct("Hello2", 42, 4242, 424242L))));
    out.add(new Named("testMulti(74, 0xff00ff, 0xffffffffd0d0, ...)", c -> expect(
        c.tt.testMulti((byte) 74, 0xff00ff, 0xffffffffd0d0L, Map.of((short) 0, "abc"), Numberz.FIVE, 0xf0f0f0L),
        xtruct("Hello2", 74, 0xff00ff, 0xffffffffd0d0L))));

    out.add(new Named("testException(\"Xception\")", c -> {
      Xception e = expectThrows(Xception.class, () -> {
        c.tt.testException("Xception");
        return null;
      });
      expect(e.errorCode, 1001);
      expect(e.message, "Xception");
    }));
    out.add(new Named("testException(\"TException\")", c -> {
      TApplicationException e = expectThrows(TApplicationException.class, () -> {
        c.tt.testException("TException");
        return null;
      });
      if (e.getType() != TApplicationException.INTERNAL_ERROR) {
        throw new CheckFailed("TApplicationException type " + e.getType() + " (" + e.getMessage()
            + "), expected INTERNAL_ERROR (" + TApplicationException.INTERNAL_ERROR + ")");
      }
    }));
    out.add(new Named("testException(\"success\")", c -> c.tt.testException("success")));
    out.add(new Named("testMultiException(\"Xception\", _)", c -> {
      Xception e = expectThrows(Xception.class, () -> c.tt.testMultiException("Xception", "ignored"));
      expect(e.errorCode, 1001);
      expect(e.message, "This is an Xception");
    }));
    out.add(new Named("testMultiException(\"Xception2\", _)", c -> {
      Xception2 e = expectThrows(Xception2.class, () -> c.tt.testMultiException("Xception2", "ignored"));
      if (e.struct_thing == null) throw new CheckFailed("Xception2.struct_thing is absent");
      expect(e.errorCode, 2002);
      expect(e.struct_thing.string_thing, "This is an Xception2");
    }));
    out.add(new Named("testMultiException(\"success\", \"foobar\")",
        c -> expect(c.tt.testMultiException("success", "foobar").string_thing, "foobar")));
    out.add(new Named("unknown method noSuchMethod() -> UNKNOWN_METHOD", TtClient::checkUnknownMethod));
    out.add(new Named("testI32(7) after the unknown method", c -> expect(c.tt.testI32(7), 7)));

    out.add(new Named("testOneway(1)", c -> {
      long start = System.nanoTime();
      c.tt.testOneway(1);
      double elapsed = (System.nanoTime() - start) / 1e9;
      if (elapsed >= ONEWAY_LIMIT_S) {
        throw new CheckFailed(String.format("took %.3f s (the server sleeps 1 s; a oneway call must not wait)", elapsed));
      }
    }));
    out.add(new Named("testI32(-1) after testOneway", c -> expect(c.tt.testI32(-1), -1)));
    if (multiplexed) {
      out.add(new Named("SecondService.secondtestString(\"" + UNICODE + "\")",
          c -> expect(c.second.secondtestString(UNICODE), "testString(\"" + UNICODE + "\")")));
    }
    return out;
  }

  // ------------------------------------------------------------------ main

  /** null if the check passed, else {reason, "broken"} when the connection is unusable. */
  static String[] runCheck(Connection c, Check check) {
    try {
      check.run(c);
      return null;
    } catch (CheckFailed e) {
      return new String[] {e.getMessage(), null};
    } catch (TTransportException | TProtocolException e) {
      return new String[] {e.getClass().getSimpleName() + ": " + describe(e), "broken"};
    } catch (TApplicationException e) {
      int t = e.getType();
      boolean broken = t == TApplicationException.BAD_SEQUENCE_ID || t == TApplicationException.INVALID_MESSAGE_TYPE
          || t == TApplicationException.WRONG_METHOD_NAME;
      return new String[] {"TApplicationException (type " + t + "): " + e.getMessage(), broken ? "broken" : null};
    } catch (Exception e) {
      return new String[] {e.getClass().getSimpleName() + ": " + describe(e), null};
    }
  }

  static String describe(Throwable e) {
    StringBuilder sb = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
      String m = t.getClass().getSimpleName() + ": " + t.getMessage();
      if (!sb.toString().contains(String.valueOf(t.getMessage()))) sb.append(" (").append(m).append(")");
    }
    return shortText(sb.toString());
  }

  static int udpCalls(Peer.Flags f) throws Exception {
    int passed = 0;
    int failed = 0;
    Peer.UdpClientTransport transport = new Peer.UdpClientTransport(f.host, f.port);
    ThriftTest.Client client = new ThriftTest.Client(Peer.clientProtocol(f, transport));
    for (int seconds : Peer.UDP_ONEWAY_SECONDS) {
      long start = System.nanoTime();
      try {
        client.testOneway(seconds);
        double took = (System.nanoTime() - start) / 1e9;
        if (took >= ONEWAY_LIMIT_S) throw new CheckFailed(String.format("took %.3f s", took));
        System.out.println("PASS testOneway(" + seconds + ") over udp");
        passed++;
      } catch (Exception e) {
        System.out.println("FAIL testOneway(" + seconds + ") over udp: " + e.getMessage());
        failed++;
      }
    }
    transport.close();
    System.out.println(passed + " passed, " + failed + " failed");
    return failed > 0 ? 1 : 0;
  }

  /**
   * --expect-refusal: the server must refuse this client (wrong SASL password, foreign authzid,
   * untrusted certificate). Passes when connecting, or the first call, fails; fails when the
   * call is answered.
   */
  static int expectRefusal(Peer.Flags f, SSLContext tls) {
    String name = "connection refused";
    String verdict;
    boolean refused;
    Connection c = null;
    try {
      c = new Connection(f, tls);
      c.tt.testVoid();
      refused = false;
      verdict = "the server granted the connection and answered testVoid";
    } catch (Exception e) {
      refused = !isConnectRefused(e);
      verdict = refused
          ? e.getClass().getSimpleName() + ": " + describe(e)
          : "no server to refuse us: " + describe(e);
    }
    // Closed before the verdict is printed: the last line of the output is the count.
    if (c != null) c.close();
    System.out.println((refused ? "PASS " : "FAIL ") + name + ": " + verdict);
    System.out.println(refused ? "1 passed, 0 failed" : "0 passed, 1 failed");
    return refused ? 0 : 1;
  }

  public static void main(String[] argv) throws Exception {
    Peer.Flags f;
    try {
      f = Peer.parse(argv, true);
    } catch (Peer.UsageError e) {
      System.err.println("tt_client: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.exit(run(f));
  }

  static int run(Peer.Flags f) throws Exception {
    if (f.transport.equals("udp")) return udpCalls(f);
    SSLContext tls = f.ssl ? Peer.sslContext(f.sslCert, f.sslKey, f.sslCa) : null;
    if (tls != null && f.transport.equals("http")) {
      // THttpClient (on HttpURLConnection) has no TLS setting of its own: the JVM's default.
      HttpsURLConnection.setDefaultSSLSocketFactory(tls.getSocketFactory());
    }
    if (f.expectRefusal) return expectRefusal(f, tls);
    String where = f.domainSocket != null ? f.domainSocket : f.host + ":" + f.port;
    Connection conn;
    try {
      conn = new Connection(f, tls);
    } catch (Exception e) {
      System.out.println("FAIL connect to " + where + ": " + e.getClass().getSimpleName() + ": " + describe(e));
      System.out.println("0 passed, 1 failed");
      return 1;
    }
    System.out.println("SKIP testUuid: Apache 0.17's compiler does not know uuid");
    List<Named> todo = checks(f.multiplexed);
    int passed = 0;
    int failed = 0;
    int brokenInARow = 0;
    for (int index = 0; index < todo.size(); index++) {
      Named check = todo.get(index);
      String[] failure = runCheck(conn, check.check);
      if (failure == null) {
        passed++;
        brokenInARow = 0;
        System.out.println("PASS " + check.name);
        continue;
      }
      failed++;
      System.out.println("FAIL " + check.name + ": " + failure[0]);
      if (failure[1] == null) {
        brokenInARow = 0;
        continue;
      }
      // The connection is out of step (or gone): go on on a new one, unless that keeps happening.
      brokenInARow++;
      conn.close();
      int rest = todo.size() - index - 1;
      if (rest == 0) break;
      if (brokenInARow >= MAX_BROKEN_IN_A_ROW) {
        failed += rest;
        System.out.println("FAIL giving up: " + brokenInARow + " calls in a row broke the connection; "
            + rest + " calls not run");
        break;
      }
      try {
        conn = new Connection(f, tls);
      } catch (Exception e) {
        failed += rest;
        System.out.println("FAIL reconnect: " + describe(e) + "; " + rest + " calls not run");
        break;
      }
    }
    conn.close();
    System.out.println(passed + " passed, " + failed + " failed");
    System.out.flush();
    return failed > 0 ? 1 : 0;
  }
}

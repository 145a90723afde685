package thriftinterop;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.Security;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TJSONProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TServerTransport;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * What TtServer and TtClient share: the flags (those of interop/py/tt_server.py and
 * tt_client.py, Apache's cross-test names), the protocols, TLS contexts built in memory from PEM
 * files, Unix domain sockets, and the SASL PLAIN server mechanism the JDK lacks.
 */
final class Peer {
  static final String HOST = "127.0.0.1";
  static final int DEFAULT_PORT = 9090;

  private Peer() {}

  // ------------------------------------------------------------------ flags

  /** The flags of both peers; the client-only ones are refused on the server. */
  static final class Flags {
    final boolean client;
    String host = HOST;
    int port = DEFAULT_PORT;
    String protocol = "binary";
    String transport = "buffered";
    boolean multiplexed;
    boolean zlib;
    String domainSocket;
    String sasl;
    String saslUser = "thrift";
    String saslPassword = "thrift";
    String saslAuthzid;
    boolean ssl;
    String sslCert;
    String sslKey;
    String sslCa;
    String headerPayload;
    boolean expectRefusal;
    boolean binaryOldStyle;

    Flags(boolean client) {
      this.client = client;
    }
  }

  static final class UsageError extends Exception {
    UsageError(String message) {
      super(message);
    }
  }

  static final String SERVER_USAGE = "usage: tt_server [--port N] [--protocol binary|compact|json]\n"
      + "                 [--transport buffered|framed|http|udp] [--multiplexed] [--domain-socket PATH]\n"
      + "                 [--sasl plain --sasl-user U --sasl-password P]\n"
      + "                 [--ssl --ssl-cert FILE --ssl-key FILE [--ssl-ca FILE]]\n"
      + "(--protocol header and --zlib are refused: the Java library has no THeader)";
  static final String CLIENT_USAGE = "usage: tt_client [--host H] [--port N] [--protocol binary|compact|json]\n"
      + "                 [--transport buffered|framed|http|udp] [--multiplexed] [--domain-socket PATH]\n"
      + "                 [--sasl plain --sasl-user U --sasl-password P [--sasl-authzid A]]\n"
      + "                 [--ssl --ssl-ca FILE [--ssl-cert FILE --ssl-key FILE]]\n"
      + "                 [--binary-old-style] [--expect-refusal]\n"
      + "(--protocol header and --zlib are refused: the Java library has no THeader)";

  static Flags parse(String[] argv, boolean client) throws UsageError {
    Flags f = new Flags(client);
    for (int i = 0; i < argv.length; i++) {
      String arg = argv[i];
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        value = arg.substring(eq + 1);
        arg = arg.substring(0, eq);
      }
      switch (arg) {
        case "--help":
        case "-h":
          throw new UsageError(client ? CLIENT_USAGE : SERVER_USAGE);
        case "--multiplexed": f.multiplexed = true; continue;
        case "--zlib": f.zlib = true; continue;
        case "--ssl": f.ssl = true; continue;
        case "--expect-refusal":
          if (!client) throw new UsageError("--expect-refusal is a client flag");
          f.expectRefusal = true;
          continue;
        case "--binary-old-style":
          if (!client) throw new UsageError("--binary-old-style is a client flag");
          f.binaryOldStyle = true;
          continue;
        default:
          break;
      }
      if (value == null) {
        if (i + 1 >= argv.length) throw new UsageError(arg + " needs a value");
        value = argv[++i];
      }
      switch (arg) {
        case "--port":
          try {
            f.port = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            throw new UsageError("--port: not a number: " + value);
          }
          break;
        case "--protocol": f.protocol = oneOf(arg, value, "binary", "compact", "json", "header"); break;
        case "--transport": f.transport = oneOf(arg, value, "buffered", "framed", "http", "udp"); break;
        case "--domain-socket": f.domainSocket = value; break;
        case "--sasl": f.sasl = oneOf(arg, value, "plain"); break;
        case "--sasl-user": f.saslUser = value; break;
        case "--sasl-password": f.saslPassword = value; break;
        case "--ssl-cert": f.sslCert = value; break;
        case "--ssl-key": f.sslKey = value; break;
        case "--ssl-ca": f.sslCa = value; break;
        case "--host":
          if (!client) throw new UsageError("--host is a client flag (the server listens on " + HOST + ")");
          f.host = value;
          break;
        case "--header-payload":
          if (!client) throw new UsageError("--header-payload is a client flag");
          f.headerPayload = oneOf(arg, value, "binary", "compact");
          break;
        case "--sasl-authzid":
          if (!client) throw new UsageError("--sasl-authzid is a client flag");
          f.saslAuthzid = value;
          break;
        default:
          throw new UsageError("unknown flag " + argv[i].split("=", 2)[0]);
      }
    }
    if (f.protocol.equals("header")) {
      throw new UsageError("--protocol header: Apache Thrift's Java library (libthrift 0.16) has no"
          + " THeaderProtocol; this peer cannot serve or make THeader cells");
    }
    if (f.zlib) throw new UsageError("--zlib needs --protocol header, which the Java library lacks");
    if (f.headerPayload != null) throw new UsageError("--header-payload needs --protocol header");
    if (!f.ssl && (f.sslCert != null || f.sslKey != null || f.sslCa != null)) {
      throw new UsageError("--ssl-cert, --ssl-key and --ssl-ca need --ssl");
    }
    if ((f.sslCert == null) != (f.sslKey == null)) {
      throw new UsageError("--ssl-cert and --ssl-key go together");
    }
    if (f.ssl && !client && f.sslCert == null) {
      throw new UsageError("--ssl needs --ssl-cert and --ssl-key on a server");
    }
    if (f.ssl && client && f.sslCa == null) throw new UsageError("--ssl needs --ssl-ca on a client");
    if (f.saslAuthzid != null && f.sasl == null) throw new UsageError("--sasl-authzid needs --sasl plain");
    if (f.binaryOldStyle && !f.protocol.equals("binary")) {
      throw new UsageError("--binary-old-style needs --protocol binary");
    }
    if (f.domainSocket != null && (f.ssl || f.transport.equals("http") || f.transport.equals("udp"))) {
      throw new UsageError("--domain-socket: this peer has plain (not TLS, HTTP or UDP) Unix domain sockets only");
    }
    if (f.sasl != null && (f.transport.equals("http") || f.transport.equals("udp"))) {
      throw new UsageError("--sasl works over TCP (optionally TLS), not over " + f.transport);
    }
    if (f.transport.equals("udp") && (f.ssl || f.multiplexed)) {
      throw new UsageError("--transport udp: no --ssl or --multiplexed");
    }
    return f;
  }

  private static String oneOf(String flag, String value, String... allowed) throws UsageError {
    for (String a : allowed) {
      if (a.equals(value)) return value;
    }
    throw new UsageError(flag + ": " + value + " is not one of " + String.join(", ", allowed));
  }

  // ------------------------------------------------------------------ protocols

  /**
   * Server side. binary is Apache's default TBinaryProtocol.Factory: strictRead=false (it also
   * reads old-style, unversioned messages), strictWrite=true.
   */
  static TProtocolFactory serverProtocolFactory(String name) {
    switch (name) {
      case "binary": return new TBinaryProtocol.Factory();
      case "compact": return new TCompactProtocol.Factory();
      case "json": return new TJSONProtocol.Factory();
      default: throw new IllegalArgumentException(name);
    }
  }

  /**
   * Client side. binary is strict both ways; with --binary-old-style, calls are written in the
   * old unversioned form (strictWrite=false) and replies read in either form.
   */
  static TProtocol clientProtocol(Flags f, TTransport t) {
    switch (f.protocol) {
      case "binary":
        return f.binaryOldStyle ? new TBinaryProtocol(t, false, false) : new TBinaryProtocol(t, true, true);
      case "compact": return new TCompactProtocol(t);
      case "json": return new TJSONProtocol(t);
      default: throw new IllegalArgumentException(f.protocol);
    }
  }

  // ------------------------------------------------------------------ TLS from PEM files

  private static final char[] KEY_PASSWORD = "in-memory".toCharArray();

  static List<X509Certificate> readCertificates(String path) throws Exception {
    List<X509Certificate> out = new ArrayList<>();
    try (InputStream in = Files.newInputStream(Path.of(path))) {
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        out.add((X509Certificate) c);
      }
    }
    if (out.isEmpty()) throw new IOException(path + ": no PEM certificate");
    return out;
  }

  private static final Pattern PKCS8 = Pattern.compile(
      "-----BEGIN PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END PRIVATE KEY-----");

  /** A PKCS#8 (`BEGIN PRIVATE KEY`) key: EC (what interop/tls_certs.sh makes), RSA or EdDSA. */
  static PrivateKey readPrivateKey(String path) throws Exception {
    String text = Files.readString(Path.of(path), StandardCharsets.US_ASCII);
    Matcher m = PKCS8.matcher(text);
    if (!m.find()) {
      throw new IOException(path + ": no PKCS#8 \"-----BEGIN PRIVATE KEY-----\" block"
          + " (convert with: openssl pkcs8 -topk8 -nocrypt)");
    }
    byte[] der = Base64.getMimeDecoder().decode(m.group(1));
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
    Exception last = null;
    for (String algorithm : new String[] {"EC", "RSA", "EdDSA", "RSASSA-PSS"}) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (Exception e) {
        last = e;
      }
    }
    throw new IOException(path + ": unsupported private key: " + last);
  }

  /** An SSLContext from PEM files: our certificate chain and key (may be null), trusted CAs (may be null). */
  static SSLContext sslContext(String certFile, String keyFile, String caFile) throws Exception {
    KeyManager[] keyManagers = null;
    if (certFile != null) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      List<X509Certificate> chain = readCertificates(certFile);
      ks.setKeyEntry("peer", readPrivateKey(keyFile), KEY_PASSWORD, chain.toArray(new Certificate[0]));
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, KEY_PASSWORD);
      keyManagers = kmf.getKeyManagers();
    }
    TrustManager[] trustManagers = null;
    if (caFile != null) {
      KeyStore ts = KeyStore.getInstance("PKCS12");
      ts.load(null, null);
      int i = 0;
      for (X509Certificate ca : readCertificates(caFile)) {
        ts.setCertificateEntry("ca" + i++, ca);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(ts);
      trustManagers = tmf.getTrustManagers();
    }
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(keyManagers, trustManagers, null);
    return ctx;
  }

  // ------------------------------------------------------------------ Unix domain sockets

  /** A connected Unix domain socket as a Thrift transport (TSocket needs a java.net.Socket). */
  static TTransport unixSocket(SocketChannel channel) throws TTransportException {
    InputStream in = new java.io.BufferedInputStream(Channels.newInputStream(channel), 1024);
    OutputStream out = new java.io.BufferedOutputStream(Channels.newOutputStream(channel), 1024);
    return new TIOStreamTransport(in, out) {
      @Override
      public boolean isOpen() {
        return channel.isOpen();
      }

      @Override
      public void close() {
        super.close();
        try {
          channel.close();
        } catch (IOException e) {
          // closing anyway
        }
      }
    };
  }

  static TTransport connectUnix(String path) throws IOException, TTransportException {
    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
    try {
      ch.connect(UnixDomainSocketAddress.of(path));
    } catch (IOException e) {
      ch.close();
      throw e;
    }
    return unixSocket(ch);
  }

  /** A server transport on a Unix domain socket (the file is replaced if it exists). */
  static final class UnixServerTransport extends TServerTransport {
    private final ServerSocketChannel channel;
    private final Path path;

    UnixServerTransport(String path) throws IOException {
      this.path = Path.of(path);
      Files.deleteIfExists(this.path);
      channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
      channel.bind(UnixDomainSocketAddress.of(this.path));
    }

    @Override
    public void listen() {}

    @Override
    public TTransport accept() throws TTransportException {
      try {
        return unixSocket(channel.accept());
      } catch (IOException e) {
        throw new TTransportException(e);
      }
    }

    @Override
    public void close() {
      try {
        channel.close();
        Files.deleteIfExists(path);
      } catch (IOException e) {
        // closing anyway
      }
    }
  }

  // ------------------------------------------------------------------ UDP

  /** The testOneway arguments a --transport udp client sends, one datagram each (as the Python and Rust peers). */
  static final int[] UDP_ONEWAY_SECONDS = {0, 1, 2};

  /** Each flush sends what was written as one datagram; nothing is read. */
  static final class UdpClientTransport extends TTransport {
    private final java.net.DatagramSocket socket;
    private final java.net.InetSocketAddress address;
    private final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();

    UdpClientTransport(String host, int port) throws IOException {
      socket = new java.net.DatagramSocket();
      address = new java.net.InetSocketAddress(host, port);
    }

    @Override public boolean isOpen() { return true; }
    @Override public void open() {}
    @Override public void close() { socket.close(); }

    @Override
    public int read(byte[] buf, int off, int len) throws TTransportException {
      throw new TTransportException(TTransportException.NOT_OPEN, "nothing is read over UDP");
    }

    @Override
    public void write(byte[] buf, int off, int len) {
      buffer.write(buf, off, len);
    }

    @Override
    public void flush() throws TTransportException {
      byte[] datagram = buffer.toByteArray();
      buffer.reset();
      try {
        socket.send(new java.net.DatagramPacket(datagram, datagram.length, address));
      } catch (IOException e) {
        throw new TTransportException(e);
      }
    }

    @Override public TConfiguration getConfiguration() { return TConfiguration.DEFAULT; }
    @Override public void updateKnownMessageSize(long size) {}
    @Override public void checkReadBytesAvailable(long numBytes) {}
  }

  // ------------------------------------------------------------------ SASL PLAIN server

  /**
   * The JDK has a PLAIN SaslClient but no PLAIN SaslServer: this provider supplies one (as Hive
   * does), so that Sasl.createSaslServer("PLAIN", ...) inside TSaslServerTransport finds it.
   */
  static final class PlainSaslProvider extends Provider {
    private static final long serialVersionUID = 1L;

    PlainSaslProvider() {
      super("ThriftInteropSaslPlain", "1.0", "SASL PLAIN server mechanism (RFC 4616)");
      put("SaslServerFactory.PLAIN", PlainSaslServer.Factory.class.getName());
    }
  }

  private static boolean providerInstalled;

  static synchronized void installPlainSaslServer() {
    if (!providerInstalled) {
      Security.addProvider(new PlainSaslProvider());
      providerInstalled = true;
    }
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static ByteArrayInputStream stream(byte[] b) {
    return new ByteArrayInputStream(b);
  }
}

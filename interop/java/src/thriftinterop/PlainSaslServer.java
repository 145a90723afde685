package thriftinterop;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.AuthorizeCallback;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslException;
import javax.security.sasl.SaslServer;
import javax.security.sasl.SaslServerFactory;

/**
 * SASL PLAIN (RFC 4616) server: one message `authzid NUL authcid NUL passwd` from the client.
 * The credentials are checked through the CallbackHandler: a NameCallback with the authcid and a
 * PasswordCallback the handler fills with that user's password (left empty: unknown user), then
 * an AuthorizeCallback: the identity asked for (authzid, or the authcid when authzid is empty)
 * must be authorized for the authcid. Any failure is a SaslException, which TSaslServerTransport
 * answers with a BAD message and a closed connection.
 */
public final class PlainSaslServer implements SaslServer {
  private final CallbackHandler handler;
  private boolean complete;
  private String authorizationId;

  PlainSaslServer(CallbackHandler handler) {
    this.handler = handler;
  }

  /** Registered by Peer.PlainSaslProvider under "SaslServerFactory.PLAIN". */
  public static final class Factory implements SaslServerFactory {
    public Factory() {}

    @Override
    public SaslServer createSaslServer(String mechanism, String protocol, String serverName,
        Map<String, ?> props, CallbackHandler cbh) throws SaslException {
      if (!"PLAIN".equals(mechanism)) return null;
      if (cbh == null) throw new SaslException("PLAIN: a CallbackHandler is needed");
      return new PlainSaslServer(cbh);
    }

    @Override
    public String[] getMechanismNames(Map<String, ?> props) {
      if (props != null && "true".equals(props.get(Sasl.POLICY_NOPLAINTEXT))) return new String[0];
      return new String[] {"PLAIN"};
    }
  }

  @Override
  public String getMechanismName() {
    return "PLAIN";
  }

  @Override
  public byte[] evaluateResponse(byte[] response) throws SaslException {
    if (complete) throw new SaslException("PLAIN: authentication already complete");
    complete = false;
    int first = indexOf(response, 0);
    int second = first < 0 ? -1 : indexOf(response, first + 1);
    if (first < 0 || second < 0 || indexOf(response, second + 1) >= 0) {
      throw new SaslException("PLAIN: malformed response (expected authzid NUL authcid NUL passwd)");
    }
    String authzid = new String(response, 0, first, StandardCharsets.UTF_8);
    String authcid = new String(response, first + 1, second - first - 1, StandardCharsets.UTF_8);
    byte[] password = java.util.Arrays.copyOfRange(response, second + 1, response.length);
    if (authcid.isEmpty()) throw new SaslException("PLAIN: empty authentication identity");

    NameCallback name = new NameCallback("user", authcid);
    name.setName(authcid);
    PasswordCallback expected = new PasswordCallback("password", false);
    handle(name, expected);
    char[] want = expected.getPassword();
    expected.clearPassword();
    if (want == null
        || !java.security.MessageDigest.isEqual(
            new String(want).getBytes(StandardCharsets.UTF_8), password)) {
      throw new SaslException("PLAIN: authentication failed for " + authcid);
    }

    String asked = authzid.isEmpty() ? authcid : authzid;
    AuthorizeCallback authorize = new AuthorizeCallback(authcid, asked);
    handle(authorize);
    if (!authorize.isAuthorized()) {
      throw new SaslException("PLAIN: " + authcid + " may not act as " + asked);
    }
    authorizationId = authorize.getAuthorizedID() != null ? authorize.getAuthorizedID() : asked;
    complete = true;
    return new byte[0];
  }

  private void handle(Callback... callbacks) throws SaslException {
    try {
      handler.handle(callbacks);
    } catch (UnsupportedCallbackException | java.io.IOException e) {
      throw new SaslException("PLAIN: callback handler failed", e);
    }
  }

  private static int indexOf(byte[] b, int from) {
    for (int i = from; i < b.length; i++) {
      if (b[i] == 0) return i;
    }
    return -1;
  }

  @Override
  public boolean isComplete() {
    return complete;
  }

  @Override
  public String getAuthorizationID() {
    if (!complete) throw new IllegalStateException("PLAIN: authentication not complete");
    return authorizationId;
  }

  @Override
  public byte[] unwrap(byte[] incoming, int offset, int len) {
    throw new IllegalStateException("PLAIN has no security layer");
  }

  @Override
  public byte[] wrap(byte[] outgoing, int offset, int len) {
    throw new IllegalStateException("PLAIN has no security layer");
  }

  @Override
  public Object getNegotiatedProperty(String propName) {
    if (!complete) throw new IllegalStateException("PLAIN: authentication not complete");
    return Sasl.QOP.equals(propName) ? "auth" : null;
  }

  @Override
  public void dispose() {}

  /** The handler of the server's single account: --sasl-user with --sasl-password, acting as itself only. */
  static CallbackHandler singleUser(String user, String password) {
    return callbacks -> {
      String name = null;
      for (Callback cb : callbacks) {
        if (cb instanceof NameCallback) {
          name = ((NameCallback) cb).getName();
        } else if (cb instanceof PasswordCallback) {
          if (user.equals(name)) ((PasswordCallback) cb).setPassword(password.toCharArray());
        } else if (cb instanceof AuthorizeCallback) {
          AuthorizeCallback ac = (AuthorizeCallback) cb;
          ac.setAuthorized(ac.getAuthenticationID().equals(ac.getAuthorizationID()));
          if (ac.isAuthorized()) ac.setAuthorizedID(ac.getAuthorizationID());
        } else {
          throw new UnsupportedCallbackException(cb);
        }
      }
    };
  }
}

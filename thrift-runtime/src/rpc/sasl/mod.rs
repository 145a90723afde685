//! SASL (feature `sasl`), as Hive Metastore, HiveServer2, Impala, HBase and Accumulo speak it
//! (Apache's `TSaslClientTransport`/`TSaslServerTransport`): a negotiation at the start of the
//! connection, then every message in a frame of its own, a 4-byte length and the bytes, which
//! is the framed transport's format (`Framing::Framed`).
//!
//! The negotiation is a few messages, each a status byte (`START` 1, `OK` 2, `BAD` 3, `ERROR`
//! 4, `COMPLETE` 5), a 4-byte big-endian length and a payload: the client sends `START` with
//! the mechanism's name and `OK` with its initial response; the server answers `OK` with a
//! challenge (and the client `OK` with a response) until it sends `COMPLETE`, or `BAD` with a
//! reason and closes the connection.
//!
//! - Mechanisms: [`Plain`] (`PLAIN`, RFC 4616: user name and password) is built in, on both
//!   sides ([`PlainServer`] checks credentials with a function of yours); others (GSSAPI for
//!   Kerberos) plug in through [`ClientMechanism`] and [`ServerMechanism`]. Only mechanisms
//!   without a security layer are supported (no `auth-int`/`auth-conf` wrapping), as for PLAIN
//!   and for GSSAPI with `qop=auth`, what Hive and Impala use.
//! - Clients: `Connection::connect_sasl` (blocking and async), or [`handshake`] /
//!   [`handshake_async`] over any stream and then `Connection::new` with `Framing::Framed`.
//! - Authorization: a client acts as the identity it authenticated as; one that asks to act
//!   as another (PLAIN's authzid) is refused unless [`SaslServerConfig::authorize`] allows it
//!   (a proxy user). Handlers see both identities through
//!   [`context::identity`](crate::rpc::context::identity).
//! - Servers: a `SaslListener` around any listener (`blocking::SaslListener`,
//!   `asynchronous::SaslListener`): each connection's negotiation runs in its first reads, on its
//!   worker or task, within the server's idle timeout; a client that fails it gets `BAD` and
//!   is closed, nothing else is said.

mod negotiation;

use std::fmt;
use std::io;
use std::sync::Arc;

pub use super::identity::Identity;

pub(crate) use self::negotiation::ServerNegotiation;
pub use self::negotiation::handshake;
#[cfg(feature = "async")]
pub use self::negotiation::handshake_async;

/// Negotiation status: the client starts, naming its mechanism.
pub const START: u8 = 1;
/// Negotiation status: a challenge or a response follows.
pub const OK: u8 = 2;
/// Negotiation status: refused (bad credentials, an unknown mechanism); the payload says why.
pub const BAD: u8 = 3;
/// Negotiation status: a failure of the peer.
pub const ERROR: u8 = 4;
/// Negotiation status: authenticated.
pub const COMPLETE: u8 = 5;

/// The largest negotiation payload read (Kerberos tickets take a few KiB).
pub const MAX_NEGOTIATION_PAYLOAD: usize = 1 << 20;

/// The client side of a SASL mechanism.
pub trait ClientMechanism: Send {
    /// The mechanism's registered name (`PLAIN`, `GSSAPI`).
    fn name(&self) -> &str;
    /// The initial response, sent with the mechanism's name.
    fn initial_response(&mut self) -> io::Result<Vec<u8>>;
    /// The response to a server's challenge.
    fn respond(&mut self, challenge: &[u8]) -> io::Result<Vec<u8>>;
}

/// What a server mechanism says to a client's response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerStep {
    /// Another round: this challenge goes to the client.
    Challenge(Vec<u8>),
    /// Authenticated: the client proved `authenticated` and asks to act as `authzid` (its
    /// authorization identity; empty: as itself). The negotiation then authorizes it (an
    /// `authzid` other than `authenticated` must be allowed by
    /// [`SaslServerConfig::authorize`]) before it says `COMPLETE`; the connection's
    /// [`Identity`] holds both.
    Complete {
        /// The identity the client's credentials prove.
        authenticated: String,
        /// The identity the client asks to act as; empty for its own.
        authzid: String,
    },
    /// Refused; the reason goes to the client in a `BAD` message.
    Reject(String),
}

/// The server side of a SASL mechanism, one per connection.
pub trait ServerMechanism: Send {
    /// Answers the client's initial response, then each of its responses.
    fn step(&mut self, response: &[u8]) -> ServerStep;
}

/// `PLAIN` (RFC 4616) on the client: an optional authorization identity, a user name and a
/// password, sent in the clear, so over TLS or a trusted network only.
#[derive(Clone)]
pub struct Plain {
    authzid: String,
    user: String,
    password: String,
}

impl fmt::Debug for Plain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Plain")
            .field("authzid", &self.authzid)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

impl Plain {
    /// `user` with `password`, no separate authorization identity.
    pub fn new(user: impl Into<String>, password: impl Into<String>) -> Self {
        Plain {
            authzid: String::new(),
            user: user.into(),
            password: password.into(),
        }
    }

    /// Acts as `authzid` (a proxy user), authenticated as the user.
    pub fn authzid(mut self, authzid: impl Into<String>) -> Self {
        self.authzid = authzid.into();
        self
    }
}

impl ClientMechanism for Plain {
    fn name(&self) -> &str {
        "PLAIN"
    }

    fn initial_response(&mut self) -> io::Result<Vec<u8>> {
        let mut out =
            Vec::with_capacity(self.authzid.len() + self.user.len() + self.password.len() + 2);
        out.extend_from_slice(self.authzid.as_bytes());
        out.push(0);
        out.extend_from_slice(self.user.as_bytes());
        out.push(0);
        out.extend_from_slice(self.password.as_bytes());
        Ok(out)
    }

    fn respond(&mut self, _challenge: &[u8]) -> io::Result<Vec<u8>> {
        Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "SASL PLAIN: the server sent a challenge (PLAIN has none)",
        ))
    }
}

/// What a `PLAIN` client presented.
#[derive(Clone, PartialEq, Eq)]
pub struct PlainCredentials<'a> {
    /// The authorization identity (empty: the user's own).
    pub authzid: &'a str,
    /// The user name.
    pub user: &'a str,
    /// The password.
    pub password: &'a str,
}

impl fmt::Debug for PlainCredentials<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlainCredentials")
            .field("authzid", &self.authzid)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// The function a [`PlainServer`] checks credentials with: whether they are good.
pub type Authenticator = dyn Fn(&PlainCredentials<'_>) -> bool + Send + Sync;

/// `PLAIN` on the server: the client's credentials go to the authenticator; refused ones get
/// `BAD` "authentication failed" (the same reason for a wrong user and a wrong password). A
/// client that authenticated completes as its user name, asking for its authzid, which the
/// server's authorizer must allow ([`SaslServerConfig::authorize`]) unless it is empty or the
/// user's own.
pub struct PlainServer {
    authenticate: Arc<Authenticator>,
}

impl ServerMechanism for PlainServer {
    fn step(&mut self, response: &[u8]) -> ServerStep {
        let mut parts = response.split(|&b| b == 0);
        let (Some(authzid), Some(user), Some(password), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return ServerStep::Reject("malformed PLAIN response".into());
        };
        let (Ok(authzid), Ok(user), Ok(password)) = (
            std::str::from_utf8(authzid),
            std::str::from_utf8(user),
            std::str::from_utf8(password),
        ) else {
            return ServerStep::Reject("malformed PLAIN response".into());
        };
        let credentials = PlainCredentials {
            authzid,
            user,
            password,
        };
        if !user.is_empty() && (self.authenticate)(&credentials) {
            ServerStep::Complete {
                authenticated: user.to_owned(),
                authzid: authzid.to_owned(),
            }
        } else {
            ServerStep::Reject("authentication failed".into())
        }
    }
}

type Factory = Arc<dyn Fn() -> Box<dyn ServerMechanism> + Send + Sync>;

/// The function a server decides with whether a client authenticated as its first argument
/// may act as its second (a proxy user); see [`SaslServerConfig::authorize`].
pub type Authorizer = dyn Fn(&str, &str) -> bool + Send + Sync;

/// The mechanisms a server offers, by name, each made anew for every connection, and who may
/// act for whom.
///
/// A client acts as the identity it authenticated as. One that asks to act as another (an
/// authorization identity, as a proxy user does) is refused with `BAD` unless the function
/// given to [`authorize`](Self::authorize) allows it (RFC 4616 section 2, RFC 4422 section
/// 3.4.1: the server checks that the authenticated identity may act as the one requested).
#[derive(Clone, Default)]
pub struct SaslServerConfig {
    mechanisms: Vec<(String, Factory)>,
    authorize: Option<Arc<Authorizer>>,
}

impl fmt::Debug for SaslServerConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SaslServerConfig")
            .field(
                "mechanisms",
                &self
                    .mechanisms
                    .iter()
                    .map(|(name, _)| name)
                    .collect::<Vec<_>>(),
            )
            .field("proxy_users", &self.authorize.is_some())
            .finish()
    }
}

impl SaslServerConfig {
    /// No mechanism yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Offers `PLAIN`, checking credentials with `authenticate`.
    ///
    /// ```
    /// use thrift_runtime::rpc::sasl::SaslServerConfig;
    ///
    /// let config = SaslServerConfig::new()
    ///     .plain(|c| c.user == "hive" && c.password == std::env::var("HIVE_PASSWORD").unwrap_or_default());
    /// ```
    pub fn plain(
        self,
        authenticate: impl Fn(&PlainCredentials<'_>) -> bool + Send + Sync + 'static,
    ) -> Self {
        let authenticate: Arc<Authenticator> = Arc::new(authenticate);
        self.mechanism("PLAIN", move || {
            Box::new(PlainServer {
                authenticate: Arc::clone(&authenticate),
            })
        })
    }

    /// Offers the mechanism `name`, one `make()` per connection.
    pub fn mechanism<M: ServerMechanism + 'static>(
        mut self,
        name: &str,
        make: impl Fn() -> Box<M> + Send + Sync + 'static,
    ) -> Self {
        self.mechanisms.retain(|(n, _)| n != name);
        self.mechanisms.push((
            name.to_owned(),
            Arc::new(move || make() as Box<dyn ServerMechanism>),
        ));
        self
    }

    /// Lets clients act for other identities: a client authenticated as `user` that asks to
    /// act as `authzid` (not empty, not `user`) is allowed when `allowed(user, authzid)` says
    /// so, and refused with `BAD` otherwise, as Hadoop's `hadoop.proxyuser.<user>.users`
    /// settings decide for Hive. Without it, every such client is refused; a client that asks
    /// for no authzid or its own needs no permission.
    ///
    /// ```
    /// use thrift_runtime::rpc::sasl::SaslServerConfig;
    ///
    /// // `hue` authenticates with its own password and may act for anyone but `hive`.
    /// let config = SaslServerConfig::new()
    ///     .plain(|c| c.password == "s3cret" && ["hue", "alice"].contains(&c.user))
    ///     .authorize(|user, authzid| user == "hue" && authzid != "hive");
    /// ```
    pub fn authorize(
        mut self,
        allowed: impl Fn(&str, &str) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.authorize = Some(Arc::new(allowed));
        self
    }

    /// The identity of a client that authenticated as `authenticated` and asked to act as
    /// `authzid`, if it may.
    pub(crate) fn authorized(&self, authenticated: String, authzid: String) -> Option<Identity> {
        if authzid.is_empty() || authzid == authenticated {
            return Some(Identity::new(authenticated.clone(), authenticated));
        }
        let allowed = self
            .authorize
            .as_ref()
            .is_some_and(|allowed| allowed(&authenticated, &authzid));
        allowed.then(|| Identity::new(authenticated, authzid))
    }

    pub(crate) fn make(&self, name: &[u8]) -> Option<Box<dyn ServerMechanism>> {
        self.mechanisms
            .iter()
            .find(|(n, _)| n.as_bytes() == name)
            .map(|(_, make)| make())
    }
}

/// A connector that authenticates with a SASL mechanism over another connector's streams
/// (TCP, TLS, a Unix domain socket), for the blocking and the async clients alike
/// (`blocking::Connect`, `asynchronous::Connect`): each connection negotiates when it opens,
/// and its calls are framed, as SASL transports frame them. A refusal is a
/// `PermissionDenied` error with the server's reason.
#[derive(Clone)]
pub struct SaslConnector<C, M> {
    pub(crate) inner: C,
    pub(crate) mechanism: M,
}

impl<C, M> SaslConnector<C, M> {
    /// SASL with `mechanism` ([`Plain`], or another) over the streams of `inner`.
    pub fn new(inner: C, mechanism: M) -> Self {
        SaslConnector { inner, mechanism }
    }
}

impl<C: fmt::Debug, M: ClientMechanism> fmt::Debug for SaslConnector<C, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SaslConnector")
            .field("inner", &self.inner)
            .field("mechanism", &self.mechanism.name())
            .finish()
    }
}

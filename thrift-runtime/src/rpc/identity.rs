//! Who the client of a connection is, as its authentication established.

/// Who the client of a connection is, as its authentication established: the identity its
/// credentials prove, and the identity it acts as.
///
/// The two differ for a proxy user (Hive's `hadoop.proxyuser`, a gateway acting for its end
/// users): the client authenticated as `hue` and asked to act as `alice` (SASL's
/// authorization identity), which the server allowed (`SaslServerConfig::authorize`, feature
/// `sasl`). Handlers read it with [`context::identity`](super::context::identity).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    authenticated: String,
    authorized: String,
}

impl Identity {
    /// A client that proved `authenticated` and acts as `authorized` (the same, for a client
    /// that acts as itself).
    pub fn new(authenticated: impl Into<String>, authorized: impl Into<String>) -> Self {
        Identity {
            authenticated: authenticated.into(),
            authorized: authorized.into(),
        }
    }

    /// The identity the client's credentials prove (PLAIN's user name, a Kerberos principal).
    pub fn authenticated(&self) -> &str {
        &self.authenticated
    }

    /// The identity the client acts as, whose permissions its calls have: its authorization
    /// identity where it asked for one and was allowed, else [`authenticated`](Self::authenticated).
    pub fn authorized(&self) -> &str {
        &self.authorized
    }

    /// Whether the client acts for another identity than its own.
    pub fn is_proxy(&self) -> bool {
        self.authenticated != self.authorized
    }
}

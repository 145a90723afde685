//! The negotiation: the client's side over a stream, and the server's side sans IO (bytes in,
//! bytes out), which the blocking and async streams drive.

use std::io::{self, Read, Write};
use std::sync::Arc;

use super::{
    BAD, COMPLETE, ClientMechanism, ERROR, Identity, MAX_NEGOTIATION_PAYLOAD, OK, START,
    SaslServerConfig, ServerMechanism, ServerStep,
};

fn message(status: u8, payload: &[u8], out: &mut Vec<u8>) {
    out.push(status);
    // Payloads written here are short (a mechanism's name, a response, a reason).
    out.extend_from_slice(&(payload.len().min(u32::MAX as usize) as u32).to_be_bytes());
    out.extend_from_slice(payload);
}

fn refused(status: u8, payload: &[u8]) -> io::Error {
    let why = String::from_utf8_lossy(payload);
    let what = if status == BAD { "refused" } else { "failed" };
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("SASL: the server {what}: {why}"),
    )
}

fn bad_status() -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        "SASL: not a negotiation message",
    )
}

/// A negotiation message's header: its status and payload length, checked.
fn header(head: [u8; 5]) -> io::Result<(u8, usize)> {
    let status = head[0];
    if !(START..=COMPLETE).contains(&status) {
        return Err(bad_status());
    }
    let len = u32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
    if len > MAX_NEGOTIATION_PAYLOAD {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "SASL: a negotiation message larger than 1 MiB",
        ));
    }
    Ok((status, len))
}

fn read_message<S: Read>(stream: &mut S) -> io::Result<(u8, Vec<u8>)> {
    let mut head = [0; 5];
    stream.read_exact(&mut head)?;
    let (status, len) = header(head)?;
    let mut payload = vec![0; len];
    stream.read_exact(&mut payload)?;
    Ok((status, payload))
}

/// The client's negotiation over `stream` with `mechanism`: `Ok` once the server has said
/// `COMPLETE`; the server's `BAD` or `ERROR` is a `PermissionDenied` error with its reason.
/// Afterwards, the stream carries framed messages (`Framing::Framed`).
pub fn handshake<S: Read + Write>(
    stream: &mut S,
    mechanism: &mut dyn ClientMechanism,
) -> io::Result<()> {
    let mut out = Vec::new();
    message(START, mechanism.name().as_bytes(), &mut out);
    message(OK, &mechanism.initial_response()?, &mut out);
    stream.write_all(&out)?;
    stream.flush()?;
    loop {
        let (status, payload) = read_message(stream)?;
        match status {
            COMPLETE => return Ok(()),
            OK => {
                out.clear();
                message(OK, &mechanism.respond(&payload)?, &mut out);
                stream.write_all(&out)?;
                stream.flush()?;
            }
            BAD | ERROR => return Err(refused(status, &payload)),
            _ => return Err(bad_status()),
        }
    }
}

/// [`handshake`] over an async stream.
#[cfg(feature = "async")]
pub async fn handshake_async<S>(
    stream: &mut S,
    mechanism: &mut dyn ClientMechanism,
) -> io::Result<()>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut out = Vec::new();
    message(START, mechanism.name().as_bytes(), &mut out);
    message(OK, &mechanism.initial_response()?, &mut out);
    stream.write_all(&out).await?;
    stream.flush().await?;
    loop {
        let mut head = [0; 5];
        stream.read_exact(&mut head).await?;
        let (status, len) = header(head)?;
        let mut payload = vec![0; len];
        stream.read_exact(&mut payload).await?;
        match status {
            COMPLETE => return Ok(()),
            OK => {
                out.clear();
                message(OK, &mechanism.respond(&payload)?, &mut out);
                stream.write_all(&out).await?;
                stream.flush().await?;
            }
            BAD | ERROR => return Err(refused(status, &payload)),
            _ => return Err(bad_status()),
        }
    }
}

enum State {
    /// Waiting for the client's `START`.
    Start,
    /// Waiting for the client's next response.
    Responding(Box<dyn ServerMechanism>),
    /// Authenticated and authorized as this identity.
    Done(Arc<Identity>),
    /// Refused; the connection is to close once `out` is sent.
    Failed,
}

/// The server's side of a negotiation, sans IO: [`feed`](Self::feed) it what the connection
/// received, send what [`output`](Self::output) holds.
pub(crate) struct ServerNegotiation {
    config: Arc<SaslServerConfig>,
    state: State,
    /// Received and not yet a whole message.
    input: Vec<u8>,
    /// To send.
    out: Vec<u8>,
}

impl ServerNegotiation {
    pub(crate) fn new(config: Arc<SaslServerConfig>) -> Self {
        ServerNegotiation {
            config,
            state: State::Start,
            input: Vec::new(),
            out: Vec::new(),
        }
    }

    /// Whether the client is authenticated.
    pub(crate) fn is_done(&self) -> bool {
        matches!(self.state, State::Done(_))
    }

    /// Whether the negotiation failed (what `out` holds says so to the client).
    pub(crate) fn has_failed(&self) -> bool {
        matches!(self.state, State::Failed)
    }

    /// The client's identity, once authenticated and authorized.
    pub(crate) fn identity(&self) -> Option<&Arc<Identity>> {
        match &self.state {
            State::Done(identity) => Some(identity),
            _ => None,
        }
    }

    /// What is to be sent to the client; the caller sends it and clears it.
    pub(crate) fn output(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }

    /// Bytes received after the negotiation's last message (the first frame, if the client
    /// sent it at once): application data, taken out.
    pub(crate) fn take_leftover(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.input)
    }

    /// Takes bytes the client sent; processes every whole message among them.
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        self.input.extend_from_slice(bytes);
        while !self.is_done() && !self.has_failed() {
            let Some(head) = self.input.first_chunk::<5>().copied() else {
                return;
            };
            let (status, len) = match header(head) {
                Ok(header) => header,
                Err(_) => return self.fail(ERROR, "not a SASL negotiation message"),
            };
            if self.input.len() < 5 + len {
                return;
            }
            let payload: Vec<u8> = self.input.drain(..5 + len).skip(5).collect();
            self.step(status, &payload);
        }
    }

    fn step(&mut self, status: u8, payload: &[u8]) {
        match (std::mem::replace(&mut self.state, State::Failed), status) {
            (State::Start, START) => match self.config.make(payload) {
                Some(mechanism) => self.state = State::Responding(mechanism),
                None => self.fail(BAD, "unsupported mechanism"),
            },
            (State::Responding(mut mechanism), OK | COMPLETE) => match mechanism.step(payload) {
                ServerStep::Challenge(challenge) => {
                    message(OK, &challenge, &mut self.out);
                    self.state = State::Responding(mechanism);
                }
                ServerStep::Complete {
                    authenticated,
                    authzid,
                } => match self.config.authorized(authenticated, authzid) {
                    Some(identity) => {
                        message(COMPLETE, &[], &mut self.out);
                        self.state = State::Done(Arc::new(identity));
                    }
                    // The same reason whatever the identities (which the client knows).
                    None => self.fail(BAD, "not authorized to act as the requested identity"),
                },
                ServerStep::Reject(reason) => self.fail(BAD, &reason),
            },
            // The client gave up.
            (_, BAD | ERROR) => self.state = State::Failed,
            _ => self.fail(ERROR, "unexpected negotiation message"),
        }
    }

    fn fail(&mut self, status: u8, reason: &str) {
        message(status, reason.as_bytes(), &mut self.out);
        self.state = State::Failed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::sasl::Plain;

    fn config() -> Arc<SaslServerConfig> {
        Arc::new(SaslServerConfig::new().plain(|c| c.user == "hive" && c.password == "secret"))
    }

    fn client_bytes(mechanism: &mut dyn ClientMechanism) -> Vec<u8> {
        let mut out = Vec::new();
        message(START, mechanism.name().as_bytes(), &mut out);
        message(OK, &mechanism.initial_response().unwrap(), &mut out);
        out
    }

    #[test]
    fn plain_is_accepted_byte_by_byte_and_the_first_frame_kept() {
        let mut bytes = client_bytes(&mut Plain::new("hive", "secret"));
        bytes.extend_from_slice(&[0, 0, 0, 1, 7]);
        let mut n = ServerNegotiation::new(config());
        for b in &bytes {
            n.feed(std::slice::from_ref(b));
        }
        assert!(n.is_done());
        assert_eq!(
            n.identity().map(|i| &**i),
            Some(&Identity::new("hive", "hive"))
        );
        assert_eq!(n.output(), &[COMPLETE, 0, 0, 0, 0]);
        assert_eq!(n.take_leftover(), [0, 0, 0, 1, 7]);
    }

    #[test]
    fn wrong_credentials_unknown_mechanisms_and_garbage_are_refused() {
        for bytes in [
            client_bytes(&mut Plain::new("hive", "wrong")),
            client_bytes(&mut Plain::new("nobody", "secret")),
            client_bytes(&mut Plain::new("", "")),
            {
                let mut out = Vec::new();
                message(START, b"GSSAPI", &mut out);
                out
            },
            b"\x80\x01\x00\x01rest".to_vec(),
            vec![START, 0xff, 0xff, 0xff, 0xff],
        ] {
            let mut n = ServerNegotiation::new(config());
            n.feed(&bytes);
            assert!(n.has_failed(), "{bytes:?}");
            let out = n.output().clone();
            assert!(matches!(out[0], BAD | ERROR), "{out:?}");
            // Nothing but the reason is said.
            let reason = String::from_utf8_lossy(&out[5..]).into_owned();
            assert!(!reason.contains("secret"), "{reason}");
        }
    }

    /// Negotiates `mechanism` against `config` in one feed: the identity, or the refusal's
    /// status and reason.
    fn negotiate(
        config: SaslServerConfig,
        mechanism: &mut dyn ClientMechanism,
    ) -> std::result::Result<Identity, (u8, String)> {
        let mut n = ServerNegotiation::new(Arc::new(config));
        n.feed(&client_bytes(mechanism));
        match n.identity() {
            Some(identity) => Ok((**identity).clone()),
            None => {
                assert!(n.has_failed());
                let out = n.output();
                Err((out[0], String::from_utf8_lossy(&out[5..]).into_owned()))
            }
        }
    }

    fn users() -> SaslServerConfig {
        SaslServerConfig::new().plain(|c| {
            c.password == "secret" && ["thrift", "hue", "alice", "hive"].contains(&c.user)
        })
    }

    #[test]
    fn an_authzid_other_than_the_user_is_refused_by_default() {
        // RFC 4616 section 2: authenticating as `thrift` does not make the client `root`.
        let refused = negotiate(users(), &mut Plain::new("thrift", "secret").authzid("root"));
        assert_eq!(
            refused,
            Err((
                BAD,
                "not authorized to act as the requested identity".into()
            ))
        );
        // Its own name, or none, needs no permission.
        for authzid in ["", "thrift"] {
            let own = negotiate(
                users(),
                &mut Plain::new("thrift", "secret").authzid(authzid),
            );
            assert_eq!(own, Ok(Identity::new("thrift", "thrift")), "{authzid:?}");
            assert!(!own.unwrap().is_proxy());
        }
    }

    #[test]
    fn proxy_users_are_allowed_by_the_authorizer_only() {
        let config = || users().authorize(|user, authzid| user == "hue" && authzid != "hive");
        let proxied = negotiate(config(), &mut Plain::new("hue", "secret").authzid("alice"));
        let proxied = proxied.unwrap();
        assert_eq!(
            (proxied.authenticated(), proxied.authorized()),
            ("hue", "alice")
        );
        assert!(proxied.is_proxy());
        for (user, authzid) in [("hue", "hive"), ("alice", "hue"), ("thrift", "alice")] {
            let refused = negotiate(config(), &mut Plain::new(user, "secret").authzid(authzid));
            assert!(
                matches!(refused, Err((BAD, _))),
                "{user} as {authzid}: {refused:?}"
            );
        }
        // The authorizer is asked only after the credentials are good.
        let wrong = negotiate(config(), &mut Plain::new("hue", "wrong").authzid("alice"));
        assert_eq!(wrong, Err((BAD, "authentication failed".into())));
    }

    #[test]
    fn every_mechanism_is_authorized_the_same_way() {
        struct Trusting;
        impl ServerMechanism for Trusting {
            fn step(&mut self, response: &[u8]) -> ServerStep {
                ServerStep::Complete {
                    authenticated: "svc".into(),
                    authzid: String::from_utf8_lossy(response).into_owned(),
                }
            }
        }
        struct Asking(&'static str);
        impl ClientMechanism for Asking {
            fn name(&self) -> &str {
                "X-TRUST"
            }
            fn initial_response(&mut self) -> io::Result<Vec<u8>> {
                Ok(self.0.as_bytes().to_vec())
            }
            fn respond(&mut self, _: &[u8]) -> io::Result<Vec<u8>> {
                unreachable!()
            }
        }
        let config = || SaslServerConfig::new().mechanism("X-TRUST", || Box::new(Trusting));
        assert!(matches!(
            negotiate(config(), &mut Asking("root")),
            Err((BAD, _))
        ));
        assert_eq!(
            negotiate(config().authorize(|_, _| true), &mut Asking("root")),
            Ok(Identity::new("svc", "root"))
        );
    }
}

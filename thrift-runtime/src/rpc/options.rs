//! Client and server settings shared by the blocking and async transports.

use std::time::Duration;

use super::frame::{FrameLimits, Framing, Transport};
use super::message::ProtocolKind;

/// How a client talks to a server. The defaults are Apache's: binary protocol, buffered
/// transport.
#[derive(Clone, Debug, Default)]
pub struct ClientOptions {
    /// The protocol.
    pub protocol: ProtocolKind,
    /// The transport.
    pub transport: Transport,
    /// THeader only: compress calls with the zlib transform.
    pub zlib: bool,
    /// THeader only: info headers sent with every call.
    pub headers: Vec<(String, String)>,
    /// `TMultiplexedProtocol`: the service name prefixed to every method (`service:method`).
    pub service: Option<String>,
    /// Frame and message limits applied to replies.
    pub limits: FrameLimits,
    /// Read and write timeout of a call (none by default).
    pub timeout: Option<Duration>,
}

impl ClientOptions {
    /// The options for `protocol` over `transport`.
    pub fn new(protocol: ProtocolKind, transport: Transport) -> Self {
        ClientOptions {
            protocol,
            transport,
            ..ClientOptions::default()
        }
    }

    pub(crate) fn framing(&self) -> Framing {
        Framing {
            transport: self.transport,
            protocol: self.protocol,
            zlib: self.zlib && self.transport.is_header(),
        }
    }
}

/// The name written in a call's header: `service:method` when multiplexed.
pub(crate) fn call_name<'a>(
    service: Option<&str>,
    method: &'a str,
    buf: &'a mut String,
) -> &'a str {
    match service {
        Some(service) => {
            buf.clear();
            buf.push_str(service);
            buf.push(':');
            buf.push_str(method);
            buf
        }
        None => method,
    }
}

/// An address as the user wrote it: `"host:9090"` without its quotes, `("host", 9090)`,
/// `127.0.0.1:9090`.
pub(crate) fn address_text(addr: &impl std::fmt::Debug) -> String {
    let text = format!("{addr:?}");
    match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(inner) => inner.to_owned(),
        None => text,
    }
}

/// Settings of a server (blocking or async).
#[derive(Clone, Debug)]
pub struct ServerOptions {
    /// Blocking server: connections served at once, each by its own worker thread; more
    /// wait in the accept queue. Default 64. (The async server serves every connection.)
    pub workers: usize,
    /// A connection with no new message for this long is closed. Default 60 s.
    pub idle_timeout: Option<Duration>,
    /// A message must arrive whole within this time of its first byte (slow clients are
    /// closed). Default 30 s.
    pub read_timeout: Option<Duration>,
    /// Writing a reply may take this long in all (not per write: a client reading slowly is
    /// cut off). Default 30 s.
    pub write_timeout: Option<Duration>,
    /// Frame and message limits.
    pub limits: FrameLimits,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            workers: 64,
            idle_timeout: Some(Duration::from_secs(60)),
            read_timeout: Some(Duration::from_secs(30)),
            write_timeout: Some(Duration::from_secs(30)),
            limits: FrameLimits::default(),
        }
    }
}

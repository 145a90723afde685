//! Client and server settings shared by the blocking and async transports.

use std::time::Duration;

use super::frame::{Framing, WireFormat};
use super::message::ProtocolKind;
use crate::limits::FrameLimits;

/// How a client talks to a server. The defaults are Apache's: binary protocol, buffered
/// (unframed) messages.
#[derive(Clone, Debug, Default)]
pub struct ClientOptions {
    /// The protocol.
    pub protocol: ProtocolKind,
    /// How messages are delimited on a stream (the clients of HTTP and UDP, which delimit
    /// messages their own way, do not look at it).
    pub framing: Framing,
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
    /// The options for `protocol`, unframed (buffered) on a stream: a client over TCP, TLS,
    /// SASL or a Unix socket chooses its framing with [`with_framing`](Self::with_framing).
    pub fn new(protocol: ProtocolKind) -> Self {
        ClientOptions {
            protocol,
            ..ClientOptions::default()
        }
    }

    /// These options with messages delimited by `framing` on a stream.
    pub fn with_framing(mut self, framing: Framing) -> Self {
        self.framing = framing;
        self
    }

    pub(crate) fn wire_format(&self) -> WireFormat {
        WireFormat {
            framing: self.framing,
            protocol: self.protocol,
            zlib: self.zlib && self.framing.is_header(),
        }
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
    /// Latency mode: after each reply, a connection polls for its next call for up to this
    /// long before it sleeps (in the kernel for the blocking servers, in the runtime's reactor
    /// for the async one). Off (`None`) by default; 50 µs is a good start.
    ///
    /// A thread that sleeps between calls is woken by the kernel when the next one arrives,
    /// and waking a thread whose core went idle costs tens of microseconds, more on virtual
    /// machines: on one of the 2-core VMs of this project's benchmark, most of a
    /// one-connection round trip of 85 µs. Polling served back-to-back calls on one connection
    /// about 3x as fast there, and 1.1x to 1.4x as fast on a host with 15 µs round trips
    /// (`BENCHMARKS.md`, "RPC"). The price is CPU: a connection keeps its core busy for
    /// up to the window after every reply. Between tries the servers yield the core to threads
    /// with work (and the async server yields to the runtime's other tasks), so other
    /// connections still run, but with many connections per core the blocking servers lose
    /// throughput to it (the async one little). It suits a few busy connections per core,
    /// called back to back: a client's request loop, a proxy's hop.
    ///
    /// The blocking servers switch the socket to non-blocking for the poll (two `fcntl` calls
    /// per call); a stream that cannot be switched is read as usual. Used by the Thrift servers
    /// (blocking and async, over TCP, Unix sockets, TLS and SASL, tower's too) and the blocking
    /// HTTP server; the async HTTP server (hyper) reads on its own and ignores it.
    pub busy_poll: Option<Duration>,
}

impl Default for ServerOptions {
    fn default() -> Self {
        ServerOptions {
            workers: 64,
            idle_timeout: Some(Duration::from_secs(60)),
            read_timeout: Some(Duration::from_secs(30)),
            write_timeout: Some(Duration::from_secs(30)),
            limits: FrameLimits::default(),
            busy_poll: None,
        }
    }
}

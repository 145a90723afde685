//! SASL for the blocking transports: the server's [`SaslListener`] and [`SaslStream`], and
//! [`Connection::connect_sasl`].

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use super::listener::{Listener, Stream};
use super::{Connect, Connection};
use crate::error::Result;
use crate::rpc::frame::Framing;
use crate::rpc::options::ClientOptions;
use crate::rpc::sasl::{
    ClientMechanism, Identity, SaslConnector, SaslServerConfig, ServerNegotiation, handshake,
};

/// A connection accepted by a [`SaslListener`]: its first reads run the server's side of the
/// negotiation (answering the client as they go; a read that times out leaves it where it
/// was), then reads and writes are the framed messages that follow. A failed negotiation is a
/// `PermissionDenied` error, after the client was told `BAD`.
pub struct SaslStream<S> {
    io: S,
    negotiation: Option<Box<ServerNegotiation>>,
    /// Application bytes that came with the negotiation's last message.
    leftover: Vec<u8>,
    at: usize,
    identity: Option<Arc<Identity>>,
}

impl<S> std::fmt::Debug for SaslStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SaslStream")
            .field("negotiating", &self.negotiation.is_some())
            .field("identity", &self.identity)
            .finish_non_exhaustive()
    }
}

impl<S: Read + Write> SaslStream<S> {
    /// The server's side of a negotiation with `config`'s mechanisms over `io`.
    pub fn new(io: S, config: Arc<SaslServerConfig>) -> Self {
        SaslStream {
            io,
            negotiation: Some(Box::new(ServerNegotiation::new(config))),
            leftover: Vec::new(),
            at: 0,
            identity: None,
        }
    }

    /// Who the client is (the identity it authenticated as, and the one it acts as), once
    /// it has authenticated and was authorized.
    pub fn identity(&self) -> Option<&Identity> {
        self.identity.as_deref()
    }

    /// The stream below.
    pub fn get_ref(&self) -> &S {
        &self.io
    }
}

impl<S: Read + Write> Read for SaslStream<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(negotiation) = &mut self.negotiation {
            let out = negotiation.output();
            if !out.is_empty() {
                self.io.write_all(out)?;
                self.io.flush()?;
                out.clear();
            }
            if negotiation.has_failed() {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    "SASL: the client was refused",
                ));
            }
            if negotiation.is_done() {
                self.identity = negotiation.identity().cloned();
                self.leftover = negotiation.take_leftover();
                self.negotiation = None;
                break;
            }
            let mut chunk = [0u8; 4096];
            let n = self.io.read(&mut chunk)?;
            if n == 0 {
                // Gone before authenticating: the end, as between messages.
                return Ok(0);
            }
            negotiation.feed(&chunk[..n]);
        }
        if self.at < self.leftover.len() {
            let n = buf.len().min(self.leftover.len() - self.at);
            buf[..n].copy_from_slice(&self.leftover[self.at..self.at + n]);
            self.at += n;
            return Ok(n);
        }
        self.io.read(buf)
    }
}

impl<S: Read + Write> Write for SaslStream<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.negotiation.is_some() {
            return Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "SASL: not authenticated yet",
            ));
        }
        self.io.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.io.flush()
    }
}

impl<S: Stream> Stream for SaslStream<S> {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        self.io.set_read_timeout(timeout)
    }

    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        self.io.set_write_timeout(timeout)
    }

    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        self.io.set_nonblocking(nonblocking)
    }

    fn client_identity(&self) -> Option<Arc<Identity>> {
        self.identity.clone()
    }
}

/// A listener whose clients must authenticate with one of `config`'s SASL mechanisms before
/// their calls are served (framed, as SASL transports frame them), for the blocking
/// [`Server`](crate::rpc::blocking::Server); around a `TcpListener`, a `TlsListener` (SASL
/// over TLS), or any listener.
///
/// ```no_run
/// use std::net::TcpListener;
/// use std::sync::Arc;
/// use thrift_runtime::rpc::blocking::{SaslListener, Server};
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::sasl::SaslServerConfig;
/// use thrift_runtime::rpc::MultiplexedProcessor;
///
/// let config = SaslServerConfig::new().plain(|c| c.user == "hive" && c.password == "s3cret");
/// let listener = SaslListener::new(TcpListener::bind("0.0.0.0:9083")?, Arc::new(config));
/// Server::new(ServerOptions::default()).serve(listener, MultiplexedProcessor::new())?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct SaslListener<L = TcpListener> {
    inner: L,
    config: Arc<SaslServerConfig>,
}

impl<L: Listener> SaslListener<L> {
    /// SASL with `config`'s mechanisms on the connections of `inner`.
    pub fn new(inner: L, config: Arc<SaslServerConfig>) -> Self {
        SaslListener { inner, config }
    }
}

impl<L: Listener> Listener for SaslListener<L> {
    type Stream = SaslStream<L::Stream>;
    type Addr = L::Addr;

    /// Accepts a connection; its negotiation is run by the worker serving it.
    fn accept(&self) -> io::Result<Self::Stream> {
        let io = self.inner.accept()?;
        Ok(SaslStream::new(io, Arc::clone(&self.config)))
    }

    fn local_addr(&self) -> io::Result<L::Addr> {
        self.inner.local_addr()
    }

    fn wake(addr: &L::Addr) {
        L::wake(addr)
    }
}

impl Connection<TcpStream> {
    /// Connects over TCP and authenticates with `mechanism`
    /// ([`Plain`](crate::rpc::sasl::Plain), or another); calls are then framed, as SASL
    /// transports frame them (`options.framing` is set to `Framing::Framed`). A refusal
    /// is a `PermissionDenied` error with the server's reason.
    ///
    /// ```no_run
    /// use thrift_runtime::rpc::blocking::Connection;
    /// use thrift_runtime::rpc::ClientOptions;
    /// use thrift_runtime::rpc::sasl::Plain;
    /// use thrift_runtime::rpc::{ProtocolKind, Framing};
    ///
    /// let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
    /// let connection = Connection::connect_sasl("metastore:9083", Plain::new("hive", "s3cret"), options)?;
    /// // let mut client = hive_metastore::ThriftHiveMetastoreClient::new(connection);
    /// # Ok::<(), thrift_runtime::Error>(())
    /// ```
    pub fn connect_sasl(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        mechanism: impl ClientMechanism,
        options: ClientOptions,
    ) -> Result<Self> {
        let stream = Connection::connect(addr, options.clone())?.into_inner();
        Connection::new_sasl(stream, mechanism, options)
    }
}

impl<S: Read + Write> Connection<S> {
    /// Authenticates with `mechanism` over an established stream (a Unix domain socket, a
    /// TLS session, a stream of yours), then makes a connection of it; calls are framed, as
    /// SASL transports frame them (`options.framing` is set to `Framing::Framed`). A
    /// refusal is a `PermissionDenied` error with the server's reason. The stream's own
    /// timeouts bound the negotiation.
    pub fn new_sasl(
        mut stream: S,
        mut mechanism: impl ClientMechanism,
        mut options: ClientOptions,
    ) -> Result<Self> {
        options.framing = Framing::Framed;
        handshake(&mut stream, &mut mechanism)?;
        Ok(Connection::new(stream, options))
    }
}

/// Each connection negotiates with a fresh clone of the mechanism in `connect`.
impl<C, M> Connect for SaslConnector<C, M>
where
    C: Connect,
    M: ClientMechanism + Clone + Sync + 'static,
{
    type Stream = C::Stream;

    fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<C::Stream> {
        let mut stream = self.inner.connect(endpoint, timeout)?;
        handshake(&mut stream, &mut self.mechanism.clone())?;
        Ok(stream)
    }

    fn framing(&self) -> Option<Framing> {
        Some(Framing::Framed)
    }
}

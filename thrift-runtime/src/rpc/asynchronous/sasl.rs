//! SASL for the async transports: the server's [`SaslListener`] and [`SaslStream`], and
//! [`Connection::connect_sasl`].

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use ::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use ::tokio::net::{TcpListener, TcpStream, ToSocketAddrs};

use super::io::within;
use super::listener::Listener;
use super::{Connect, Connection};
use crate::error::Result;
use crate::rpc::frame::Framing;
use crate::rpc::options::ClientOptions;
use crate::rpc::sasl::{
    ClientMechanism, Identity, SaslConnector, SaslServerConfig, ServerNegotiation, handshake_async,
};

/// A connection accepted by a [`SaslListener`]: its first reads run the server's side of the
/// negotiation, then reads and writes are the framed messages that follow.
pub struct SaslStream<S> {
    io: S,
    negotiation: Option<Box<ServerNegotiation>>,
    /// How much of the negotiation's output has been written.
    sent: usize,
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

impl<S> SaslStream<S> {
    /// The server's side of a negotiation with `config`'s mechanisms over `io`.
    pub fn new(io: S, config: Arc<SaslServerConfig>) -> Self {
        SaslStream {
            io,
            negotiation: Some(Box::new(ServerNegotiation::new(config))),
            sent: 0,
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
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for SaslStream<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        while let Some(negotiation) = &mut this.negotiation {
            let out = negotiation.output();
            while this.sent < out.len() {
                let n = ready!(Pin::new(&mut this.io).poll_write(cx, &out[this.sent..]))?;
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                this.sent += n;
            }
            if !out.is_empty() {
                ready!(Pin::new(&mut this.io).poll_flush(cx))?;
                out.clear();
                this.sent = 0;
            }
            if negotiation.has_failed() {
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    "SASL: the client was refused",
                )));
            }
            if negotiation.is_done() {
                this.identity = negotiation.identity().cloned();
                this.leftover = negotiation.take_leftover();
                this.negotiation = None;
                break;
            }
            let mut chunk = [0u8; 4096];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.io).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // Gone before authenticating: the end, as between messages.
                return Poll::Ready(Ok(()));
            }
            negotiation.feed(read.filled());
        }
        if this.at < this.leftover.len() {
            let n = buf.remaining().min(this.leftover.len() - this.at);
            buf.put_slice(&this.leftover[this.at..this.at + n]);
            this.at += n;
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.io).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for SaslStream<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.negotiation.is_some() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "SASL: not authenticated yet",
            )));
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

/// A listener whose clients must authenticate with one of `config`'s SASL mechanisms before
/// their calls are served, for the async [`Server`](crate::rpc::asynchronous::Server); around a tokio
/// `TcpListener`, a `TlsListener`, or any listener.
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
    type Io = SaslStream<L::Io>;
    type Addr = L::Addr;

    /// Accepts a connection; its negotiation runs in its first read, on its own task.
    async fn accept(&mut self) -> io::Result<(Self::Io, Self::Addr)> {
        let (io, addr) = self.inner.accept().await?;
        Ok((SaslStream::new(io, Arc::clone(&self.config)), addr))
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }

    fn client_identity(io: &Self::Io) -> Option<Arc<Identity>> {
        io.identity.clone()
    }
}

impl Connection {
    /// Connects over TCP and authenticates with `mechanism`, within the options' timeout;
    /// calls are then framed, as SASL transports frame them (`options.framing` is set to
    /// `Framing::Framed`). A refusal is a `PermissionDenied` error with the server's reason.
    pub async fn connect_sasl(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        mechanism: impl ClientMechanism,
        options: ClientOptions,
    ) -> Result<Self> {
        let connect = async {
            let stream = TcpStream::connect(addr).await?;
            stream.set_nodelay(true)?;
            Ok::<_, io::Error>(stream)
        };
        let stream = within(options.timeout, connect).await?;
        Connection::new_sasl(stream, mechanism, options).await
    }

    /// Authenticates with `mechanism` over an established stream (a Unix domain socket, a
    /// TLS session, a stream of yours) within the options' timeout, then makes a connection
    /// of it; calls are framed, as SASL transports frame them (`options.framing` is set to
    /// `Framing::Framed`). A refusal is a `PermissionDenied` error with the server's reason.
    pub async fn new_sasl<S>(
        mut stream: S,
        mut mechanism: impl ClientMechanism,
        mut options: ClientOptions,
    ) -> Result<Self>
    where
        S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    {
        options.framing = Framing::Framed;
        within(
            options.timeout,
            handshake_async(&mut stream, &mut mechanism),
        )
        .await?;
        Ok(Connection::new(stream, options))
    }
}

/// Each connection negotiates with a fresh clone of the mechanism in `connect`, within the
/// timeout with the inner connector's set-up.
impl<C, M> Connect for SaslConnector<C, M>
where
    C: Connect,
    M: ClientMechanism + Clone + Sync + 'static,
{
    type Stream = C::Stream;

    async fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<C::Stream> {
        let negotiated = async {
            let mut stream = self.inner.connect(endpoint, None).await?;
            handshake_async(&mut stream, &mut self.mechanism.clone()).await?;
            Ok(stream)
        };
        match timeout {
            Some(limit) => ::tokio::time::timeout(limit, negotiated)
                .await
                .unwrap_or_else(|_| Err(io::Error::from(io::ErrorKind::TimedOut).into())),
            None => negotiated.await,
        }
    }

    fn framing(&self) -> Option<Framing> {
        Some(Framing::Framed)
    }
}

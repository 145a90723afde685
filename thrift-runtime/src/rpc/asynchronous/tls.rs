//! TLS for the async transports (features `async` and `tls`), on tokio-rustls: a
//! [`TlsListener`] around any [`Listener`], and [`Connection::connect_tls`].
//!
//! The server's handshake happens in the connection's first read, in the connection's own
//! task and within the server's idle timeout, never in the accept loop: a client that
//! connects and stalls delays nobody else's handshake.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

use ::tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use ::tokio::net::{TcpListener, TcpStream, ToSocketAddrs};
use rustls::{ClientConfig, ServerConfig};
use tokio_rustls::{Accept, TlsAcceptor};

use super::io::within;
use super::{Connect, Connection, Listener};
use crate::error::Result;
use crate::rpc::frame::Framing;
use crate::rpc::options::ClientOptions;
use crate::rpc::tls::{TlsConnector, server_name};

/// A listener whose connections are TLS sessions, for [`Server`](super::Server) (`serve` and,
/// with feature `tower`, `serve_service`): around a tokio [`TcpListener`] (or a
/// Unix domain socket's, or any [`Listener`]).
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use thrift_runtime::rpc::asynchronous::{Server, TlsListener};
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::{tls, AsyncMultiplexedProcessor};
///
/// let config = tls::server_config("server.pem", "server.key", None)?;
/// let listener = TlsListener::new(tokio::net::TcpListener::bind("0.0.0.0:9443").await?, config);
/// Server::new(ServerOptions::default())
///     .serve(listener, AsyncMultiplexedProcessor::new())
///     .await
/// # }
/// ```
pub struct TlsListener<L = TcpListener> {
    inner: L,
    acceptor: TlsAcceptor,
}

impl<L: std::fmt::Debug> std::fmt::Debug for TlsListener<L> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsListener")
            .field("inner", &self.inner)
            .finish_non_exhaustive()
    }
}

impl<L: Listener> TlsListener<L> {
    /// TLS with `config` on the connections of `inner`.
    pub fn new(inner: L, config: Arc<ServerConfig>) -> Self {
        TlsListener {
            inner,
            acceptor: TlsAcceptor::from(config),
        }
    }

    /// The listener below.
    pub fn get_ref(&self) -> &L {
        &self.inner
    }
}

impl<L: Listener> Listener for TlsListener<L> {
    type Io = TlsStream<L::Io>;
    type Addr = L::Addr;

    /// Accepts a connection; its handshake is made by its first read.
    async fn accept(&mut self) -> io::Result<(Self::Io, Self::Addr)> {
        let (io, addr) = self.inner.accept().await?;
        let state = State::Handshaking(Box::new(self.acceptor.accept(io)));
        Ok((TlsStream { state }, addr))
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.inner.local_addr()
    }
}

/// The server side of a TLS session accepted by a [`TlsListener`]: the handshake is made
/// by the first read or write, then reads and writes are plaintext.
pub struct TlsStream<S> {
    state: State<S>,
}

enum State<S> {
    Handshaking(Box<Accept<S>>),
    Ready(Box<tokio_rustls::server::TlsStream<S>>),
    Failed,
}

impl<S> std::fmt::Debug for TlsStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.state {
            State::Handshaking(_) => "handshaking",
            State::Ready(_) => "ready",
            State::Failed => "failed",
        };
        f.debug_struct("TlsStream").field("state", &state).finish()
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> TlsStream<S> {
    /// The session once its handshake is complete (the client's certificates, the protocol
    /// version, ALPN...).
    pub fn session(&self) -> Option<&rustls::ServerConnection> {
        match &self.state {
            State::Ready(stream) => Some(stream.get_ref().1),
            _ => None,
        }
    }

    /// Drives the handshake; ready with the session once it is complete.
    fn poll_session(
        &mut self,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<&mut tokio_rustls::server::TlsStream<S>>> {
        if let State::Handshaking(accept) = &mut self.state {
            match ready!(Pin::new(accept.as_mut()).poll(cx)) {
                Ok(stream) => self.state = State::Ready(Box::new(stream)),
                Err(e) => {
                    self.state = State::Failed;
                    return Poll::Ready(Err(e));
                }
            }
        }
        Poll::Ready(match &mut self.state {
            State::Ready(stream) => Ok(stream),
            _ => Err(io::Error::new(
                io::ErrorKind::NotConnected,
                "the TLS handshake failed",
            )),
        })
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for TlsStream<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let stream = ready!(self.get_mut().poll_session(cx))?;
        Pin::new(stream).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for TlsStream<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let stream = ready!(self.get_mut().poll_session(cx))?;
        Pin::new(stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let stream = ready!(self.get_mut().poll_session(cx))?;
        Pin::new(stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match &mut self.get_mut().state {
            State::Ready(stream) => Pin::new(stream.as_mut()).poll_shutdown(cx),
            // Nothing was said: nothing to close but the socket, which dropping closes.
            _ => Poll::Ready(Ok(())),
        }
    }
}

impl Connection {
    /// Connects over TCP and makes a TLS handshake with `config`, checking the server's
    /// certificate against `server_name` (a DNS name or an IP address); the options'
    /// timeout bounds the connect and the handshake together. Needs a tokio runtime with IO
    /// and timers.
    ///
    /// ```no_run
    /// # async fn run() -> thrift_runtime::Result<()> {
    /// use thrift_runtime::rpc::asynchronous::Connection;
    /// use thrift_runtime::rpc::ClientOptions;
    /// use thrift_runtime::rpc::{tls, ProtocolKind, Framing};
    ///
    /// let config = tls::client_config("ca.pem", None)?;
    /// let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
    /// let connection =
    ///     Connection::connect_tls("hive.example.com:9083", "hive.example.com", config, options)
    ///         .await?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_tls(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        server_name: &str,
        config: Arc<ClientConfig>,
        options: ClientOptions,
    ) -> Result<Self> {
        let stream = connect_stream(addr, server_name, config, options.timeout).await?;
        Ok(Connection::new(stream, options))
    }
}

/// The handshake is made in `connect`, within the timeout with the inner connector's set-up.
impl<C: Connect> Connect for TlsConnector<C> {
    type Stream = tokio_rustls::client::TlsStream<C::Stream>;

    async fn connect(
        &self,
        endpoint: &str,
        timeout: Option<std::time::Duration>,
    ) -> Result<Self::Stream> {
        let name = server_name(self.name_for(endpoint))?;
        let tls = tokio_rustls::TlsConnector::from(Arc::clone(&self.config));
        let handshake = async {
            let stream = self.inner.connect(endpoint, None).await?;
            tls.connect(name, stream)
                .await
                .map_err(|e| crate::Error::from(io::Error::new(e.kind(), format!("TLS: {e}"))))
        };
        match timeout {
            Some(limit) => ::tokio::time::timeout(limit, handshake)
                .await
                .unwrap_or_else(|_| Err(io::Error::from(io::ErrorKind::TimedOut).into())),
            None => handshake.await,
        }
    }

    fn framing(&self) -> Option<Framing> {
        self.inner.framing()
    }
}

/// Connects over TCP and makes a TLS handshake, both within `timeout`.
pub(crate) async fn connect_stream(
    addr: impl ToSocketAddrs + std::fmt::Debug,
    server_name: &str,
    config: Arc<ClientConfig>,
    timeout: Option<std::time::Duration>,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let name = self::server_name(server_name)?;
    let connector = tokio_rustls::TlsConnector::from(config);
    Ok(within(timeout, async {
        let stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        connector
            .connect(name, stream)
            .await
            .map_err(|e| io::Error::new(e.kind(), format!("TLS: {e}")))
    })
    .await?)
}

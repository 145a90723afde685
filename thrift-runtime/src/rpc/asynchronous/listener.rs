//! What the async server accepts connections from: TCP and (on Unix) Unix domain sockets
//! here; another transport is one more implementation.

use std::fmt::Debug;
use std::future::Future;
use std::io;
use std::sync::Arc;

use ::tokio::io::{AsyncRead, AsyncWrite};
use ::tokio::net::{TcpListener, TcpStream};

use crate::rpc::Identity;

/// Where an async server accepts connections: a tokio [`TcpListener`], a tokio
/// [`UnixListener`](::tokio::net::UnixListener), or a user's own (a listener that wraps
/// another, say).
pub trait Listener: Send + 'static {
    /// The streams accepted.
    type Io: AsyncRead + AsyncWrite + Unpin + Send + 'static;
    /// The address of a listener or a peer.
    type Addr: Clone + Debug + Send + Sync + 'static;
    /// Waits for the next connection. A connection's own set-up that can take long (a
    /// handshake) belongs in the stream's first reads, not here: accepting waits for it.
    fn accept(&mut self) -> impl Future<Output = io::Result<(Self::Io, Self::Addr)>> + Send;
    /// The address the listener is bound to.
    fn local_addr(&self) -> io::Result<Self::Addr>;
    /// Who the client of `io` is, where the stream authenticated it (a
    /// [`SaslListener`](super::SaslListener)'s streams, once negotiated); the server attaches
    /// it to every call, for handlers ([`context::identity`](crate::rpc::context::identity)).
    /// By default nobody.
    fn client_identity(io: &Self::Io) -> Option<Arc<Identity>> {
        let _ = io;
        None
    }
}

impl Listener for TcpListener {
    type Io = TcpStream;
    type Addr = std::net::SocketAddr;

    /// Accepts with `TCP_NODELAY` on (a reply goes out as soon as it is written).
    async fn accept(&mut self) -> io::Result<(TcpStream, std::net::SocketAddr)> {
        let (stream, addr) = TcpListener::accept(self).await?;
        stream.set_nodelay(true)?;
        Ok((stream, addr))
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        TcpListener::local_addr(self)
    }
}

#[cfg(unix)]
impl Listener for ::tokio::net::UnixListener {
    type Io = ::tokio::net::UnixStream;
    type Addr = ::tokio::net::unix::SocketAddr;

    async fn accept(
        &mut self,
    ) -> io::Result<(::tokio::net::UnixStream, ::tokio::net::unix::SocketAddr)> {
        ::tokio::net::UnixListener::accept(self).await
    }

    fn local_addr(&self) -> io::Result<::tokio::net::unix::SocketAddr> {
        ::tokio::net::UnixListener::local_addr(self)
    }
}

//! What the blocking server accepts connections from, and the streams it serves: TCP and (on
//! Unix) Unix domain sockets here; another transport is one more pair of implementations.

use std::fmt::Debug;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use crate::rpc::Identity;

/// A connected byte stream the blocking server serves one call at a time, with read and write
/// timeouts (the server's idle, read and write timeouts are set through them).
pub trait Stream: Read + Write + Send + 'static {
    /// Sets the timeout of each following `read` (`None`: wait forever).
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()>;
    /// Sets the timeout of each following `write` (`None`: wait forever).
    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()>;
    /// Puts the stream in or out of non-blocking mode, for a check that must not wait (whether
    /// an idle kept-alive connection is still open). By default unsupported: the caller then
    /// reads with a short timeout instead, which waits for the next timer tick of the kernel
    /// (1 to 10 ms).
    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        let _ = nonblocking;
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
    /// Who the client is, where the stream authenticated it (a
    /// [`SaslListener`](super::SaslListener)'s streams, once negotiated); the server attaches
    /// it to every call, for handlers ([`context::identity`](crate::rpc::context::identity)).
    /// By default nobody.
    fn client_identity(&self) -> Option<Arc<Identity>> {
        None
    }
}

/// Where a blocking server accepts connections: a [`TcpListener`], a
/// [`UnixListener`](std::os::unix::net::UnixListener).
pub trait Listener: Send + 'static {
    /// The streams accepted.
    type Stream: Stream;
    /// The address the listener is bound to.
    type Addr: Clone + Debug + Send + Sync + 'static;
    /// Waits for the next connection.
    fn accept(&self) -> io::Result<Self::Stream>;
    /// The address the listener is bound to.
    fn local_addr(&self) -> io::Result<Self::Addr>;
    /// Connects to `addr` and hangs up: wakes a thread blocked in [`Listener::accept`] on the
    /// listener bound there, when the server shuts down.
    fn wake(addr: &Self::Addr);
}

impl Stream for TcpStream {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_read_timeout(self, timeout)
    }

    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        TcpStream::set_write_timeout(self, timeout)
    }

    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        TcpStream::set_nonblocking(self, nonblocking)
    }
}

impl Listener for TcpListener {
    type Stream = TcpStream;
    type Addr = SocketAddr;

    /// Accepts with `TCP_NODELAY` on (a reply goes out as soon as it is written).
    fn accept(&self) -> io::Result<TcpStream> {
        let (stream, _) = TcpListener::accept(self)?;
        stream.set_nodelay(true)?;
        Ok(stream)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        TcpListener::local_addr(self)
    }

    fn wake(addr: &SocketAddr) {
        let _ = TcpStream::connect(addr);
    }
}

#[cfg(unix)]
mod unix {
    use std::io;
    use std::os::unix::net::{SocketAddr, UnixListener, UnixStream};
    use std::time::Duration;

    use super::{Listener, Stream};

    impl Stream for UnixStream {
        fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
            UnixStream::set_read_timeout(self, timeout)
        }

        fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
            UnixStream::set_write_timeout(self, timeout)
        }

        fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
            UnixStream::set_nonblocking(self, nonblocking)
        }
    }

    impl Listener for UnixListener {
        type Stream = UnixStream;
        type Addr = SocketAddr;

        fn accept(&self) -> io::Result<UnixStream> {
            UnixListener::accept(self).map(|(stream, _)| stream)
        }

        fn local_addr(&self) -> io::Result<SocketAddr> {
            UnixListener::local_addr(self)
        }

        fn wake(addr: &SocketAddr) {
            let _ = UnixStream::connect_addr(addr);
        }
    }
}

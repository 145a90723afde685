//! Where a blocking client's streams come from: what a [`Listener`](super::Listener) is to a
//! server, a [`Connect`] is to a client. TCP and Unix domain sockets here; TLS and SASL stack
//! on any connector ([`TlsConnector`](crate::rpc::tls::TlsConnector), [`SaslConnector`](crate::rpc::sasl::SaslConnector)),
//! and a connector of the user's (a test stream, a discovered endpoint's) is one more
//! implementation. [`Connection::connect_with`](super::Connection::connect_with) and
//! [`Pool::with_connector`](super::Pool::with_connector) take any of them.

use std::io;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use crate::error::{Error, Result};
use crate::rpc::connect::TcpConnector;
#[cfg(unix)]
use crate::rpc::connect::UnixConnector;
use crate::rpc::frame::Framing;

/// How a blocking client opens a stream to an endpoint. Connectors stack as listeners do:
/// `SaslConnector::new(TlsConnector::new(TcpConnector, config), mechanism)` is SASL inside
/// TLS over TCP.
pub trait Connect: Send + Sync + 'static {
    /// The streams opened.
    type Stream: Read + Write + Send + 'static;

    /// Opens a stream to `endpoint` (`host:port` for TCP, a path for a Unix domain socket),
    /// `timeout` bounding the connect and each later read and write (`None`: no bound). A
    /// failure to reach the endpoint is [`ErrorKind::Connect`](crate::ErrorKind::Connect),
    /// naming it.
    fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<Self::Stream>;

    /// The framing the stream requires of the messages it carries, where it requires one:
    /// SASL frames every message ([`Framing::Framed`]). `None` by default: the client
    /// options' framing.
    fn framing(&self) -> Option<Framing> {
        None
    }
}

/// The timeout bounds connecting to each address the name resolves to, and is the stream's
/// read and write timeout.
impl Connect for TcpConnector {
    type Stream = TcpStream;

    fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<TcpStream> {
        let stream = connect_tcp(&endpoint, timeout).map_err(|e| Error::connect(endpoint, e))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(timeout)?;
        stream.set_write_timeout(timeout)?;
        Ok(stream)
    }
}

/// The timeout is the stream's read and write timeout.
#[cfg(unix)]
impl Connect for UnixConnector {
    type Stream = std::os::unix::net::UnixStream;

    fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<Self::Stream> {
        let stream = std::os::unix::net::UnixStream::connect(endpoint)
            .map_err(|e| Error::connect(endpoint, e))?;
        stream.set_read_timeout(timeout)?;
        stream.set_write_timeout(timeout)?;
        Ok(stream)
    }
}

impl<C: Connect> Connect for std::sync::Arc<C> {
    type Stream = C::Stream;

    fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<Self::Stream> {
        (**self).connect(endpoint, timeout)
    }

    fn framing(&self) -> Option<Framing> {
        (**self).framing()
    }
}

/// Connects to the first address `addr` resolves to that answers, each within `timeout`;
/// the error is the last address's (the caller names what it was given).
pub(super) fn connect_tcp(
    addr: &impl ToSocketAddrs,
    timeout: Option<Duration>,
) -> io::Result<TcpStream> {
    let mut last = None;
    for resolved in addr.to_socket_addrs()? {
        let attempt = match timeout {
            Some(limit) => TcpStream::connect_timeout(&resolved, limit),
            None => TcpStream::connect(resolved),
        };
        match attempt {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the name resolves to no address",
        )
    }))
}

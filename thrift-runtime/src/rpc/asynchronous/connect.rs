//! Where an async client's streams come from: what a [`Listener`](super::Listener) is to a
//! server, a [`Connect`] is to a client. TCP and Unix domain sockets here; TLS and SASL stack
//! on any connector ([`TlsConnector`](crate::rpc::tls::TlsConnector), [`SaslConnector`](crate::rpc::sasl::SaslConnector)),
//! and a connector of the user's (a test stream, a discovered endpoint's) is one more
//! implementation. [`Connection::connect_with`](super::Connection::connect_with) and
//! [`Pool::with_connector`](super::Pool::with_connector) take any of them.

use std::future::Future;
use std::time::Duration;

use ::tokio::io::{AsyncRead, AsyncWrite};
use ::tokio::net::TcpStream;

use super::io::within;
use crate::error::{Error, Result};
use crate::rpc::connect::TcpConnector;
#[cfg(unix)]
use crate::rpc::connect::UnixConnector;
use crate::rpc::frame::Framing;

/// How an async client opens a stream to an endpoint. Connectors stack as listeners do:
/// `SaslConnector::new(TlsConnector::new(TcpConnector, config), mechanism)` is SASL inside
/// TLS over TCP.
pub trait Connect: Send + Sync + 'static {
    /// The streams opened.
    type Stream: AsyncRead + AsyncWrite + Unpin + Send + 'static;

    /// Opens a stream to `endpoint` (`host:port` for TCP, a path for a Unix domain socket)
    /// within `timeout` (`None`: no bound), the set-up of every layer included (a TLS
    /// handshake, a SASL negotiation). A failure to reach the endpoint is
    /// [`ErrorKind::Connect`](crate::ErrorKind::Connect), naming it.
    fn connect(
        &self,
        endpoint: &str,
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<Self::Stream>> + Send;

    /// The framing the stream requires of the messages it carries, where it requires one:
    /// SASL frames every message ([`Framing::Framed`]). `None` by default: the client
    /// options' framing.
    fn framing(&self) -> Option<Framing> {
        None
    }
}

/// Within the timeout.
impl Connect for TcpConnector {
    type Stream = TcpStream;

    async fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<TcpStream> {
        let stream = within(timeout, TcpStream::connect(endpoint))
            .await
            .map_err(|e| Error::connect(endpoint, e))?;
        stream.set_nodelay(true)?;
        Ok(stream)
    }
}

/// Within the timeout.
#[cfg(unix)]
impl Connect for UnixConnector {
    type Stream = ::tokio::net::UnixStream;

    async fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<Self::Stream> {
        within(timeout, ::tokio::net::UnixStream::connect(endpoint))
            .await
            .map_err(|e| Error::connect(endpoint, e))
    }
}

impl<C: Connect> Connect for std::sync::Arc<C> {
    type Stream = C::Stream;

    fn connect(
        &self,
        endpoint: &str,
        timeout: Option<Duration>,
    ) -> impl Future<Output = Result<Self::Stream>> + Send {
        (**self).connect(endpoint, timeout)
    }

    fn framing(&self) -> Option<Framing> {
        (**self).framing()
    }
}

//! Connectors, sans IO: what a client connects with, as values that both execution models
//! take. `blocking::Connect` and `asynchronous::Connect` open the streams; TLS and SASL
//! connectors ([`tls::TlsConnector`](super::tls::TlsConnector),
//! [`sasl::SaslConnector`](super::sasl::SaslConnector)) stack on these and on each other,
//! as listeners do on a server.

/// Connects over TCP to `host:port` endpoints, `TCP_NODELAY` on.
#[derive(Clone, Copy, Debug, Default)]
pub struct TcpConnector;

/// Connects to Unix domain sockets: the endpoint is the socket's path.
#[cfg(unix)]
#[derive(Clone, Copy, Debug, Default)]
pub struct UnixConnector;

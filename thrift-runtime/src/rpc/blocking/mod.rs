//! Blocking transports (feature `blocking`): a client connection over any `Read + Write`
//! (a [`TcpStream`](std::net::TcpStream), a Unix domain socket, ...) and a threaded server
//! with a bounded number of workers and idle, read and write timeouts, on any [`Listener`]
//! (TCP, Unix domain sockets).

mod client;
mod connect;
#[cfg(feature = "http")]
mod http_client;
#[cfg(feature = "http")]
mod http_incoming;
#[cfg(feature = "http")]
mod http_server;
mod io;
mod listener;
mod pool;
#[cfg(feature = "sasl")]
mod sasl;
mod server;
#[cfg(feature = "tls")]
mod tls;
#[cfg(feature = "udp")]
mod udp;

pub use self::client::Connection;
pub use self::connect::Connect;
#[cfg(feature = "http")]
pub use self::http_client::HttpClient;
#[cfg(feature = "http")]
pub use self::http_server::HttpServer;
pub use self::listener::{Listener, Stream};
pub use self::pool::{Pool, Pooled};
#[cfg(feature = "sasl")]
pub use self::sasl::{SaslListener, SaslStream};
pub use self::server::{Server, ServerHandle, respond};
#[cfg(feature = "tls")]
pub use self::tls::{TlsListener, TlsStream};
#[cfg(feature = "udp")]
pub use self::udp::{UdpClient, UdpServer};

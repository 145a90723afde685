//! Async transports on tokio (feature `async`): a client connection that many tasks call at
//! once, and a server of many connections.
//!
//! **Calls on one client connection are pipelined:** each call is written as soon as it is
//! made (by its caller when the connection is idle, else by the connection's writer task,
//! which writes all the calls queued meanwhile in one write), and replies are matched to calls by
//! sequence id, so concurrent callers never wait for each other's round trips, only for the
//! server (Apache's servers, and this crate's, answer one connection's calls in order). For
//! more parallelism than one server connection gives, open several and balance over them
//! (feature `tower`).

mod client;
#[cfg(test)]
mod client_tests;
mod connect;
#[cfg(feature = "http")]
mod http_client;
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
pub use self::http_server::{HttpServer, HttpService};
pub use self::listener::Listener;
pub use self::pool::Pool;
#[cfg(feature = "sasl")]
pub use self::sasl::{SaslListener, SaslStream};
#[cfg(feature = "tower")]
pub(crate) use self::server::accept_loop;
pub use self::server::{Server, ServerHandle};
#[cfg(feature = "tls")]
pub use self::tls::{TlsListener, TlsStream};
#[cfg(feature = "udp")]
pub use self::udp::{UdpClient, UdpServer};

//! RPC: what generated services use (processors, channels, messages, sans IO, always
//! available) and the transports that carry them (features `blocking`, `async`, `tower`):
//! [`blocking`], [`asynchronous`] (on tokio), [`layers`] (tower). The client and server
//! options ([`ClientOptions`], [`ServerOptions`]) are the same for both.
//!
//! # The shape
//!
//! For each IDL `service Foo`, `thrift-codegen` generates the args and result structs of its
//! methods (named and encoded as Apache's generators do, so the bytes on the wire are the
//! same), a blocking handler trait `Foo` and an async one `FooAsync`, a blocking client
//! `FooClient<C>` over any [`Channel`] and an async one `FooAsyncClient<C>` over any
//! [`AsyncChannel`], and processors (`FooProcessor<H>`, `FooAsyncProcessor<H>`) that
//! implement [`Processor`] / [`AsyncProcessor`] by dispatching on the method name.
//!
//! **Why nothing is generated twice.** All the per-method work that does not depend on
//! blocking or async (the args and result structs, their encoding, the mapping between a
//! result struct and `Result<T, FooError>`) is generated once; the blocking and async layers
//! add one short method per IDL function each (a call through the channel, or a `match` arm
//! handing the args to the handler), and everything else (message headers, sequence ids,
//! framing, exceptions, panics, multiplexing) lives in this crate, written once for both.
//! Two handler traits remain because a blocking user must not need an async runtime and an
//! async handler must not block a runtime thread.
//!
//! # Errors
//!
//! A method declared with `throws` returns `Result<T, FooMethodError>`: one variant per
//! declared exception, plus `Thrift(Error)` for everything else (a transport failure, a
//! received [`ApplicationException`](crate::ApplicationException), a handler's undeclared
//! error). A method without `throws` returns `Result<T, Error>`. On the server, a declared
//! exception is sent in the result struct; any other error becomes a
//! `TApplicationException` (`INTERNAL_ERROR` with the error's text, or the application
//! exception the handler returned); a panicking handler becomes `INTERNAL_ERROR` too, and the
//! connection goes on; an unknown method gets `UNKNOWN_METHOD`.

//!
//! # Names
//!
//! Blocking and async are told apart by module ([`blocking`], [`asynchronous`]), as std and
//! tokio do, and the names inside are the same. A stream carrier (TCP, Unix domain sockets,
//! TLS, SASL, stacked) has a `Listener` for the servers and a connector for the clients
//! ([`TcpConnector`], `tls::TlsConnector`, `sasl::SaslConnector`: values both execution
//! models' `Connect` takes, stacked as listeners are): [`blocking::Server`] and `Connection`
//! (one connection; a `Pool` holds several) take any.
//! A carrier that delimits messages its own way is a `{Carrier}Client` and a
//! `{Carrier}Server`: `HttpClient`/`HttpServer`, `UdpClient`/`UdpServer`. Every server is
//! built and run the same way: `new(ServerOptions)`, then `serve` (or `serve_with_shutdown`
//! for the async ones) or `spawn`, whose `ServerHandle` shuts it down gracefully. The stream
//! client is `Connection`, not `Client`, because a generated client is `FooClient<C>` over
//! it and `FooClient<Client>` would say less. [`Framing`] is how messages are delimited on a
//! stream; HTTP and UDP clients and servers take none.
//!
//! # Where things are (for maintainers)
//!
//! One axis: what every carrier shares, sans IO, at the bottom; each carrier's driver under
//! its execution model above it.
//!
//! - Sans IO: `message.rs` (messages; a protocol is a [`ProtocolKind`] variant and one arm of
//!   its `with_protocol!`), `service.rs` (processors, channels, the one place a call message
//!   is built from a request), `frame/` (detection, buffered, framed, THeader),
//!   `reading.rs` (when a message is whole, with a server's timeouts), `options.rs`,
//!   `pool.rs` (endpoints, failover, retries), `tls.rs` (configurations), `sasl/` (mechanisms
//!   and the negotiation), `http.rs` and `udp.rs` (the HTTP and UDP codecs).
//! - Drivers, the same files in `blocking/` and `asynchronous/`: `client.rs`, `server.rs`,
//!   `io.rs` (reads and writes within deadlines), `listener.rs` and `connect.rs` (TCP and
//!   Unix: where servers accept and clients connect), `tls.rs` and `sasl.rs` (a listener, a
//!   stream, and `Connect` for the connector types, which are sans IO in `connect.rs`,
//!   `tls.rs`, `sasl/`), `pool.rs`, `http_client.rs`, `http_server.rs`, `udp.rs`.
//!   `layers.rs` (tower) is on the async side.
//! - A new stream carrier is a `Listener` per execution model and a connector type that each
//!   execution model's `Connect` is implemented for;
//!   a carrier with its own message boundaries is one codec here plus a client and a server
//!   per execution model.

pub mod context;
mod identity;
mod message;
mod service;

#[cfg(any(feature = "blocking", feature = "async"))]
pub mod frame;

#[cfg(any(feature = "blocking", feature = "async"))]
mod options;

#[cfg(any(feature = "blocking", feature = "async"))]
mod reading;

#[cfg(any(feature = "blocking", feature = "async"))]
pub mod pool;

#[cfg(feature = "blocking")]
pub mod blocking;

#[cfg(feature = "async")]
pub mod asynchronous;

#[cfg(feature = "tower")]
pub mod layers;

#[cfg(feature = "tls")]
pub mod tls;

#[cfg(feature = "http")]
pub mod http;

#[cfg(all(feature = "sasl", any(feature = "blocking", feature = "async")))]
pub mod sasl;

#[cfg(all(feature = "udp", any(feature = "blocking", feature = "async")))]
pub mod udp;

#[cfg(any(feature = "blocking", feature = "async"))]
mod connect;

#[cfg(any(feature = "blocking", feature = "async"))]
pub use connect::TcpConnector;
#[cfg(all(unix, any(feature = "blocking", feature = "async")))]
pub use connect::UnixConnector;
pub use identity::Identity;
pub use message::{Headers, Message, ProtocolKind};
pub use service::{
    AsyncChannel, AsyncMultiplexedProcessor, AsyncProcessor, Channel, ClientRequest,
    MultiplexedProcessor, Processor, Reply, call_async, call_oneway_async, serve, serve_async,
    serve_oneway, serve_oneway_async, undeclared_exception,
};

#[cfg(any(feature = "blocking", feature = "async"))]
pub use frame::Framing;
#[cfg(any(feature = "blocking", feature = "async"))]
pub use options::{ClientOptions, ServerOptions};
#[cfg(any(feature = "blocking", feature = "async"))]
pub use pool::PoolOptions;

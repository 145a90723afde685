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
//! # Where things are (for maintainers)
//!
//! - Protocols: a [`ProtocolKind`] variant and one arm of `message.rs`'s `with_protocol!`;
//!   the protocol's first bytes and THeader id are its own
//!   ([`Protocol::MESSAGE_START`](crate::Protocol::MESSAGE_START)).
//! - Framing, sans IO: `frame/` (detection, buffered, framed, and THeader in `frame/header.rs`).
//! - Reading a message off a connection, sans IO: `reading.rs`, driven by both transports.
//! - Where servers accept connections: `blocking/listener.rs`, `asynchronous/listener.rs` (TCP and
//!   Unix domain sockets); a new stream transport is one more implementation there.
//! - TLS: `tls.rs` (configurations), `blocking/tls.rs` and `asynchronous/tls.rs` (a listener and a
//!   client connect each).
//! - HTTP: `http/` (the async client and server on hyper, the blocking client).
//! - UDP: `udp.rs` (oneway calls, one per datagram: clients and servers of both kinds).
//! - Pools (a bound on connections, reconnecting, failover): `pool.rs` (what both share),
//!   `blocking/pool.rs`, `asynchronous/pool.rs`.
//! - SASL: `sasl/` (mechanisms, the negotiation sans IO), `blocking/sasl.rs` and
//!   `asynchronous/sasl.rs` (a listener and a client connect each).

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

pub use identity::Identity;
pub use message::{Headers, Message, ProtocolKind};
pub use service::{
    AsyncChannel, AsyncMultiplexedProcessor, AsyncProcessor, Channel, ClientRequest,
    MultiplexedProcessor, Processor, call_async, call_oneway_async, serve, serve_async,
    serve_oneway, serve_oneway_async, undeclared_exception,
};

#[cfg(any(feature = "blocking", feature = "async"))]
pub use frame::{DEFAULT_MAX_FRAME_SIZE, FrameLimits, Framing, Transport};
#[cfg(any(feature = "blocking", feature = "async"))]
pub use options::{ClientOptions, ServerOptions};
#[cfg(any(feature = "blocking", feature = "async"))]
pub use pool::PoolOptions;

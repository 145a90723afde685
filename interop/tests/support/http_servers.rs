//! Our two HTTP servers as the HTTP tests start them (multiplexed, counting the connections
//! they accept), the client options the tests call them with, and the pieces of a raw request
//! the tests write by hand.

use std::io::Read;
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use thrift_interop::handler::{SecondHandler, TestHandler};
use thrift_interop::types::{
    SecondServiceAsyncProcessor, SecondServiceProcessor, ThriftTestAsyncProcessor,
    ThriftTestProcessor,
};
use thrift_runtime::FrameLimits;
use thrift_runtime::rpc::ClientOptions;
use thrift_runtime::rpc::ServerOptions;
use thrift_runtime::rpc::asynchronous;
use thrift_runtime::rpc::asynchronous::{Listener, TlsListener};
use thrift_runtime::rpc::blocking::{self, ServerHandle};
use thrift_runtime::rpc::{AsyncMultiplexedProcessor, MultiplexedProcessor, ProtocolKind};

/// A TCP listener that counts the connections it accepts.
struct Counting<L> {
    inner: L,
    accepted: Arc<AtomicUsize>,
}

impl Listener for Counting<tokio::net::TcpListener> {
    type Io = tokio::net::TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> std::io::Result<(Self::Io, SocketAddr)> {
        let accepted = self.inner.accept().await?;
        self.accepted.fetch_add(1, Ordering::SeqCst);
        Ok(accepted)
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

impl blocking::Listener for Counting<std::net::TcpListener> {
    type Stream = TcpStream;
    type Addr = SocketAddr;

    fn accept(&self) -> std::io::Result<TcpStream> {
        let (stream, _) = self.inner.accept()?;
        self.accepted.fetch_add(1, Ordering::SeqCst);
        Ok(stream)
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }

    fn wake(addr: &SocketAddr) {
        <std::net::TcpListener as blocking::Listener>::wake(addr)
    }
}

/// Which of our HTTP servers a test runs against.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Async,
    Blocking,
}

/// Both servers, for a test that runs against each.
pub const KINDS: [Kind; 2] = [Kind::Async, Kind::Blocking];

/// One of our HTTP servers, running until it is dropped.
pub struct Server {
    pub addr: SocketAddr,
    pub accepted: Arc<AtomicUsize>,
    /// Runs the async server, and the async clients of either.
    pub runtime: tokio::runtime::Runtime,
    _blocking: Option<ServerHandle>,
}

/// Server options with a 1 MiB frame limit.
pub fn server_options() -> ServerOptions {
    ServerOptions {
        limits: FrameLimits {
            max_frame_size: 1 << 20,
            ..FrameLimits::default()
        },
        ..ServerOptions::default()
    }
}

/// ThriftTest (also the default service) and SecondService, async.
fn processor() -> AsyncMultiplexedProcessor {
    let mut processor = AsyncMultiplexedProcessor::new();
    processor.register("ThriftTest", ThriftTestAsyncProcessor::new(TestHandler));
    processor.register(
        "SecondService",
        SecondServiceAsyncProcessor::new(SecondHandler),
    );
    processor.set_default(ThriftTestAsyncProcessor::new(TestHandler));
    processor
}

/// [`processor`] for the blocking server.
fn blocking_processor() -> MultiplexedProcessor {
    let mut processor = MultiplexedProcessor::new();
    processor.register("ThriftTest", ThriftTestProcessor::new(TestHandler));
    processor.register("SecondService", SecondServiceProcessor::new(SecondHandler));
    processor.set_default(ThriftTestProcessor::new(TestHandler));
    processor
}

/// One of our HTTP servers on 127.0.0.1 (HTTPS with `tls`), multiplexed with ThriftTest as
/// the default service.
pub fn start(
    kind: Kind,
    tls: Option<Arc<thrift_runtime::rpc::tls::rustls::ServerConfig>>,
) -> Server {
    start_with(kind, tls, server_options())
}

/// [`start`] with these server options.
pub fn start_with(
    kind: Kind,
    tls: Option<Arc<thrift_runtime::rpc::tls::rustls::ServerConfig>>,
    options: ServerOptions,
) -> Server {
    let runtime = super::runtime();
    let accepted = Arc::new(AtomicUsize::new(0));
    if let Kind::Blocking = kind {
        let inner = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = inner.local_addr().unwrap();
        let listener = Counting {
            inner,
            accepted: Arc::clone(&accepted),
        };
        let server = blocking::HttpServer::new(options);
        let handle = match tls {
            Some(config) => server.spawn(
                blocking::TlsListener::new(listener, config),
                blocking_processor(),
            ),
            None => server.spawn(listener, blocking_processor()),
        }
        .unwrap();
        return Server {
            addr,
            accepted,
            runtime,
            _blocking: Some(handle),
        };
    }
    let (inner, addr) = super::tokio_listener(&runtime);
    let listener = Counting {
        inner,
        accepted: Arc::clone(&accepted),
    };
    let forever = std::future::pending();
    match tls {
        Some(config) => runtime.spawn(asynchronous::HttpServer::new(options).serve_with_shutdown(
            TlsListener::new(listener, config),
            processor(),
            forever,
        )),
        None => runtime.spawn(asynchronous::HttpServer::new(options).serve_with_shutdown(
            listener,
            processor(),
            forever,
        )),
    };
    Server {
        addr,
        accepted,
        runtime,
        _blocking: None,
    }
}

/// Client options in `protocol`, waiting 10 s at the most for a reply.
pub fn client_options(protocol: ProtocolKind) -> ClientOptions {
    let mut options = ClientOptions::new(protocol);
    options.timeout = Some(Duration::from_secs(10));
    options
}

/// A JSON `testI32(thing)` call with sequence id `seq`, and the reply it gets.
pub fn json_call(thing: i32, seq: i32) -> (Vec<u8>, String) {
    let mut body = Vec::new();
    ProtocolKind::Json
        .write_message(
            &mut body,
            "testI32",
            thrift_runtime::MessageType::Call,
            seq,
            &thrift_interop::types::ThriftTestTestI32Args { thing },
        )
        .unwrap();
    (
        body,
        format!(r#"[1,"testI32",2,{seq},{{"0":{{"i32":{thing}}}}}]"#),
    )
}

/// Everything the server sends until it closes the connection.
pub fn read_to_close(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

//! ThriftTest server with the flags and semantics of Apache's cross-language test servers;
//! serves on 127.0.0.1 (or a Unix domain socket, `--domain-socket PATH`; over TLS with
//! `--ssl --ssl-cert FILE --ssl-key FILE [--ssl-ca FILE]`) until killed. Every
//! client framing is accepted on the one port, so `--protocol` and `--transport` only say what
//! the test expects.

use std::net::TcpListener;

use std::sync::Arc;
use thrift_interop::args::Flags;
use thrift_interop::handler::{SecondHandler, TestHandler};
use thrift_interop::types::{
    SecondServiceAsyncProcessor, SecondServiceProcessor, ThriftTestAsyncProcessor,
    ThriftTestProcessor, ThriftTestTestOnewayArgs,
};

use thrift_runtime::rpc::ServerOptions;
use thrift_runtime::rpc::blocking::{self, SaslListener, Server, TlsListener};
use thrift_runtime::rpc::sasl::SaslServerConfig;
use thrift_runtime::rpc::{
    AsyncMultiplexedProcessor, AsyncProcessor, Message, MultiplexedProcessor, Processor,
    asynchronous,
};
use thrift_runtime::{ApplicationException, ApplicationExceptionKind};

fn main() -> std::io::Result<()> {
    let flags = match Flags::parse() {
        Ok(flags) => flags,
        Err(e) => {
            eprintln!("interop-server: {e}");
            std::process::exit(2);
        }
    };
    let addr = format!("127.0.0.1:{}", flags.port);
    if !flags.expect_headers.is_empty() {
        let _ = EXPECTED_HEADERS.set(flags.expect_headers.clone());
    }
    if let Some(path) = &flags.domain_socket {
        // A socket file left by an earlier run would make binding fail.
        let _ = std::fs::remove_file(path);
    }
    let tls = match flags.server_tls() {
        Ok(tls) => tls,
        Err(e) => {
            eprintln!("interop-server: {e}");
            std::process::exit(2);
        }
    };
    if flags.udp() {
        return serve_udp(&addr, flags.asynchronous);
    }
    if flags.http() {
        if flags.domain_socket.is_some() {
            eprintln!("interop-server: --transport http serves TCP only here");
            std::process::exit(2);
        }
        if !flags.asynchronous {
            let listener = TcpListener::bind(&addr)?;
            println!("listening on {}", listener.local_addr()?);
            return match tls {
                Some(config) => {
                    serve_http_blocking(TlsListener::new(listener, config), flags.multiplexed)
                }
                None => serve_http_blocking(listener, flags.multiplexed),
            };
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        return runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind(&addr).await?;
            println!("listening on {}", listener.local_addr()?);
            match tls {
                Some(config) => {
                    serve_http(
                        asynchronous::TlsListener::new(listener, config),
                        flags.multiplexed,
                    )
                    .await
                }
                None => serve_http(listener, flags.multiplexed).await,
            }
        });
    }
    // Clients authenticate as --sasl-user with --sasl-password; an authzid other than their
    // own is refused (no proxy users here).
    let sasl = flags.sasl.then(|| {
        let (user, password) = (flags.sasl_user.clone(), flags.sasl_password.clone());
        Arc::new(SaslServerConfig::new().plain(move |c| c.user == user && c.password == password))
    });
    let layers = Layers {
        tls,
        sasl,
        multiplexed: flags.multiplexed,
    };
    if flags.asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        runtime.block_on(async {
            match &flags.domain_socket {
                Some(path) => {
                    let listener = tokio::net::UnixListener::bind(path)?;
                    println!("listening on {path}");
                    layers.serve_async(listener).await
                }
                None => {
                    let listener = tokio::net::TcpListener::bind(&addr).await?;
                    println!("listening on {}", listener.local_addr()?);
                    layers.serve_async(listener).await
                }
            }
        })
    } else {
        match &flags.domain_socket {
            Some(path) => {
                let listener = std::os::unix::net::UnixListener::bind(path)?;
                println!("listening on {path}");
                layers.serve_blocking(listener)
            }
            None => {
                let listener = TcpListener::bind(&addr)?;
                println!("listening on {}", listener.local_addr()?);
                layers.serve_blocking(listener)
            }
        }
    }
}

/// What a socket server puts over its listener: TLS (`--ssl`), then SASL (`--sasl`, inside
/// the TLS session when both are on, as HiveServer2 with SSL and authentication speaks).
struct Layers {
    tls: Option<Arc<thrift_runtime::rpc::tls::rustls::ServerConfig>>,
    sasl: Option<Arc<SaslServerConfig>>,
    multiplexed: bool,
}

impl Layers {
    fn serve_blocking<L: blocking::Listener>(self, listener: L) -> std::io::Result<()> {
        let m = self.multiplexed;
        match (self.tls, self.sasl) {
            (None, None) => serve_blocking(listener, m),
            (Some(tls), None) => serve_blocking(TlsListener::new(listener, tls), m),
            (None, Some(sasl)) => serve_blocking(SaslListener::new(listener, sasl), m),
            (Some(tls), Some(sasl)) => {
                serve_blocking(SaslListener::new(TlsListener::new(listener, tls), sasl), m)
            }
        }
    }

    async fn serve_async<L: asynchronous::Listener>(self, listener: L) -> std::io::Result<()> {
        use asynchronous::{SaslListener, TlsListener};
        let m = self.multiplexed;
        match (self.tls, self.sasl) {
            (None, None) => serve_async(listener, m).await,
            (Some(tls), None) => serve_async(TlsListener::new(listener, tls), m).await,
            (None, Some(sasl)) => serve_async(SaslListener::new(listener, sasl), m).await,
            (Some(tls), Some(sasl)) => {
                serve_async(SaslListener::new(TlsListener::new(listener, tls), sasl), m).await
            }
        }
    }
}

/// `--transport udp`: ThriftTest's oneway calls, one per datagram (any protocol, detected),
/// each announced as `received testOneway(N)` before it is handled.
fn serve_udp(addr: &str, asynchronous: bool) -> std::io::Result<()> {
    let socket = std::net::UdpSocket::bind(addr)?;
    println!("listening on {}", socket.local_addr()?);
    if asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()?;
        return runtime.block_on(async {
            socket.set_nonblocking(true)?;
            let socket = tokio::net::UdpSocket::from_std(socket)?;
            let processor = Announce(ThriftTestAsyncProcessor::new(TestHandler));
            asynchronous::UdpServer::new(ServerOptions::default())
                .serve(socket, processor)
                .await
        });
    }
    let processor = Announce(ThriftTestProcessor::new(TestHandler));
    blocking::UdpServer::new(ServerOptions::default()).serve(socket, processor)
}

/// `--expect-header`: the info headers every call must carry (empty: no check).
static EXPECTED_HEADERS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();

/// Serves a call only if it carries the `--expect-header` info headers: one that does not is
/// answered with an `INTERNAL_ERROR` exception naming the first header missing (a oneway
/// call is not served, and the server says so on stdout).
struct ExpectHeaders<P>(P);

impl<P> ExpectHeaders<P> {
    /// The exception for a call without the expected headers, if it lacks one.
    fn missing(call: &Message) -> Option<ApplicationException> {
        let expected = EXPECTED_HEADERS.get()?;
        let (key, value) = expected
            .iter()
            .find(|(key, value)| !call.headers().iter().any(|(k, v)| k == key && v == value))?;
        let why = format!("missing info header {key}={value}");
        println!("{why}");
        Some(ApplicationException::new(
            ApplicationExceptionKind::INTERNAL_ERROR,
            why,
        ))
    }
}

impl<P: Processor> Processor for ExpectHeaders<P> {
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> thrift_runtime::Result<()> {
        match Self::missing(call) {
            Some(e) => call.reply_exception(out, &e),
            None => self.0.process(call, out),
        }
    }
}

impl<P: AsyncProcessor> AsyncProcessor for ExpectHeaders<P> {
    async fn process(&self, call: &Message, out: &mut Vec<u8>) -> thrift_runtime::Result<()> {
        match Self::missing(call) {
            Some(e) => call.reply_exception(out, &e),
            None => self.0.process(call, out).await,
        }
    }
}

/// Prints `received testOneway(N)` for each `testOneway` call, then hands it on.
struct Announce<P>(P);

impl<P> Announce<P> {
    fn announce(call: &Message) {
        if call.name() == "testOneway" {
            if let Ok(args) = call.body::<ThriftTestTestOnewayArgs>() {
                println!("received testOneway({})", args.seconds_to_sleep);
            }
        }
    }
}

impl<P: Processor> Processor for Announce<P> {
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> thrift_runtime::Result<()> {
        Self::announce(call);
        self.0.process(call, out)
    }
}

impl<P: AsyncProcessor> AsyncProcessor for Announce<P> {
    async fn process(&self, call: &Message, out: &mut Vec<u8>) -> thrift_runtime::Result<()> {
        Self::announce(call);
        self.0.process(call, out).await
    }
}

/// ThriftTest alone, or (`--multiplexed`) ThriftTest and SecondService by name; without
/// `--multiplexed`, calls go to ThriftTest with no service name.
fn blocking_processor(multiplexed: bool) -> MultiplexedProcessor {
    let mut processor = MultiplexedProcessor::new();
    if multiplexed {
        processor.register("ThriftTest", ThriftTestProcessor::new(TestHandler));
        processor.register("SecondService", SecondServiceProcessor::new(SecondHandler));
    } else {
        processor.set_default(ThriftTestProcessor::new(TestHandler));
    }
    processor
}

/// [`blocking_processor`], async.
fn async_processor(multiplexed: bool) -> AsyncMultiplexedProcessor {
    let mut processor = AsyncMultiplexedProcessor::new();
    if multiplexed {
        processor.register("ThriftTest", ThriftTestAsyncProcessor::new(TestHandler));
        processor.register(
            "SecondService",
            SecondServiceAsyncProcessor::new(SecondHandler),
        );
    } else {
        processor.set_default(ThriftTestAsyncProcessor::new(TestHandler));
    }
    processor
}

fn serve_blocking(listener: impl blocking::Listener, multiplexed: bool) -> std::io::Result<()> {
    Server::new(ServerOptions::default())
        .serve(listener, ExpectHeaders(blocking_processor(multiplexed)))
}

fn serve_http_blocking(
    listener: impl blocking::Listener,
    multiplexed: bool,
) -> std::io::Result<()> {
    blocking::HttpServer::new(ServerOptions::default())
        .serve(listener, blocking_processor(multiplexed))
}

async fn serve_http(
    listener: impl asynchronous::Listener,
    multiplexed: bool,
) -> std::io::Result<()> {
    asynchronous::HttpServer::new(ServerOptions::default())
        .serve(listener, async_processor(multiplexed))
        .await
}

async fn serve_async(
    listener: impl asynchronous::Listener,
    multiplexed: bool,
) -> std::io::Result<()> {
    asynchronous::Server::new(ServerOptions::default())
        .serve(listener, ExpectHeaders(async_processor(multiplexed)))
        .await
}

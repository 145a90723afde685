//! The RPC benchmark: `rpc-bench server CONTENDER PORT SECONDS` serves the echo service for
//! SECONDS and prints the allocations it made per call served; `rpc-bench load PORT
//! CONNECTIONS SECONDS` calls it from CONNECTIONS threads (framed binary, one connection
//! each, one call at a time) and prints calls per second and latency percentiles;
//! `load-async` does the same with our async client (one task per connection) and
//! `load-apache` with Apache's client. `run.sh` runs every contender in turn.
//!
//! In the first table every server is driven by the same load generator (our blocking
//! client), so the servers are what differs; every server speaks framed binary, which all
//! contenders share. In the second, each contender's own client calls its own server.
//!
//! `ours-async-tls` and `ours-blocking-tls` are our servers behind a `TlsListener`, with the
//! certificates in the directory `TLS_CERTS` names (`interop/tls_certs.sh` makes them); with
//! `TLS_CERTS` set, `load` and `load-async` connect over TLS too. `ours-async-http` is our async
//! HTTP server (`rpc::asynchronous::HttpServer`), `ours-blocking-http` our blocking one (`HttpServer`, 128
//! workers), driven with `HTTP=1` by our blocking `blocking::HttpClient`
//! (`load`) and `asynchronous::HttpClient` (`load-async`), one kept-alive connection per client.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

mod load;

mod ours {
    #![allow(dead_code, missing_docs)]
    include!(concat!(env!("OUT_DIR"), "/ours/thrift.rs"));
}

#[cfg(feature = "apache")]
#[allow(dead_code, unused_imports, unused_extern_crates, clippy::all)]
mod apache {
    include!(concat!(env!("OUT_DIR"), "/apache/echo.rs"));
}

/// Counts allocations (the server's; the load generator runs in its own process).
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

// SAFETY: forwards to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller upholds `alloc`'s contract, which `System` shares.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

struct OursHandler;

impl ours::echo::Echo for OursHandler {
    fn echo(&self, message: String) -> thrift_runtime::Result<String> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        Ok(message)
    }
}

impl ours::echo::EchoAsync for OursHandler {
    async fn echo(&self, message: String) -> thrift_runtime::Result<String> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        Ok(message)
    }
}

#[cfg(feature = "apache")]
struct ApacheHandler;

#[cfg(feature = "apache")]
impl apache::EchoSyncHandler for ApacheHandler {
    fn handle_echo(&self, message: String) -> thrift::Result<String> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        Ok(message)
    }
}

/// With `HTTP=1`: `load` and `load-async` call over HTTP (the `ours-*-http` servers).
fn http() -> bool {
    std::env::var_os("HTTP").is_some_and(|v| v == "1")
}

/// With `TLS_CERTS` set: the directory of `ca.pem`, `server.pem` and `server.key`.
fn tls_certs() -> Option<std::path::PathBuf> {
    std::env::var_os("TLS_CERTS").map(std::path::PathBuf::from)
}

fn server_tls() -> std::sync::Arc<thrift_runtime::rpc::tls::rustls::ServerConfig> {
    let dir = tls_certs().expect("TLS_CERTS: the certificates' directory");
    thrift_runtime::rpc::tls::server_config(dir.join("server.pem"), dir.join("server.key"), None)
        .expect("the server's certificate")
}

fn client_tls() -> Option<std::sync::Arc<thrift_runtime::rpc::tls::rustls::ClientConfig>> {
    let dir = tls_certs()?;
    Some(thrift_runtime::rpc::tls::client_config(dir.join("ca.pem"), None).expect("the CA"))
}

/// The `-latency` contenders: our servers in latency mode (`ServerOptions::busy_poll`), polling
/// 50 µs for the next call after each reply.
fn latency_mode(contender: &str) -> Option<Duration> {
    contender
        .ends_with("-latency")
        .then_some(Duration::from_micros(50))
}

fn serve(contender: &str, port: u16) {
    let addr = format!("127.0.0.1:{port}");
    match contender {
        "ours-blocking" | "ours-blocking-tls" | "ours-blocking-latency" => {
            use thrift_runtime::rpc::blocking::{Server, TlsListener};
            use thrift_runtime::rpc::ServerOptions;
            let listener = std::net::TcpListener::bind(&addr).expect("bind");
            let options = ServerOptions {
                workers: 128,
                busy_poll: latency_mode(contender),
                ..Default::default()
            };
            let processor = ours::echo::EchoProcessor::new(OursHandler);
            if contender.ends_with("-tls") {
                let listener = TlsListener::new(listener, server_tls());
                std::thread::spawn(move || Server::new(options).serve(listener, processor));
            } else {
                std::thread::spawn(move || Server::new(options).serve(listener, processor));
            }
        }
        "ours-async-tls" => {
            let config = server_tls();
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("runtime");
                runtime.block_on(async {
                    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
                    let listener =
                        thrift_runtime::rpc::asynchronous::TlsListener::new(listener, config);
                    let processor = ours::echo::EchoAsyncProcessor::new(OursHandler);
                    thrift_runtime::rpc::asynchronous::Server::new(Default::default())
                        .serve(listener, processor)
                        .await
                })
            });
        }
        "ours-blocking-http" => {
            let listener = std::net::TcpListener::bind(&addr).expect("bind");
            let options = thrift_runtime::rpc::ServerOptions {
                workers: 128,
                ..Default::default()
            };
            let processor = ours::echo::EchoProcessor::new(OursHandler);
            std::thread::spawn(move || {
                thrift_runtime::rpc::blocking::HttpServer::new(options).serve(listener, processor)
            });
        }
        "ours-async-http" => {
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("runtime");
                runtime.block_on(async {
                    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
                    let processor = ours::echo::EchoAsyncProcessor::new(OursHandler);
                    thrift_runtime::rpc::asynchronous::HttpServer::new(Default::default())
                        .serve(listener, processor)
                        .await
                })
            });
        }
        "ours-async" | "ours-async-latency" => {
            let options = thrift_runtime::rpc::ServerOptions {
                busy_poll: latency_mode(contender),
                ..Default::default()
            };
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("runtime");
                runtime.block_on(async {
                    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
                    let processor = ours::echo::EchoAsyncProcessor::new(OursHandler);
                    thrift_runtime::rpc::asynchronous::Server::new(options)
                        .serve(listener, processor)
                        .await
                })
            });
        }
        #[cfg(feature = "apache")]
        "apache" => {
            use thrift::protocol::{TBinaryInputProtocolFactory, TBinaryOutputProtocolFactory};
            use thrift::server::TServer;
            use thrift::transport::{TFramedReadTransportFactory, TFramedWriteTransportFactory};
            std::thread::spawn(move || {
                let processor = apache::EchoSyncProcessor::new(ApacheHandler);
                // One worker per connection is Apache's model: enough for the 64-connection run.
                let mut server = TServer::new(
                    TFramedReadTransportFactory::new(),
                    TBinaryInputProtocolFactory::new(),
                    TFramedWriteTransportFactory::new(),
                    TBinaryOutputProtocolFactory::new(),
                    processor,
                    128,
                );
                server.listen(&addr)
            });
        }
        other => {
            eprintln!("unknown contender {other}");
            std::process::exit(2);
        }
    }
}

/// Our blocking client, one thread and connection per simulated client (over TLS with
/// `TLS_CERTS`).
fn load(port: u16, connections: usize, seconds: f64) {
    use thrift_runtime::rpc::blocking::Connection;
    use thrift_runtime::rpc::ClientOptions;
    use thrift_runtime::rpc::{ProtocolKind, Framing};
    let addr = format!("127.0.0.1:{port}");
    let message = "x".repeat(32);
    let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
    fn call<C: thrift_runtime::rpc::Channel>(
        client: &mut ours::echo::EchoClient<C>,
        message: &str,
    ) {
        let reply = client.echo(message.to_owned()).expect("echo");
        assert_eq!(reply.len(), message.len());
    }
    if http() {
        let url = format!("http://127.0.0.1:{port}/");
        return load::blocking(
            connections,
            seconds,
            || {
                ours::echo::EchoClient::new(load::retry(|| {
                    thrift_runtime::rpc::blocking::HttpClient::new(&url, options.clone())
                }))
            },
            |client| call(client, &message),
        );
    }
    match client_tls() {
        Some(config) => load::blocking(
            connections,
            seconds,
            || {
                ours::echo::EchoClient::new(load::retry(|| {
                    Connection::connect_tls(
                        addr.as_str(),
                        "localhost",
                        config.clone(),
                        options.clone(),
                    )
                }))
            },
            |client| call(client, &message),
        ),
        None => load::blocking(
            connections,
            seconds,
            || {
                ours::echo::EchoClient::new(load::retry(|| {
                    Connection::connect(addr.as_str(), options.clone())
                }))
            },
            |client| call(client, &message),
        ),
    }
}

/// Our async client on a 2-thread tokio runtime, one task and connection per simulated client.
fn load_async(port: u16, connections: usize, seconds: f64) {
    use thrift_runtime::rpc::ClientOptions;
    use thrift_runtime::rpc::{asynchronous, ProtocolKind, Framing};
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let window = load::Window::new(seconds);
    if http() {
        let all = runtime.block_on(async move {
            let tasks: Vec<_> = (0..connections)
                .map(|_| {
                    tokio::spawn(async move {
                        // One client (one kept-alive connection) per simulated client.
                        let url = format!("http://127.0.0.1:{port}/");
                        let options = ClientOptions::new(ProtocolKind::Binary);
                        let channel =
                            thrift_runtime::rpc::asynchronous::HttpClient::new(&url, options).expect("url");
                        echo_until(ours::echo::EchoAsyncClient::new(channel), window).await
                    })
                })
                .collect();
            gather(tasks).await
        });
        load::report(connections, seconds, all);
        return;
    }
    let tls = client_tls();
    let all = runtime.block_on(async move {
        let tasks: Vec<_> = (0..connections)
            .map(|_| {
                let tls = tls.clone();
                tokio::spawn(async move {
                    let addr = format!("127.0.0.1:{port}");
                    let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
                    let mut connection = None;
                    for _ in 0..100 {
                        let connected = match &tls {
                            Some(config) => {
                                asynchronous::Connection::connect_tls(
                                    addr.as_str(),
                                    "localhost",
                                    config.clone(),
                                    options.clone(),
                                )
                                .await
                            }
                            None => {
                                asynchronous::Connection::connect(addr.as_str(), options.clone())
                                    .await
                            }
                        };
                        match connected {
                            Ok(c) => {
                                connection = Some(c);
                                break;
                            }
                            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                        }
                    }
                    let client = ours::echo::EchoAsyncClient::new(connection.expect("connect"));
                    echo_until(client, window).await
                })
            })
            .collect();
        gather(tasks).await
    });
    load::report(connections, seconds, all);
}

/// One simulated async client: echo calls one after the other through the window; the
/// latencies measured.
async fn echo_until<C: thrift_runtime::rpc::AsyncChannel>(
    client: ours::echo::EchoAsyncClient<C>,
    window: load::Window,
) -> Vec<u32> {
    let message = "x".repeat(32);
    let mut latencies = Vec::with_capacity(1 << 16);
    tokio::time::sleep_until(window.start.into()).await;
    loop {
        let t = Instant::now();
        if t >= window.end {
            break;
        }
        let reply = client.echo(message.clone()).await.expect("echo");
        assert_eq!(reply.len(), message.len());
        window.record(&mut latencies, t);
    }
    latencies
}

/// Every task's latencies.
async fn gather(tasks: Vec<tokio::task::JoinHandle<Vec<u32>>>) -> Vec<u32> {
    let mut all = Vec::new();
    for task in tasks {
        all.extend(task.await.expect("a load task"));
    }
    all
}

/// Apache's blocking client (`TTcpChannel`, framed, binary), one thread per simulated client.
#[cfg(feature = "apache")]
fn load_apache(port: u16, connections: usize, seconds: f64) {
    use apache::TEchoSyncClient;
    use thrift::protocol::{TBinaryInputProtocol, TBinaryOutputProtocol};
    use thrift::transport::{TFramedReadTransport, TFramedWriteTransport, TIoChannel, TTcpChannel};
    let addr = format!("127.0.0.1:{port}");
    let message = "x".repeat(32);
    load::blocking(
        connections,
        seconds,
        || {
            let channel = load::retry(|| {
                let mut channel = TTcpChannel::new();
                channel.open(addr.as_str()).map(|()| channel)
            });
            let (read, write) = channel.split().expect("split");
            apache::EchoSyncClient::new(
                TBinaryInputProtocol::new(TFramedReadTransport::new(read), true),
                TBinaryOutputProtocol::new(TFramedWriteTransport::new(write), true),
            )
        },
        |client| {
            let reply = client.echo(message.clone()).expect("echo");
            assert_eq!(reply.len(), message.len());
        },
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: rpc-bench server CONTENDER PORT SECONDS | rpc-bench load|load-async|load-apache PORT CONNECTIONS SECONDS");
        std::process::exit(2)
    };
    match args.get(1).map(String::as_str) {
        Some("server") if args.len() == 5 => {
            let port: u16 = args[3].parse().unwrap_or_else(|_| usage());
            let seconds: f64 = args[4].parse().unwrap_or_else(|_| usage());
            serve(&args[2], port);
            let before = ALLOCATIONS.load(Ordering::Relaxed);
            std::thread::sleep(Duration::from_secs_f64(seconds));
            let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
            let calls = CALLS.load(Ordering::Relaxed).max(1);
            println!(
                "{{\"contender\": \"{}\", \"calls\": {calls}, \"allocations_per_call\": {:.2}}}",
                args[2],
                allocations as f64 / calls as f64
            );
            std::process::exit(0);
        }
        Some(mode @ ("load" | "load-async" | "load-apache")) if args.len() == 5 => {
            let port: u16 = args[2].parse().unwrap_or_else(|_| usage());
            let connections: usize = args[3].parse().unwrap_or_else(|_| usage());
            let seconds: f64 = args[4].parse().unwrap_or_else(|_| usage());
            match mode {
                "load" => load(port, connections, seconds),
                "load-async" => load_async(port, connections, seconds),
                #[cfg(feature = "apache")]
                "load-apache" => load_apache(port, connections, seconds),
                _ => usage(),
            }
        }
        _ => usage(),
    }
}

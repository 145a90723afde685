//! The RPC benchmark: `rpc-bench server CONTENDER PORT SECONDS` serves the echo service for
//! SECONDS and prints the allocations it made per call served; `rpc-bench load PORT
//! CONNECTIONS SECONDS` calls it from CONNECTIONS threads (framed binary, one connection
//! each, one call at a time) and prints calls per second and latency percentiles. `run.sh`
//! runs every contender in turn.
//!
//! Every server is driven by the same load generator (our blocking client), so the servers
//! are what differs; every server speaks framed binary, which all contenders share.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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

fn serve(contender: &str, port: u16) {
    let addr = format!("127.0.0.1:{port}");
    match contender {
        "ours-blocking" => {
            let listener = std::net::TcpListener::bind(&addr).expect("bind");
            let options = thrift_runtime::rpc::blocking::ServerOptions {
                workers: 128,
                ..Default::default()
            };
            let processor = ours::echo::EchoProcessor::new(OursHandler);
            std::thread::spawn(move || {
                thrift_runtime::rpc::blocking::Server::new(options).serve(listener, processor)
            });
        }
        "ours-async" => {
            std::thread::spawn(move || {
                let runtime = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .expect("runtime");
                runtime.block_on(async {
                    let listener = tokio::net::TcpListener::bind(&addr).await.expect("bind");
                    let processor = ours::echo::EchoAsyncProcessor::new(OursHandler);
                    thrift_runtime::rpc::tokio::Server::new(Default::default())
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

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[index])
}

fn load(port: u16, connections: usize, seconds: f64) {
    use thrift_runtime::rpc::blocking::{ClientOptions, Connection};
    use thrift_runtime::rpc::{ProtocolKind, Transport};
    let addr = format!("127.0.0.1:{port}");
    let warmup = Duration::from_millis(500);
    let run = Duration::from_secs_f64(seconds);
    let start = Instant::now() + Duration::from_millis(200);
    let message = "x".repeat(32);
    let threads: Vec<_> = (0..connections)
        .map(|_| {
            let addr = addr.clone();
            let message = message.clone();
            std::thread::spawn(move || {
                let options = ClientOptions::new(ProtocolKind::Binary, Transport::Framed);
                let mut connection = None;
                for _ in 0..100 {
                    match Connection::connect(addr.as_str(), options.clone()) {
                        Ok(c) => {
                            connection = Some(c);
                            break;
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(50)),
                    }
                }
                let mut client = ours::echo::EchoClient::new(connection.expect("connect"));
                let mut latencies = Vec::with_capacity(1 << 16);
                while Instant::now() < start {
                    std::thread::sleep(Duration::from_millis(1));
                }
                let measure_from = start + warmup;
                let end = measure_from + run;
                loop {
                    let t = Instant::now();
                    if t >= end {
                        break;
                    }
                    let reply = client.echo(message.clone()).expect("echo");
                    assert_eq!(reply.len(), message.len());
                    if t >= measure_from {
                        latencies.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                    }
                }
                latencies
            })
        })
        .collect();
    let mut all: Vec<u32> = Vec::new();
    for thread in threads {
        all.extend(thread.join().expect("a load thread"));
    }
    all.sort_unstable();
    let rps = all.len() as f64 / seconds;
    println!(
        "{{\"connections\": {connections}, \"calls\": {}, \"rps\": {rps:.0}, \"p50_us\": {}, \"p99_us\": {}}}",
        all.len(),
        percentile(&all, 0.50),
        percentile(&all, 0.99)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = || -> ! {
        eprintln!("usage: rpc-bench server CONTENDER PORT SECONDS | rpc-bench load PORT CONNECTIONS SECONDS");
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
        Some("load") if args.len() == 5 => {
            let port: u16 = args[2].parse().unwrap_or_else(|_| usage());
            let connections: usize = args[3].parse().unwrap_or_else(|_| usage());
            let seconds: f64 = args[4].parse().unwrap_or_else(|_| usage());
            load(port, connections, seconds);
        }
        _ => usage(),
    }
    let _ = Arc::new(());
}

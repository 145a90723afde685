//! `volo-echo-server PORT SECONDS`: serves the echo service with volo-thrift (framed binary
//! is detected and answered) for SECONDS, then prints the allocations it made per call, as
//! the other contenders of `rpc-bench server` do. `volo-echo-server load PORT CONNECTIONS
//! SECONDS`: volo's own client with its defaults (TTHeader over framed binary), one client
//! and task per simulated client on a 2-thread runtime, as `rpc-bench load-async` does.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

include!(concat!(env!("OUT_DIR"), "/volo_gen.rs"));

#[path = "../../src/load.rs"]
#[allow(dead_code)]
mod load;

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

struct Handler;

impl volo_gen::echo::Echo for Handler {
    async fn echo(
        &self,
        message: pilota::FastStr,
    ) -> Result<pilota::FastStr, volo_thrift::ServerError> {
        CALLS.fetch_add(1, Ordering::Relaxed);
        Ok(message)
    }
}

fn load(port: u16, connections: usize, seconds: f64) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let window = load::Window::new(seconds);
    let all = runtime.block_on(async move {
        let tasks: Vec<_> = (0..connections)
            .map(|_| {
                tokio::spawn(async move {
                    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
                    let client = volo_gen::echo::EchoClientBuilder::new("echo")
                        .address(addr)
                        .build();
                    let message = pilota::FastStr::from("x".repeat(32));
                    let mut latencies = Vec::with_capacity(1 << 16);
                    tokio::time::sleep_until(window.start.into()).await;
                    loop {
                        let t = std::time::Instant::now();
                        if t >= window.end {
                            break;
                        }
                        let reply = client.echo(message.clone()).await.expect("echo");
                        assert_eq!(reply.len(), message.len());
                        window.record(&mut latencies, t);
                    }
                    latencies
                })
            })
            .collect();
        let mut all = Vec::new();
        for task in tasks {
            all.extend(task.await.expect("a load task"));
        }
        all
    });
    load::report(connections, seconds, all);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() == 5 && args[1] == "load" {
        let (Ok(port), Ok(connections), Ok(seconds)) = (
            args[2].parse::<u16>(),
            args[3].parse::<usize>(),
            args[4].parse::<f64>(),
        ) else {
            eprintln!("usage: volo-echo-server load PORT CONNECTIONS SECONDS");
            std::process::exit(2);
        };
        load(port, connections, seconds);
        return;
    }
    let (Some(port), Some(seconds)) = (
        args.get(1).and_then(|p| p.parse::<u16>().ok()),
        args.get(2).and_then(|s| s.parse::<f64>().ok()),
    ) else {
        eprintln!("usage: volo-echo-server PORT SECONDS");
        std::process::exit(2);
    };
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
            let _ = volo_gen::echo::EchoServer::new(Handler)
                .run(volo::net::Address::from(addr))
                .await;
        });
    });
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    std::thread::sleep(Duration::from_secs_f64(seconds));
    let allocations = ALLOCATIONS.load(Ordering::Relaxed) - before;
    let calls = CALLS.load(Ordering::Relaxed).max(1);
    println!(
        "{{\"contender\": \"volo\", \"calls\": {calls}, \"allocations_per_call\": {:.2}}}",
        allocations as f64 / calls as f64
    );
    std::process::exit(0);
}

//! tower around the generated service, both ways: three async servers, each with a timeout
//! and a concurrency limit, and one client balancing its calls over all three
//! (power of two choices on pending requests). `cargo run -p thrift-examples --bin tower`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use thrift_examples::idl::tutorial::{
    Place, PlacesAsync, PlacesAsyncClient, PlacesAsyncProcessor, PlacesGetError,
};
use thrift_examples::lighthouse;
use thrift_runtime::rpc::asynchronous::{Connection, Server};
use thrift_runtime::rpc::layers::{ProcessorService, ServiceChannel};
use thrift_runtime::rpc::{ClientOptions, Framing, ProtocolKind, ServerOptions};
use tower::ServiceBuilder;
use tower::balance::p2c::Balance;
use tower::buffer::Buffer;
use tower::discover::ServiceList;
use tower::load::{CompleteOnResponse, PendingRequests};

/// A `Places` server that knows one place and counts the calls it serves.
struct Counting {
    calls: Arc<AtomicUsize>,
}

impl PlacesAsync for Counting {
    async fn get(&self, name: String) -> Result<Place, PlacesGetError> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        // Some work, so that calls overlap and the balancer sees pending requests.
        tokio::time::sleep(Duration::from_millis(5)).await;
        let place = lighthouse();
        if name == place.name {
            Ok(place)
        } else {
            Err(thrift_examples::idl::tutorial::NotFound { name }.into())
        }
    }

    async fn put(&self, _place: Place) -> thrift_runtime::Result<()> {
        Ok(())
    }

    async fn forget(&self, _name: String) -> thrift_runtime::Result<()> {
        Ok(())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let mut counters = Vec::new();
        let mut connections = Vec::new();
        for _ in 0..3 {
            let calls = Arc::new(AtomicUsize::new(0));
            counters.push(Arc::clone(&calls));
            // ANCHOR: layers
            // The server: the generated processor inside tower layers.
            let service = ServiceBuilder::new()
                .timeout(Duration::from_secs(1))
                .concurrency_limit(16)
                .service(ProcessorService::new(PlacesAsyncProcessor::new(Counting {
                    calls,
                })));
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
            let addr = listener.local_addr()?;
            tokio::spawn(Server::new(ServerOptions::default()).serve_service(
                listener,
                service,
                std::future::pending(),
            ));
            // ANCHOR_END: layers
            let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
            let connection = Connection::connect(addr, options).await?;
            connections.push(PendingRequests::new(
                connection,
                CompleteOnResponse::default(),
            ));
        }

        // ANCHOR: balance
        // The client: a balancer over the three connections, behind a buffer so it can be
        // shared, as the channel of the generated client.
        let balance = Balance::new(ServiceList::new(connections));
        let channel = ServiceChannel::new(Buffer::new(balance, 64), ProtocolKind::Compact);
        let places = PlacesAsyncClient::new(channel);
        // ANCHOR_END: balance

        let mut tasks = Vec::new();
        for _ in 0..60 {
            let places = places.clone();
            tasks.push(tokio::spawn(async move {
                places.get("Lighthouse".into()).await
            }));
        }
        for task in tasks {
            task.await??;
        }
        let served: Vec<usize> = counters.iter().map(|c| c.load(Ordering::Relaxed)).collect();
        println!("60 calls balanced over 3 servers: {served:?}");
        Ok(())
    })
}

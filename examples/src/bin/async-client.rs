//! An async `Places` client calling from several tasks at once over one connection:
//! `cargo run -p thrift-examples --bin async-client` (with a server running).

use thrift_examples::idl::tutorial::PlacesAsyncClient;
use thrift_examples::{ADDR, lighthouse};
use thrift_runtime::rpc::asynchronous::Connection;
use thrift_runtime::rpc::{ClientOptions, Framing, ProtocolKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Header);
        let places = PlacesAsyncClient::new(Connection::connect(ADDR, options).await?);
        places.put(lighthouse()).await?;

        // Clones share the connection; calls from many tasks are pipelined on it.
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let places = places.clone();
            tasks.push(tokio::spawn(async move {
                places.get("Lighthouse".into()).await
            }));
        }
        for task in tasks {
            let place = task.await??;
            println!("got {}", place.name);
        }
        Ok(())
    })
}

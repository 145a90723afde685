//! The `Places` service on the async (tokio) server, until Ctrl-C:
//! `cargo run -p thrift-examples --bin async-server`.

use thrift_examples::idl::tutorial::PlacesAsyncProcessor;
use thrift_examples::{ADDR, PlaceBook};
use thrift_runtime::rpc::ServerOptions;
use thrift_runtime::rpc::asynchronous::Server;

fn main() -> std::io::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(ADDR).await?;
        println!("serving Places on {ADDR} (async; Ctrl-C stops it gracefully)");
        let processor = PlacesAsyncProcessor::new(PlaceBook::default());
        let ctrl_c = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        Server::new(ServerOptions::default())
            .serve_with_shutdown(listener, processor, ctrl_c)
            .await
    })
}

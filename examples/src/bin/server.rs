//! The `Places` service on a blocking, threaded server: `cargo run -p thrift-examples --bin server`.

use std::net::TcpListener;

use thrift_examples::idl::tutorial::PlacesProcessor;
use thrift_examples::{ADDR, PlaceBook};
use thrift_runtime::rpc::ServerOptions;
use thrift_runtime::rpc::blocking::Server;

fn main() -> std::io::Result<()> {
    let listener = TcpListener::bind(ADDR)?;
    println!("serving Places on {ADDR} (blocking; any protocol and transport)");
    let processor = PlacesProcessor::new(PlaceBook::default());
    Server::new(ServerOptions::default()).serve(listener, processor)
}

//! A blocking `Places` client: `cargo run -p thrift-examples --bin client` (with a server
//! running).

use thrift_examples::idl::tutorial::{PlacesClient, PlacesGetError};
use thrift_examples::{ADDR, lighthouse};
use thrift_runtime::rpc::blocking::Connection;
use thrift_runtime::rpc::{ClientOptions, Framing, ProtocolKind};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
    let mut places = PlacesClient::new(Connection::connect(ADDR, options)?);

    places.put(lighthouse())?;
    let place = places.get("Lighthouse".into())?;
    println!("got {place:?}");

    // A declared exception arrives as its own variant.
    match places.get("Atlantis".into()) {
        Err(PlacesGetError::Missing(not_found)) => println!("not found: {}", not_found.name),
        other => println!("unexpected: {other:?}"),
    }

    places.forget("Lighthouse".into())?; // oneway: returns once sent
    Ok(())
}

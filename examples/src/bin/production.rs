//! A server set up for production, and a client of it: limits and timeouts chosen for the
//! service, latency mode, TLS, SASL with a proxy user, a handler that knows who calls, and a
//! graceful shutdown. The guide's "Running a service in production" page shows its parts.
//!
//! `cargo run -p thrift-examples --bin production` makes a CA and a certificate for
//! `localhost` for this run (in a temporary directory), starts the server on a port of the
//! kernel's choosing, calls it as `hue` acting for `alice`, is refused acting for `hive`, and
//! stops the server.

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use thrift_examples::idl::tutorial::{
    Place, Places, PlacesClient, PlacesGetError, PlacesProcessor,
};
use thrift_examples::{PlaceBook, lighthouse};
use thrift_runtime::FrameLimits;
use thrift_runtime::rpc::TcpConnector;
use thrift_runtime::rpc::blocking::{Connection, SaslListener, Server, TlsListener};
use thrift_runtime::rpc::sasl::SaslConnector;
use thrift_runtime::rpc::sasl::{Plain, SaslServerConfig};
use thrift_runtime::rpc::tls::TlsConnector;
use thrift_runtime::rpc::{ClientOptions, Framing, ProtocolKind, ServerOptions, context, tls};

// ANCHOR: handler
/// `PlaceBook`, telling who each call is for: the identity the client acts as, and the one
/// its credentials proved when they differ.
#[derive(Default)]
struct Audited(PlaceBook);

impl Audited {
    fn log(&self, call: &str) {
        match context::identity() {
            Some(who) if who.is_proxy() => {
                println!(
                    "{call} for {} (authenticated as {})",
                    who.authorized(),
                    who.authenticated()
                );
            }
            Some(who) => println!("{call} for {}", who.authorized()),
            None => println!("{call} for an unauthenticated client"),
        }
    }
}

impl Places for Audited {
    fn get(&self, name: String) -> Result<Place, PlacesGetError> {
        self.log("get");
        self.0.get(name)
    }

    fn put(&self, place: Place) -> thrift_runtime::Result<()> {
        self.log("put");
        self.0.put(place)
    }

    fn forget(&self, name: String) -> thrift_runtime::Result<()> {
        self.log("forget");
        self.0.forget(name)
    }
}
// ANCHOR_END: handler

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir =
        std::env::temp_dir().join(format!("thrift-production-example-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    thrift_examples::stand_in_certificates(&dir)?;

    // ANCHOR: options
    let options = ServerOptions {
        // Calls of this service are small: a client cannot make the server hold more than
        // 1 MiB for one frame (the default is 16 MB).
        limits: FrameLimits {
            max_frame_size: 1 << 20,
            ..FrameLimits::default()
        },
        workers: 32,
        idle_timeout: Some(Duration::from_secs(30)),
        read_timeout: Some(Duration::from_secs(5)),
        // Latency mode: poll for the next call up to 50 µs after each reply.
        busy_poll: Some(Duration::from_micros(50)),
        ..ServerOptions::default()
    };
    // ANCHOR_END: options

    // ANCHOR: listener
    // TLS, and SASL inside it: `hue` and `alice` sign in with their passwords; `hue` (a
    // gateway) may act for its users, but not for `hive`.
    let tls = tls::server_config(dir.join("server.pem"), dir.join("server.key"), None)?;
    let sasl = SaslServerConfig::new()
        .plain(|c| match c.user {
            "hue" => c.password == "hue-secret",
            "alice" => c.password == "alice-secret",
            _ => false,
        })
        .authorize(|user, authzid| user == "hue" && authzid != "hive");
    let listener = SaslListener::new(
        TlsListener::new(TcpListener::bind("127.0.0.1:0")?, tls),
        Arc::new(sasl),
    );
    let server = Server::new(options).spawn(listener, PlacesProcessor::new(Audited::default()))?;
    // ANCHOR_END: listener
    let addr = server.local_addr();

    // ANCHOR: client
    let config = tls::client_config(dir.join("ca.pem"), None)?;
    let mut options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
    // A call to a server gone silent fails after 5 s instead of waiting.
    options.timeout = Some(Duration::from_secs(5));
    let endpoint = addr.to_string();
    // SASL inside TLS over TCP, as the server's listeners stack them.
    let tls = TlsConnector::new(TcpConnector, config).server_name("localhost");
    let as_alice = SaslConnector::new(
        tls.clone(),
        Plain::new("hue", "hue-secret").authzid("alice"),
    );
    let connection = Connection::connect_with(&as_alice, &endpoint, options.clone())?;
    let mut places = PlacesClient::new(connection);
    places.put(lighthouse())?;
    println!("got {:?}", places.get("Lighthouse".into())?.name);

    // Acting for `hive` is not allowed: refused before any call.
    let as_hive = SaslConnector::new(tls, Plain::new("hue", "hue-secret").authzid("hive"));
    match Connection::connect_with(&as_hive, &endpoint, options) {
        Err(e) => println!("refused: {e}"),
        Ok(_) => return Err("acting for hive was allowed".into()),
    }
    // ANCHOR_END: client

    // ANCHOR: shutdown
    // Stops accepting, lets each connection finish the call it is serving, joins the workers.
    server.shutdown();
    // ANCHOR_END: shutdown
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

//! A client of a Thrift service over HTTPS, as Evernote's API and HiveServer2 or HBase in
//! HTTP mode behind TLS are reached: each call a `POST` on a kept-alive TLS connection, the
//! server's certificate checked against the URL's host and a CA. Blocking (`HttpClient`)
//! and async (`HttpClient`, several connections for calls at once).
//!
//! `cargo run -p thrift-examples --bin https-client` starts a stand-in HTTPS server (the
//! blocking `HttpServer` behind a `TlsListener`) with a CA and a certificate for `localhost`
//! made for this run, in a temporary directory, and calls it. To call a real service:
//! `... -- https://HOST/PATH CA.pem`; for a service whose certificate a public CA signed,
//! build a `rustls::ClientConfig` with public roots (the `webpki-roots` or
//! `rustls-native-certs` crates) and pass it to `with_tls`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};

use thrift_examples::idl::tutorial::{PlacesAsyncClient, PlacesClient, PlacesProcessor};
use thrift_examples::{PlaceBook, lighthouse};
use thrift_runtime::rpc::blocking::{ServerHandle, TlsListener};
use thrift_runtime::rpc::{ClientOptions, ProtocolKind, ServerOptions, tls};
use thrift_runtime::rpc::{asynchronous, blocking};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = std::env::temp_dir().join(format!("thrift-https-example-{}", std::process::id()));
    let (url, ca, _server) = match args.as_slice() {
        [url, ca] => (url.clone(), PathBuf::from(ca), None),
        [] => {
            std::fs::create_dir_all(&dir)?;
            let server = stand_in(&dir)?;
            let url = format!("https://localhost:{}/places", server.local_addr().port());
            (url, dir.join("ca.pem"), Some(server))
        }
        _ => return Err("usage: https-client [https://HOST/PATH CA.pem]".into()),
    };
    // ANCHOR: clients
    let config = tls::client_config(&ca, None)?;
    let options = ClientOptions::new(ProtocolKind::Binary);

    let channel = blocking::HttpClient::new(&url, options.clone())?
        .header("authorization", "Bearer example-token")?
        .with_tls(config.clone());
    let mut places = PlacesClient::new(channel);
    places.put(lighthouse())?;
    println!("blocking: got {:?}", places.get("Lighthouse".into())?.name);

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let channel = asynchronous::HttpClient::new(&url, options)?.with_tls(config)?;
        let places = PlacesAsyncClient::new(channel);
        let place = places.get("Lighthouse".into()).await?;
        println!("async: got {:?} at {:?}", place.name, place.location);
        Ok::<_, Box<dyn std::error::Error>>(())
    })?;
    // ANCHOR_END: clients
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A stand-in HTTPS server on a port of the kernel's choosing: a CA, and a certificate for
/// `localhost` it signed, written to `dir` as PEM files and read back as a user would.
fn stand_in(dir: &Path) -> Result<ServerHandle, Box<dyn std::error::Error>> {
    thrift_examples::stand_in_certificates(dir)?;

    // ANCHOR: server
    let config = tls::server_config(dir.join("server.pem"), dir.join("server.key"), None)?;
    let listener = TlsListener::new(TcpListener::bind("127.0.0.1:0")?, config);
    let processor = PlacesProcessor::new(PlaceBook::default());
    Ok(blocking::HttpServer::new(ServerOptions::default()).spawn(listener, processor)?)
    // ANCHOR_END: server
}

//! A Thrift service in an existing axum app: `HttpService` mounted at `/thrift` beside the
//! app's own routes, answering JSON (`TJSONProtocol`, what browsers and Node clients send),
//! binary and compact calls alike, each in its own protocol and content type.
//!
//! `cargo run -p thrift-examples --bin axum-json-http` serves on a port of the kernel's
//! choosing, calls it with a JSON client and shows one call's body as a browser would post
//! it; `... -- 127.0.0.1:8080` serves on that address until stopped (try it with Apache's
//! `THttpClient` and `TJSONProtocol`, or the `curl` line it prints).

use axum::Router;
use axum::routing::get;
use thrift_examples::idl::tutorial::{PlacesAsyncClient, PlacesAsyncProcessor, PlacesGetArgs};
use thrift_examples::{PlaceBook, lighthouse};
use thrift_runtime::MessageType;
use thrift_runtime::rpc::asynchronous::HttpService;
use thrift_runtime::rpc::{ClientOptions, ProtocolKind};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let serve_forever = std::env::args().nth(1);
    let thrift = HttpService::new(PlacesAsyncProcessor::new(PlaceBook::default()));
    let app = Router::new()
        .route("/health", get(|| async { "ok" }))
        .route_service("/thrift", thrift);
    let bind = serve_forever.as_deref().unwrap_or("127.0.0.1:0");
    let listener = tokio::net::TcpListener::bind(bind).await?;
    let addr = listener.local_addr()?;
    let url = format!("http://{addr}/thrift");

    // A call's body as a browser posts it (Content-Type: application/vnd.apache.thrift.json).
    let mut body = Vec::new();
    let args = PlacesGetArgs {
        name: "Lighthouse".into(),
    };
    ProtocolKind::Json.write_message(&mut body, "get", MessageType::Call, 1, &args)?;
    let body = String::from_utf8(body)?;
    println!("curl -s -H 'content-type: application/vnd.apache.thrift.json' -d '{body}' {url}");

    if serve_forever.is_some() {
        println!("serving on {addr}");
        axum::serve(listener, app).await?;
        return Ok(());
    }
    tokio::spawn(async move { axum::serve(listener, app).await });

    let options = ClientOptions::new(ProtocolKind::Json);
    let places = PlacesAsyncClient::new(thrift_runtime::rpc::asynchronous::HttpClient::new(
        &url, options,
    )?);
    places.put(lighthouse()).await?;
    let place = places.get("Lighthouse".into()).await?;
    println!("got {:?} over JSON", place.name);
    Ok(())
}

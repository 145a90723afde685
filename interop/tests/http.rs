//! Thrift over HTTP: the async server (`http::serve`, `HttpService`) answers the async
//! `HttpClient` and the blocking `HttpConnection` in every protocol, multiplexed, over HTTPS
//! too; connections are kept alive; oneway calls do not wait for the handler; bad requests get
//! their status and the server goes on; the clients' limits and status errors hold.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thrift_interop::handler::{SecondHandler, TestHandler};
use thrift_interop::types::{
    SecondServiceAsyncClient, SecondServiceAsyncProcessor, ThriftTestAsyncClient,
    ThriftTestAsyncProcessor, ThriftTestClient,
};
use thrift_runtime::rpc::blocking::ClientOptions;
use thrift_runtime::rpc::http::{self, HttpClient, HttpConnection, HttpService};
use thrift_runtime::rpc::tokio::{Listener, ServerOptions, TlsListener};
use thrift_runtime::rpc::{AsyncMultiplexedProcessor, ProtocolKind, Transport};
use thrift_runtime::{ErrorKind, FrameLimits, Limit};

mod support;
use support::Certs;

/// A TCP listener that counts the connections it accepts.
struct Counting {
    inner: tokio::net::TcpListener,
    accepted: Arc<AtomicUsize>,
}

impl Listener for Counting {
    type Io = tokio::net::TcpStream;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> std::io::Result<(Self::Io, SocketAddr)> {
        let accepted = self.inner.accept().await?;
        self.accepted.fetch_add(1, Ordering::SeqCst);
        Ok(accepted)
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

struct Server {
    addr: SocketAddr,
    accepted: Arc<AtomicUsize>,
    runtime: tokio::runtime::Runtime,
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn server_options() -> ServerOptions {
    ServerOptions {
        limits: FrameLimits {
            max_frame_size: 1 << 20,
            ..FrameLimits::default()
        },
        ..ServerOptions::default()
    }
}

fn processor() -> AsyncMultiplexedProcessor {
    let mut processor = AsyncMultiplexedProcessor::new();
    processor.register("ThriftTest", ThriftTestAsyncProcessor::new(TestHandler));
    processor.register(
        "SecondService",
        SecondServiceAsyncProcessor::new(SecondHandler),
    );
    processor.set_default(ThriftTestAsyncProcessor::new(TestHandler));
    processor
}

/// Our HTTP server on 127.0.0.1 (HTTPS with `tls`), multiplexed with ThriftTest as the default
/// service.
fn start(tls: Option<Arc<thrift_runtime::rpc::tls::rustls::ServerConfig>>) -> Server {
    let runtime = runtime();
    let inner = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = inner.local_addr().unwrap();
    let accepted = Arc::new(AtomicUsize::new(0));
    let listener = Counting {
        inner,
        accepted: Arc::clone(&accepted),
    };
    let forever = std::future::pending();
    match tls {
        Some(config) => runtime.spawn(http::serve(
            TlsListener::new(listener, config),
            processor(),
            server_options(),
            forever,
        )),
        None => runtime.spawn(http::serve(
            listener,
            processor(),
            server_options(),
            forever,
        )),
    };
    Server {
        addr,
        accepted,
        runtime,
    }
}

fn options(protocol: ProtocolKind) -> ClientOptions {
    let mut options = ClientOptions::new(protocol, Transport::Buffered);
    options.timeout = Some(Duration::from_secs(10));
    options
}

#[test]
fn both_clients_call_in_every_protocol_on_kept_alive_connections() {
    let server = start(None);
    let url = format!("http://{}/thrift", server.addr);
    for protocol in ProtocolKind::ALL {
        let before = server.accepted.load(Ordering::SeqCst);
        let mut client =
            ThriftTestClient::new(HttpConnection::new(&url, options(protocol)).unwrap());
        for i in 0..20 {
            assert_eq!(client.test_i32(i).unwrap(), i, "{protocol:?}");
        }
        let big = "é".repeat(100_000);
        assert_eq!(client.test_string(big.clone()).unwrap(), big);
        assert_eq!(
            server.accepted.load(Ordering::SeqCst) - before,
            1,
            "{protocol:?}: one kept-alive connection for every call"
        );
        // A oneway call returns once the server has taken it, not after the handler's 1 s.
        let since = Instant::now();
        client.test_oneway(1).unwrap();
        assert!(
            since.elapsed() < Duration::from_millis(500),
            "{:?}",
            since.elapsed()
        );
        assert_eq!(client.test_i32(-1).unwrap(), -1);
    }
    server.runtime.block_on(async {
        for protocol in ProtocolKind::ALL {
            let channel = HttpClient::new(&url, options(protocol))
                .unwrap()
                .header("x-tenant", "acme")
                .unwrap();
            let client = ThriftTestAsyncClient::new(channel.clone());
            // Calls at once go out on connections of the pool, then reuse them.
            let calls: Vec<_> = (0..16)
                .map(|i| {
                    let client = ThriftTestAsyncClient::new(channel.clone());
                    tokio::spawn(async move { client.test_i64(i).await })
                })
                .collect();
            for (i, call) in calls.into_iter().enumerate() {
                assert_eq!(call.await.unwrap().unwrap(), i as i64, "{protocol:?}");
            }
            let before = server.accepted.load(Ordering::SeqCst);
            for i in 0..10 {
                assert_eq!(client.test_byte(i).await.unwrap(), i);
            }
            assert_eq!(
                server.accepted.load(Ordering::SeqCst),
                before,
                "pooled connections"
            );
            let since = Instant::now();
            client.test_oneway(1).await.unwrap();
            assert!(since.elapsed() < Duration::from_millis(500));
            // A declared exception comes back as such.
            assert!(client.test_exception("Xception".into()).await.is_err());
        }
        // Multiplexed: the service name goes first.
        let mut second = options(ProtocolKind::Json);
        second.service = Some("SecondService".into());
        let client = SecondServiceAsyncClient::new(HttpClient::new(&url, second).unwrap());
        assert_eq!(
            client.secondtest_string("x".into()).await.unwrap(),
            "testString(\"x\")"
        );
    });
}

#[test]
fn https_with_a_tls_listener_and_both_clients() {
    let certs = Certs::new("https");
    let server = start(Some(certs.server(false)));
    let url = format!("https://localhost:{}/", server.addr.port());
    let config = certs.client("ca.pem", false);
    let mut client = ThriftTestClient::new(
        HttpConnection::new(&url, options(ProtocolKind::Compact))
            .unwrap()
            .with_tls(Arc::clone(&config)),
    );
    assert_eq!(
        client.test_string("over https".into()).unwrap(),
        "over https"
    );
    assert_eq!(client.test_i32(5).unwrap(), 5);
    server.runtime.block_on(async {
        let channel = HttpClient::new(&url, options(ProtocolKind::Json))
            .unwrap()
            .with_tls(Arc::clone(&config))
            .unwrap();
        let client = ThriftTestAsyncClient::new(channel);
        assert_eq!(client.test_double(0.25).await.unwrap(), 0.25);
        // Without a TLS configuration an https URL is refused, saying why.
        let plain =
            ThriftTestAsyncClient::new(HttpClient::new(&url, options(ProtocolKind::Json)).unwrap());
        let e = plain.test_i32(1).await.unwrap_err().to_string();
        assert!(e.contains("with_tls"), "{e}");
    });
    // A client that does not trust the server's CA is refused by its own check.
    let mut untrusting = ThriftTestClient::new(
        HttpConnection::new(&url, options(ProtocolKind::Binary))
            .unwrap()
            .with_tls(certs.client("other-ca.pem", false)),
    );
    let e = untrusting.test_i32(1).unwrap_err().to_string();
    assert!(e.contains("UnknownIssuer"), "{e}");
}

/// Sends `request` on a new connection and returns the status line and the response.
fn raw(addr: SocketAddr, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut response = Vec::new();
    let mut buf = [0; 4096];
    // Up to the end of the head and a little body (the server keeps the connection open).
    loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
        if response.windows(4).any(|w| w == b"\r\n\r\n") {
            break;
        }
    }
    String::from_utf8_lossy(&response).into_owned()
}

#[test]
fn bad_requests_get_their_status_and_the_server_goes_on() {
    let server = start(None);
    let addr = server.addr;
    let url = format!("http://{addr}/");
    for (request, status) in [
        (
            "GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_owned(),
            "405 Method Not Allowed",
        ),
        (
            // Declared larger than max_frame_size (1 MiB here): refused before the body.
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n".to_owned(),
            "413 Payload Too Large",
        ),
        (
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nnot a msg".to_owned(),
            "400 Bad Request",
        ),
        (
            // A message cut short.
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n[1,\"testI32\"".to_owned(),
            "400 Bad Request",
        ),
        (
            // A reply is not a call.
            format!(
                "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{}",
                r#"[1,"testVoid",2,1,{}]"#.len(),
                r#"[1,"testVoid",2,1,{}]"#
            ),
            "400 Bad Request",
        ),
    ] {
        let response = raw(addr, request.as_bytes());
        assert!(
            response.starts_with(&format!("HTTP/1.1 {status}")),
            "{request:?}: {response}"
        );
    }
    // A chunked body over the limit: refused as it arrives.
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    stream
        .write_all(b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    let chunk = vec![b'x'; 64 * 1024];
    for _ in 0..20 {
        if stream
            .write_all(format!("{:x}\r\n", chunk.len()).as_bytes())
            .is_err()
            || stream.write_all(&chunk).is_err()
            || stream.write_all(b"\r\n").is_err()
        {
            break;
        }
    }
    let mut head = [0; 64];
    let n = stream.read(&mut head).unwrap_or(0);
    assert!(
        String::from_utf8_lossy(&head[..n]).starts_with("HTTP/1.1 413"),
        "{:?}",
        String::from_utf8_lossy(&head[..n])
    );
    // After all of that, calls are served.
    let mut client =
        ThriftTestClient::new(HttpConnection::new(&url, options(ProtocolKind::Binary)).unwrap());
    assert_eq!(client.test_i32(7).unwrap(), 7);
}

#[test]
fn the_service_answers_requests_of_any_body_type() {
    // As a tower service, what an axum router or a hyper server calls.
    use tower::ServiceExt;
    let runtime = runtime();
    runtime.block_on(async {
        let service = HttpService::new(ThriftTestAsyncProcessor::new(TestHandler));
        let mut body = Vec::new();
        ProtocolKind::Json
            .write_message(
                &mut body,
                "testString",
                thrift_runtime::MessageType::Call,
                3,
                &thrift_interop::types::ThriftTestTestStringArgs {
                    thing: "via tower".into(),
                },
            )
            .unwrap();
        let request = ::http::Request::post("/thrift")
            .header("content-type", "application/vnd.apache.thrift.json")
            .body(http_body_util::Full::new(thrift_runtime::Bytes::from(body)))
            .unwrap();
        let response = service.clone().oneshot(request).await.unwrap();
        assert_eq!(response.status(), 200);
        assert_eq!(
            response.headers()["content-type"],
            "application/vnd.apache.thrift.json",
            "the reply in the call's content type"
        );
        use http_body_util::BodyExt;
        let reply = response.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8(reply.to_vec()).unwrap();
        assert_eq!(text, r#"[1,"testString",2,3,{"0":{"str":"via tower"}}]"#);
    });
}

#[test]
fn client_limits_and_statuses_are_errors_that_say_so() {
    let server = start(None);
    let url = format!("http://{}/", server.addr);
    // A reply larger than the client's max_frame_size.
    let mut small = options(ProtocolKind::Binary);
    small.limits.max_frame_size = 1000;
    let mut client = ThriftTestClient::new(HttpConnection::new(&url, small.clone()).unwrap());
    let e = client.test_string("x".repeat(990)).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LimitExceeded(Limit::FrameSize)),
        "{e:?}"
    );
    server.runtime.block_on(async {
        let client = ThriftTestAsyncClient::new(HttpClient::new(&url, small).unwrap());
        let e = client.test_string("x".repeat(990)).await.unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::LimitExceeded(Limit::FrameSize)),
            "{e:?}"
        );
    });
    // A server answering 404 (no Thrift endpoint there).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(2) {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0; 4096];
            let _ = stream.read(&mut buf);
            let _ =
                stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found");
        }
    });
    let url = format!("http://{addr}/nothing");
    let mut client =
        ThriftTestClient::new(HttpConnection::new(&url, options(ProtocolKind::Binary)).unwrap());
    let e = client.test_i32(1).unwrap_err().to_string();
    assert!(e.contains("404") && e.contains("/nothing"), "{e}");
    server.runtime.block_on(async {
        let client = ThriftTestAsyncClient::new(
            HttpClient::new(&url, options(ProtocolKind::Binary)).unwrap(),
        );
        let e = client.test_i32(1).await.unwrap_err().to_string();
        assert!(e.contains("404"), "{e}");
    });
    for bad in ["ftp://x/", "http://h:port/"] {
        assert!(HttpConnection::new(bad, options(ProtocolKind::Binary)).is_err());
        assert!(HttpClient::new(bad, options(ProtocolKind::Binary)).is_err());
    }
}

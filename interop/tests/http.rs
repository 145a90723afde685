//! Thrift over HTTP: both servers (the async `http::serve`/`HttpService` and the blocking
//! `HttpServer`) answer the async `HttpClient` and the blocking `HttpConnection` in every
//! protocol, multiplexed, over HTTPS too; connections are kept alive; oneway calls do not wait
//! for the handler; bad requests get their status and the server goes on; the clients' limits
//! and status errors hold.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use thrift_interop::handler::{SecondHandler, TestHandler};
use thrift_interop::types::{
    SecondServiceAsyncClient, SecondServiceAsyncProcessor, SecondServiceProcessor,
    ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
};
use thrift_runtime::rpc::asynchronous::{Listener, ServerOptions, TlsListener};
use thrift_runtime::rpc::blocking::{self, ClientOptions, ServerHandle};
use thrift_runtime::rpc::http::{self, HttpClient, HttpConnection, HttpServer, HttpService};
use thrift_runtime::rpc::{
    AsyncMultiplexedProcessor, MultiplexedProcessor, ProtocolKind, Transport,
};
use thrift_runtime::{ErrorKind, FrameLimits, Limit};

mod support;
use support::Certs;

/// A TCP listener that counts the connections it accepts.
struct Counting<L> {
    inner: L,
    accepted: Arc<AtomicUsize>,
}

impl Listener for Counting<tokio::net::TcpListener> {
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

impl blocking::Listener for Counting<std::net::TcpListener> {
    type Stream = TcpStream;
    type Addr = SocketAddr;

    fn accept(&self) -> std::io::Result<TcpStream> {
        let (stream, _) = self.inner.accept()?;
        self.accepted.fetch_add(1, Ordering::SeqCst);
        Ok(stream)
    }

    fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.inner.local_addr()
    }

    fn wake(addr: &SocketAddr) {
        <std::net::TcpListener as blocking::Listener>::wake(addr)
    }
}

/// Which of our HTTP servers a test runs against.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Async,
    Blocking,
}

const KINDS: [Kind; 2] = [Kind::Async, Kind::Blocking];

struct Server {
    addr: SocketAddr,
    accepted: Arc<AtomicUsize>,
    /// Runs the async server, and the async clients of either.
    runtime: tokio::runtime::Runtime,
    _blocking: Option<ServerHandle>,
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

fn blocking_processor() -> MultiplexedProcessor {
    let mut processor = MultiplexedProcessor::new();
    processor.register("ThriftTest", ThriftTestProcessor::new(TestHandler));
    processor.register("SecondService", SecondServiceProcessor::new(SecondHandler));
    processor.set_default(ThriftTestProcessor::new(TestHandler));
    processor
}

/// One of our HTTP servers on 127.0.0.1 (HTTPS with `tls`), multiplexed with ThriftTest as
/// the default service.
fn start(kind: Kind, tls: Option<Arc<thrift_runtime::rpc::tls::rustls::ServerConfig>>) -> Server {
    start_with(kind, tls, server_options())
}

fn start_with(
    kind: Kind,
    tls: Option<Arc<thrift_runtime::rpc::tls::rustls::ServerConfig>>,
    options: ServerOptions,
) -> Server {
    let runtime = runtime();
    let accepted = Arc::new(AtomicUsize::new(0));
    if let Kind::Blocking = kind {
        let inner = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = inner.local_addr().unwrap();
        let listener = Counting {
            inner,
            accepted: Arc::clone(&accepted),
        };
        let server = HttpServer::new(options);
        let handle = match tls {
            Some(config) => server.spawn(
                blocking::TlsListener::new(listener, config),
                blocking_processor(),
            ),
            None => server.spawn(listener, blocking_processor()),
        }
        .unwrap();
        return Server {
            addr,
            accepted,
            runtime,
            _blocking: Some(handle),
        };
    }
    let inner = runtime
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = inner.local_addr().unwrap();
    let listener = Counting {
        inner,
        accepted: Arc::clone(&accepted),
    };
    let forever = std::future::pending();
    match tls {
        Some(config) => runtime.spawn(http::serve(
            TlsListener::new(listener, config),
            processor(),
            options,
            forever,
        )),
        None => runtime.spawn(http::serve(listener, processor(), options, forever)),
    };
    Server {
        addr,
        accepted,
        runtime,
        _blocking: None,
    }
}

fn options(protocol: ProtocolKind) -> ClientOptions {
    let mut options = ClientOptions::new(protocol, Transport::Buffered);
    options.timeout = Some(Duration::from_secs(10));
    options
}

#[test]
fn both_clients_call_in_every_protocol_on_kept_alive_connections() {
    for kind in KINDS {
        every_protocol_on_kept_alive_connections(kind, server_options());
    }
    // Latency mode: a kept-alive connection polls 2 ms for its next request before it waits
    // (calls come both within the window and after it, the oneway's handler takes 1 s).
    let latency = ServerOptions {
        busy_poll: Some(Duration::from_millis(2)),
        ..server_options()
    };
    every_protocol_on_kept_alive_connections(Kind::Blocking, latency);
}

fn every_protocol_on_kept_alive_connections(kind: Kind, settings: ServerOptions) {
    let server = start_with(kind, None, settings);
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
            "{kind:?} {protocol:?}: one kept-alive connection for every call"
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
    for kind in KINDS {
        https(kind);
    }
}

fn https(kind: Kind) {
    let certs = Certs::new("https");
    let server = start(kind, Some(certs.server(false)));
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
    for kind in KINDS {
        bad_requests(kind);
    }
}

fn bad_requests(kind: Kind) {
    let server = start(kind, None);
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
            "{kind:?} {request:?}: {response}"
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

/// A JSON `testI32(thing)` call with sequence id `seq`, and the reply it gets.
fn json_call(thing: i32, seq: i32) -> (Vec<u8>, String) {
    let mut body = Vec::new();
    ProtocolKind::Json
        .write_message(
            &mut body,
            "testI32",
            thrift_runtime::MessageType::Call,
            seq,
            &thrift_interop::types::ThriftTestTestI32Args { thing },
        )
        .unwrap();
    (
        body,
        format!(r#"[1,"testI32",2,{seq},{{"0":{{"i32":{thing}}}}}]"#),
    )
}

/// Everything the server sends until it closes the connection.
fn read_to_close(stream: &mut TcpStream) -> String {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8_lossy(&response).into_owned()
}

#[test]
fn requests_as_http_clients_send_them() {
    for kind in KINDS {
        let server = start(kind, None);
        let head = |extra: &str, len: usize| {
            format!(
                "POST /thrift HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-thrift\r\n{extra}Content-Length: {len}\r\n\r\n"
            )
        };
        // Pipelined: three calls in one write, the last asking to close; three replies in
        // order, then the connection closes.
        let mut stream = TcpStream::connect(server.addr).unwrap();
        let mut requests = Vec::new();
        let mut replies = Vec::new();
        for (i, extra) in [(1, ""), (2, ""), (3, "Connection: close\r\n")] {
            let (body, reply) = json_call(i * 10, i);
            requests.extend_from_slice(head(extra, body.len()).as_bytes());
            requests.extend_from_slice(&body);
            replies.push(reply);
        }
        stream.write_all(&requests).unwrap();
        let response = read_to_close(&mut stream);
        assert_eq!(
            response.matches("HTTP/1.1 200 OK").count(),
            3,
            "{kind:?}: {response}"
        );
        let mut at = 0;
        for reply in &replies {
            let found = response[at..].find(reply.as_str());
            assert!(found.is_some(), "{kind:?}: {reply} in order in {response}");
            at += found.unwrap() + reply.len();
        }

        // A chunked body, and a client waiting for 100 Continue before sending its body.
        let (body, reply) = json_call(7, 9);
        let mut stream = TcpStream::connect(server.addr).unwrap();
        let (first, second) = body.split_at(5);
        let mut request = b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n".to_vec();
        for part in [first, second] {
            request.extend_from_slice(format!("{:x};ext=1\r\n", part.len()).as_bytes());
            request.extend_from_slice(part);
            request.extend_from_slice(b"\r\n");
        }
        request.extend_from_slice(b"0\r\nX-Trailer: t\r\n\r\n");
        stream.write_all(&request).unwrap();
        let response = read_to_close(&mut stream);
        assert!(
            response.starts_with("HTTP/1.1 200") && response.ends_with(&reply),
            "{kind:?}: {response}"
        );

        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream
            .write_all(head("Expect: 100-continue\r\nConnection: close\r\n", body.len()).as_bytes())
            .unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut interim = [0; 25];
        stream.read_exact(&mut interim).unwrap();
        assert_eq!(&interim, b"HTTP/1.1 100 Continue\r\n\r\n", "{kind:?}");
        stream.write_all(&body).unwrap();
        let response = read_to_close(&mut stream);
        assert!(
            response.starts_with("HTTP/1.1 200") && response.ends_with(&reply),
            "{kind:?}: {response}"
        );

        // HTTP/1.0 without keep-alive: answered, then closed.
        let mut stream = TcpStream::connect(server.addr).unwrap();
        let (body, reply) = json_call(-4, 2);
        stream
            .write_all(
                format!("POST / HTTP/1.0\r\nContent-Length: {}\r\n\r\n", body.len()).as_bytes(),
            )
            .unwrap();
        stream.write_all(&body).unwrap();
        let response = read_to_close(&mut stream);
        assert!(
            response.contains(" 200 OK\r\n") && response.ends_with(&reply),
            "{kind:?}: {response}"
        );
    }
}

#[test]
fn a_struct_posted_alone_is_the_whole_body_and_any_2xx_is_success() {
    // A collector that keeps what it is sent and answers 202 then 204, on one connection.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (sender, received) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        for answer in [
            &b"HTTP/1.1 202 Accepted\r\nContent-Length: 2\r\n\r\nok"[..],
            b"HTTP/1.1 204 No Content\r\n\r\n",
        ] {
            let mut request = Vec::new();
            let mut buf = [0; 4096];
            // The head, then Content-Length bytes.
            let body_at = loop {
                let n = stream.read(&mut buf).unwrap();
                request.extend_from_slice(&buf[..n]);
                if let Some(at) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                    break at + 4;
                }
            };
            let head = String::from_utf8_lossy(&request[..body_at]).to_ascii_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            while request.len() < body_at + len {
                let n = stream.read(&mut buf).unwrap();
                request.extend_from_slice(&buf[..n]);
            }
            sender.send(request[body_at..].to_vec()).unwrap();
            stream.write_all(answer).unwrap();
        }
    });
    let url = format!("http://{addr}/api/traces?format=jaeger.thrift");
    let mut collector = HttpConnection::new(&url, options(ProtocolKind::Binary)).unwrap();
    let value = thrift_interop::types::ThriftTestTestStringArgs {
        thing: "a span".into(),
    };
    let (status, body) = collector.post(&value).unwrap();
    assert_eq!((status, &body[..]), (202, &b"ok"[..]));
    use thrift_runtime::ThriftWrite;
    let encoded = value.encode_to_vec::<thrift_runtime::Binary>().unwrap();
    assert_eq!(
        received.recv().unwrap(),
        encoded,
        "the struct alone, no message"
    );
    let (status, body) = collector.post(&value).unwrap();
    assert_eq!((status, body.len()), (204, 0), "kept alive, no body");
    assert_eq!(received.recv().unwrap(), encoded);
}

#[test]
fn the_blocking_server_refuses_framing_a_proxy_could_read_otherwise() {
    let server = start(Kind::Blocking, None);
    let (body, reply) = json_call(5, 1);
    let len = body.len();
    let body = String::from_utf8(body).unwrap();
    for (request, status) in [
        ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n".to_string(), "400"),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: xchunked\r\n\r\n0\r\n\r\n".to_string(), "400"),
        ("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".to_string(), "400"),
        ("POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n".to_string(), "400"),
        (format!("POST / HTTP/1.1\r\nContent-Length: +{len}\r\n\r\n{body}"), "400"),
        (format!("POST / HTTP/1.1\r\nContent-Length: {len}\r\nContent-Length: {}\r\n\r\n{body}", len + 1), "400"),
        (format!("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+{len:x}\r\n{body}\r\n0\r\n\r\n"), "400"),
    ] {
        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let response = read_to_close(&mut stream);
        assert!(response.starts_with(&format!("HTTP/1.1 {status}")), "{request:?}: {response}");
    }
    // Both a length and chunks: the chunks count, and the connection closes after the reply
    // (the request asks to keep it).
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let request = format!(
        "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n{len:x}\r\n{body}\r\n0\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).unwrap();
    let response = read_to_close(&mut stream);
    assert!(
        response.starts_with("HTTP/1.1 200") && response.ends_with(&reply),
        "{response}"
    );
    assert!(response.contains("Connection: close"), "{response}");

    // Tiny chunks with long extensions: refused before the reader has taken much more than
    // 64 KiB of framing.
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .write_all(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")
        .unwrap();
    let chunk = format!("1;{}\r\nx\r\n", "e".repeat(4000));
    let mut sent = 0;
    while sent < 200 && stream.write_all(chunk.as_bytes()).is_ok() {
        sent += 1;
    }
    let response = read_to_close(&mut stream);
    assert!(
        response.starts_with("HTTP/1.1 400"),
        "after {sent} chunks: {response}"
    );
}

#[test]
fn a_kept_alive_connection_the_server_closed_is_replaced_and_no_call_is_sent_twice() {
    // The server closes idle connections after 200 ms: the next call finds its connection
    // closed before sending, and connects again.
    let quick = ServerOptions {
        idle_timeout: Some(Duration::from_millis(200)),
        ..server_options()
    };
    let server = start_with(Kind::Blocking, None, quick);
    let url = format!("http://{}/", server.addr);
    let mut client =
        ThriftTestClient::new(HttpConnection::new(&url, options(ProtocolKind::Binary)).unwrap());
    assert_eq!(client.test_i32(1).unwrap(), 1);
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(client.test_i32(2).unwrap(), 2);
    assert_eq!(server.accepted.load(Ordering::SeqCst), 2);

    // A server that answers a first call, then takes a second on the same kept-alive
    // connection and closes without answering (as when a handler dies): that call fails,
    // and is not sent again on a new connection (the server may have run it).
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let received = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&received);
    std::thread::spawn(move || {
        let (_, reply) = json_call(3, 1);
        for (index, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0; 4096];
            if matches!(stream.read(&mut buf), Ok(n) if n > 0) {
                counted.fetch_add(1, Ordering::SeqCst);
            }
            if index > 0 {
                continue;
            }
            let answer = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{reply}",
                reply.len()
            );
            stream.write_all(answer.as_bytes()).unwrap();
            if matches!(stream.read(&mut buf), Ok(n) if n > 0) {
                counted.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    let url = format!("http://{addr}/");
    let mut client =
        ThriftTestClient::new(HttpConnection::new(&url, options(ProtocolKind::Json)).unwrap());
    assert_eq!(client.test_i32(3).unwrap(), 3);
    assert!(client.test_i32(4).is_err());
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        received.load(Ordering::SeqCst),
        2,
        "each call was sent once"
    );
}

#[test]
fn a_hostile_http_server_gets_errors_not_panics() {
    // Each answer from a "server" that reads the request and writes this.
    for (answer, expect) in [
        (
            &b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n"[..],
            "FrameSize",
        ),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n10000000000000000\r\n",
            "chunk size",
        ),
        // As large as a usize: with no frame size limit, the size and its CRLF overflow.
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n",
            "chunk size",
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "Content-Length",
        ),
        (b"HTTP/1.1 101 Switching Protocols\r\n\r\n", "101"),
        (
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: br\r\n\r\n",
            "transfer coding",
        ),
    ] {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            if let Ok((mut stream, _)) = listener.accept() {
                let mut buf = [0; 4096];
                let _ = stream.read(&mut buf);
                let _ = stream.write_all(answer);
                std::thread::sleep(Duration::from_millis(200));
            }
        });
        let mut unlimited = options(ProtocolKind::Binary);
        unlimited.limits.max_frame_size = usize::MAX;
        if expect == "FrameSize" {
            unlimited.limits.max_frame_size = 1 << 20;
        }
        let url = format!("http://{addr}/");
        let mut client = ThriftTestClient::new(HttpConnection::new(&url, unlimited).unwrap());
        let e = client.test_i32(1).unwrap_err();
        assert!(format!("{e:?} {e}").contains(expect), "{expect}: {e:?}");
    }
}

#[test]
fn the_blocking_server_cuts_off_a_request_that_trickles_in() {
    let slow = ServerOptions {
        read_timeout: Some(Duration::from_millis(300)),
        ..server_options()
    };
    let server = start_with(Kind::Blocking, None, slow);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let started = Instant::now();
    // A head a byte at a time, slower than the read timeout allows for the whole request.
    for byte in b"POST / HTTP/1.1\r\nHost: x\r\n".iter() {
        if stream.write_all(&[*byte]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(40));
        if started.elapsed() > Duration::from_secs(2) {
            break;
        }
    }
    let response = read_to_close(&mut stream);
    assert!(response.starts_with("HTTP/1.1 408"), "{response}");
    assert!(started.elapsed() < Duration::from_secs(3));
    // The server goes on.
    let url = format!("http://{}/", server.addr);
    let mut client =
        ThriftTestClient::new(HttpConnection::new(&url, options(ProtocolKind::Compact)).unwrap());
    assert_eq!(client.test_i32(3).unwrap(), 3);

    // Without a read timeout, a body that comes a while after its head is waited for.
    let patient = ServerOptions {
        read_timeout: None,
        ..server_options()
    };
    let server = start_with(Kind::Blocking, None, patient);
    let mut stream = TcpStream::connect(server.addr).unwrap();
    let (body, reply) = json_call(11, 4);
    let head = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    stream.write_all(&body).unwrap();
    let response = read_to_close(&mut stream);
    assert!(
        response.starts_with("HTTP/1.1 200") && response.ends_with(&reply),
        "{response}"
    );
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
    let server = start(Kind::Async, None);
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
        for stream in listener.incoming().take(3) {
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
    // A struct posted as the body (as to Jaeger's collector): a status other than 2xx too.
    let mut poster = HttpConnection::new(&url, options(ProtocolKind::Binary)).unwrap();
    let value = thrift_interop::types::ThriftTestTestI32Args { thing: 1 };
    let e = poster.post(&value).unwrap_err().to_string();
    assert!(e.contains("404"), "{e}");
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

/// An old-style (non-strict) binary call, as Apache's `TBinaryProtocol(strictWrite=false)`
/// writes it: `testI32(5)`.
const OLD_STYLE_TEST_I32: &[u8] =
    b"\x00\x00\x00\x07testI32\x01\x00\x00\x00\x09\x08\x00\x01\x00\x00\x00\x05\x00";

#[test]
fn both_servers_answer_old_style_binary_calls() {
    for kind in KINDS {
        let server = start(kind, None);
        let mut request = format!(
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
            OLD_STYLE_TEST_I32.len()
        )
        .into_bytes();
        request.extend_from_slice(OLD_STYLE_TEST_I32);
        let mut stream = TcpStream::connect(server.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        stream.write_all(&request).unwrap();
        // The reply, strict binary: testI32, REPLY, sequence id 9, field 0 = 5.
        let reply = b"\x80\x01\x00\x02\x00\x00\x00\x07testI32\x00\x00\x00\x09\x08\x00\x00\x00\x00\x00\x05\x00";
        let mut response = Vec::new();
        let mut buf = [0; 4096];
        while !response.ends_with(reply) {
            match stream.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => response.extend_from_slice(&buf[..n]),
            }
        }
        let text = String::from_utf8_lossy(&response);
        assert!(text.starts_with("HTTP/1.1 200 OK"), "{kind:?}: {text}");
        assert!(response.ends_with(reply), "{kind:?}: {text}");
    }
}

/// Sends `body` in a POST on a new connection; the status line and the response's body.
fn post(addr: SocketAddr, body: &[u8]) -> (String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut request = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend_from_slice(body);
    stream.write_all(&request).unwrap();
    let mut response = Vec::new();
    let mut buf = [0; 4096];
    let (head, len) = loop {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => panic!("no whole response: {response:?}"),
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
        if let Some(end) = response.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&response[..end]).into_owned();
            let len: usize = head
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse().unwrap())
                })
                .expect("a content-length");
            response.drain(..end + 4);
            break (head, len);
        }
    };
    while response.len() < len {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => response.extend_from_slice(&buf[..n]),
        }
    }
    let status = head.lines().next().unwrap_or_default().to_owned();
    (status, String::from_utf8_lossy(&response).into_owned())
}

/// A `400` says what was wrong and where, for a developer sending calls from a browser or a
/// script: the byte at which the message breaks, the method called, the first bytes of what is
/// no message; bounded, never the body itself.
#[test]
fn a_bad_request_says_what_and_where() {
    let long_name = "m".repeat(10_000);
    let long_call = format!(r#"[1,"{long_name}",1,1,{{"1":"#);
    let cases: [(&[u8], &[&str]); 7] = [
        (
            b"[",
            &["a body of 1 bytes is too short for a Thrift message"],
        ),
        (
            br#"{"method":"testI32"}"#,
            &[
                "not a Thrift message: the body starts with 7b 22 6d 65 74 68 6f 64 (\"{\\\"method\"), where a binary message starts with 80 01",
            ],
        ),
        (
            br#"[1,"testI32",1,1,{"1":{"i32":]}}]"#,
            &[
                "malformed Json message at byte ",
                " of 33: ",
                "(calling `testI32`)",
            ],
        ),
        (
            br#"[1,"testVoid",1,1,{}]xyz"#,
            &[
                "3 bytes after the end of the Json message at byte 21: one call per request (calling `testVoid`)",
            ],
        ),
        (
            br#"[1,"testVoid",2,1,{}]"#,
            &["a Reply message is not a call (calling `testVoid`)"],
        ),
        (
            b"\x80\x01\x00",
            &["malformed Binary message at byte 0 of 3: "],
        ),
        (long_call.as_bytes(), &["(calling `mmmm", "mmm...`)"]),
    ];
    for kind in KINDS {
        let server = start(kind, None);
        for (body, expected) in &cases {
            let (status, why) = post(server.addr, body);
            assert_eq!(status, "HTTP/1.1 400 Bad Request", "{kind:?}");
            for part in *expected {
                assert!(why.contains(part), "{kind:?}: {why:?} lacks {part:?}");
            }
            assert!(why.len() < 400, "{kind:?}: bounded: {why}");
        }
    }
}

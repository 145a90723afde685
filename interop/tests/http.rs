//! Thrift over HTTP: both servers (the async `http::serve`/`HttpService` and the blocking
//! `HttpServer`) answer the async `HttpClient` and the blocking `HttpClient` in every
//! protocol, multiplexed, over HTTPS too; connections are kept alive; oneway calls do not wait
//! for the handler; requests come as HTTP clients send them (pipelined, chunked, after
//! `100 Continue`, HTTP/1.0); a struct posted alone is the body. Bad requests and hostile peers
//! are in `http_bad_requests.rs` and `http_client_errors.rs`.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    SecondServiceAsyncClient, ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient,
};
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::rpc::ServerOptions;
use thrift_runtime::rpc::asynchronous;
use thrift_runtime::rpc::blocking;

mod support;
use support::http_servers::{
    KINDS, Kind, client_options, json_call, read_to_close, server_options, start, start_with,
};
use support::{Certs, runtime};

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
        let mut client = ThriftTestClient::new(
            blocking::HttpClient::new(&url, client_options(protocol)).unwrap(),
        );
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
            let channel = asynchronous::HttpClient::new(&url, client_options(protocol))
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
        let mut second = client_options(ProtocolKind::Json);
        second.service = Some("SecondService".into());
        let client =
            SecondServiceAsyncClient::new(asynchronous::HttpClient::new(&url, second).unwrap());
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
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Compact))
            .unwrap()
            .with_tls(Arc::clone(&config)),
    );
    assert_eq!(
        client.test_string("over https".into()).unwrap(),
        "over https"
    );
    assert_eq!(client.test_i32(5).unwrap(), 5);
    server.runtime.block_on(async {
        let channel = asynchronous::HttpClient::new(&url, client_options(ProtocolKind::Json))
            .unwrap()
            .with_tls(Arc::clone(&config))
            .unwrap();
        let client = ThriftTestAsyncClient::new(channel);
        assert_eq!(client.test_double(0.25).await.unwrap(), 0.25);
        // Without a TLS configuration an https URL is refused, saying why.
        let plain = ThriftTestAsyncClient::new(
            asynchronous::HttpClient::new(&url, client_options(ProtocolKind::Json)).unwrap(),
        );
        let e = plain.test_i32(1).await.unwrap_err().to_string();
        assert!(e.contains("with_tls"), "{e}");
    });
    // A client that does not trust the server's CA is refused by its own check.
    let mut untrusting = ThriftTestClient::new(
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Binary))
            .unwrap()
            .with_tls(certs.client("other-ca.pem", false)),
    );
    let e = untrusting.test_i32(1).unwrap_err().to_string();
    assert!(e.contains("UnknownIssuer"), "{e}");
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
    let mut collector =
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Binary)).unwrap();
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
fn a_kept_alive_connection_the_server_closed_is_replaced_and_no_call_is_sent_twice() {
    // The server closes idle connections after 200 ms: the next call finds its connection
    // closed before sending, and connects again.
    let quick = ServerOptions {
        idle_timeout: Some(Duration::from_millis(200)),
        ..server_options()
    };
    let server = start_with(Kind::Blocking, None, quick);
    let url = format!("http://{}/", server.addr);
    let mut client = ThriftTestClient::new(
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Binary)).unwrap(),
    );
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
    let mut client = ThriftTestClient::new(
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Json)).unwrap(),
    );
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
fn the_service_answers_requests_of_any_body_type() {
    // As a tower service, what an axum router or a hyper server calls.
    use tower::ServiceExt;
    let runtime = runtime();
    runtime.block_on(async {
        let service = asynchronous::HttpService::new(ThriftTestAsyncProcessor::new(TestHandler));
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

//! Both HTTP clients, blocking and async: their limits and a status other than 2xx are errors
//! that say so, and a hostile server gets errors, not panics.

use std::io::{Read, Write};
use std::time::Duration;

use thrift_interop::types::{ThriftTestAsyncClient, ThriftTestClient};
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::rpc::{asynchronous, blocking};
use thrift_runtime::{ErrorKind, Limit};

mod support;
use support::http_servers::{Kind, client_options, start};

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
        let mut unlimited = client_options(ProtocolKind::Binary);
        unlimited.limits.max_frame_size = usize::MAX;
        if expect == "FrameSize" {
            unlimited.limits.max_frame_size = 1 << 20;
        }
        let url = format!("http://{addr}/");
        let mut client = ThriftTestClient::new(blocking::HttpClient::new(&url, unlimited).unwrap());
        let e = client.test_i32(1).unwrap_err();
        assert!(format!("{e:?} {e}").contains(expect), "{expect}: {e:?}");
    }
}

#[test]
fn client_limits_and_statuses_are_errors_that_say_so() {
    let server = start(Kind::Async, None);
    let url = format!("http://{}/", server.addr);
    // A reply larger than the client's max_frame_size.
    let mut small = client_options(ProtocolKind::Binary);
    small.limits.max_frame_size = 1000;
    let mut client = ThriftTestClient::new(blocking::HttpClient::new(&url, small.clone()).unwrap());
    let e = client.test_string("x".repeat(990)).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LimitExceeded(Limit::FrameSize)),
        "{e:?}"
    );
    server.runtime.block_on(async {
        let client =
            ThriftTestAsyncClient::new(asynchronous::HttpClient::new(&url, small).unwrap());
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
    let mut client = ThriftTestClient::new(
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Binary)).unwrap(),
    );
    let e = client.test_i32(1).unwrap_err().to_string();
    assert!(e.contains("404") && e.contains("/nothing"), "{e}");
    // A struct posted as the body (as to Jaeger's collector): a status other than 2xx too.
    let mut poster = blocking::HttpClient::new(&url, client_options(ProtocolKind::Binary)).unwrap();
    let value = thrift_interop::types::ThriftTestTestI32Args { thing: 1 };
    let e = poster.post(&value).unwrap_err().to_string();
    assert!(e.contains("404"), "{e}");
    server.runtime.block_on(async {
        let client = ThriftTestAsyncClient::new(
            asynchronous::HttpClient::new(&url, client_options(ProtocolKind::Binary)).unwrap(),
        );
        let e = client.test_i32(1).await.unwrap_err().to_string();
        assert!(e.contains("404"), "{e}");
    });
    for bad in ["ftp://x/", "http://h:port/"] {
        assert!(blocking::HttpClient::new(bad, client_options(ProtocolKind::Binary)).is_err());
        assert!(asynchronous::HttpClient::new(bad, client_options(ProtocolKind::Binary)).is_err());
    }
}

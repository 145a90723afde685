//! Both HTTP servers answer bad requests with their status and a reason, and go on serving:
//! wrong methods, bodies over the limit, malformed messages; the blocking server refuses
//! framing a proxy could read otherwise and cuts off a request that trickles in.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use thrift_interop::types::ThriftTestClient;
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::rpc::ServerOptions;
use thrift_runtime::rpc::blocking;

mod support;
use support::http_servers::{
    KINDS, Kind, client_options, json_call, read_to_close, server_options, start, start_with,
};

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
    let mut client = ThriftTestClient::new(
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Binary)).unwrap(),
    );
    assert_eq!(client.test_i32(7).unwrap(), 7);
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
    let mut client = ThriftTestClient::new(
        blocking::HttpClient::new(&url, client_options(ProtocolKind::Compact)).unwrap(),
    );
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

//! TLS: both servers behind a `TlsListener` serve both clients' `connect_tls` in every
//! framing; mutual TLS admits only clients with a certificate of its CA; a client refuses a
//! server its CA did not sign or whose name does not match; plaintext, garbage and stalled
//! handshakes close their connection only. Certificates are made here with rcgen.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
};
use thrift_runtime::rpc::blocking::{Connection, Server, TlsListener, TlsStream};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous, tls};

mod support;
use support::Certs;

fn options() -> ServerOptions {
    ServerOptions {
        workers: 2,
        idle_timeout: Some(Duration::from_millis(600)),
        read_timeout: Some(Duration::from_millis(600)),
        ..ServerOptions::default()
    }
}

/// Starts a blocking or async ThriftTest server over TLS on 127.0.0.1; the guard stops it.
fn start(
    config: Arc<tls::rustls::ServerConfig>,
    asynchronous: bool,
) -> (SocketAddr, Box<dyn std::any::Any>) {
    if asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let listener = asynchronous::TlsListener::new(listener, config);
        let processor = ThriftTestAsyncProcessor::new(TestHandler);
        runtime.spawn(asynchronous::Server::new(options()).serve(listener, processor));
        (addr, Box::new(runtime))
    } else {
        let listener = TlsListener::new(TcpListener::bind("127.0.0.1:0").unwrap(), config);
        let handle = Server::new(options())
            .spawn(listener, ThriftTestProcessor::new(TestHandler))
            .unwrap();
        (handle.local_addr(), Box::new(handle))
    }
}

fn client_options(protocol: ProtocolKind, transport: Framing) -> ClientOptions {
    let mut options = ClientOptions::new(protocol).with_framing(transport);
    options.timeout = Some(Duration::from_secs(5));
    options
}

const TRANSPORTS: [Framing; 4] = [
    Framing::Buffered,
    Framing::Framed,
    Framing::Header,
    Framing::FramedHeader,
];

/// Blocking calls over TLS in every framing.
fn blocking_calls(addr: SocketAddr, config: &Arc<tls::rustls::ClientConfig>) {
    for transport in TRANSPORTS {
        for protocol in ProtocolKind::ALL {
            let connection = Connection::connect_tls(
                addr,
                "localhost",
                Arc::clone(config),
                client_options(protocol, transport),
            )
            .unwrap();
            let mut client = ThriftTestClient::new(connection);
            let big = "x".repeat(100_000);
            assert_eq!(client.test_string(big.clone()).unwrap(), big);
            assert_eq!(
                client.test_i32(-7).unwrap(),
                -7,
                "{protocol:?} {transport:?}"
            );
        }
    }
}

/// Async calls over TLS in every framing, several at once on one connection.
fn async_calls(addr: SocketAddr, config: &Arc<tls::rustls::ClientConfig>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        for transport in TRANSPORTS {
            for protocol in ProtocolKind::ALL {
                let connection = asynchronous::Connection::connect_tls(
                    addr,
                    "127.0.0.1",
                    Arc::clone(config),
                    client_options(protocol, transport),
                )
                .await
                .unwrap();
                let client = ThriftTestAsyncClient::new(connection);
                let (a, b) = tokio::join!(client.test_i64(1 << 40), client.test_string("s".into()));
                assert_eq!(a.unwrap(), 1 << 40, "{protocol:?} {transport:?}");
                assert_eq!(b.unwrap(), "s");
            }
        }
    });
}

#[test]
fn both_servers_serve_both_clients_over_tls_in_every_framing() {
    let certs = Certs::new("serve");
    let client = certs.client("ca.pem", false);
    for asynchronous in [false, true] {
        let (addr, _server) = start(certs.server(false), asynchronous);
        blocking_calls(addr, &client);
        async_calls(addr, &client);
    }
}

#[test]
fn mutual_tls_admits_only_clients_with_a_certificate_of_its_ca() {
    let certs = Certs::new("mutual");
    for asynchronous in [false, true] {
        let (addr, _server) = start(certs.server(true), asynchronous);
        // With the client certificate: served.
        blocking_calls(addr, &certs.client("ca.pem", true));
        async_calls(addr, &certs.client("ca.pem", true));
        // Without one: the server ends the handshake (under TLS 1.3 the client learns it at
        // its first read).
        let options = client_options(ProtocolKind::Binary, Framing::Framed);
        let refused = Connection::connect_tls(
            addr,
            "localhost",
            certs.client("ca.pem", false),
            options.clone(),
        )
        .and_then(|connection| ThriftTestClient::new(connection).test_i32(1));
        let message = refused
            .expect_err("a client without a certificate")
            .to_string();
        assert!(
            message.contains("TLS") || message.contains("closed"),
            "{message}"
        );
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let refused = runtime.block_on(async {
            let connection = asynchronous::Connection::connect_tls(
                addr,
                "localhost",
                certs.client("ca.pem", false),
                options,
            )
            .await?;
            ThriftTestAsyncClient::new(connection).test_i32(1).await
        });
        assert!(refused.is_err(), "{refused:?}");
    }
}

#[test]
fn a_client_refuses_a_server_its_ca_did_not_sign_or_of_another_name() {
    let certs = Certs::new("refuse");
    for asynchronous in [false, true] {
        let (addr, _server) = start(certs.server(false), asynchronous);
        let options = client_options(ProtocolKind::Compact, Framing::Framed);
        for (ca, name, why) in [
            ("other-ca.pem", "localhost", "UnknownIssuer"),
            ("ca.pem", "thrift.example.com", "not valid for name"),
        ] {
            let refused =
                Connection::connect_tls(addr, name, certs.client(ca, false), options.clone());
            let message = refused.expect_err("an untrusted server").to_string();
            assert!(message.contains(why), "{message}");
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            let refused = runtime.block_on(asynchronous::Connection::connect_tls(
                addr,
                name,
                certs.client(ca, false),
                options.clone(),
            ));
            let message = refused.expect_err("an untrusted server").to_string();
            assert!(
                message.contains(why) && message.contains("TLS"),
                "{message}"
            );
        }
        // After all that, the server still serves.
        blocking_calls(addr, &certs.client("ca.pem", false));
    }
}

#[test]
fn plaintext_garbage_and_stalled_handshakes_close_their_connection_only() {
    let certs = Certs::new("faults");
    let client = certs.client("ca.pem", false);
    for asynchronous in [false, true] {
        let (addr, _server) = start(certs.server(false), asynchronous);
        // A plaintext Thrift call: refused (an alert, then the end), never answered.
        let options = client_options(ProtocolKind::Binary, Framing::Framed);
        let plain = Connection::connect(addr, options)
            .and_then(|connection| ThriftTestClient::new(connection).test_i32(1));
        assert!(plain.is_err(), "{plain:?}");
        // Bytes that are no TLS record: the connection is closed.
        let mut garbage = TcpStream::connect(addr).unwrap();
        garbage
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        garbage.write_all(&[0x16, 0x03, 0x01, 0xff, 0xff]).unwrap();
        garbage.write_all(&[0xAB; 4096]).unwrap();
        let mut rest = Vec::new();
        let _ = garbage.read_to_end(&mut rest);
        assert!(rest.len() < 64, "only an alert, if anything: {rest:?}");
        // A client that connects and never says hello is closed after the idle timeout,
        // and others are served meanwhile.
        let mut stalled = TcpStream::connect(addr).unwrap();
        stalled
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let since = Instant::now();
        blocking_calls(addr, &client);
        assert_eq!(stalled.read(&mut [0; 16]).unwrap(), 0);
        let waited = since.elapsed();
        assert!(
            waited >= Duration::from_millis(500) && waited < Duration::from_secs(4),
            "{waited:?}"
        );
        // A hello cut off half way: closed after the timeout too.
        let mut cut = TcpStream::connect(addr).unwrap();
        cut.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        cut.write_all(&[0x16, 0x03, 0x01, 0x02, 0x00, 0x01])
            .unwrap();
        assert_eq!(cut.read(&mut [0; 16]).unwrap_or(0), 0);
        blocking_calls(addr, &client);
    }
}

/// TLS is one more layer over any stream: a blocking server on a Unix domain socket behind
/// a `TlsListener`, and a client making its session over a `UnixStream` by hand.
#[cfg(unix)]
#[test]
fn tls_over_a_unix_domain_socket() {
    use std::os::unix::net::{UnixListener, UnixStream};

    let certs = Certs::new("unix");
    let path: &Path = &certs.path("sock");
    let listener = TlsListener::new(UnixListener::bind(path).unwrap(), certs.server(true));
    let _server = Server::new(options())
        .spawn(listener, ThriftTestProcessor::new(TestHandler))
        .unwrap();
    let session = tls::rustls::ClientConnection::new(
        certs.client("ca.pem", true),
        tls::server_name("localhost").unwrap(),
    )
    .unwrap();
    let mut stream = TlsStream::new(session, UnixStream::connect(path).unwrap());
    stream.handshake().unwrap();
    let options = client_options(ProtocolKind::Compact, Framing::Header);
    let mut client = ThriftTestClient::new(Connection::new(stream, options));
    assert_eq!(
        client.test_string("tls over unix".into()).unwrap(),
        "tls over unix"
    );
}

#[test]
fn pem_files_that_are_not_what_they_should_be_name_the_file() {
    let certs = Certs::new("pem");
    let missing = tls::server_config(certs.path("nope.pem"), certs.path("server.key"), None);
    let message = missing.unwrap_err().to_string();
    assert!(message.contains("nope.pem"), "{message}");
    // A key where a certificate should be.
    let swapped = tls::server_config(certs.path("server.key"), certs.path("server.key"), None);
    let message = swapped.unwrap_err().to_string();
    assert!(
        message.contains("server.key") && message.contains("CERTIFICATE"),
        "{message}"
    );
    // A certificate where a key should be.
    let swapped = tls::client_config(
        certs.path("ca.pem"),
        Some((&certs.path("client.pem"), &certs.path("client.pem"))),
    );
    let message = swapped.unwrap_err().to_string();
    assert!(message.contains("client.pem"), "{message}");
    // A key that is not the certificate's.
    let mismatched = tls::server_config(certs.path("server.pem"), certs.path("client.key"), None);
    assert!(mismatched.is_err());
}

/// `testI32(n)` as a framed strict binary call.
fn framed_test_i32(n: i32) -> Vec<u8> {
    let mut call = b"\x80\x01\x00\x01\x00\x00\x00\x07testI32\x00\x00\x00\x01\x08\x00\x01".to_vec();
    call.extend_from_slice(&n.to_be_bytes());
    call.push(0);
    let mut framed = (call.len() as u32).to_be_bytes().to_vec();
    framed.extend_from_slice(&call);
    framed
}

/// RFC 8446 section 6.1: each side ends its session with `close_notify` before closing the
/// socket (OpenSSL peers log "unexpected eof" otherwise). A peer's read of the whole session
/// is `Ok` only when `close_notify` came; without it, rustls says `UnexpectedEof`.
#[test]
fn both_servers_answer_close_notify_with_close_notify() {
    use tls::rustls::{ClientConnection, StreamOwned};
    let certs = Certs::new("close-server");
    for asynchronous in [false, true] {
        let (addr, _server) = start(certs.server(false), asynchronous);
        let session = ClientConnection::new(
            certs.client("ca.pem", false),
            tls::server_name("localhost").unwrap(),
        )
        .unwrap();
        let socket = TcpStream::connect(addr).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut stream = StreamOwned::new(session, socket);
        stream.write_all(&framed_test_i32(5)).unwrap();
        let mut reply = [0; 4];
        stream.read_exact(&mut reply).unwrap();
        let mut body = vec![0; u32::from_be_bytes(reply) as usize];
        stream.read_exact(&mut body).unwrap();
        assert!(body.ends_with(&[0, 0, 0, 5, 0]), "{body:?}");
        stream.conn.send_close_notify();
        stream.flush().unwrap();
        let mut rest = Vec::new();
        let end = stream.read_to_end(&mut rest);
        assert!(end.is_ok(), "async: {asynchronous}: {end:?}");
        assert!(rest.is_empty());
    }
}

#[test]
fn both_clients_end_their_session_with_close_notify() {
    use tls::rustls::{ServerConnection, StreamOwned};
    let certs = Certs::new("close-client");
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let config = certs.server(false);
    // Answers testI32 calls until the client ends the session; says how it ended.
    let server = std::thread::spawn(move || {
        let mut ends = Vec::new();
        for _ in 0..2 {
            let (socket, _) = listener.accept().unwrap();
            socket
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            let mut stream =
                StreamOwned::new(ServerConnection::new(Arc::clone(&config)).unwrap(), socket);
            let end = loop {
                let mut head = [0; 4];
                match stream.read(&mut head[..1]) {
                    Ok(0) => break "close_notify".to_owned(),
                    Ok(_) => stream.read_exact(&mut head[1..]).unwrap(),
                    Err(e) => break format!("{:?}", e.kind()),
                }
                let mut call = vec![0; u32::from_be_bytes(head) as usize];
                stream.read_exact(&mut call).unwrap();
                let seq = &call[15..19];
                let mut reply = b"\x80\x01\x00\x02\x00\x00\x00\x07testI32".to_vec();
                reply.extend_from_slice(seq);
                reply.extend_from_slice(&[8, 0, 0]);
                reply.extend_from_slice(&call[call.len() - 5..call.len() - 1]);
                reply.push(0);
                let mut framed = (reply.len() as u32).to_be_bytes().to_vec();
                framed.extend_from_slice(&reply);
                stream.write_all(&framed).unwrap();
            };
            ends.push(end);
        }
        ends
    });
    let config = certs.client("ca.pem", false);
    let options = client_options(ProtocolKind::Binary, Framing::Framed);
    let mut client = ThriftTestClient::new(
        Connection::connect_tls(addr, "localhost", Arc::clone(&config), options.clone()).unwrap(),
    );
    assert_eq!(client.test_i32(3).unwrap(), 3);
    drop(client);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = ThriftTestAsyncClient::new(
            asynchronous::Connection::connect_tls(addr, "localhost", config, options)
                .await
                .unwrap(),
        );
        assert_eq!(client.test_i32(4).await.unwrap(), 4);
        drop(client);
        // The connection's tasks end the session.
        tokio::time::sleep(Duration::from_millis(200)).await;
    });
    // A read of the session's end after close_notify is the end of the stream, not an
    // unexpected one (blocking client, then async).
    assert_eq!(server.join().unwrap(), ["close_notify", "close_notify"]);
}

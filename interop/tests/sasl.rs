//! SASL: both servers behind a `SaslListener` authenticate both clients' `connect_sasl` with
//! PLAIN and serve them; wrong credentials, unknown mechanisms, garbage, truncated and stalled
//! negotiations get `BAD`/`ERROR` or are closed, and the server goes on; a mechanism of the
//! user's plugs in through the traits.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
    ThriftTestTestStringArgs, ThriftTestTestStringResult,
};
use thrift_runtime::ErrorKind;
use thrift_runtime::rpc::TcpConnector;
use thrift_runtime::rpc::blocking::{Connection, Pool, SaslListener, Server, TlsListener};
use thrift_runtime::rpc::sasl::SaslConnector;
use thrift_runtime::rpc::sasl::{
    self, ClientMechanism, Plain, SaslServerConfig, ServerMechanism, ServerStep,
};
use thrift_runtime::rpc::tls::TlsConnector;
use thrift_runtime::rpc::{ClientOptions, PoolOptions, ServerOptions};
mod support;
use support::Certs;

use thrift_runtime::rpc::{
    AsyncProcessor, Framing, Message, Processor, ProtocolKind, asynchronous,
};

/// A challenge-response mechanism of the test's own: the server challenges with a number,
/// the client answers with it doubled.
struct Doubling;

impl ClientMechanism for Doubling {
    fn name(&self) -> &str {
        "X-DOUBLING"
    }

    fn initial_response(&mut self) -> io::Result<Vec<u8>> {
        Ok(b"hello".to_vec())
    }

    fn respond(&mut self, challenge: &[u8]) -> io::Result<Vec<u8>> {
        let n: u32 = std::str::from_utf8(challenge).unwrap().parse().unwrap();
        Ok((n * 2).to_string().into_bytes())
    }
}

struct DoublingServer {
    asked: bool,
}

impl ServerMechanism for DoublingServer {
    fn step(&mut self, response: &[u8]) -> ServerStep {
        if !self.asked {
            self.asked = true;
            return ServerStep::Challenge(b"21".to_vec());
        }
        if response == b"42" {
            ServerStep::Complete {
                authenticated: "doubler".into(),
                authzid: String::new(),
            }
        } else {
            ServerStep::Reject("wrong answer".into())
        }
    }
}

fn config() -> Arc<SaslServerConfig> {
    Arc::new(
        SaslServerConfig::new()
            .plain(|c| c.user == "hive" && c.password == "s3cret")
            .mechanism("X-DOUBLING", || Box::new(DoublingServer { asked: false })),
    )
}

fn server_options() -> ServerOptions {
    ServerOptions {
        workers: 2,
        idle_timeout: Some(Duration::from_millis(600)),
        read_timeout: Some(Duration::from_millis(600)),
        ..ServerOptions::default()
    }
}

fn start(asynchronous: bool) -> (SocketAddr, Box<dyn std::any::Any>) {
    if asynchronous {
        let runtime = support::runtime();
        let (listener, addr) = support::tokio_listener(&runtime);
        let listener = asynchronous::SaslListener::new(listener, config());
        let processor = ThriftTestAsyncProcessor::new(TestHandler);
        runtime.spawn(asynchronous::Server::new(server_options()).serve(listener, processor));
        (addr, Box::new(runtime))
    } else {
        let listener = SaslListener::new(TcpListener::bind("127.0.0.1:0").unwrap(), config());
        let handle = Server::new(server_options())
            .spawn(listener, ThriftTestProcessor::new(TestHandler))
            .unwrap();
        (handle.local_addr(), Box::new(handle))
    }
}

fn options(protocol: ProtocolKind) -> ClientOptions {
    let mut options = ClientOptions::new(protocol);
    options.timeout = Some(Duration::from_secs(5));
    options
}

#[test]
fn both_servers_authenticate_and_serve_both_clients() {
    for asynchronous in [false, true] {
        let (addr, _server) = start(asynchronous);
        for protocol in ProtocolKind::ALL {
            let connection =
                Connection::connect_sasl(addr, Plain::new("hive", "s3cret"), options(protocol))
                    .unwrap();
            assert_eq!(connection.options().framing, Framing::Framed);
            let mut client = ThriftTestClient::new(connection);
            let big = "y".repeat(50_000);
            assert_eq!(client.test_string(big.clone()).unwrap(), big);
            assert_eq!(client.test_i32(3).unwrap(), 3, "{protocol:?}");
        }
        // A challenge-response mechanism of the user's own.
        let mut client = ThriftTestClient::new(
            Connection::connect_sasl(addr, Doubling, options(ProtocolKind::Compact)).unwrap(),
        );
        assert_eq!(client.test_i64(7).unwrap(), 7);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let connection = asynchronous::Connection::connect_sasl(
                addr,
                Plain::new("hive", "s3cret").authzid("hive"),
                options(ProtocolKind::Binary),
            )
            .await
            .unwrap();
            let client = ThriftTestAsyncClient::new(connection);
            let (a, b) = tokio::join!(client.test_i32(1), client.test_string("s".into()));
            assert_eq!((a.unwrap(), b.unwrap().as_str()), (1, "s"));
        });
    }
}

/// Reads what the server says until it closes (or 5 s pass).
fn said(stream: &mut TcpStream) -> Vec<u8> {
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    out
}

#[test]
fn bad_credentials_and_bad_negotiations_are_refused_and_the_server_goes_on() {
    for asynchronous in [false, true] {
        let (addr, _server) = start(asynchronous);
        for (user, password) in [("hive", "wrong"), ("nobody", "s3cret"), ("", "")] {
            let refused = Connection::connect_sasl(
                addr,
                Plain::new(user, password),
                options(ProtocolKind::Binary),
            );
            let e = refused.expect_err("refused");
            assert!(
                matches!(e.kind(), ErrorKind::Io(io) if io.kind() == io::ErrorKind::PermissionDenied),
                "{e:?}"
            );
            let message = e.to_string();
            assert!(message.contains("authentication failed"), "{message}");
            assert!(!message.contains("s3cret"), "nothing leaked: {message}");
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let refused = runtime.block_on(asynchronous::Connection::connect_sasl(
            addr,
            Plain::new("hive", "wrong"),
            options(ProtocolKind::Binary),
        ));
        assert!(refused.is_err());
        // An unknown mechanism: BAD, then closed.
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"\x01\x00\x00\x00\x06GSSAPI").unwrap();
        let reply = said(&mut stream);
        assert_eq!(reply[0], sasl::BAD, "{reply:?}");
        assert!(String::from_utf8_lossy(&reply[5..]).contains("unsupported mechanism"));
        // A Thrift call without authenticating: ERROR, then closed, nothing served.
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(
                b"\x00\x00\x00\x15\x80\x01\x00\x01\x00\x00\x00\x08testVoid\x00\x00\x00\x01\x00",
            )
            .unwrap();
        let reply = said(&mut stream);
        assert_eq!(reply.first(), Some(&sasl::ERROR), "{reply:?}");
        // A negotiation message cut short, then the client goes: closed.
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"\x01\x00\x00\x00\x05PLA").unwrap();
        stream.shutdown(std::net::Shutdown::Write).unwrap();
        assert!(said(&mut stream).is_empty());
        // A declared length over the limit: refused before anything is buffered.
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"\x01\x7f\xff\xff\xff").unwrap();
        assert_eq!(said(&mut stream).first(), Some(&sasl::ERROR));
        // A client that connects and never negotiates: closed after the idle timeout.
        let mut stalled = TcpStream::connect(addr).unwrap();
        let since = Instant::now();
        assert!(said(&mut stalled).is_empty());
        let waited = since.elapsed();
        assert!(
            waited >= Duration::from_millis(500) && waited < Duration::from_secs(4),
            "{waited:?}"
        );
        // After all of that, the server serves.
        let mut client = ThriftTestClient::new(
            Connection::connect_sasl(
                addr,
                Plain::new("hive", "s3cret"),
                options(ProtocolKind::Binary),
            )
            .unwrap(),
        );
        assert_eq!(client.test_i32(9).unwrap(), 9);
    }
}

/// Serves every call as `testString`, answering who the client is, as the handler sees it.
struct WhoAmI;

fn who_am_i() -> String {
    match thrift_runtime::rpc::context::identity() {
        Some(who) => format!("{} as {}", who.authenticated(), who.authorized()),
        None => "nobody".into(),
    }
}

impl Processor for WhoAmI {
    fn process(&self, call: &Message, out: &mut Vec<u8>) -> thrift_runtime::Result<()> {
        thrift_runtime::rpc::serve(call, out, |_: ThriftTestTestStringArgs| {
            Ok(ThriftTestTestStringResult {
                success: Some(who_am_i()),
            })
        })
    }
}

impl AsyncProcessor for WhoAmI {
    async fn process<'a>(
        &'a self,
        call: &'a Message,
        out: &'a mut Vec<u8>,
    ) -> thrift_runtime::Result<()> {
        thrift_runtime::rpc::serve_async(call, out, |_: ThriftTestTestStringArgs| async {
            tokio::task::yield_now().await;
            Ok(ThriftTestTestStringResult {
                success: Some(who_am_i()),
            })
        })
        .await
    }
}

/// `hive`, `hue` and `alice` with the password `s3cret`; `hue` may act as `alice`.
fn proxy_config() -> Arc<SaslServerConfig> {
    Arc::new(
        SaslServerConfig::new()
            .plain(|c| c.password == "s3cret" && ["hive", "hue", "alice"].contains(&c.user))
            .authorize(|user, authzid| user == "hue" && authzid == "alice"),
    )
}

fn start_who_am_i(asynchronous: bool) -> (SocketAddr, Box<dyn std::any::Any>) {
    if asynchronous {
        let runtime = support::runtime();
        let (listener, addr) = support::tokio_listener(&runtime);
        let listener = asynchronous::SaslListener::new(listener, proxy_config());
        runtime.spawn(asynchronous::Server::new(server_options()).serve(listener, WhoAmI));
        (addr, Box::new(runtime))
    } else {
        let listener = SaslListener::new(TcpListener::bind("127.0.0.1:0").unwrap(), proxy_config());
        let handle = Server::new(server_options())
            .spawn(listener, WhoAmI)
            .unwrap();
        (handle.local_addr(), Box::new(handle))
    }
}

#[test]
fn an_authorization_identity_must_be_allowed_and_handlers_see_both_identities() {
    for asynchronous in [false, true] {
        let (addr, _server) = start_who_am_i(asynchronous);
        let who = |plain: Plain| {
            let connection = Connection::connect_sasl(addr, plain, options(ProtocolKind::Binary))?;
            ThriftTestClient::new(connection).test_string(String::new())
        };
        let cases = [
            (Plain::new("hive", "s3cret"), Some("hive as hive")),
            (
                Plain::new("hive", "s3cret").authzid("hive"),
                Some("hive as hive"),
            ),
            (
                Plain::new("hue", "s3cret").authzid("alice"),
                Some("hue as alice"),
            ),
            (Plain::new("alice", "s3cret"), Some("alice as alice")),
            // Good credentials do not make a client whoever it names.
            (Plain::new("hive", "s3cret").authzid("root"), None),
            (Plain::new("hue", "s3cret").authzid("hive"), None),
            (Plain::new("alice", "s3cret").authzid("hue"), None),
        ];
        for (plain, expected) in cases {
            let what = format!("{plain:?}");
            match (who(plain), expected) {
                (Ok(got), Some(expected)) => assert_eq!(got, expected, "{what}"),
                (Err(e), None) => {
                    assert!(
                        matches!(e.kind(), ErrorKind::Io(io) if io.kind() == io::ErrorKind::PermissionDenied),
                        "{what}: {e:?}"
                    );
                    assert!(e.to_string().contains("not authorized"), "{what}: {e}");
                }
                (got, expected) => panic!("{what}: {got:?}, expected {expected:?}"),
            }
        }
        // The wire as the reproduction sends it: BAD (3), then closed.
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(b"\x01\x00\x00\x00\x05PLAIN\x02\x00\x00\x00\x10root\0hive\0s3cret")
            .unwrap();
        let reply = said(&mut stream);
        assert_eq!(reply.first(), Some(&sasl::BAD), "{reply:?}");
    }
}

/// Both servers with SASL inside TLS (a `SaslListener` around a `TlsListener`), and the
/// handler's view of who called.
fn start_tls_sasl(asynchronous: bool, certs: &Certs) -> (SocketAddr, Box<dyn std::any::Any>) {
    let tls = certs.server(false);
    if asynchronous {
        let runtime = support::runtime();
        let (listener, addr) = support::tokio_listener(&runtime);
        let listener = asynchronous::SaslListener::new(
            asynchronous::TlsListener::new(listener, tls),
            proxy_config(),
        );
        runtime.spawn(asynchronous::Server::new(server_options()).serve(listener, WhoAmI));
        (addr, Box::new(runtime))
    } else {
        let listener = SaslListener::new(
            TlsListener::new(TcpListener::bind("127.0.0.1:0").unwrap(), tls),
            proxy_config(),
        );
        let handle = Server::new(server_options())
            .spawn(listener, WhoAmI)
            .unwrap();
        (handle.local_addr(), Box::new(handle))
    }
}

#[test]
fn sasl_inside_tls_with_both_clients_and_no_silent_downgrade() {
    let certs = Certs::new("sasl");
    let client_tls = certs.client("ca.pem", false);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    for asynchronous in [false, true] {
        let (addr, _server) = start_tls_sasl(asynchronous, &certs);
        let endpoint = addr.to_string();
        // The connectors stack as the server's listeners do: SASL inside TLS over TCP.
        let tls = TlsConnector::new(TcpConnector, Arc::clone(&client_tls)).server_name("localhost");
        let as_alice = SaslConnector::new(tls, Plain::new("hue", "s3cret").authzid("alice"));
        let connection =
            Connection::connect_with(&as_alice, &endpoint, options(ProtocolKind::Compact)).unwrap();
        assert_eq!(connection.options().framing, Framing::Framed);
        let mut client = ThriftTestClient::new(connection);
        assert_eq!(client.test_string(String::new()).unwrap(), "hue as alice");
        // A pool of such connections.
        let pool = Pool::with_connector(
            as_alice,
            [endpoint.as_str()],
            options(ProtocolKind::Binary),
            PoolOptions::default(),
        )
        .unwrap();
        let mut client = ThriftTestClient::new(pool.get().unwrap());
        assert_eq!(client.test_string(String::new()).unwrap(), "hue as alice");
        runtime.block_on(async {
            let tls = thrift_runtime::rpc::tls::TlsConnector::new(
                thrift_runtime::rpc::TcpConnector,
                Arc::clone(&client_tls),
            )
            .server_name("localhost");
            let as_hive =
                thrift_runtime::rpc::sasl::SaslConnector::new(tls, Plain::new("hive", "s3cret"));
            let connection = asynchronous::Connection::connect_with(
                &as_hive,
                &endpoint,
                options(ProtocolKind::Binary),
            )
            .await
            .unwrap();
            let client = ThriftTestAsyncClient::new(connection);
            assert_eq!(
                client.test_string(String::new()).await.unwrap(),
                "hive as hive"
            );
            let pool = asynchronous::Pool::with_connector(
                as_hive,
                [endpoint.as_str()],
                options(ProtocolKind::Compact),
                PoolOptions::default(),
            )
            .unwrap();
            let client = ThriftTestAsyncClient::new(pool);
            assert_eq!(
                client.test_string(String::new()).await.unwrap(),
                "hive as hive"
            );
        });
        // SASL in the clear to a SASL-over-TLS server: no negotiation happens.
        let clear = Connection::connect_sasl(
            addr,
            Plain::new("hive", "s3cret"),
            options(ProtocolKind::Binary),
        );
        assert!(clear.is_err());
    }
    // SASL over TLS to a server without TLS: the TLS handshake fails, nothing is sent in
    // the clear.
    let (plain_addr, _server) = start_who_am_i(false);
    let tls = TlsConnector::new(TcpConnector, Arc::clone(&client_tls)).server_name("localhost");
    let downgraded = Connection::connect_with(
        &SaslConnector::new(tls, Plain::new("hive", "s3cret")),
        &plain_addr.to_string(),
        options(ProtocolKind::Binary),
    );
    assert!(downgraded.is_err());
}

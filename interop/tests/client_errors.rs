//! Client errors a user can act on, tried as a user would: one taxonomy for the blocking
//! client, the async client, tower layers around it and HTTP. A local timeout is
//! `ErrorKind::TimedOut` (never a raw `WouldBlock`, never an exception), a failed connect is
//! `ErrorKind::Connect` naming the address, a connection that goes away is
//! `ErrorKind::Closed`, and only what the server sent is `ErrorKind::Application`, printed
//! with its kind's name.

use std::io::Read;
use std::net::{SocketAddr, TcpListener};
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    SecondServiceAsyncClient, SecondServiceClient, ThriftTestAsyncClient, ThriftTestClient,
    ThriftTestProcessor,
};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::layers::ServiceChannel;
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous};
use thrift_runtime::{ApplicationExceptionKind, ErrorKind};

mod support;
use support::refusing;

/// A "server" that reads calls and never answers.
fn silent() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut sink = [0u8; 1024];
                while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
            });
        }
    });
    addr
}

/// A "server" that reads the first bytes of a call, then closes the connection.
fn hanging_up() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            let mut first = [0u8; 4];
            let _ = stream.read_exact(&mut first);
        }
    });
    addr
}

fn framed() -> ClientOptions {
    ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed)
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn a_refused_connection_names_the_address() {
    let addr = refusing();
    let text = addr.to_string();
    let check = |err: thrift_runtime::Error| {
        match err.kind() {
            ErrorKind::Connect { address, source } => {
                assert_eq!(address, &text);
                assert_eq!(source.kind(), std::io::ErrorKind::ConnectionRefused);
            }
            other => panic!("expected a connect error, got {other:?}"),
        }
        assert!(err.is_disconnected());
        assert!(err.to_string().contains(&text), "{err}");
    };
    check(Connection::connect(addr, framed()).unwrap_err());
    check(Connection::connect(text.as_str(), framed()).unwrap_err());
    runtime().block_on(async {
        check(
            asynchronous::Connection::connect(addr, framed())
                .await
                .unwrap_err(),
        );
        check(
            asynchronous::Connection::connect(text.as_str(), framed())
                .await
                .unwrap_err(),
        );
    });
    // A name that does not resolve is named too.
    let err = Connection::connect("no-such-host.invalid:9090", framed()).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Connect { address, .. } if address == "no-such-host.invalid:9090"),
        "{err:?}"
    );
}

#[test]
fn the_blocking_clients_timeout_is_timed_out() {
    let addr = silent();
    let mut options = framed();
    options.timeout = Some(Duration::from_millis(200));
    let mut client = ThriftTestClient::new(Connection::connect(addr, options).unwrap());
    let started = Instant::now();
    let err = client.test_i32(1).unwrap_err();
    assert!(
        err.is_timeout() && matches!(err.kind(), ErrorKind::TimedOut),
        "{err:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    // The connection may hold a late reply: the next call says so, as a closed connection.
    let err = client.test_i32(2).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Closed), "{err:?}");
    assert!(err.to_string().contains("connect again"), "{err}");
}

#[test]
fn a_tower_timeout_layer_is_timed_out_not_an_exception() {
    let addr = silent();
    runtime().block_on(async {
        let connection = asynchronous::Connection::connect(addr, framed())
            .await
            .unwrap();
        let layered = tower::ServiceBuilder::new()
            .timeout(Duration::from_millis(200))
            .service(connection);
        let client = ThriftTestAsyncClient::new(ServiceChannel::new(layered, ProtocolKind::Binary));
        let err = client.test_i32(1).await.unwrap_err();
        assert!(err.is_timeout(), "{err:?}");
        assert!(err.application_exception().is_none(), "{err:?}");
    });
}

#[test]
fn a_tower_layers_other_errors_are_other() {
    let addr = silent();
    runtime().block_on(async {
        let connection = asynchronous::Connection::connect(addr, framed())
            .await
            .unwrap();
        // A load shedder in front of a concurrency limit of one: the second call in flight
        // is shed.
        let layered = tower::ServiceBuilder::new()
            .load_shed()
            .concurrency_limit(1)
            .timeout(Duration::from_millis(400))
            .service(connection);
        let client = ThriftTestAsyncClient::new(ServiceChannel::new(layered, ProtocolKind::Binary));
        let (first, second) = tokio::join!(client.test_i32(1), client.test_i32(2));
        let errors = [first.unwrap_err(), second.unwrap_err()];
        assert!(errors.iter().any(|e| e.is_timeout()), "{errors:?}");
        assert!(
            errors
                .iter()
                .any(|e| matches!(e.kind(), ErrorKind::Other(_))
                    && e.to_string().contains("overloaded")),
            "{errors:?}"
        );
    });
}

#[test]
fn a_connection_closed_mid_call_is_closed() {
    let addr = hanging_up();
    let mut client = ThriftTestClient::new(Connection::connect(addr, framed()).unwrap());
    let err = client.test_i32(1).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::Closed) && err.is_disconnected(),
        "{err:?}"
    );
    runtime().block_on(async {
        let connection = asynchronous::Connection::connect(addr, framed())
            .await
            .unwrap();
        let client = ThriftTestAsyncClient::new(connection);
        let err = client.test_i32(1).await.unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Closed), "{err:?}");
    });
}

#[test]
fn an_exception_from_the_server_is_named() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::new(ServerOptions::default())
        .spawn(listener, ThriftTestProcessor::new(TestHandler))
        .unwrap();
    let addr = server.local_addr();
    // SecondService's method on a server of ThriftTest alone: UNKNOWN_METHOD.
    let mut client = SecondServiceClient::new(Connection::connect(addr, framed()).unwrap());
    let err = client.secondtest_string("x".into()).unwrap_err();
    let exception = err.application_exception().expect("an exception");
    assert_eq!(exception.kind, ApplicationExceptionKind::UNKNOWN_METHOD);
    assert!(
        err.to_string()
            .starts_with("application exception UNKNOWN_METHOD: "),
        "{err}"
    );
    assert!(format!("{err:?}").contains("UNKNOWN_METHOD"), "{err:?}");
    assert!(!format!("{err:?}").contains("context"), "{err:?}");
    runtime().block_on(async {
        let connection = asynchronous::Connection::connect(addr, framed())
            .await
            .unwrap();
        let client = SecondServiceAsyncClient::new(connection);
        let err = client.secondtest_string("x".into()).await.unwrap_err();
        assert_eq!(
            err.application_exception().map(|e| e.kind),
            Some(ApplicationExceptionKind::UNKNOWN_METHOD)
        );
    });
}

#[test]
fn a_service_channel_with_the_wrong_protocol_is_refused() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::new(ServerOptions::default())
        .spawn(listener, ThriftTestProcessor::new(TestHandler))
        .unwrap();
    let addr = server.local_addr();
    runtime().block_on(async {
        let connection = asynchronous::Connection::connect(addr, framed())
            .await
            .unwrap();
        // The connection speaks binary; the channel is told compact.
        let client = ThriftTestAsyncClient::new(ServiceChannel::new(
            connection.clone(),
            ProtocolKind::Compact,
        ));
        let err = client.test_i32(1).await.unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Other(_)), "{err:?}");
        assert!(
            err.to_string().contains("Compact") && err.to_string().contains("Binary"),
            "{err}"
        );
        // Nothing was sent: the connection goes on.
        let client =
            ThriftTestAsyncClient::new(ServiceChannel::new(connection, ProtocolKind::Binary));
        assert_eq!(client.test_i32(7).await.unwrap(), 7);
    });
}

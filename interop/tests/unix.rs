//! Unix domain sockets: the blocking and the async server serve them as they serve TCP
//! (every framing detected, timeouts, faults closing one connection only, shutdown), and both
//! clients connect to them.
#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous};

/// A socket path of its own per test, removed when dropped.
struct SocketPath(PathBuf);

impl SocketPath {
    fn new(name: &str) -> Self {
        let path =
            std::env::temp_dir().join(format!("thrift-unix-{}-{name}.sock", std::process::id()));
        let _ = std::fs::remove_file(&path);
        SocketPath(path)
    }
}

impl Drop for SocketPath {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn options() -> ServerOptions {
    ServerOptions {
        workers: 2,
        idle_timeout: Some(Duration::from_millis(600)),
        read_timeout: Some(Duration::from_millis(600)),
        ..ServerOptions::default()
    }
}

/// Starts a blocking or async ThriftTest server on `path`; the guard stops it.
fn start(path: &Path, asynchronous: bool) -> Box<dyn std::any::Any> {
    if asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = {
            let _entered = runtime.enter();
            tokio::net::UnixListener::bind(path).unwrap()
        };
        let processor = ThriftTestAsyncProcessor::new(TestHandler);
        runtime.spawn(asynchronous::Server::new(options()).serve(listener, processor));
        Box::new(runtime)
    } else {
        let listener = UnixListener::bind(path).unwrap();
        let handle = Server::new(options())
            .spawn(listener, ThriftTestProcessor::new(TestHandler))
            .unwrap();
        let addr = handle.local_addr();
        assert_eq!(addr.as_pathname(), Some(path));
        Box::new(handle)
    }
}

fn client_options(protocol: ProtocolKind, transport: Framing) -> ClientOptions {
    let mut options = ClientOptions::new(protocol).with_framing(transport);
    options.timeout = Some(Duration::from_secs(5));
    options
}

fn blocking_calls(path: &Path) {
    for transport in [
        Framing::Buffered,
        Framing::Framed,
        Framing::Header,
        Framing::FramedHeader,
    ] {
        for protocol in ProtocolKind::ALL {
            let connection =
                Connection::connect_unix(path, client_options(protocol, transport)).unwrap();
            let mut client = ThriftTestClient::new(connection);
            assert_eq!(
                client.test_string("over a unix socket".into()).unwrap(),
                "over a unix socket",
                "{protocol:?} {transport:?}"
            );
            assert_eq!(client.test_i32(-7).unwrap(), -7);
        }
    }
}

#[test]
fn both_servers_serve_both_clients_in_every_framing() {
    for asynchronous in [false, true] {
        let path = SocketPath::new(if asynchronous { "async" } else { "blocking" });
        let _server = start(&path.0, asynchronous);
        blocking_calls(&path.0);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let options = client_options(ProtocolKind::Compact, Framing::FramedHeader);
            let connection = asynchronous::Connection::connect_unix(&path.0, options)
                .await
                .unwrap();
            let client = ThriftTestAsyncClient::new(connection);
            assert_eq!(client.test_i64(1 << 40).await.unwrap(), 1 << 40);
        });
    }
}

#[test]
fn a_garbage_sending_or_idle_client_is_closed_and_others_are_served() {
    for asynchronous in [false, true] {
        let path = SocketPath::new(if asynchronous {
            "faults-async"
        } else {
            "faults"
        });
        let _server = start(&path.0, asynchronous);
        // Not a Thrift message: the connection is closed.
        let mut garbage = UnixStream::connect(&path.0).unwrap();
        garbage
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        garbage.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        let mut rest = Vec::new();
        assert_eq!(garbage.read_to_end(&mut rest).unwrap(), 0);
        // A client that connects and says nothing is closed after the idle timeout.
        let mut idle = UnixStream::connect(&path.0).unwrap();
        idle.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let since = Instant::now();
        assert_eq!(idle.read(&mut [0; 16]).unwrap(), 0);
        let waited = since.elapsed();
        assert!(
            waited >= Duration::from_millis(500) && waited < Duration::from_secs(4),
            "{waited:?}"
        );
        blocking_calls(&path.0);
    }
}

#[test]
fn dropping_the_handle_stops_a_blocking_unix_server() {
    let path = SocketPath::new("shutdown");
    let server = start(&path.0, false);
    blocking_calls(&path.0);
    drop(server);
    let options = client_options(ProtocolKind::Binary, Framing::Framed);
    let refused = Connection::connect_unix(&path.0, options)
        .and_then(|connection| ThriftTestClient::new(connection).test_i32(1));
    assert!(refused.is_err(), "{refused:?}");
}

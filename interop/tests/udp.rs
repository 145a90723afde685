//! UDP: oneway calls, one per datagram, between both clients and both servers, and with
//! Apache's Python library (compact over a memory buffer, as Jaeger's clients send); oversized,
//! malformed and reply-expecting datagrams are dropped and counted while the server goes on.

use std::net::UdpSocket;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
};
use thrift_runtime::rpc::ClientOptions;
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::rpc::blocking::{ServerHandle, UdpClient, UdpServer};
use thrift_runtime::rpc::udp::UdpStats;
use thrift_runtime::rpc::{ServerOptions, asynchronous};

fn options(protocol: ProtocolKind) -> ClientOptions {
    ClientOptions::new(protocol)
}

/// Waits until `count` reaches `n` (datagrams travel on their own).
fn until(what: &str, count: impl Fn() -> u64, n: u64) {
    let since = Instant::now();
    while count() < n {
        assert!(
            since.elapsed() < Duration::from_secs(5),
            "{what}: {} of {n}",
            count()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The blocking server, with datagrams of at most 1,000 bytes, and what it counts.
fn spawn_blocking() -> (ServerHandle, Arc<UdpStats>) {
    let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
    let server = UdpServer::new(ServerOptions::default()).max_datagram(1000);
    let stats = server.stats();
    let handle = server
        .spawn(socket, ThriftTestProcessor::new(TestHandler))
        .unwrap();
    (handle, stats)
}

#[test]
fn oneway_calls_go_one_per_datagram_and_bad_datagrams_are_dropped() {
    let (server, stats) = spawn_blocking();
    let addr = server.local_addr();
    let served = || stats.served.load(Ordering::SeqCst);
    let dropped = || stats.dropped.load(Ordering::SeqCst);
    for protocol in ProtocolKind::ALL {
        let mut client =
            ThriftTestClient::new(UdpClient::connect(addr, options(protocol)).unwrap());
        client.test_oneway(0).unwrap();
        // A call that expects a reply cannot go over UDP.
        let e = client.test_i32(1).unwrap_err().to_string();
        assert!(e.contains("oneway calls only"), "{e}");
    }
    until("served", served, 3);
    // Too large for the client's limit: refused before sending.
    let mut small = ThriftTestClient::new(
        UdpClient::connect(addr, options(ProtocolKind::Compact))
            .unwrap()
            .max_datagram(10),
    );
    assert!(small.test_oneway(0).is_err());
    // Too large for the server's (1000 bytes), garbage, and a call expecting a reply: dropped.
    let raw = UdpSocket::bind("127.0.0.1:0").unwrap();
    raw.send_to(&vec![0x82; 1500], addr).unwrap();
    raw.send_to(b"GET / HTTP/1.1\r\n\r\n", addr).unwrap();
    let mut call = Vec::new();
    ProtocolKind::Compact
        .write_message(
            &mut call,
            "testVoid",
            thrift_runtime::MessageType::Call,
            1,
            &thrift_interop::types::ThriftTestTestVoidArgs {},
        )
        .unwrap();
    raw.send_to(&call, addr).unwrap();
    until("dropped", dropped, 3);
    let mut client =
        ThriftTestClient::new(UdpClient::connect(addr, options(ProtocolKind::Compact)).unwrap());
    client.test_oneway(0).unwrap();
    until("served after the drops", served, 4);
    server.shutdown();
}

#[test]
fn the_async_client_and_server() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let server = asynchronous::UdpServer::new(ServerOptions::default());
    let stats = server.stats();
    let server = runtime.block_on(async {
        let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
        server
            .spawn(socket, ThriftTestAsyncProcessor::new(TestHandler))
            .unwrap()
    });
    let addr = server.local_addr();
    runtime.block_on(async {
        for protocol in ProtocolKind::ALL {
            let channel = asynchronous::UdpClient::connect(addr, options(protocol))
                .await
                .unwrap();
            let client = ThriftTestAsyncClient::new(channel);
            client.test_oneway(0).await.unwrap();
            assert!(client.test_string("x".into()).await.is_err());
        }
    });
    // The blocking client to the async server.
    let mut client =
        ThriftTestClient::new(UdpClient::connect(addr, options(ProtocolKind::Binary)).unwrap());
    client.test_oneway(0).unwrap();
    until("served", || stats.served.load(Ordering::SeqCst), 4);
    runtime.block_on(server.shutdown()).unwrap();
}

fn python() -> PathBuf {
    std::env::var_os("PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/pyenv/bin/python")
        })
}

fn peer() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("py/udp_peer.py")
}

#[test]
fn apache_python_sends_to_our_server_and_reads_our_datagrams() {
    let python = python();
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup.sh (Apache's Python library is the UDP peer)",
        python.display()
    );
    // Python → our server.
    let (server, stats) = spawn_blocking();
    let status = Command::new(&python)
        .arg(peer())
        .args(["send", &server.local_addr().port().to_string(), "0"])
        .status()
        .unwrap();
    assert!(status.success());
    until(
        "served Python's datagram",
        || stats.served.load(Ordering::SeqCst),
        1,
    );
    // Our client → Python.
    let mut receiver = Command::new(&python)
        .arg(peer())
        .arg("receive")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(receiver.stdout.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    let port: u16 = line.trim().rsplit(':').next().unwrap().parse().unwrap();
    let mut client = ThriftTestClient::new(
        UdpClient::connect(("127.0.0.1", port), options(ProtocolKind::Compact)).unwrap(),
    );
    client.test_oneway(3).unwrap();
    line.clear();
    std::io::BufRead::read_line(&mut out, &mut line).unwrap();
    assert_eq!(line.trim(), "testOneway oneway 3");
    assert!(receiver.wait().unwrap().success());
}

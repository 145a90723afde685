//! A server survives any client: malformed requests, oversized frames, clients that vanish
//! mid-message or send one byte a second, panicking handlers, unknown methods, and more
//! connections than workers. Each fault gets a closed connection or an exception, and the
//! server goes on serving others. Run against the blocking and the async server, each also in
//! latency mode (`ServerOptions::busy_poll`), where a connection polls for its next call
//! before it waits.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    SecondService, SecondServiceAsync, SecondServiceAsyncProcessor, SecondServiceClient,
    SecondServiceProcessor, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
    ThriftTestTestExceptionArgs,
};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{
    AsyncMultiplexedProcessor, Channel, Framing, MultiplexedProcessor, ProtocolKind, asynchronous,
};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::{ApplicationExceptionKind, ErrorKind};

struct Panicking;

impl SecondService for Panicking {
    fn secondtest_string(&self, thing: String) -> thrift_runtime::Result<String> {
        if thing == "panic" {
            panic!("the handler fell over");
        }
        Ok(thing)
    }
}

impl SecondServiceAsync for Panicking {
    async fn secondtest_string(&self, thing: String) -> thrift_runtime::Result<String> {
        SecondService::secondtest_string(self, thing)
    }
}

fn options(busy_poll: Option<Duration>) -> ServerOptions {
    ServerOptions {
        busy_poll,
        workers: 2,
        idle_timeout: Some(Duration::from_secs(1)),
        read_timeout: Some(Duration::from_millis(800)),
        write_timeout: Some(Duration::from_secs(2)),
        ..ServerOptions::default()
    }
}

/// Starts a blocking or async server of ThriftTest (default) and `Panicking` as
/// "SecondService" (multiplexed); returns its address and a guard that stops it.
fn start(asynchronous: bool, busy_poll: Option<Duration>) -> (SocketAddr, Box<dyn std::any::Any>) {
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
        let mut processor = AsyncMultiplexedProcessor::new();
        processor.set_default(ThriftTestAsyncProcessor::new(TestHandler));
        processor.register("SecondService", SecondServiceAsyncProcessor::new(Panicking));
        runtime.spawn(asynchronous::Server::new(options(busy_poll)).serve(listener, processor));
        (addr, Box::new(runtime))
    } else {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut processor = MultiplexedProcessor::new();
        processor.set_default(ThriftTestProcessor::new(TestHandler));
        processor.register("SecondService", SecondServiceProcessor::new(Panicking));
        let handle = Server::new(options(busy_poll))
            .spawn(listener, processor)
            .unwrap();
        (handle.local_addr(), Box::new(handle))
    }
}

fn client(addr: SocketAddr, transport: Framing) -> ThriftTestClient<Connection> {
    let mut options = ClientOptions::new(ProtocolKind::Compact).with_framing(transport);
    options.timeout = Some(Duration::from_secs(5));
    ThriftTestClient::new(Connection::connect(addr, options).unwrap())
}

fn still_serves(addr: SocketAddr) {
    let mut c = client(addr, Framing::Framed);
    assert_eq!(c.test_i32(7).unwrap(), 7, "the server serves a new client");
}

/// Writes `bytes` and reads until the server closes the connection (or 5 s pass).
fn closed_after(addr: SocketAddr, bytes: &[u8]) -> bool {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let mut sink = [0u8; 1024];
    loop {
        match stream.read(&mut sink) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) => return e.kind() == std::io::ErrorKind::ConnectionReset,
        }
    }
}

fn each_server(test: impl Fn(SocketAddr)) {
    // A window of 2 ms: the slow clients' bytes come both while a connection polls and after.
    let latency = Some(Duration::from_millis(2));
    for (asynchronous, busy_poll) in [
        (false, None),
        (true, None),
        (false, latency),
        (true, latency),
    ] {
        let (addr, guard) = start(asynchronous, busy_poll);
        test(addr);
        drop(guard);
    }
}

#[test]
fn malformed_requests_close_the_connection_only() {
    each_server(|addr| {
        assert!(closed_after(addr, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
        // A framed call whose struct is garbage.
        assert!(closed_after(
            addr,
            &[0, 0, 0, 8, 0x80, 1, 0, 1, 0xff, 0xff, 0xff, 0xff]
        ));
        still_serves(addr);
    });
}

#[test]
fn oversized_frames_close_the_connection_before_buffering() {
    each_server(|addr| {
        assert!(closed_after(
            addr,
            &[0x7f, 0xff, 0xff, 0xff, 0x80, 0x01, 0, 1]
        ));
        assert!(closed_after(
            addr,
            &[0x3f, 0xff, 0xff, 0xff, 0x0f, 0xff, 0, 0]
        ));
        still_serves(addr);
    });
}

#[test]
fn a_client_vanishing_mid_message_harms_no_one() {
    each_server(|addr| {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream
            .write_all(&[0, 0, 0, 100, 0x80, 1, 0, 1, 0, 0])
            .unwrap();
        drop(stream);
        still_serves(addr);
    });
}

#[test]
fn a_client_sending_one_byte_at_a_time_is_cut_off() {
    each_server(|addr| {
        let mut slow = TcpStream::connect(addr).unwrap();
        let started = Instant::now();
        let mut cut_off = false;
        for byte in [
            0u8, 0, 0, 50, 0x80, 1, 0, 1, 0, 0, 0, 4, b't', b'e', b's', b't',
        ] {
            if slow.write_all(&[byte]).is_err() {
                cut_off = true;
                break;
            }
            // Others are served meanwhile.
            still_serves(addr);
            std::thread::sleep(Duration::from_millis(250));
        }
        let mut buf = [0u8; 16];
        slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        cut_off |= matches!(slow.read(&mut buf), Ok(0) | Err(_));
        assert!(cut_off, "the slow client was not disconnected");
        assert!(started.elapsed() < Duration::from_secs(8));
    });
}

#[test]
fn a_panicking_handler_becomes_internal_error_and_the_connection_goes_on() {
    each_server(|addr| {
        let mut options = ClientOptions::new(ProtocolKind::Binary);
        options.service = Some("SecondService".into());
        let mut c = SecondServiceClient::new(Connection::connect(addr, options).unwrap());
        let err = c.secondtest_string("panic".into()).unwrap_err();
        match err.kind() {
            ErrorKind::Application(e) => {
                assert_eq!(e.kind, ApplicationExceptionKind::INTERNAL_ERROR);
                assert!(e.message.contains("the handler fell over"), "{}", e.message);
            }
            other => panic!("expected an application exception, got {other:?}"),
        }
        assert_eq!(c.secondtest_string("ok".into()).unwrap(), "ok");
    });
}

#[test]
fn an_unknown_method_gets_unknown_method_and_the_connection_goes_on() {
    each_server(|addr| {
        let mut c = client(addr, Framing::Buffered);
        let args = ThriftTestTestExceptionArgs { arg: "x".into() };
        let err = c
            .channel_mut()
            .call::<_, thrift_runtime::ApplicationException>("noSuchMethod", &args)
            .unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Application(e) if e.kind == ApplicationExceptionKind::UNKNOWN_METHOD),
            "{err:?}"
        );
        assert_eq!(c.test_i32(3).unwrap(), 3);
        // An unknown service too.
        let mut options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
        options.service = Some("NoSuchService".into());
        let mut other = SecondServiceClient::new(Connection::connect(addr, options).unwrap());
        let err = other.secondtest_string("x".into()).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Application(e) if e.kind == ApplicationExceptionKind::UNKNOWN_METHOD)
        );
    });
}

#[test]
fn more_connections_than_workers_stall_no_one_for_long() {
    each_server(|addr| {
        // Twice as many idle connections as the blocking server has workers.
        let idle: Vec<TcpStream> = (0..4).map(|_| TcpStream::connect(addr).unwrap()).collect();
        let started = Instant::now();
        still_serves(addr);
        // The blocking server frees a worker when an idle connection times out (1 s here).
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{:?}",
            started.elapsed()
        );
        drop(idle);
    });
}

#[test]
fn an_async_client_whose_connection_the_server_closed_fails_at_once() {
    each_server(|addr| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
            let connection = asynchronous::Connection::connect(addr, options)
                .await
                .unwrap();
            let client = thrift_interop::types::ThriftTestAsyncClient::new(connection);
            assert_eq!(client.test_i32(1).await.unwrap(), 1);
            // The server closes connections idle for 1 s.
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let started = Instant::now();
            let outcome = tokio::time::timeout(Duration::from_secs(5), client.test_i32(2)).await;
            assert!(
                matches!(outcome, Ok(Err(_))),
                "a call on a closed connection must fail, not hang: {outcome:?}"
            );
            assert!(started.elapsed() < Duration::from_secs(2));
        });
    });
}

#[test]
fn an_async_call_times_out_with_the_clients_timeout() {
    // A "server" that reads calls and never answers.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = silent.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in silent.incoming().flatten() {
            std::thread::spawn(move || {
                let mut sink = [0u8; 1024];
                while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
            });
        }
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
        options.timeout = Some(Duration::from_millis(300));
        let connection = asynchronous::Connection::connect(addr, options)
            .await
            .unwrap();
        let client = thrift_interop::types::ThriftTestAsyncClient::new(connection);
        let started = Instant::now();
        let err = client.test_i32(1).await.unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::TimedOut) && err.is_timeout(),
            "{err:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    });
}

#[test]
fn a_client_reading_a_large_reply_slowly_is_cut_off_after_the_write_timeout() {
    use thrift_interop::types::ThriftTestTestStringArgs;
    use thrift_runtime::wire::MessageType;
    // Larger than what loopback sockets buffer on both sides, smaller than the frame limit.
    let thing = "x".repeat(12_000_000);
    let mut call = Vec::new();
    ProtocolKind::Binary
        .write_message(
            &mut call,
            "testString",
            MessageType::Call,
            1,
            &ThriftTestTestStringArgs { thing },
        )
        .unwrap();
    each_server(|addr| {
        let mut slow = TcpStream::connect(addr).unwrap();
        slow.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        slow.write_all(&call).unwrap();
        // Read 16 KiB every 50 ms (320 KB/s) for twice the server's write timeout: every
        // single write of the server's makes progress, the reply as a whole cannot.
        let mut buf = vec![0u8; 16 * 1024];
        let mut received = 0usize;
        let started = Instant::now();
        while started.elapsed() < Duration::from_secs(4) {
            match slow.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => received += n,
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // Then read what is left as fast as possible: a server that kept writing would
        // deliver the whole reply.
        loop {
            match slow.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => received += n,
            }
        }
        assert!(
            received < call.len(),
            "the whole {} byte reply arrived: the server never gave up on the slow reader",
            call.len()
        );
        still_serves(addr);
    });
}

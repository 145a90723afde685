//! Connection pools as a Hive Metastore client uses them: a bound on connections, a caller
//! that waits and then times out, reconnecting after the server went away, and sticky
//! failover to the next endpoint, with retries only when asked for. Blocking and async.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use thrift_interop::types::{
    SecondService, SecondServiceAsyncClient, SecondServiceClient, SecondServiceProcessor,
};
use thrift_runtime::ErrorKind;
use thrift_runtime::rpc::blocking::{Pool, Server, ServerHandle};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, PoolOptions, ProtocolKind, asynchronous};

mod support;
use support::refusing;

/// Answers `secondtest_string(thing)` with `"name:thing"`, so a test sees which server
/// answered.
struct Named(&'static str);

impl SecondService for Named {
    fn secondtest_string(&self, thing: String) -> Result<String, thrift_runtime::Error> {
        Ok(format!("{}:{thing}", self.0))
    }
}

fn serve(name: &'static str) -> ServerHandle {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    Server::new(ServerOptions::default())
        .spawn(listener, SecondServiceProcessor::new(Named(name)))
        .unwrap()
}

fn framed() -> ClientOptions {
    ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed)
}

fn options(max_connections: usize, retries: u32) -> PoolOptions {
    PoolOptions {
        max_connections,
        wait: Some(Duration::from_millis(200)),
        retries,
        ..PoolOptions::default()
    }
}

#[test]
fn a_blocking_pool_bounds_its_connections_and_times_out_a_waiting_caller() {
    let server = serve("a");
    let pool = Pool::new([server.local_addr().to_string()], framed(), options(2, 0)).unwrap();
    assert_eq!(pool.live(), 0, "nothing is connected before the first call");

    let mut first = SecondServiceClient::new(pool.get().unwrap());
    let second = pool.get().unwrap();
    assert_eq!(first.secondtest_string("1".into()).unwrap(), "a:1");
    assert_eq!(pool.live(), 2);

    let started = Instant::now();
    let err = pool.get().unwrap_err();
    assert!(
        err.is_timeout(),
        "a third caller waits, then times out: {err:?}"
    );
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert_eq!(pool.live(), 2);

    // A connection given back is the next caller's; no third is opened.
    drop(second);
    let mut client = SecondServiceClient::new(pool.clone());
    assert_eq!(client.secondtest_string("2".into()).unwrap(), "a:2");
    assert_eq!(pool.live(), 2);

    // A caller waiting for a connection gets the one given back while it waits.
    let waiter = {
        let pool = pool.clone();
        std::thread::spawn(move || {
            let _a = pool.get().unwrap();
            let mut b = SecondServiceClient::new(pool.get().unwrap());
            b.secondtest_string("3".into())
        })
    };
    std::thread::sleep(Duration::from_millis(50));
    drop(first);
    assert_eq!(waiter.join().unwrap().unwrap(), "a:3");
    assert_eq!(pool.live(), 2);
}

#[test]
fn a_blocking_pool_fails_over_and_retries_only_when_asked() {
    // Without retries: the call whose connection went away fails with Closed, and the next
    // one connects to the next endpoint.
    let a = serve("a");
    let b = serve("b");
    let endpoints = [a.local_addr().to_string(), b.local_addr().to_string()];
    let mut client =
        SecondServiceClient::new(Pool::new(endpoints, framed(), options(1, 0)).unwrap());
    assert_eq!(client.secondtest_string("1".into()).unwrap(), "a:1");
    a.shutdown();
    let err = client.secondtest_string("2".into()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Closed), "{err:?}");
    assert_eq!(client.secondtest_string("3".into()).unwrap(), "b:3");
    // Sticky: b stays the first to try.
    assert_eq!(client.secondtest_string("4".into()).unwrap(), "b:4");

    // With one retry the failover is not seen by the caller.
    let a = serve("a");
    let b = serve("b");
    let endpoints = [a.local_addr().to_string(), b.local_addr().to_string()];
    let pool = Pool::new(endpoints, framed(), options(2, 1)).unwrap();
    let mut client = SecondServiceClient::new(pool.clone());
    assert_eq!(client.secondtest_string("1".into()).unwrap(), "a:1");
    a.shutdown();
    assert_eq!(client.secondtest_string("2".into()).unwrap(), "b:2");
    assert_eq!(pool.live(), 1, "the connection to a was closed, not kept");
    drop(b);
}

#[test]
fn a_blocking_pool_with_every_endpoint_down_names_the_last_one_tried() {
    let (first, last) = (refusing(), refusing());
    let pool = Pool::new(
        [first.to_string(), last.to_string()],
        framed(),
        options(1, 3),
    )
    .unwrap();
    let mut client = SecondServiceClient::new(pool.clone());
    let err = client.secondtest_string("x".into()).unwrap_err();
    match err.kind() {
        ErrorKind::Connect { address, source } => {
            assert_eq!(address, &last.to_string());
            assert_eq!(source.kind(), std::io::ErrorKind::ConnectionRefused);
        }
        other => panic!("expected a connect error, got {other:?}"),
    }
    assert_eq!(
        pool.live(),
        0,
        "a failed connect leaves no connection counted"
    );

    let empty: [&str; 0] = [];
    assert!(Pool::new(empty, framed(), PoolOptions::default()).is_err());
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn async_framed() -> thrift_runtime::rpc::ClientOptions {
    thrift_runtime::rpc::ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed)
}

#[test]
fn an_async_pool_reconnects_and_fails_over() {
    runtime().block_on(async {
        // With one retry the caller does not see the failover.
        let a = serve("a");
        let b = serve("b");
        let endpoints = [a.local_addr().to_string(), b.local_addr().to_string()];
        let pool = asynchronous::Pool::new(endpoints, async_framed(), options(1, 1)).unwrap();
        let client = SecondServiceAsyncClient::new(pool.clone());
        assert_eq!(client.secondtest_string("1".into()).await.unwrap(), "a:1");
        assert_eq!(pool.live(), 1);
        a.shutdown();
        assert_eq!(client.secondtest_string("2".into()).await.unwrap(), "b:2");

        // Without retries, once the pool has seen its connection close, the next call
        // connects to the next endpoint with no error.
        let a = serve("a");
        let b = serve("b");
        let endpoints = [a.local_addr().to_string(), b.local_addr().to_string()];
        let pool = asynchronous::Pool::new(endpoints, async_framed(), options(2, 0)).unwrap();
        let client = SecondServiceAsyncClient::new(pool.clone());
        assert_eq!(client.secondtest_string("1".into()).await.unwrap(), "a:1");
        assert_eq!(client.secondtest_string("2".into()).await.unwrap(), "a:2");
        assert_eq!(pool.live(), 2, "calls are spread over both connections");
        a.shutdown();
        let deadline = Instant::now() + Duration::from_secs(5);
        while pool.live() > 0 {
            assert!(Instant::now() < deadline, "the pool never saw its connections close");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(client.secondtest_string("3".into()).await.unwrap(), "b:3");
        assert_eq!(client.secondtest_string("4".into()).await.unwrap(), "b:4");
        drop(b);

        // Every endpoint down: the last one's connect error.
        let last = refusing();
        let pool = asynchronous::Pool::new(
            [refusing().to_string(), last.to_string()],
            async_framed(),
            options(1, 0),
        )
        .unwrap();
        let err = SecondServiceAsyncClient::new(pool)
            .secondtest_string("x".into())
            .await
            .unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Connect { address, .. } if *address == last.to_string()),
            "{err:?}"
        );
    });
}

#[test]
fn a_connector_that_panics_leaves_no_connection_counted() {
    let pool: Pool<thrift_runtime::rpc::blocking::Connection> =
        Pool::from_fn(["x:1"], options(1, 0), |_| panic!("a connector bug")).unwrap();
    for _ in 0..3 {
        let unwound = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.get()));
        assert!(unwound.is_err());
        assert_eq!(pool.live(), 0, "the slot is free again");
    }
}

//! Allocations per call on the RPC paths, counted by the counting global allocator: what a
//! server makes to serve a call (only what the handler's arguments hold: nothing for
//! `add(i32, i32)`, the `String` for `get(string)`, which the handler moves into its result),
//! and what the blocking and async clients make per call. Measured over many calls after a
//! warm-up, so that buffers that grow once are not counted; a small allowance covers the
//! runtime's own bookkeeping (a timer wheel's slot, a worker's queue). The measurements run
//! one at a time (one test), because the server's count is the whole process's.

use std::net::TcpListener;

use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous};
use thrift_tests::alloc::{Counting, allocations, process_allocations, thread_allocations};
use thrift_tests::golden::fixture_services::services::*;
use thrift_tests::golden::fixture_services::services_base::{Base, BaseAddError, BaseAsync};

#[global_allocator]
static GLOBAL: Counting = Counting;

const CALLS: u64 = 2_000;
/// What a whole run of `CALLS` may allocate beyond the expected count per call.
const SLACK: u64 = 40;

/// A handler that allocates nothing of its own: `add` adds, `get` answers an item of the
/// name it is given.
struct Quiet;

impl Base for Quiet {
    fn ping(&self) -> thrift_runtime::Result<()> {
        Ok(())
    }
    fn add(&self, a: i32, b: i32) -> Result<i32, BaseAddError> {
        Ok(a.wrapping_add(b))
    }
}

impl Store for Quiet {
    fn get(&self, name: String) -> Result<Item, StoreGetError> {
        Ok(Item { name, tags: None })
    }
    fn put(&self, _item: Item, _overwrite: bool) -> thrift_runtime::Result<()> {
        Ok(())
    }
    fn forget(&self, _name: String) -> thrift_runtime::Result<()> {
        Ok(())
    }
    #[allow(clippy::too_many_arguments)]
    fn r#type(
        &self,
        _self_: String,
        _handler: i32,
        _out: Vec<u8>,
        _args: std::collections::BTreeMap<String, Item>,
        _result: std::collections::BTreeSet<String>,
        _call: f64,
        _channel: Vec<Item>,
    ) -> thrift_runtime::Result<bool> {
        Ok(true)
    }
}

impl BaseAsync for Quiet {
    async fn ping(&self) -> thrift_runtime::Result<()> {
        Base::ping(self)
    }
    async fn add(&self, a: i32, b: i32) -> Result<i32, BaseAddError> {
        Base::add(self, a, b)
    }
}

impl StoreAsync for Quiet {
    async fn get(&self, name: String) -> Result<Item, StoreGetError> {
        Store::get(self, name)
    }
    async fn put(&self, item: Item, overwrite: bool) -> thrift_runtime::Result<()> {
        Store::put(self, item, overwrite)
    }
    async fn forget(&self, name: String) -> thrift_runtime::Result<()> {
        Store::forget(self, name)
    }
    #[allow(clippy::too_many_arguments)]
    async fn r#type(
        &self,
        self_: String,
        handler: i32,
        out: Vec<u8>,
        args: std::collections::BTreeMap<String, Item>,
        result: std::collections::BTreeSet<String>,
        call: f64,
        channel: Vec<Item>,
    ) -> thrift_runtime::Result<bool> {
        Store::r#type(self, self_, handler, out, args, result, call, channel)
    }
}

fn options() -> ClientOptions {
    ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed)
}

/// The server's allocations per call: the whole process's during `CALLS` calls from a
/// blocking client on this thread, less this thread's own.
fn server_allocations(
    store: &mut StoreClient<Connection>,
    call: fn(&mut StoreClient<Connection>),
) -> (u64, u64) {
    for _ in 0..100 {
        call(store);
    }
    let before = process_allocations();
    let ((), client) = allocations(|| {
        for _ in 0..CALLS {
            call(store);
        }
    });
    let everything = process_allocations() - before;
    (everything - client, client)
}

fn add(store: &mut StoreClient<Connection>) {
    assert_eq!(store.add(20, 22).unwrap(), 42);
}

fn get(store: &mut StoreClient<Connection>) {
    assert_eq!(
        store
            .get("a name of some length".into())
            .unwrap()
            .name
            .len(),
        21
    );
}

/// Fails unless `counted` allocations over `CALLS` calls are `per_call` each, give or take
/// the allowance (and at least `per_call` each: the counter sees what it measures).
fn check(what: &str, counted: u64, per_call: u64) {
    let expected = per_call * CALLS;
    assert!(
        (expected..=expected + SLACK).contains(&counted),
        "{what}: {counted} allocations in {CALLS} calls, expected {per_call} per call"
    );
}

#[test]
fn allocations_per_call() {
    // The blocking server, called by the blocking client.
    let server = Server::new(ServerOptions::default())
        .spawn(
            TcpListener::bind("127.0.0.1:0").unwrap(),
            StoreProcessor::new(Quiet),
        )
        .unwrap();
    let mut store = StoreClient::new(Connection::connect(server.local_addr(), options()).unwrap());
    let (served, client) = server_allocations(&mut store, add);
    check("blocking server, add", served, 0);
    check("blocking client, add", client, 0);
    let (served, client) = server_allocations(&mut store, get);
    check("blocking server, get (its String argument)", served, 1);
    // The argument made by the caller, the name decoded from the reply.
    check("blocking client, get", client, 2);

    // The async client, on this thread's runtime (its reader and writer tasks run here too),
    // against the blocking server: the encoded args, and the channel its reply comes back by.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let addr = server.local_addr();
    let client = runtime.block_on(async {
        let store = StoreAsyncClient::new(
            asynchronous::Connection::connect(addr, options())
                .await
                .unwrap(),
        );
        for _ in 0..100 {
            assert_eq!(store.add(20, 22).await.unwrap(), 42);
        }
        let before = thread_allocations();
        for _ in 0..CALLS {
            assert_eq!(store.add(20, 22).await.unwrap(), 42);
        }
        thread_allocations() - before
    });
    check("async client, add", client, 2);
    server.shutdown();

    // The async server, on its own runtime's worker thread.
    let served = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let listener = served
        .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
        .unwrap();
    let addr = listener.local_addr().unwrap();
    served.spawn(
        asynchronous::Server::new(ServerOptions::default())
            .serve(listener, StoreAsyncProcessor::new(Quiet)),
    );
    let mut store = StoreClient::new(Connection::connect(addr, options()).unwrap());
    let (n, _) = server_allocations(&mut store, add);
    check("async server, add", n, 0);
    let (n, _) = server_allocations(&mut store, get);
    check("async server, get (its String argument)", n, 1);
}

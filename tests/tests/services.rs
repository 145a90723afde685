//! The generated services of the `services` golden fixture, end to end over loopback: a
//! service extending one of another file (inherited methods on the client, dispatch falling
//! back to the parent), a declared exception through a typedef, keyword and clashing names,
//! oneway, blocking and async.

use std::collections::{BTreeMap, BTreeSet};
use std::net::TcpListener;
use std::sync::Mutex;

use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous};
use thrift_tests::golden::fixture_services::services::*;
use thrift_tests::golden::fixture_services::services_base::{Base, BaseAddError, BaseAsync, Oops};

#[derive(Default)]
struct Shop {
    items: Mutex<BTreeMap<String, Item>>,
}

impl Base for Shop {
    fn ping(&self) -> thrift_runtime::Result<()> {
        Ok(())
    }
    fn add(&self, a: i32, b: i32) -> Result<i32, BaseAddError> {
        a.checked_add(b).ok_or_else(|| {
            Oops {
                why: "overflow".into(),
            }
            .into()
        })
    }
}

impl Store for Shop {
    fn get(&self, name: String) -> Result<Item, StoreGetError> {
        match name.as_str() {
            "busy" => Err(StoreGetError::Busy(Busy { retry_after_ms: 5 })),
            "alias" => Err(StoreGetError::Alias(Oops {
                why: "aliased".into(),
            })),
            _ => self
                .items
                .lock()
                .unwrap()
                .get(&name)
                .cloned()
                .ok_or_else(|| {
                    StoreGetError::Oops(Oops {
                        why: format!("no {name}"),
                    })
                }),
        }
    }
    fn put(&self, item: Item, _overwrite: bool) -> thrift_runtime::Result<()> {
        self.items.lock().unwrap().insert(item.name.clone(), item);
        Ok(())
    }
    fn forget(&self, name: String) -> thrift_runtime::Result<()> {
        self.items.lock().unwrap().remove(&name);
        Ok(())
    }
    #[allow(clippy::too_many_arguments)]
    fn r#type(
        &self,
        self_: String,
        handler: i32,
        out: Vec<u8>,
        args: BTreeMap<String, Item>,
        result: BTreeSet<String>,
        call: f64,
        channel: Vec<Item>,
    ) -> thrift_runtime::Result<bool> {
        Ok(self_ == "me"
            && handler == 1
            && out == [2]
            && args.len() == 1
            && result.len() == 1
            && call == 0.5
            && channel.len() == 2)
    }
}

impl BaseAsync for Shop {
    async fn ping(&self) -> thrift_runtime::Result<()> {
        Base::ping(self)
    }
    async fn add(&self, a: i32, b: i32) -> Result<i32, BaseAddError> {
        Base::add(self, a, b)
    }
}

impl StoreAsync for Shop {
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
        args: BTreeMap<String, Item>,
        result: BTreeSet<String>,
        call: f64,
        channel: Vec<Item>,
    ) -> thrift_runtime::Result<bool> {
        Store::r#type(self, self_, handler, out, args, result, call, channel)
    }
}

fn item(name: &str) -> Item {
    Item {
        name: name.into(),
        tags: Some(vec![1, 2]),
    }
}

#[test]
fn blocking_client_and_server() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::new(ServerOptions::default())
        .spawn(listener, StoreProcessor::new(Shop::default()))
        .unwrap();
    let options = ClientOptions::new(ProtocolKind::Compact);
    let mut store = StoreClient::new(Connection::connect(server.local_addr(), options).unwrap());
    // Inherited from `services_base.Base`.
    store.ping().unwrap();
    assert_eq!(store.add(2, 3).unwrap(), 5);
    assert!(matches!(store.add(i32::MAX, 1), Err(BaseAddError::Oops(e)) if e.why == "overflow"));
    // Own methods and exceptions, one through a typedef of the other's type.
    store.put(item("pen"), false).unwrap();
    assert_eq!(store.get("pen".into()).unwrap(), item("pen"));
    assert!(
        matches!(store.get("busy".into()), Err(StoreGetError::Busy(b)) if b.retry_after_ms == 5)
    );
    assert!(
        matches!(store.get("alias".into()), Err(StoreGetError::Alias(e)) if e.why == "aliased")
    );
    assert!(matches!(store.get("ink".into()), Err(StoreGetError::Oops(e)) if e.why == "no ink"));
    store.forget("pen".into()).unwrap();
    assert!(store.get("pen".into()).is_err());
    let all_there = store
        .r#type(
            "me".into(),
            1,
            vec![2],
            BTreeMap::from([("k".to_string(), item("v"))]),
            BTreeSet::from(["s".to_string()]),
            0.5,
            vec![item("a"), item("b")],
        )
        .unwrap();
    assert!(all_there);
    server.shutdown();
}

#[test]
fn async_client_and_server() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(
            asynchronous::Server::new(ServerOptions::default())
                .serve(listener, StoreAsyncProcessor::new(Shop::default())),
        );
        let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Header);
        let store = StoreAsyncClient::new(
            asynchronous::Connection::connect(addr, options)
                .await
                .unwrap(),
        );
        store.ping().await.unwrap();
        assert_eq!(store.add(20, 22).await.unwrap(), 42);
        store.put(item("cup"), true).await.unwrap();
        // Many calls at once on one connection.
        let calls = (0..16).map(|_| {
            let store = store.clone();
            tokio::spawn(async move { store.get("cup".into()).await })
        });
        for call in calls.collect::<Vec<_>>() {
            assert_eq!(call.await.unwrap().unwrap(), item("cup"));
        }
        assert!(matches!(
            store.get("busy".into()).await,
            Err(StoreGetError::Busy(_))
        ));
    });
}

/// Answers each of the clashing functions differently, so that a call reaching the wrong
/// one shows.
struct Clashing;

impl Clash for Clashing {
    fn get_foo(&self, a: i32) -> thrift_runtime::Result<i32> {
        Ok(a + 100)
    }
    fn get_foo_2(&self, b: i32) -> thrift_runtime::Result<i32> {
        Ok(b + 200)
    }
}

impl ClashChild for Clashing {
    fn get_foo_3(&self, c: i32) -> thrift_runtime::Result<i32> {
        Ok(c + 300)
    }
}

impl Clash2 for Clashing {}

#[test]
fn names_that_clash_in_rust_reach_their_own_functions() {
    // The IDL struct keeps its name; the args structs of `getFoo` and `get_foo` take the next.
    let _: ClashGetFooArgs = ClashGetFooArgs { taken: 1 };
    let _: ClashGetFoo2Args = ClashGetFoo2Args { a: 1 };
    let _: ClashGetFoo3Args = ClashGetFoo3Args { b: 1 };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::new(ServerOptions::default())
        .spawn(listener, ClashChildProcessor::new(Clashing))
        .unwrap();
    let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
    let mut child =
        ClashChildClient::new(Connection::connect(server.local_addr(), options).unwrap());
    assert_eq!(child.get_foo(1).unwrap(), 101);
    assert_eq!(child.get_foo_2(1).unwrap(), 201);
    assert_eq!(child.get_foo_3(1).unwrap(), 301);
    server.shutdown();
    // The second `Clash` (IDL `clash`) has its own dispatch function beside `dispatch_clash`.
    let _ = (dispatch_clash::<Clashing>, dispatch_clash2::<Clashing>);
}

/// An args struct is read like any struct: a parameter absent from the call takes its IDL
/// default (`put`'s `overwrite = true`), and writing puts every parameter back.
#[test]
fn an_absent_parameter_takes_its_idl_default() {
    use thrift_runtime::{
        Binary, Compact, Protocol, ProtocolWriter, TType, ThriftRead, ThriftWrite,
    };

    fn only_item<P: Protocol>(item: &Item) -> Vec<u8> {
        let mut bytes = Vec::new();
        let mut w = P::writer(&mut bytes);
        let token = w.write_struct_begin().unwrap();
        w.write_field_begin(TType::Struct, 1).unwrap();
        item.write(&mut w).unwrap();
        w.write_field_end().unwrap();
        w.write_field_stop().unwrap();
        w.write_struct_end(token).unwrap();
        drop(w);
        bytes
    }
    let args = StorePutArgs::decode::<Binary>(&only_item::<Binary>(&item("a"))).unwrap();
    assert_eq!(args.item, item("a"));
    assert!(args.overwrite, "the IDL default of `overwrite`");
    let args = StorePutArgs::decode::<Compact>(&only_item::<Compact>(&item("b"))).unwrap();
    assert!(args.overwrite);
    let sent = StorePutArgs {
        item: item("c"),
        overwrite: false,
    };
    let bytes = sent.encode_to_vec::<Compact>().unwrap();
    assert_eq!(StorePutArgs::decode::<Compact>(&bytes).unwrap(), sent);
}

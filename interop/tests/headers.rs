//! THeader info headers a client sets reach the handler (blocking and async), through
//! `thrift_runtime::rpc::context`.

use std::net::TcpListener;

use thrift_interop::types::{
    SecondService, SecondServiceAsync, SecondServiceAsyncClient, SecondServiceAsyncProcessor,
    SecondServiceClient, SecondServiceProcessor,
};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous, context};

struct Echo;

impl SecondService for Echo {
    fn secondtest_string(&self, thing: String) -> thrift_runtime::Result<String> {
        Ok(format!(
            "{thing}:{}",
            context::header("who").unwrap_or_default()
        ))
    }
}

impl SecondServiceAsync for Echo {
    async fn secondtest_string(&self, thing: String) -> thrift_runtime::Result<String> {
        tokio::task::yield_now().await;
        Ok(format!(
            "{thing}:{}",
            context::header("who").unwrap_or_default()
        ))
    }
}

fn options(transport: Framing) -> ClientOptions {
    let mut options = ClientOptions::new(ProtocolKind::Compact).with_framing(transport);
    options.headers = vec![
        ("who".into(), "tester".into()),
        ("trace".into(), "1".into()),
    ];
    options
}

#[test]
fn blocking_handlers_read_the_callers_headers() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::new(ServerOptions::default())
        .spawn(listener, SecondServiceProcessor::new(Echo))
        .unwrap();
    let addr = server.local_addr();
    let mut header =
        SecondServiceClient::new(Connection::connect(addr, options(Framing::Header)).unwrap());
    assert_eq!(header.secondtest_string("a".into()).unwrap(), "a:tester");
    // Other transports carry no headers, and none leak from the call before.
    let mut framed =
        SecondServiceClient::new(Connection::connect(addr, options(Framing::Framed)).unwrap());
    assert_eq!(framed.secondtest_string("b".into()).unwrap(), "b:");
    assert_eq!(context::header("who"), None, "outside a handler");
    server.shutdown();
}

#[test]
fn async_handlers_read_the_callers_headers() {
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
                .serve(listener, SecondServiceAsyncProcessor::new(Echo)),
        );
        let connection = asynchronous::Connection::connect(addr, options(Framing::Header))
            .await
            .unwrap();
        let client = SecondServiceAsyncClient::new(connection);
        assert_eq!(
            client.secondtest_string("c".into()).await.unwrap(),
            "c:tester"
        );
    });
}

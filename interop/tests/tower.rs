//! tower on both sides: a server layer's timeout becomes an exception and the connection goes
//! on; a client through `ServiceChannel` (with a layer) makes calls like the plain one.

use std::time::Duration;

use thrift_interop::types::{
    SecondServiceAsync, SecondServiceAsyncClient, SecondServiceAsyncProcessor,
};
use thrift_runtime::rpc::asynchronous::{Connection, Server};
use thrift_runtime::rpc::layers::{ProcessorService, ServiceChannel};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind};
use thrift_runtime::{ApplicationExceptionKind, ErrorKind};

struct Sleepy;

impl SecondServiceAsync for Sleepy {
    async fn secondtest_string(&self, thing: String) -> thrift_runtime::Result<String> {
        if thing == "slow" {
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
        Ok(thing)
    }
}

#[test]
fn server_layers_and_client_layers() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let service = tower::ServiceBuilder::new()
            .timeout(Duration::from_millis(200))
            .concurrency_limit(4)
            .service(ProcessorService::new(SecondServiceAsyncProcessor::new(
                Sleepy,
            )));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(Server::new(ServerOptions::default()).serve_service(
            listener,
            service,
            async {
                let _ = stopped.await;
            },
        ));

        let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Header);
        let connection = Connection::connect(addr, options).await.unwrap();
        let layered = tower::ServiceBuilder::new()
            .timeout(Duration::from_secs(3))
            .service(connection);
        let client =
            SecondServiceAsyncClient::new(ServiceChannel::new(layered, ProtocolKind::Compact));

        assert_eq!(
            client.secondtest_string("fast".into()).await.unwrap(),
            "fast"
        );
        let err = client.secondtest_string("slow".into()).await.unwrap_err();
        match err.kind() {
            ErrorKind::Application(e) => {
                assert_eq!(e.kind, ApplicationExceptionKind::INTERNAL_ERROR);
                assert!(e.message.contains("timed out"), "{}", e.message);
            }
            other => panic!("expected the server's timeout as an exception, got {other:?}"),
        }
        // The same connection goes on.
        assert_eq!(
            client.secondtest_string("again".into()).await.unwrap(),
            "again"
        );
        drop(client);
        stop.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(5), server)
            .await
            .expect("graceful shutdown")
            .unwrap()
            .unwrap();
    });
}

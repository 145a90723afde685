//! ThriftTest client with the flags and checks of Apache's cross-language test clients:
//! prints `PASS name` / `FAIL name: reason` per call, `N passed, N failed`, exits non-zero on
//! any failure.

use std::time::{Duration, Instant};

use thrift_interop::args::Flags;
use thrift_interop::checks::Report;
use thrift_interop::run_checks;
use thrift_interop::types::{
    SecondServiceAsyncClient, SecondServiceClient, ThriftTestAsyncClient, ThriftTestClient,
};
use thrift_runtime::rpc::{blocking, tokio as rpc_tokio};

fn main() {
    let flags = match Flags::parse() {
        Ok(flags) => flags,
        Err(e) => {
            eprintln!("interop-client: {e}");
            std::process::exit(2);
        }
    };
    let options = match flags.client_options() {
        Ok(options) => options,
        Err(e) => {
            eprintln!("interop-client: {e}");
            std::process::exit(2);
        }
    };
    let addr = format!("{}:{}", flags.host, flags.port);
    let mut report = Report::default();
    if flags.asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async {
            let connect = |mut options: blocking::ClientOptions| {
                let addr = addr.clone();
                async move {
                    let started = Instant::now();
                    loop {
                        match rpc_tokio::Connection::connect(addr.as_str(), options.clone()).await {
                            Ok(c) => return c,
                            Err(e) if started.elapsed() > Duration::from_secs(10) => {
                                eprintln!("interop-client: cannot connect to {addr}: {e}");
                                std::process::exit(1);
                            }
                            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                        }
                        options.service = options.service.clone();
                    }
                }
            };
            let mut main_options = options.clone();
            if flags.multiplexed {
                main_options.service = Some("ThriftTest".into());
            }
            let client = ThriftTestAsyncClient::new(connect(main_options).await);
            run_checks!(&mut report, &client, flags.uuid, await);
            if flags.multiplexed {
                let mut second = options.clone();
                second.service = Some("SecondService".into());
                let client = SecondServiceAsyncClient::new(connect(second).await);
                report.check(
                    "secondtestString",
                    thrift_interop::checks::expect(
                        client.secondtest_string("foobar".into()).await,
                        "testString(\"foobar\")".to_string(),
                    ),
                );
            }
        });
    } else {
        let connect = |options: blocking::ClientOptions| {
            let started = Instant::now();
            loop {
                match blocking::Connection::connect(addr.as_str(), options.clone()) {
                    Ok(c) => return c,
                    Err(e) if started.elapsed() > Duration::from_secs(10) => {
                        eprintln!("interop-client: cannot connect to {addr}: {e}");
                        std::process::exit(1);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(100)),
                }
            }
        };
        let mut main_options = options.clone();
        if flags.multiplexed {
            main_options.service = Some("ThriftTest".into());
        }
        let mut client = ThriftTestClient::new(connect(main_options));
        run_checks!(&mut report, &mut client, flags.uuid);
        if flags.multiplexed {
            // A second connection, as Apache's multiplexed clients open one per service.
            let mut second = options.clone();
            second.service = Some("SecondService".into());
            let mut client = SecondServiceClient::new(connect(second));
            report.check(
                "secondtestString",
                thrift_interop::checks::expect(
                    client.secondtest_string("foobar".into()),
                    "testString(\"foobar\")".to_string(),
                ),
            );
        }
    }
    println!("{} passed, {} failed", report.passed, report.failed);
    if report.failed > 0 {
        std::process::exit(1);
    }
}

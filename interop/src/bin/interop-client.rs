//! ThriftTest client with the flags and checks of Apache's cross-language test clients:
//! prints `PASS name` / `FAIL name: reason` per call, `N passed, N failed`, exits non-zero on
//! any failure.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use thrift_interop::args::Flags;
use thrift_interop::checks::Report;
use thrift_interop::run_checks;
use thrift_interop::types::{
    SecondServiceAsyncClient, SecondServiceClient, ThriftTestAsyncClient, ThriftTestClient,
};
use thrift_runtime::rpc::{blocking, tokio as rpc_tokio};

/// The stream of a blocking connection: TCP, or a Unix domain socket (`--domain-socket`).
enum Stream {
    Tcp(std::net::TcpStream),
    Unix(std::os::unix::net::UnixStream),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Stream::Tcp(s) => s.flush(),
            Stream::Unix(s) => s.flush(),
        }
    }
}

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
            let connect = |options: blocking::ClientOptions| {
                let addr = addr.clone();
                let flags = &flags;
                async move {
                    let started = Instant::now();
                    loop {
                        let connected = match &flags.domain_socket {
                            Some(path) => {
                                rpc_tokio::Connection::connect_unix(path, options.clone()).await
                            }
                            None => {
                                rpc_tokio::Connection::connect(addr.as_str(), options.clone()).await
                            }
                        };
                        match connected {
                            Ok(c) => return c,
                            Err(e) if started.elapsed() > Duration::from_secs(10) => {
                                eprintln!(
                                    "interop-client: cannot connect to {}: {e}",
                                    flags.domain_socket.as_deref().unwrap_or(&addr)
                                );
                                std::process::exit(1);
                            }
                            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                        }
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
                let connected = match &flags.domain_socket {
                    Some(path) => {
                        blocking::Connection::connect_unix(path, options.clone()).map(|c| {
                            blocking::Connection::new(Stream::Unix(c.into_inner()), options.clone())
                        })
                    }
                    None => {
                        blocking::Connection::connect(addr.as_str(), options.clone()).map(|c| {
                            blocking::Connection::new(Stream::Tcp(c.into_inner()), options.clone())
                        })
                    }
                };
                match connected {
                    Ok(c) => return c,
                    Err(e) if started.elapsed() > Duration::from_secs(10) => {
                        eprintln!(
                            "interop-client: cannot connect to {}: {e}",
                            flags.domain_socket.as_deref().unwrap_or(&addr)
                        );
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

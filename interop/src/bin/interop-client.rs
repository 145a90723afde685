//! ThriftTest client with the flags and checks of Apache's cross-language test clients:
//! prints `PASS name` / `FAIL name: reason` per call, `N passed, N failed`, exits non-zero on
//! any failure.

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use thrift_interop::args::{Flags, UDP_ONEWAY_SECONDS};
use thrift_interop::checks::{self, Report};
use thrift_interop::run_checks;
use thrift_interop::types::{
    SecondServiceAsyncClient, SecondServiceClient, ThriftTestAsyncClient, ThriftTestClient,
};
use thrift_runtime::rpc::sasl::Plain;
use thrift_runtime::rpc::{asynchronous, blocking, http, tls, udp};

/// The stream of a blocking connection: TCP, a Unix domain socket (`--domain-socket`),
/// either under TLS (`--ssl`).
trait Stream: Read + Write + Send {}

impl<S: Read + Write + Send> Stream for S {}

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
    let tls = match flags.client_tls() {
        Ok(tls) => tls,
        Err(e) => {
            eprintln!("interop-client: {e}");
            std::process::exit(2);
        }
    };
    if tls.is_some() && flags.asynchronous && flags.domain_socket.is_some() {
        eprintln!("interop-client: --async --ssl connects over TCP only");
        std::process::exit(2);
    }
    let addr = format!("{}:{}", flags.host, flags.port);
    let mut report = Report::default();
    if flags.expect_refusal {
        let refused = expect_refusal(&flags, &addr, tls.as_ref(), &options);
        report.check("connection refused", refused);
        finish(&report);
    }
    if flags.udp() {
        udp_calls(&flags, &addr, options, &mut report);
        finish(&report);
    }
    if flags.asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        if flags.http() {
            runtime.block_on(async {
                let channel = |options: blocking::ClientOptions| {
                    let channel =
                        http::HttpClient::new(&flags.url(), options).and_then(|c| match &tls {
                            Some(config) => c.with_tls(Arc::clone(config)),
                            None => Ok(c),
                        });
                    channel.unwrap_or_else(|e| {
                        eprintln!("interop-client: {e}");
                        std::process::exit(2);
                    })
                };
                let mut main_options = options.clone();
                if flags.multiplexed {
                    main_options.service = Some("ThriftTest".into());
                }
                let client = ThriftTestAsyncClient::new(channel(main_options));
                run_checks!(&mut report, &client, flags.checks(), await);
                unknown_method_async(&mut report, &client).await;
                if flags.multiplexed {
                    let mut second = options.clone();
                    second.service = Some("SecondService".into());
                    let client = SecondServiceAsyncClient::new(channel(second));
                    report.check(
                        "secondtestString",
                        thrift_interop::checks::expect(
                            client.secondtest_string("foobar".into()).await,
                            "testString(\"foobar\")".to_string(),
                        ),
                    );
                }
            });
            finish(&report);
        }
        runtime.block_on(async {
            let connect = |options: blocking::ClientOptions| {
                let addr = addr.clone();
                let flags = &flags;
                let tls = tls.clone();
                async move {
                    let started = Instant::now();
                    loop {
                        let connected = connect_async(flags, &addr, tls.as_ref(), &options).await;
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
            run_checks!(&mut report, &client, flags.checks(), await);
            unknown_method_async(&mut report, &client).await;
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
    } else if flags.http() {
        let channel = |options: blocking::ClientOptions| {
            let channel = http::HttpConnection::new(&flags.url(), options).map(|c| match &tls {
                Some(config) => c.with_tls(Arc::clone(config)),
                None => c,
            });
            channel.unwrap_or_else(|e| {
                eprintln!("interop-client: {e}");
                std::process::exit(2);
            })
        };
        let mut main_options = options.clone();
        if flags.multiplexed {
            main_options.service = Some("ThriftTest".into());
        }
        let mut client = ThriftTestClient::new(channel(main_options));
        run_checks!(&mut report, &mut client, flags.checks());
        unknown_method(&mut report, client.channel_mut());
        if flags.multiplexed {
            let mut second = options.clone();
            second.service = Some("SecondService".into());
            let mut client = SecondServiceClient::new(channel(second));
            report.check(
                "secondtestString",
                thrift_interop::checks::expect(
                    client.secondtest_string("foobar".into()),
                    "testString(\"foobar\")".to_string(),
                ),
            );
        }
    } else {
        let connect = |options: blocking::ClientOptions| {
            let started = Instant::now();
            loop {
                let connected = connect_blocking(&flags, &addr, tls.as_ref(), &options)
                    .map(|stream| blocking::Connection::new(stream, options.clone()));
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
        run_checks!(&mut report, &mut client, flags.checks());
        unknown_method(&mut report, client.channel_mut());
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
    finish(&report);
}

/// `--transport udp`: ThriftTest's one oneway method, one datagram per call, each returning
/// at once (nothing comes back over UDP; the server says what it received).
fn udp_calls(flags: &Flags, addr: &str, options: blocking::ClientOptions, report: &mut Report) {
    let check =
        |report: &mut Report, seconds: i32, started: Instant, sent: thrift_runtime::Result<()>| {
            let outcome = match sent {
                Ok(()) if started.elapsed() < Duration::from_millis(500) => Ok(()),
                Ok(()) => Err(format!("took {:?}", started.elapsed())),
                Err(e) => Err(format!("error: {e}")),
            };
            report.check(&format!("testOneway({seconds}) over udp"), outcome);
        };
    if flags.asynchronous {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async {
            let client = match udp::AsyncUdpClient::connect(addr, options).await {
                Ok(udp) => ThriftTestAsyncClient::new(udp),
                Err(e) => return report.check("connect over udp", Err(e.to_string())),
            };
            for seconds in UDP_ONEWAY_SECONDS {
                let started = Instant::now();
                check(report, seconds, started, client.test_oneway(seconds).await);
            }
        });
        return;
    }
    let mut client = match udp::UdpClient::connect(addr, options) {
        Ok(udp) => ThriftTestClient::new(udp),
        Err(e) => return report.check("connect over udp", Err(e.to_string())),
    };
    for seconds in UDP_ONEWAY_SECONDS {
        let started = Instant::now();
        check(report, seconds, started, client.test_oneway(seconds));
    }
}

/// A call of a method the server does not have gets `UNKNOWN_METHOD`, and the connection
/// serves the next call.
fn unknown_method(report: &mut Report, channel: &mut impl thrift_runtime::rpc::Channel) {
    use thrift_interop::types::{
        ThriftTestTestI32Args, ThriftTestTestI32Result, ThriftTestTestVoidArgs,
        ThriftTestTestVoidResult,
    };
    let got = channel
        .call::<_, ThriftTestTestVoidResult>(checks::NO_SUCH_METHOD, &ThriftTestTestVoidArgs {});
    report.check("noSuchMethod", checks::unknown_method(got));
    let next = channel
        .call::<_, ThriftTestTestI32Result>("testI32", &ThriftTestTestI32Args { thing: 7 })
        .map(|r| r.success);
    report.check("testI32(after noSuchMethod)", checks::expect(next, Some(7)));
}

/// [`unknown_method`] with an async client.
async fn unknown_method_async<C: thrift_runtime::rpc::AsyncChannel>(
    report: &mut Report,
    client: &ThriftTestAsyncClient<C>,
) {
    use thrift_interop::types::{ThriftTestTestVoidArgs, ThriftTestTestVoidResult};
    use thrift_runtime::rpc::call_async;
    let got = call_async::<_, _, ThriftTestTestVoidResult>(
        client.channel(),
        checks::NO_SUCH_METHOD,
        &ThriftTestTestVoidArgs {},
    )
    .await;
    report.check("noSuchMethod", checks::unknown_method(got));
    report.check(
        "testI32(after noSuchMethod)",
        checks::expect(client.test_i32(7).await, 7),
    );
}

/// Prints the summary and exits, non-zero if anything failed.
fn finish(report: &Report) -> ! {
    println!("{} passed, {} failed", report.passed, report.failed);
    std::process::exit(if report.failed > 0 { 1 } else { 0 });
}

/// An async connection, as the flags say: TCP or a Unix domain socket, under TLS, then
/// authenticated (a Unix socket with TLS is refused at the start).
async fn connect_async(
    flags: &Flags,
    addr: &str,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: &blocking::ClientOptions,
) -> thrift_runtime::Result<asynchronous::Connection> {
    let options = options.clone();
    let plain = || Plain::new(&flags.sasl_user, &flags.sasl_password).authzid(&flags.sasl_authzid);
    match (&flags.domain_socket, tls) {
        (Some(path), _) if flags.sasl => {
            let stream = tokio::net::UnixStream::connect(path).await?;
            asynchronous::Connection::new_sasl(stream, plain(), options).await
        }
        (Some(path), _) => asynchronous::Connection::connect_unix(path, options).await,
        (None, Some(config)) if flags.sasl => {
            asynchronous::Connection::connect_tls_sasl(
                addr,
                &flags.host,
                Arc::clone(config),
                plain(),
                options,
            )
            .await
        }
        (None, Some(config)) => {
            asynchronous::Connection::connect_tls(addr, &flags.host, Arc::clone(config), options)
                .await
        }
        (None, None) if flags.sasl => {
            asynchronous::Connection::connect_sasl(addr, plain(), options).await
        }
        (None, None) => asynchronous::Connection::connect(addr, options).await,
    }
}

/// `--expect-refusal`: the server must refuse this client. It connects (retrying while
/// nothing listens yet, as the server may be starting) and calls `testVoid`: the check
/// passes when connecting (a TLS handshake, a SASL negotiation) or the call fails.
fn expect_refusal(
    flags: &Flags,
    addr: &str,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: &blocking::ClientOptions,
) -> checks::Outcome {
    let started = Instant::now();
    let not_yet = |e: &thrift_runtime::Error| {
        e.to_string().contains("Connection refused") && started.elapsed() < Duration::from_secs(10)
    };
    let outcome = if flags.asynchronous {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async {
            loop {
                match connect_async(flags, addr, tls, options).await {
                    Err(e) if not_yet(&e) => tokio::time::sleep(Duration::from_millis(100)).await,
                    Err(e) => break Err(e),
                    Ok(connection) => {
                        break ThriftTestAsyncClient::new(connection).test_void().await;
                    }
                }
            }
        })
    } else {
        loop {
            match connect_blocking(flags, addr, tls, options) {
                Err(e) if not_yet(&e) => std::thread::sleep(Duration::from_millis(100)),
                Err(e) => break Err(e),
                Ok(stream) => {
                    break ThriftTestClient::new(blocking::Connection::new(
                        stream,
                        options.clone(),
                    ))
                    .test_void();
                }
            }
        }
    };
    match outcome {
        Ok(()) => Err("the server answered a client it should have refused".into()),
        Err(e) => {
            println!("refused: {e}");
            Ok(())
        }
    }
}

/// A blocking connection's stream, as the flags say: TCP or a Unix domain socket
/// (`--domain-socket`), under TLS (`--ssl`), then authenticated (`--sasl`), each layer over
/// the one before.
fn connect_blocking(
    flags: &Flags,
    addr: &str,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: &blocking::ClientOptions,
) -> thrift_runtime::Result<Box<dyn Stream>> {
    let stream: Box<dyn Stream> = match &flags.domain_socket {
        Some(path) => {
            Box::new(blocking::Connection::connect_unix(path, options.clone())?.into_inner())
        }
        None => Box::new(blocking::Connection::connect(addr, options.clone())?.into_inner()),
    };
    let stream: Box<dyn Stream> = match tls {
        Some(config) => {
            let name = match flags.domain_socket {
                Some(_) => "localhost",
                None => flags.host.as_str(),
            };
            let session =
                tls::rustls::ClientConnection::new(Arc::clone(config), tls::server_name(name)?)
                    .map_err(std::io::Error::other)?;
            let mut stream = blocking::TlsStream::new(session, stream);
            stream.handshake()?;
            Box::new(stream)
        }
        None => stream,
    };
    if flags.sasl {
        let plain = Plain::new(&flags.sasl_user, &flags.sasl_password).authzid(&flags.sasl_authzid);
        let connection = blocking::Connection::new_sasl(stream, plain, options.clone())?;
        return Ok(Box::new(connection.into_inner()));
    }
    Ok(stream)
}

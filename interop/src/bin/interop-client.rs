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
use thrift_runtime::rpc::{AsyncChannel, Channel, ClientOptions, asynchronous, blocking, tls};

/// The stream of a blocking connection: TCP, a Unix domain socket (`--domain-socket`),
/// either under TLS (`--ssl`).
trait Stream: Read + Write + Send {}

impl<S: Read + Write + Send> Stream for S {}

fn main() {
    let flags = unwrap_or_exit(Flags::parse());
    let options = unwrap_or_exit(flags.client_options());
    let tls = unwrap_or_exit(flags.client_tls());
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
    let tls = tls.as_ref();
    if flags.asynchronous {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a tokio runtime");
        runtime.block_on(async {
            if flags.http() {
                let open = |options| std::future::ready(async_http_channel(&flags, tls, options));
                async_calls(&flags, &options, &mut report, open).await;
            } else {
                let open = |options| connect_async_retrying(&flags, &addr, tls, options);
                async_calls(&flags, &options, &mut report, open).await;
            }
        });
    } else if flags.http() {
        let open = |options| blocking_http_channel(&flags, tls, options);
        blocking_calls(&flags, &options, &mut report, open);
    } else {
        let open = |options| connect_blocking_retrying(&flags, &addr, tls, options);
        blocking_calls(&flags, &options, &mut report, open);
    }
    finish(&report);
}

/// The value, or (bad flags, a bad URL) the error printed and exit status 2.
fn unwrap_or_exit<T, E: std::fmt::Display>(result: Result<T, E>) -> T {
    result.unwrap_or_else(|e| {
        eprintln!("interop-client: {e}");
        std::process::exit(2);
    })
}

/// The options of the ThriftTest client: with `--multiplexed`, its calls name the service.
fn thrift_test_options(flags: &Flags, options: &ClientOptions) -> ClientOptions {
    let mut thrift_test = options.clone();
    if flags.multiplexed {
        thrift_test.service = Some("ThriftTest".into());
    }
    thrift_test
}

/// The options of the multiplexed SecondService client.
fn second_service_options(options: &ClientOptions) -> ClientOptions {
    let mut second = options.clone();
    second.service = Some("SecondService".into());
    second
}

/// Checks SecondService's answer to `secondtestString("foobar")`.
fn check_second_service(report: &mut Report, got: thrift_runtime::Result<String>) {
    report.check(
        "secondtestString",
        checks::expect(got, "testString(\"foobar\")".to_string()),
    );
}

/// Every check over blocking channels `open` makes from client options: ThriftTest's calls,
/// an unknown method, and with `--multiplexed` SecondService over a second channel.
fn blocking_calls<C: Channel>(
    flags: &Flags,
    options: &ClientOptions,
    report: &mut Report,
    open: impl Fn(ClientOptions) -> C,
) {
    let mut client = ThriftTestClient::new(open(thrift_test_options(flags, options)));
    run_checks!(report, &mut client, flags.checks());
    unknown_method(report, client.channel_mut());
    if flags.multiplexed {
        // A second connection, as Apache's multiplexed clients open one per service.
        let mut client = SecondServiceClient::new(open(second_service_options(options)));
        check_second_service(report, client.secondtest_string("foobar".into()));
    }
}

/// [`blocking_calls`] over async channels, `open` connecting them.
async fn async_calls<C: AsyncChannel, Opening: Future<Output = C>>(
    flags: &Flags,
    options: &ClientOptions,
    report: &mut Report,
    open: impl Fn(ClientOptions) -> Opening,
) {
    let client = ThriftTestAsyncClient::new(open(thrift_test_options(flags, options)).await);
    run_checks!(report, &client, flags.checks(), await);
    unknown_method_async(report, &client).await;
    if flags.multiplexed {
        let client = SecondServiceAsyncClient::new(open(second_service_options(options)).await);
        check_second_service(report, client.secondtest_string("foobar".into()).await);
    }
}

/// `--transport http`: a blocking HTTP client of the flags' URL, under TLS with `--ssl`.
fn blocking_http_channel(
    flags: &Flags,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: ClientOptions,
) -> blocking::HttpClient {
    let channel = blocking::HttpClient::new(&flags.url(), options).map(|c| match tls {
        Some(config) => c.with_tls(Arc::clone(config)),
        None => c,
    });
    unwrap_or_exit(channel)
}

/// [`blocking_http_channel`] for the async client.
fn async_http_channel(
    flags: &Flags,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: ClientOptions,
) -> asynchronous::HttpClient {
    let channel = asynchronous::HttpClient::new(&flags.url(), options).and_then(|c| match tls {
        Some(config) => c.with_tls(Arc::clone(config)),
        None => Ok(c),
    });
    unwrap_or_exit(channel)
}

/// A blocking connection as [`connect_blocking`] makes its stream, tried again every 100 ms
/// while the server may be starting; after 10 s the client gives up.
fn connect_blocking_retrying(
    flags: &Flags,
    addr: &str,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: ClientOptions,
) -> blocking::Connection<Box<dyn Stream>> {
    let started = Instant::now();
    loop {
        let connected = connect_blocking(flags, addr, tls, &options)
            .map(|stream| blocking::Connection::new(stream, options.clone()));
        match connected {
            Ok(c) => return c,
            Err(e) if started.elapsed() > Duration::from_secs(10) => {
                cannot_connect(flags, addr, &e)
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}

/// [`connect_blocking_retrying`] for an async connection, made by [`connect_async`].
async fn connect_async_retrying(
    flags: &Flags,
    addr: &str,
    tls: Option<&Arc<tls::rustls::ClientConfig>>,
    options: ClientOptions,
) -> asynchronous::Connection {
    let started = Instant::now();
    loop {
        match connect_async(flags, addr, tls, &options).await {
            Ok(c) => return c,
            Err(e) if started.elapsed() > Duration::from_secs(10) => {
                cannot_connect(flags, addr, &e)
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Says where the client could not connect, and exits with status 1.
fn cannot_connect(flags: &Flags, addr: &str, e: &thrift_runtime::Error) -> ! {
    eprintln!(
        "interop-client: cannot connect to {}: {e}",
        flags.domain_socket.as_deref().unwrap_or(addr)
    );
    std::process::exit(1);
}

/// `--transport udp`: ThriftTest's one oneway method, one datagram per call, each returning
/// at once (nothing comes back over UDP; the server says what it received).
fn udp_calls(flags: &Flags, addr: &str, options: ClientOptions, report: &mut Report) {
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
            let client = match asynchronous::UdpClient::connect(addr, options).await {
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
    let mut client = match blocking::UdpClient::connect(addr, options) {
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
fn unknown_method(report: &mut Report, channel: &mut impl Channel) {
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
async fn unknown_method_async<C: AsyncChannel>(
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
    options: &ClientOptions,
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
            let tls = thrift_runtime::rpc::tls::TlsConnector::new(
                thrift_runtime::rpc::TcpConnector,
                Arc::clone(config),
            )
            .server_name(&flags.host);
            let connector = thrift_runtime::rpc::sasl::SaslConnector::new(tls, plain());
            asynchronous::Connection::connect_with(&connector, addr, options).await
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
    options: &ClientOptions,
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
    options: &ClientOptions,
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

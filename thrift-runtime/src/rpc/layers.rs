//! tower integration (feature `tower`): the async client connection is a
//! `tower::Service<ClientRequest>`, any such service (a stack of layers, a balancer over many
//! connections) is an [`AsyncChannel`] for generated clients through [`ServiceChannel`], and
//! the async server serves any `tower::Service<Message>` around a processor
//! ([`ProcessorService`]).
//!
//! Timeouts, concurrency limits, load shedding, retries and balancing come from tower's own
//! layers. The tower path boxes each call's future (one allocation per call); the plain
//! [`Server::serve`](super::asynchronous::Server::serve) and [`Connection`] paths do not.

use std::future::{Future, poll_fn};
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use tower_service::Service;

use super::asynchronous::{Connection, Listener, Server, accept_loop};
use super::message::{Message, ProtocolKind};
use super::service::{AsyncChannel, AsyncProcessor, ClientRequest, Reply};
use crate::application::{ApplicationException, ApplicationExceptionKind};
use crate::error::{Error, ErrorKind, Result};

/// A boxed error, as tower's layers return them.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A boxed, `Send` future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A layer's error as this crate's: its own errors come back as they were, tower's
/// `timeout` layer running out is [`ErrorKind::TimedOut`], anything else (a load shedder, a
/// concurrency limit's error, a user's layer) is [`ErrorKind::Other`]. Never an
/// [`ApplicationException`]: only the peer sends those.
fn to_error(e: BoxError) -> Error {
    let e = match e.downcast::<Error>() {
        Ok(e) => return *e,
        Err(e) => e,
    };
    if e.is::<tower::timeout::error::Elapsed>() {
        return Error::timed_out("a tower timeout layer ran out");
    }
    Error::new(ErrorKind::Other(e), "")
}

impl Service<ClientRequest> for Connection {
    type Response = Option<Reply>;
    type Error = Error;
    type Future = BoxFuture<Result<Option<Reply>>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: ClientRequest) -> Self::Future {
        let connection = self.clone();
        Box::pin(async move { AsyncChannel::send(&connection, request).await })
    }
}

/// An [`AsyncChannel`] over any `tower::Service<ClientRequest>` (cloned for each call, as
/// tower's `Buffer` and balancers are meant to be), for generated async clients:
///
/// ```no_run
/// # async fn run() -> thrift_runtime::Result<()> {
/// use thrift_runtime::rpc::asynchronous::Connection;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::layers::ServiceChannel;
/// use thrift_runtime::rpc::ProtocolKind;
///
/// let options = ClientOptions::default();
/// let connection = Connection::connect("127.0.0.1:9090", options).await?;
/// // Any layers: tower::ServiceBuilder::new().timeout(..).service(connection)
/// let channel = ServiceChannel::new(connection, ProtocolKind::Binary);
/// // let client = idl::calculator::CalculatorAsyncClient::new(channel);
/// # Ok(()) }
/// ```
///
/// The service's type is erased behind a shared function (one boxed future per call): the
/// generated clients' futures then stay `Send` whatever the layers (rustc cannot always prove
/// that for deep tower types), and services that are `Send` but not `Sync`, such as tower's
/// `Buffer`, work too.
#[derive(Clone)]
pub struct ServiceChannel {
    call: Arc<dyn Fn(ClientRequest) -> BoxFuture<Result<Option<Reply>>> + Send + Sync>,
    protocol: ProtocolKind,
}

impl std::fmt::Debug for ServiceChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServiceChannel")
            .field("protocol", &self.protocol)
            .finish_non_exhaustive()
    }
}

impl ServiceChannel {
    /// A channel calling `service`, whose connections speak `protocol` (the connection
    /// refuses a call encoded in another protocol: see [`ClientRequest::check_protocol`]).
    pub fn new<S>(service: S, protocol: ProtocolKind) -> Self
    where
        S: Service<ClientRequest, Response = Option<Reply>> + Clone + Send + 'static,
        S::Error: Into<BoxError>,
        S::Future: Send + 'static,
    {
        let service = Mutex::new(service);
        let call = move |request: ClientRequest| -> BoxFuture<Result<Option<Reply>>> {
            let mut service = match service.lock() {
                Ok(service) => service.clone(),
                Err(poisoned) => poisoned.into_inner().clone(),
            };
            Box::pin(async move {
                poll_fn(|cx| service.poll_ready(cx))
                    .await
                    .map_err(|e| to_error(e.into()))?;
                service.call(request).await.map_err(|e| to_error(e.into()))
            })
        };
        ServiceChannel {
            call: Arc::new(call),
            protocol,
        }
    }
}

impl AsyncChannel for ServiceChannel {
    fn protocol(&self) -> ProtocolKind {
        self.protocol
    }

    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Reply>>> + Send {
        (self.call)(request)
    }
}

/// A processor as a `tower::Service<Message>`: the response is the reply message (empty for
/// a oneway call). Wrap it in layers and hand it to [`Server::serve_service`].
#[derive(Debug)]
pub struct ProcessorService<P> {
    processor: Arc<P>,
}

impl<P> Clone for ProcessorService<P> {
    fn clone(&self) -> Self {
        ProcessorService {
            processor: Arc::clone(&self.processor),
        }
    }
}

impl<P> ProcessorService<P> {
    /// The service of `processor`.
    pub fn new(processor: P) -> Self {
        ProcessorService {
            processor: Arc::new(processor),
        }
    }
}

impl<P: AsyncProcessor + 'static> Service<Message> for ProcessorService<P> {
    type Response = Vec<u8>;
    type Error = Error;
    type Future = BoxFuture<Result<Vec<u8>>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, call: Message) -> Self::Future {
        let processor = Arc::clone(&self.processor);
        Box::pin(async move {
            let mut out = Vec::new();
            processor.process(&call, &mut out).await?;
            Ok(out)
        })
    }
}

impl Server {
    /// Serves `service` (a [`ProcessorService`] inside any tower layers) on `listener` until
    /// `signal` completes, with the graceful shutdown of
    /// [`Server::serve_with_shutdown`](super::asynchronous::Server::serve_with_shutdown). Each
    /// connection gets a clone of the service. An error from the service (a timeout, an
    /// overloaded limit) is answered with a `TApplicationException` (`INTERNAL_ERROR`, the
    /// error's text) and the connection goes on.
    ///
    /// ```no_run
    /// # async fn run() -> std::io::Result<()> {
    /// use std::time::Duration;
    /// use thrift_runtime::rpc::asynchronous::Server;
    /// use thrift_runtime::rpc::ServerOptions;
    /// use thrift_runtime::rpc::layers::ProcessorService;
    /// use thrift_runtime::rpc::AsyncMultiplexedProcessor;
    ///
    /// let processor = AsyncMultiplexedProcessor::new(); // or `FooAsyncProcessor::new(handler)`
    /// let service = tower::ServiceBuilder::new()
    ///     .concurrency_limit(64)
    ///     .timeout(Duration::from_secs(1))
    ///     .service(ProcessorService::new(processor));
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:9090").await?;
    /// Server::new(ServerOptions::default())
    ///     .serve_service(listener, service, std::future::pending())
    ///     .await
    /// # }
    /// ```
    pub async fn serve_service<L, S>(
        self,
        listener: L,
        service: S,
        signal: impl Future<Output = ()>,
    ) -> io::Result<()>
    where
        L: Listener,
        S: Service<Message, Response = Vec<u8>> + Clone + Send + 'static,
        S::Error: Into<BoxError>,
        S::Future: Send,
    {
        accept_loop(
            listener,
            self.into_options(),
            signal,
            move |mut connection| {
                let mut service = service.clone();
                async move {
                    while let Some(call) = connection.next_call().await {
                        let ready: std::result::Result<(), BoxError> =
                            poll_fn(|cx| service.poll_ready(cx))
                                .await
                                .map_err(Into::into);
                        let outcome = match ready {
                            Ok(()) => service.call(call.clone()).await.map_err(Into::into),
                            Err(e) => Err(e),
                        };
                        let written = match outcome {
                            Ok(reply) => {
                                connection.out.extend_from_slice(&reply);
                                Ok(())
                            }
                            Err(e) => {
                                let e = ApplicationException::new(
                                    ApplicationExceptionKind::INTERNAL_ERROR,
                                    e.to_string(),
                                );
                                call.reply_exception(&mut connection.out, &e)
                            }
                        };
                        drop(call);
                        if written.is_err() || !connection.send_reply().await {
                            return;
                        }
                    }
                    connection.close().await;
                }
            },
        )
        .await
    }
}

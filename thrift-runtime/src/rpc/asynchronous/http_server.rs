//! [`HttpServer`] and [`HttpService`]: a processor answering Thrift calls POSTed over HTTP.

use std::convert::Infallible;
use std::future::{Future, poll_fn};
use std::io;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Body;
use hyper_util::rt::{TokioIo, TokioTimer};

use super::server::{Shutdown, accept_each, serve_and_spawn};
use super::{Listener, ServerHandle};
use crate::limits::FrameLimits;
use crate::rpc::http::{BodyError, CONTENT_TYPE, read_body};
use crate::rpc::options::ServerOptions;
use crate::rpc::service::AsyncProcessor;
use crate::wire::MessageType;

/// A processor as an HTTP service: each `POST` carries one call (binary, compact or JSON,
/// detected from the body) and gets its reply as the response body, `200 OK`, in the call's
/// protocol. A oneway call is answered at once with an empty body, and its handler runs on a
/// task of its own. A tower
/// `Service<http::Request<B>>` for any body type, so it mounts at a path of an axum router
/// (`Router::new().route_service("/thrift", HttpService::new(processor))`) or any hyper
/// server; [`HttpServer`] runs it alone.
///
/// Refused, with nothing processed: another method (`405`, `Allow: POST`); a body over
/// `max_frame_size` (`413`, before reading it when its `Content-Length` says so); a body that
/// is not one whole call (`400`); a processor that cannot write its reply (`500`). A handler's
/// errors and panics are exceptions in a `200` reply, as on the other transports.
pub struct HttpService<P> {
    processor: Arc<P>,
    limits: FrameLimits,
    body_timeout: Option<Duration>,
}

impl<P> Clone for HttpService<P> {
    fn clone(&self) -> Self {
        HttpService {
            processor: Arc::clone(&self.processor),
            limits: self.limits,
            body_timeout: self.body_timeout,
        }
    }
}

impl<P> std::fmt::Debug for HttpService<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpService")
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl<P: AsyncProcessor + 'static> HttpService<P> {
    /// Serves `processor` (a generated `FooAsyncProcessor`, or a multiplexed one) with the
    /// default limits and a 30 s limit on receiving a request's body.
    pub fn new(processor: P) -> Self {
        HttpService {
            processor: Arc::new(processor),
            limits: FrameLimits::default(),
            body_timeout: Some(Duration::from_secs(30)),
        }
    }

    /// With these limits (`max_frame_size` bounds bodies; `read` the decoding).
    pub fn limits(mut self, limits: FrameLimits) -> Self {
        self.limits = limits;
        self
    }

    /// How long receiving a request's body may take (`None`: as long as it takes).
    pub fn body_timeout(mut self, timeout: Option<Duration>) -> Self {
        self.body_timeout = timeout;
        self
    }

    /// Answers one request.
    pub async fn handle<B>(&self, request: http::Request<B>) -> http::Response<Full<Bytes>>
    where
        B: Body,
        B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        if request.method() != http::Method::POST {
            let mut response = status(http::StatusCode::METHOD_NOT_ALLOWED, "POST a Thrift call");
            response
                .headers_mut()
                .insert(http::header::ALLOW, http::HeaderValue::from_static("POST"));
            return response;
        }
        let max = self.limits.max_frame_size;
        let declared = request
            .headers()
            .get(http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        if declared.is_some_and(|len| len > max as u64) {
            return status(
                http::StatusCode::PAYLOAD_TOO_LARGE,
                "body larger than max_frame_size",
            );
        }
        let content_type = request.headers().get(http::header::CONTENT_TYPE).cloned();
        let collect = read_body(request.into_body(), max);
        let collected = match self.body_timeout {
            Some(limit) => match tokio::time::timeout(limit, collect).await {
                Ok(collected) => collected,
                Err(_) => return status(http::StatusCode::REQUEST_TIMEOUT, "body too slow"),
            },
            None => collect.await,
        };
        let body = match collected {
            Ok(body) => body,
            Err(BodyError::TooLarge) => {
                return status(
                    http::StatusCode::PAYLOAD_TOO_LARGE,
                    "body larger than max_frame_size",
                );
            }
            Err(BodyError::Unreadable(_)) => {
                return status(http::StatusCode::BAD_REQUEST, "the body could not be read");
            }
        };
        let call = match crate::rpc::http::one_call(body, self.limits.read) {
            Ok(call) => call,
            Err(why) => return status(http::StatusCode::BAD_REQUEST, why),
        };
        let reply_type = content_type.unwrap_or(http::HeaderValue::from_static(CONTENT_TYPE));
        if call.kind() == MessageType::Oneway {
            // Answered at once (a oneway caller does not wait for the handler, as with
            // Apache's THttpServer); the handler runs on its own task.
            let processor = Arc::clone(&self.processor);
            tokio::spawn(async move {
                let mut out = Vec::new();
                let _ = processor.process(&call, &mut out).await;
            });
            let mut response = http::Response::new(Full::new(Bytes::new()));
            response
                .headers_mut()
                .insert(http::header::CONTENT_TYPE, reply_type);
            return response;
        }
        // Room for a typical reply at once (a `Vec` grown by doubling took four or five
        // allocations for a small one).
        let mut out = Vec::with_capacity(REPLY_ROOM);
        if self.processor.process(&call, &mut out).await.is_err() {
            return status(
                http::StatusCode::INTERNAL_SERVER_ERROR,
                "the reply could not be written",
            );
        }
        if out.len() > max {
            return status(
                http::StatusCode::INTERNAL_SERVER_ERROR,
                "reply larger than max_frame_size",
            );
        }
        let mut response = http::Response::new(Full::new(Bytes::from(out)));
        response
            .headers_mut()
            .insert(http::header::CONTENT_TYPE, reply_type);
        response
    }
}

/// What a reply's buffer holds before it grows.
const REPLY_ROOM: usize = 1024;

fn status(code: http::StatusCode, why: impl Into<Bytes>) -> http::Response<Full<Bytes>> {
    let mut response = http::Response::new(Full::new(why.into()));
    *response.status_mut() = code;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

impl<P, B> tower_service::Service<http::Request<B>> for HttpService<P>
where
    P: AsyncProcessor + 'static,
    B: Body + Send + 'static,
    B::Data: Send,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = http::Response<Full<Bytes>>;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let service = self.clone();
        Box::pin(async move { Ok(service.handle(request).await) })
    }
}

/// An async HTTP/1.1 server for a processor, as Apache's `THttpServer` on hyper: each `POST`
/// carries one call, answered in its response's body. Any [`Listener`]: a tokio
/// `TcpListener`, a `UnixListener`, a `TlsListener` (HTTPS). Keep-alive; from its
/// [`ServerOptions`]: `idle_timeout` bounds the wait for a request's headers, `read_timeout`
/// the receiving of its body, `limits` the bodies and their decoding. Built and run as every
/// async server is. To mount Thrift at a path of an axum or hyper app, use [`HttpService`].
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use thrift_runtime::rpc::asynchronous::HttpServer;
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::AsyncMultiplexedProcessor;
///
/// let listener = tokio::net::TcpListener::bind("0.0.0.0:9090").await?;
/// let processor = AsyncMultiplexedProcessor::new(); // or `FooAsyncProcessor::new(handler)`
/// let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
/// HttpServer::new(ServerOptions::default())
///     .serve_with_shutdown(listener, processor, shutdown)
///     .await
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct HttpServer {
    options: ServerOptions,
}

impl HttpServer {
    /// A server with these options.
    pub fn new(options: ServerOptions) -> Self {
        HttpServer { options }
    }

    serve_and_spawn!();

    /// Serves on `listener` until `signal` completes, then stops accepting, lets each
    /// connection finish the request it is serving, and returns once all are closed.
    pub async fn serve_with_shutdown<L: Listener, P: AsyncProcessor + 'static>(
        self,
        listener: L,
        processor: P,
        signal: impl Future<Output = ()>,
    ) -> io::Result<()> {
        serve(listener, processor, self.options, signal).await
    }
}

/// The body of [`HttpServer::serve_with_shutdown`].
async fn serve<L, P>(
    listener: L,
    processor: P,
    options: ServerOptions,
    signal: impl Future<Output = ()>,
) -> io::Result<()>
where
    L: Listener,
    P: AsyncProcessor + 'static,
{
    let service = HttpService::new(processor)
        .limits(options.limits)
        .body_timeout(options.read_timeout);
    let idle = options.idle_timeout;
    accept_each(listener, signal, move |io, shutdown| {
        let service = service.clone();
        async move {
            let Shutdown { mut stop, alive } = shutdown;
            let _alive = alive;
            let hyper_service = hyper::service::service_fn(move |request| {
                let service = service.clone();
                async move { Ok::<_, Infallible>(service.handle(request).await) }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).keep_alive(true);
            if let Some(idle) = idle {
                builder.header_read_timeout(idle);
            }
            let mut connection = pin!(builder.serve_connection(TokioIo::new(io), hyper_service));
            let finished = {
                let mut stopped = pin!(stop.wait_for(|stop| *stop));
                poll_fn(|cx| {
                    if connection.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(true);
                    }
                    match stopped.as_mut().poll(cx) {
                        Poll::Ready(_) => Poll::Ready(false),
                        Poll::Pending => Poll::Pending,
                    }
                })
                .await
            };
            if !finished {
                // Shutdown: the request being served is answered, then the connection closes.
                connection.as_mut().graceful_shutdown();
                let _ = connection.await;
            }
        }
    })
    .await
}

//! [`HttpClient`]: Thrift calls as HTTP `POST`s, async, on a keep-alive pool.

use std::future::Future;
use std::io;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Body;
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::error::{Error, Result};
use crate::rpc::http::{BodyError, CONTENT_TYPE, Url, read_body, status_error, too_large};
use crate::rpc::message::{Message, ProtocolKind};
use crate::rpc::options::ClientOptions;
use crate::rpc::service::{AsyncChannel, ClientRequest, Reply};

/// Idle connections kept for the next calls, at most.
const MAX_IDLE: usize = 32;

/// An async HTTP client channel: each call is a `POST` of the message to the URL, the reply
/// the response's body. Cheap to clone (clones share the pool); calls from many tasks at once
/// go out on as many connections (HTTP/1.1 answers one request at a time per connection),
/// which are kept alive for the next calls. [`ClientOptions`] gives the protocol, the
/// multiplexed service name, the limits (`max_frame_size` bounds request and reply bodies) and
/// the timeout of a whole call; its transport and THeader settings do not apply.
///
/// ```no_run
/// # async fn run() -> thrift_runtime::Result<()> {
/// use thrift_runtime::rpc::asynchronous::HttpClient;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::ProtocolKind;
///
/// let options = ClientOptions::new(ProtocolKind::Binary);
/// let channel = HttpClient::new("http://hbase-thrift:9090/", options)?
///     .header("authorization", "Bearer ...")?;
/// // let client = hbase::HbaseAsyncClient::new(channel);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct HttpClient {
    inner: Arc<Inner>,
}

struct Inner {
    url: Url,
    /// The request target of every call: `url`'s path and query.
    target: http::Uri,
    text: String,
    headers: http::HeaderMap,
    options: ClientOptions,
    #[cfg(feature = "tls")]
    tls: Option<Arc<rustls::ClientConfig>>,
    idle: Mutex<Vec<SendRequest<Full<Bytes>>>>,
    seq: AtomicI32,
}

impl std::fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpClient")
            .field("url", &self.inner.text)
            .field("protocol", &self.inner.options.protocol)
            .finish_non_exhaustive()
    }
}

impl HttpClient {
    /// A client of the Thrift endpoint at `url` (`http://host[:port]/path`; `https://` with
    /// [`HttpClient::with_tls`]). Connects at the first call.
    pub fn new(url: &str, options: ClientOptions) -> Result<Self> {
        let parsed = Url::parse(url)?;
        let target = parsed
            .path
            .parse::<http::Uri>()
            .map_err(|e| Error::from(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
        let mut headers = http::HeaderMap::new();
        let host = http::HeaderValue::from_str(&parsed.authority())
            .map_err(|e| Error::from(io::Error::new(io::ErrorKind::InvalidInput, e)))?;
        headers.insert(http::header::HOST, host);
        headers.insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static(CONTENT_TYPE),
        );
        headers.insert(
            http::header::ACCEPT,
            http::HeaderValue::from_static(CONTENT_TYPE),
        );
        Ok(HttpClient {
            inner: Arc::new(Inner {
                url: parsed,
                target,
                text: url.to_owned(),
                headers,
                options,
                #[cfg(feature = "tls")]
                tls: None,
                idle: Mutex::new(Vec::new()),
                seq: AtomicI32::new(0),
            }),
        })
    }

    /// Sends `name: value` with every call (an `Authorization`, a tenant, a trace header);
    /// replaces a header of that name given before.
    pub fn header(mut self, name: &str, value: &str) -> Result<Self> {
        let invalid = |e: &dyn std::fmt::Display| {
            Error::from(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not an HTTP header {name:?}: {e}"),
            ))
        };
        let name = http::HeaderName::from_bytes(name.as_bytes()).map_err(|e| invalid(&e))?;
        let value = http::HeaderValue::from_str(value).map_err(|e| invalid(&e))?;
        self.inner_mut()?.headers.insert(name, value);
        Ok(self)
    }

    /// HTTPS with this `rustls` configuration ([`crate::rpc::tls::client_config`]): needed for
    /// an `https://` URL, which is refused without it. The server's certificate is checked
    /// against the URL's host.
    #[cfg(feature = "tls")]
    pub fn with_tls(mut self, config: Arc<rustls::ClientConfig>) -> Result<Self> {
        self.inner_mut()?.tls = Some(config);
        Ok(self)
    }

    fn inner_mut(&mut self) -> Result<&mut Inner> {
        Arc::get_mut(&mut self.inner).ok_or_else(|| {
            Error::from(io::Error::new(
                io::ErrorKind::InvalidInput,
                "configure an HttpClient before cloning it",
            ))
        })
    }

    /// The URL calls go to.
    pub fn url(&self) -> &str {
        &self.inner.text
    }
}

impl AsyncChannel for HttpClient {
    fn protocol(&self) -> ProtocolKind {
        self.inner.options.protocol
    }

    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Reply>>> + Send {
        let inner = Arc::clone(&self.inner);
        async move { inner.call(request).await }
    }
}

impl Inner {
    async fn call(&self, request: ClientRequest) -> Result<Option<Reply>> {
        let protocol = self.options.protocol;
        request.check_protocol(protocol)?;
        let seq = self.seq.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        let mut name = String::new();
        let mut body = Vec::with_capacity(request.body.len() + request.method.len() + 32);
        request.write_message(&mut body, self.options.service.as_deref(), seq, &mut name)?;
        let max = self.options.limits.max_frame_size;
        if body.len() > max {
            return Err(too_large());
        }
        let body = Bytes::from(body);
        let exchange = async {
            let mut sender = self.checkout().await?;
            let mut http_request = http::Request::new(Full::new(body));
            *http_request.method_mut() = http::Method::POST;
            // Parsed once (parsing copied the path into a new buffer per call).
            *http_request.uri_mut() = self.target.clone();
            *http_request.headers_mut() = self.headers.clone();
            let response = sender
                .send_request(http_request)
                .await
                .map_err(hyper_error)?;
            let status = response.status();
            if status != http::StatusCode::OK {
                return Err(status_error(status.as_u16(), &self.text, "200"));
            }
            if request.oneway {
                // Written and accepted: a oneway caller does not wait for the body (Apache's
                // THttpServer ends it only when the handler is done). The connection is kept
                // only if the body is known to be empty.
                if response.body().is_end_stream() {
                    self.checkin(sender);
                }
                return Ok(Bytes::new());
            }
            let bytes = read_body(response.into_body(), max)
                .await
                .map_err(|e| match e {
                    BodyError::TooLarge => too_large(),
                    BodyError::Unreadable(e) => Error::from(io::Error::other(e)),
                })?;
            self.checkin(sender);
            Ok(bytes)
        };
        let bytes = within(self.options.timeout, exchange).await?;
        if request.oneway {
            return Ok(None);
        }
        let message = Message::parse(bytes, protocol, self.options.limits.read)?;
        Ok(Some(Reply { seq, message }))
    }

    /// An idle connection of the pool that still works, or a new one.
    async fn checkout(&self) -> Result<SendRequest<Full<Bytes>>> {
        loop {
            let idle = self.lock().pop();
            match idle {
                Some(mut sender) => {
                    if sender.ready().await.is_ok() {
                        return Ok(sender);
                    }
                }
                None => return self.connect().await,
            }
        }
    }

    fn checkin(&self, sender: SendRequest<Full<Bytes>>) {
        if sender.is_closed() {
            return;
        }
        let mut idle = self.lock();
        if idle.len() < MAX_IDLE {
            idle.push(sender);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<SendRequest<Full<Bytes>>>> {
        self.idle
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    async fn connect(&self) -> Result<SendRequest<Full<Bytes>>> {
        let tcp = TcpStream::connect((self.url.host.as_str(), self.url.port))
            .await
            .map_err(|e| Error::connect(self.text.as_str(), e))?;
        tcp.set_nodelay(true)?;
        if self.url.https {
            #[cfg(feature = "tls")]
            if let Some(config) = &self.tls {
                let name = crate::rpc::tls::server_name(&self.url.host)?;
                let stream = tokio_rustls::TlsConnector::from(Arc::clone(config))
                    .connect(name, tcp)
                    .await
                    .map_err(|e| io::Error::new(e.kind(), format!("TLS: {e}")))?;
                return handshake(stream).await;
            }
            return Err(Error::from(io::Error::new(
                io::ErrorKind::InvalidInput,
                "an https:// URL needs HttpClient::with_tls (feature `tls`)",
            )));
        }
        handshake(tcp).await
    }
}

/// An HTTP/1.1 connection over `io`, its driver spawned.
async fn handshake<T>(io: T) -> Result<SendRequest<Full<Bytes>>>
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(io))
        .await
        .map_err(hyper_error)?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(sender)
}

fn hyper_error(e: hyper::Error) -> Error {
    Error::from(io::Error::other(format!("HTTP: {e}")))
}

/// Runs `work` within `limit` (none: as long as it takes); running out is `TimedOut`.
async fn within<T>(limit: Option<Duration>, work: impl Future<Output = Result<T>>) -> Result<T> {
    match limit {
        Some(limit) => tokio::time::timeout(limit, work).await.unwrap_or_else(|_| {
            Err(Error::from(io::Error::new(
                io::ErrorKind::TimedOut,
                "no reply within the client's timeout",
            )))
        }),
        None => work.await,
    }
}

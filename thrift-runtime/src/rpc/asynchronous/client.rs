//! The async client connection: calls from many tasks pipelined on one stream, replies
//! matched to calls by sequence id.

use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};

use ::tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use ::tokio::net::{TcpStream, ToSocketAddrs};
use ::tokio::sync::{mpsc, oneshot};
use bytes::BytesMut;

use super::connect::Connect;
use super::io::{READ_CHUNK, read_message, within};
use crate::error::{Error, Result};
use crate::rpc::frame;
use crate::rpc::message::{Message, ProtocolKind};
use crate::rpc::options::ClientOptions;
use crate::rpc::service::{AsyncChannel, ClientRequest, Reply};

type ReplySender = oneshot::Sender<Result<Option<Message>>>;

/// What the callers, the writer and the reader of one client connection share.
#[derive(Debug, Default)]
struct Shared {
    /// The calls waiting for their reply, by sequence id; `None` once the connection is
    /// closed (no call is added then, and every waiting one has been failed).
    pending: Mutex<Option<HashMap<i32, ReplySender>>>,
    seq: AtomicI32,
    writer: Mutex<WriterSlot>,
}

/// The connection's write half, where a caller finds it when the writer task is not writing:
/// a call with none queued before it is written by its caller, without a hop to the writer
/// task and back (see [`Connection::submit`]).
#[derive(Default)]
struct WriterSlot {
    /// `None` while the writer task writes (or after a write failed).
    io: Option<Pin<Box<dyn AsyncWrite + Send>>>,
    /// Items handed to the writer task and not yet written: while there are any, callers
    /// queue behind them, so that calls go out in the order they were made.
    queued: usize,
    /// The callers' encoding buffer and method-name scratch, kept between calls.
    out: Vec<u8>,
    name: String,
}

impl std::fmt::Debug for WriterSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WriterSlot")
            .field("idle", &self.io.is_some())
            .field("queued", &self.queued)
            .finish()
    }
}

impl Shared {
    fn new<W: AsyncWrite + Send + 'static>(io: W) -> Self {
        Shared {
            pending: Mutex::new(Some(HashMap::new())),
            seq: AtomicI32::new(0),
            writer: Mutex::new(WriterSlot {
                io: Some(Box::pin(io)),
                ..WriterSlot::default()
            }),
        }
    }

    fn writer(&self) -> std::sync::MutexGuard<'_, WriterSlot> {
        self.writer
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<HashMap<i32, ReplySender>>> {
        self.pending
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Closes the connection for callers: fails every waiting call, refuses new ones.
    fn close(&self) {
        if let Some(pending) = self.lock().take() {
            for (_, reply) in pending {
                let _ = reply.send(Err(closed()));
            }
        }
    }
}

/// Removes a call from the pending ones when its caller stops waiting (a timeout, a dropped
/// future), so that a server that never answers leaves nothing behind.
struct Forget<'a> {
    shared: &'a Shared,
    seq: i32,
}

impl Drop for Forget<'_> {
    fn drop(&mut self) {
        if let Some(pending) = self.shared.lock().as_mut() {
            pending.remove(&self.seq);
        }
    }
}

/// What the writer task writes.
enum Queued {
    /// A call to encode and write.
    Call {
        request: ClientRequest,
        seq: i32,
        /// For a oneway call: told once the call is written.
        written: Option<ReplySender>,
    },
    /// The rest of a frame its caller began to write (empty: only a flush is left).
    Rest {
        bytes: Vec<u8>,
        written: Option<ReplySender>,
    },
}

/// An async client connection: an [`AsyncChannel`] for generated async clients. Cheap to
/// clone; every clone shares the connection, and calls from many tasks are pipelined on it.
/// [`ClientOptions::timeout`] bounds each call (from its sending to its reply).
///
/// ```no_run
/// # async fn run() -> thrift_runtime::Result<()> {
/// use thrift_runtime::rpc::asynchronous::Connection;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::{ProtocolKind, Framing};
///
/// let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
/// let connection = Connection::connect("127.0.0.1:9090", options).await?;
/// // let client = idl::calculator::CalculatorAsyncClient::new(connection);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Connection {
    queue: mpsc::UnboundedSender<Queued>,
    shared: Arc<Shared>,
    options: Arc<ClientOptions>,
}

impl std::fmt::Debug for Queued {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Queued::Call { request, seq, .. } => f
                .debug_struct("Call")
                .field("method", &request.method)
                .field("seq", seq)
                .finish(),
            Queued::Rest { bytes, .. } => {
                f.debug_struct("Rest").field("len", &bytes.len()).finish()
            }
        }
    }
}

impl Connection {
    /// Connects over TCP (`TCP_NODELAY` on, within the options' timeout). Needs a tokio
    /// runtime with IO and timers. A failure (a timeout too) is
    /// [`ErrorKind::Connect`](crate::ErrorKind::Connect), naming `addr`.
    pub async fn connect(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        options: ClientOptions,
    ) -> Result<Self> {
        let address = || crate::rpc::options::address_text(&addr);
        let stream = within(options.timeout, TcpStream::connect(&addr))
            .await
            .map_err(|e| Error::connect(address(), e))?;
        stream.set_nodelay(true)?;
        Ok(Connection::new(stream, options))
    }

    /// Connects to the Unix domain socket at `path` (within the options' timeout). Needs a
    /// tokio runtime with IO and timers.
    #[cfg(unix)]
    pub async fn connect_unix(
        path: impl AsRef<std::path::Path>,
        options: ClientOptions,
    ) -> Result<Self> {
        let path = path.as_ref();
        let stream = within(options.timeout, ::tokio::net::UnixStream::connect(path))
            .await
            .map_err(|e| Error::connect(path.display().to_string(), e))?;
        Ok(Connection::new(stream, options))
    }

    /// Connects to `endpoint` with `connector` (TCP, a Unix domain socket, TLS or SASL over
    /// either, or a connector of yours), the options' timeout bounding the connect and every
    /// layer's set-up; when the connector requires a framing (SASL does), it replaces the
    /// options'. Needs a tokio runtime with IO and timers.
    ///
    /// ```no_run
    /// # async fn run() -> thrift_runtime::Result<()> {
    /// use thrift_runtime::rpc::asynchronous::Connection;
    /// use thrift_runtime::rpc::sasl::{Plain, SaslConnector};
    /// use thrift_runtime::rpc::tls::{self, TlsConnector};
    /// use thrift_runtime::rpc::{ClientOptions, ProtocolKind, TcpConnector};
    ///
    /// // SASL inside TLS, as HiveServer2 and Impala speak it with both SSL and authentication on.
    /// let tls = TlsConnector::new(TcpConnector, tls::client_config("ca.pem", None)?);
    /// let connector = SaslConnector::new(tls, Plain::new("hive", "s3cret"));
    /// let options = ClientOptions::new(ProtocolKind::Binary);
    /// let connection = Connection::connect_with(&connector, "hs2.example.com:10000", options).await?;
    /// // let client = hive::TCLIServiceAsyncClient::new(connection);
    /// # Ok(()) }
    /// ```
    pub async fn connect_with<C: Connect>(
        connector: &C,
        endpoint: &str,
        mut options: ClientOptions,
    ) -> Result<Self> {
        let stream = connector.connect(endpoint, options.timeout).await?;
        if let Some(framing) = connector.framing() {
            options.framing = framing;
        }
        Ok(Connection::new(stream, options))
    }

    /// A connection over an established stream; spawns its reader and writer tasks.
    pub fn new<S>(stream: S, options: ClientOptions) -> Self
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (reader, writer) = ::tokio::io::split(stream);
        let (queue, requests) = mpsc::unbounded_channel();
        let shared = Arc::new(Shared::new(writer));
        let options = Arc::new(options);
        ::tokio::spawn(write_calls(
            requests,
            Arc::clone(&shared),
            Arc::clone(&options),
        ));
        ::tokio::spawn(read_replies(
            reader,
            Arc::clone(&shared),
            Arc::clone(&options),
        ));
        Connection {
            queue,
            shared,
            options,
        }
    }

    /// Whether the connection has closed (its peer left, a write failed): every call on it
    /// fails with [`ErrorKind::Closed`](crate::ErrorKind::Closed) from now on.
    pub fn is_closed(&self) -> bool {
        self.shared.lock().is_none()
    }

    async fn call(&self, request: ClientRequest) -> Result<Option<Reply>> {
        request.check_protocol(self.options.protocol)?;
        let seq = self
            .shared
            .seq
            .fetch_add(1, Ordering::Relaxed)
            .wrapping_add(1);
        let (reply, receiver) = oneshot::channel();
        let written = if request.oneway {
            // A closed connection refuses a oneway call too, before its caller could write
            // it into a socket the peer has left.
            if self.is_closed() {
                return Err(closed());
            }
            Some(reply)
        } else {
            // Registered before it is written, so that the reply finds it.
            match self.shared.lock().as_mut() {
                Some(pending) => pending.insert(seq, reply),
                None => return Err(closed()),
            };
            None
        };
        let _forget = Forget {
            shared: &self.shared,
            seq,
        };
        self.submit(request, seq, written)?;
        let outcome = match self.options.timeout {
            Some(limit) => ::tokio::time::timeout(limit, receiver)
                .await
                .map_err(|_| Error::timed_out("no reply within the client's timeout"))?,
            None => receiver.await,
        };
        let reply = outcome.map_err(|_| closed())??;
        Ok(reply.map(|message| Reply { seq, message }))
    }
}

impl Connection {
    /// Writes a call, or hands it to the writer task. When the writer task is idle and nothing
    /// is queued, the caller encodes the call and writes it itself, as far as the socket takes
    /// it without waiting (one `poll_write` or a few, never an `.await`, so a caller that
    /// gives up cannot leave half a frame behind): a call made alone costs no hop to the
    /// writer task. What the socket does not take at once goes to the writer task, which
    /// writes it before anything queued after it. Otherwise (the writer task is busy, or
    /// calls are queued) the call is queued, and the writer task writes all that are waiting
    /// in one write.
    fn submit(&self, request: ClientRequest, seq: i32, written: Option<ReplySender>) -> Result<()> {
        let mut slot = self.shared.writer();
        let WriterSlot {
            io,
            queued,
            out,
            name,
        } = &mut *slot;
        let io = match io {
            Some(io) if *queued == 0 => io,
            _ => {
                *queued += 1;
                return self
                    .queue
                    .send(Queued::Call {
                        request,
                        seq,
                        written,
                    })
                    .map_err(|_| {
                        *queued -= 1;
                        closed()
                    });
            }
        };
        out.clear();
        encode_call(out, &self.options, name, seq, &request)?;
        let mut cx = Context::from_waker(Waker::noop());
        let mut sent = 0;
        let finished = loop {
            if sent == out.len() {
                break io.as_mut().poll_flush(&mut cx);
            }
            match io.as_mut().poll_write(&mut cx, &out[sent..]) {
                Poll::Ready(Ok(0)) => break Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => sent += n,
                Poll::Ready(Err(e)) => break Poll::Ready(Err(e)),
                Poll::Pending => break Poll::Pending,
            }
        };
        match finished {
            Poll::Ready(Ok(())) => {
                if let Some(reply) = written {
                    let _ = reply.send(Ok(None));
                }
                Ok(())
            }
            Poll::Ready(Err(_)) => {
                // As when the writer task's write fails: the connection is closed for all.
                slot.io = None;
                drop(slot);
                self.shared.close();
                Err(closed())
            }
            Poll::Pending => {
                let bytes = out[sent..].to_vec();
                *queued += 1;
                self.queue
                    .send(Queued::Rest { bytes, written })
                    .map_err(|_| closed())
            }
        }
    }
}

/// Appends one call's frame to `out`: the frame's header (per `options`' transport), the
/// message header (the method name, with the multiplexed `service:` prefix composed in
/// `name`), the encoded args, and the frame's end.
fn encode_call(
    out: &mut Vec<u8>,
    options: &ClientOptions,
    name: &mut String,
    seq: i32,
    request: &ClientRequest,
) -> Result<()> {
    let frame = frame::begin_frame(out, options.wire_format(), seq, &options.headers);
    request.write_message(out, options.service.as_deref(), seq, name)?;
    frame::end_frame(out, frame, options.limits.max_frame_size)
}

fn closed() -> Error {
    Error::closed("the connection closed before the reply")
}

impl AsyncChannel for Connection {
    fn protocol(&self) -> ProtocolKind {
        self.options.protocol
    }

    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Reply>>> + Send {
        self.call(request)
    }
}

/// Writes queued calls and the rests of frames their callers began (all that are waiting, in
/// one write), with the write half taken from the [`WriterSlot`] meanwhile. Stops, closing
/// the connection for every caller, when a write fails or the reader has closed it.
async fn write_calls(
    mut requests: mpsc::UnboundedReceiver<Queued>,
    shared: Arc<Shared>,
    options: Arc<ClientOptions>,
) {
    let mut out = Vec::new();
    let mut name = String::new();
    let mut oneways = Vec::new();
    while let Some(first) = requests.recv().await {
        if shared.lock().is_none() {
            break;
        }
        // Items are queued only while `queued` counts them, and callers write themselves
        // only when it is 0: the write half is here.
        let Some(mut writer) = shared.writer().io.take() else {
            break;
        };
        out.clear();
        let mut taken = 0;
        let mut next = Some(first);
        while let Some(item) = next.take() {
            taken += 1;
            match item {
                Queued::Rest { bytes, written } => {
                    out.extend_from_slice(&bytes);
                    oneways.extend(written);
                }
                Queued::Call {
                    request,
                    seq,
                    written,
                } => {
                    let start = out.len();
                    match (
                        encode_call(&mut out, &options, &mut name, seq, &request),
                        written,
                    ) {
                        (Err(e), written) => {
                            out.truncate(start);
                            let waiter = match written {
                                Some(reply) => Some(reply),
                                None => shared.lock().as_mut().and_then(|p| p.remove(&seq)),
                            };
                            if let Some(reply) = waiter {
                                let _ = reply.send(Err(e));
                            }
                        }
                        (Ok(()), Some(reply)) => oneways.push(reply),
                        (Ok(()), None) => {}
                    }
                }
            }
            next = requests.try_recv().ok();
        }
        let failed = within(options.timeout, async {
            writer.write_all(&out).await?;
            writer.flush().await
        })
        .await
        .is_err();
        for reply in oneways.drain(..) {
            let _ = reply.send(if failed { Err(closed()) } else { Ok(None) });
        }
        {
            let mut slot = shared.writer();
            slot.queued -= taken;
            if !failed {
                slot.io = Some(writer);
            }
        }
        if failed {
            break;
        }
    }
    shared.close();
    // Calls queued meanwhile fail as their senders are dropped.
    requests.close();
    while let Ok(queued) = requests.try_recv() {
        if let Queued::Call {
            written: Some(reply),
            ..
        }
        | Queued::Rest {
            written: Some(reply),
            ..
        } = queued
        {
            let _ = reply.send(Err(closed()));
        }
    }
    let writer = shared.writer().io.take();
    if let Some(mut writer) = writer {
        let _ = writer.shutdown().await;
    }
}

/// Reads replies and hands each to the call it answers; closes the connection for every
/// caller when the server closes it or sends something malformed.
async fn read_replies<R: AsyncRead + Unpin>(
    mut reader: R,
    shared: Arc<Shared>,
    options: Arc<ClientOptions>,
) {
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    loop {
        let received = match read_message(
            &mut reader,
            &mut buf,
            Some(options.framing),
            &options.limits,
            None,
        )
        .await
        {
            Ok(Some(received)) => received,
            Ok(None) | Err(_) => break,
        };
        let seq = received.message.seq();
        // A reply to no waiting call (its caller gave up) is dropped.
        let waiter = shared.lock().as_mut().and_then(|p| p.remove(&seq));
        if let Some(reply) = waiter {
            let _ = reply.send(Ok(Some(received.message)));
        }
    }
    shared.close();
}

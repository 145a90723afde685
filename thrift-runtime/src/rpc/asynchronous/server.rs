//! The async server: one task per connection, a graceful shutdown, and the accept loop every
//! async server shares.

use std::future::{Future, poll_fn};
use std::io;
use std::net::SocketAddr;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;

use ::tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use ::tokio::sync::{mpsc, oneshot, watch};
use ::tokio::task::JoinHandle;
use bytes::BytesMut;

use super::Listener;
use super::io::{READ_CHUNK, make_room, read_message, within};
use crate::rpc::frame;
use crate::rpc::identity::Identity;
use crate::rpc::message::Message;
use crate::rpc::options::ServerOptions;
use crate::rpc::reading::ReadTimeouts;
use crate::rpc::service::AsyncProcessor;

/// `serve` and `spawn` of an async server on a [`Listener`], from its `serve_with_shutdown`:
/// every such server is run the same way.
macro_rules! serve_and_spawn {
    () => {
        /// Serves on `listener` forever.
        pub async fn serve<L: Listener, P: AsyncProcessor + 'static>(
            self,
            listener: L,
            processor: P,
        ) -> io::Result<()> {
            self.serve_with_shutdown(listener, processor, std::future::pending())
                .await
        }

        /// Runs the server on a task of its own; the handle stops it.
        pub fn spawn<L: Listener, P: AsyncProcessor + 'static>(
            self,
            listener: L,
            processor: P,
        ) -> io::Result<ServerHandle<L::Addr>> {
            let addr = listener.local_addr()?;
            Ok(ServerHandle::spawn(addr, |stop| {
                self.serve_with_shutdown(listener, processor, stop)
            }))
        }
    };
}
#[cfg(feature = "http")]
pub(super) use serve_and_spawn;

/// An async server: one task per connection, so a slow handler delays only its own
/// connection's next call. Every client framing is accepted on the same port and answered
/// in kind, as by the blocking server. It serves any [`Listener`]: a tokio `TcpListener`,
/// `UnixListener`, or a listener of the user's.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use thrift_runtime::rpc::asynchronous::Server;
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::AsyncMultiplexedProcessor;
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:9090").await?;
/// let processor = AsyncMultiplexedProcessor::new(); // or `FooAsyncProcessor::new(handler)`
/// let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
/// Server::new(ServerOptions::default())
///     .serve_with_shutdown(listener, processor, shutdown)
///     .await
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct Server {
    options: ServerOptions,
}

impl Server {
    /// A server with these options.
    pub fn new(options: ServerOptions) -> Self {
        Server { options }
    }

    serve_and_spawn!();

    /// Serves on `listener` until `signal` completes, then shuts down gracefully: stops
    /// accepting, lets every connection finish the call it is serving (idle ones close at
    /// once), and returns when all connections are closed.
    pub async fn serve_with_shutdown<L: Listener, P: AsyncProcessor + 'static>(
        self,
        listener: L,
        processor: P,
        signal: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let processor = Arc::new(processor);
        accept_loop(listener, self.options, signal, move |connection| {
            serve_connection(connection, Arc::clone(&processor))
        })
        .await
    }

    #[cfg(feature = "tower")]
    pub(crate) fn into_options(self) -> ServerOptions {
        self.options
    }
}

/// A running async server, from a server's `spawn`: its address, and its shutdown. Dropping
/// the handle shuts the server down too, without waiting for it.
#[derive(Debug)]
pub struct ServerHandle<A = SocketAddr> {
    local_addr: A,
    stop: oneshot::Sender<()>,
    task: JoinHandle<io::Result<()>>,
}

impl<A: Clone> ServerHandle<A> {
    /// Runs `serve(signal)` on a task of its own; `signal` completes when the handle shuts
    /// the server down or is dropped.
    pub(crate) fn spawn<F, Fut>(local_addr: A, serve: F) -> Self
    where
        F: FnOnce(Pin<Box<dyn Future<Output = ()> + Send>>) -> Fut,
        Fut: Future<Output = io::Result<()>> + Send + 'static,
    {
        let (stop, stopped) = oneshot::channel::<()>();
        let signal = Box::pin(async move {
            let _ = stopped.await;
        });
        ServerHandle {
            local_addr,
            stop,
            task: ::tokio::spawn(serve(signal)),
        }
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> A {
        self.local_addr.clone()
    }

    /// Shuts the server down gracefully (it stops accepting, lets every connection finish the
    /// call it is serving) and waits until it has.
    pub async fn shutdown(self) -> io::Result<()> {
        drop(self.stop);
        match self.task.await {
            Ok(served) => served,
            Err(e) => Err(io::Error::other(e)),
        }
    }
}

/// One connection of a server: its buffers, and what it needs to read and answer calls.
///
/// A connection reads a call, then writes its reply: one stream, never split.
pub(crate) struct ServerConnection<S> {
    io: S,
    buf: BytesMut,
    /// The reply being built; its frame's start.
    pub(crate) out: Vec<u8>,
    frame: Option<frame::FrameStart>,
    options: Arc<ServerOptions>,
    stop: watch::Receiver<bool>,
    _alive: mpsc::Sender<()>,
    /// Who the client is, asked of the stream for each call ([`Listener::client_identity`]).
    identity_of: fn(&S) -> Option<Arc<Identity>>,
}

impl<S: AsyncRead + AsyncWrite + Unpin> ServerConnection<S> {
    pub(crate) fn new(
        io: S,
        options: Arc<ServerOptions>,
        stop: watch::Receiver<bool>,
        alive: mpsc::Sender<()>,
        identity_of: fn(&S) -> Option<Arc<Identity>>,
    ) -> Self {
        ServerConnection {
            identity_of,
            io,
            buf: BytesMut::with_capacity(READ_CHUNK),
            out: Vec::with_capacity(READ_CHUNK),
            frame: None,
            options,
            stop,
            _alive: alive,
        }
    }

    /// The next call, with the frame of its reply begun in `out`; `None` when the connection
    /// is to close (the client left, a timeout, malformed input, shutdown).
    pub(crate) async fn next_call(&mut self) -> Option<Message> {
        if let Some(window) = self.options.busy_poll.filter(|_| self.buf.is_empty()) {
            busy_poll(&mut self.io, &mut self.buf, window).await.ok()?;
        }
        let timeouts = ReadTimeouts {
            idle: self.options.idle_timeout,
            message: self.options.read_timeout,
        };
        let received = read_message(
            &mut self.io,
            &mut self.buf,
            None,
            &self.options.limits,
            Some((timeouts, &mut self.stop)),
        )
        .await
        .ok()??;
        self.frame = Some(frame::begin_reply(&received, &mut self.out).ok()?);
        let mut message = received.message;
        if let Some(identity) = (self.identity_of)(&self.io) {
            message.set_identity(identity);
        }
        Some(message)
    }

    /// Ends a connection whose reading ended (the client left, a timeout, malformed input,
    /// shutdown) with a graceful close of the stream within the write timeout: a TLS session
    /// sends its `close_notify` (RFC 8446 section 6.1), a socket its FIN. Not after a failed
    /// write: such a peer is not waited on again.
    pub(crate) async fn close(&mut self) {
        let _ = within(self.options.write_timeout, self.io.shutdown()).await;
    }

    /// Sends the reply written after the frame's start (nothing if none was written);
    /// `false` when the connection is to close.
    pub(crate) async fn send_reply(&mut self) -> bool {
        let Some(start) = self.frame.take() else {
            return false;
        };
        if frame::end_reply(&mut self.out, start, self.options.limits.max_frame_size).is_err() {
            return false;
        }
        if self.out.is_empty() {
            return true;
        }
        within(self.options.write_timeout, self.io.write_all(&self.out))
            .await
            .is_ok()
    }
}

/// Latency mode ([`ServerOptions::busy_poll`]): tries to read until bytes come, the peer
/// closes, or `window` passes, yielding to the runtime between tries. tokio polls its reactor
/// (`epoll_wait` without waiting) before it resumes a yielded task, so the worker thread stays
/// awake and sees the next call at once instead of parking. Between tries it also yields the
/// core to the kernel (`sched_yield`, which returns at once when no other thread waits for
/// it): without that, a worker polling on a core the client shares kept the client's thread
/// waiting for a scheduler tick now and then, and the one-connection p99 went from 22-24 µs to
/// 64-66 µs (`BENCHMARKS.md`, "RPC"). What it reads is appended to `buf`, where the message
/// read takes it up.
async fn busy_poll<S: AsyncRead + Unpin>(
    io: &mut S,
    buf: &mut BytesMut,
    window: Duration,
) -> io::Result<()> {
    let deadline = ::tokio::time::Instant::now() + window;
    make_room(buf);
    loop {
        // One try: a read that is not ready has read nothing, and is dropped.
        let tried = poll_fn(|cx| Poll::Ready(pin!(io.read_buf(buf)).poll(cx))).await;
        if let Poll::Ready(read) = tried {
            return read.map(drop);
        }
        if ::tokio::time::Instant::now() >= deadline {
            return Ok(());
        }
        ::tokio::task::yield_now().await;
        std::thread::yield_now();
    }
}

/// Accepts connections until `signal`, spawning `serve(connection)` for each; then stops
/// them gracefully and waits for all to close.
pub(crate) async fn accept_loop<L, F, Fut>(
    listener: L,
    options: ServerOptions,
    signal: impl Future<Output = ()>,
    mut serve: F,
) -> io::Result<()>
where
    L: Listener,
    F: FnMut(ServerConnection<L::Io>) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let options = Arc::new(options);
    accept_each(listener, signal, move |io, shutdown| {
        serve(ServerConnection::new(
            io,
            Arc::clone(&options),
            shutdown.stop,
            shutdown.alive,
            L::client_identity,
        ))
    })
    .await
}

/// What each connection of an async server holds: the shutdown's signal, and a sender whose
/// drop tells the server the connection has closed.
pub(crate) struct Shutdown {
    pub(crate) stop: watch::Receiver<bool>,
    pub(crate) alive: mpsc::Sender<()>,
}

/// The accept loop of every async server (Thrift's, tower's, HTTP's): accepts until `signal`,
/// spawning `serve(io, shutdown)` for each connection; then drops the listener, signals every
/// connection to stop, and returns once all have closed.
pub(crate) async fn accept_each<L, F, Fut>(
    mut listener: L,
    signal: impl Future<Output = ()>,
    mut serve: F,
) -> io::Result<()>
where
    L: Listener,
    F: FnMut(L::Io, Shutdown) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let (stop_sender, stop) = watch::channel(false);
    // Every connection holds a sender; `recv` ends when all are gone.
    let (alive, mut all_closed) = mpsc::channel::<()>(1);
    let mut signal = pin!(signal);
    loop {
        let accepted = {
            let mut accept = pin!(listener.accept());
            poll_fn(|cx| {
                if signal.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(None);
                }
                accept.as_mut().poll(cx).map(Some)
            })
            .await
        };
        match accepted {
            None => break,
            Some(Ok((io, _))) => {
                let shutdown = Shutdown {
                    stop: stop.clone(),
                    alive: alive.clone(),
                };
                ::tokio::spawn(serve(io, shutdown));
            }
            // Out of file descriptors and the like: back off instead of spinning.
            Some(Err(_)) => ::tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    drop(listener);
    let _ = stop_sender.send(true);
    drop(alive);
    let _ = all_closed.recv().await;
    Ok(())
}

async fn serve_connection<S, P>(mut connection: ServerConnection<S>, processor: Arc<P>)
where
    S: AsyncRead + AsyncWrite + Unpin,
    P: AsyncProcessor + ?Sized,
{
    while let Some(call) = connection.next_call().await {
        if processor.process(&call, &mut connection.out).await.is_err() {
            return;
        }
        drop(call);
        if !connection.send_reply().await {
            return;
        }
    }
    connection.close().await;
}

#[cfg(test)]
mod busy_poll_tests {
    use super::busy_poll;
    use bytes::BytesMut;
    use std::time::Duration;
    use tokio::io::AsyncWriteExt;
    use tokio::time::Instant;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn takes_bytes_that_come_within_the_window() {
        let (mut server, mut client) = tokio::io::duplex(64);
        let writer = tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            client.write_all(b"call").await.unwrap();
            client
        });
        let mut buf = BytesMut::from(&b"left:"[..]);
        let start = Instant::now();
        busy_poll(&mut server, &mut buf, Duration::from_secs(5))
            .await
            .unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "it returned when the bytes came"
        );
        assert_eq!(
            &buf[..],
            b"left:call",
            "appended after what the buffer held"
        );
        drop(writer.await.unwrap());
    }

    #[tokio::test(flavor = "current_thread")]
    async fn yields_to_other_tasks_and_gives_up_after_the_window() {
        let (mut server, _client) = tokio::io::duplex(64);
        // On one thread, a task spawned before the poll runs during it: the poll yields.
        let other = tokio::spawn(async { Instant::now() });
        let mut buf = BytesMut::new();
        let start = Instant::now();
        busy_poll(&mut server, &mut buf, Duration::from_millis(20))
            .await
            .unwrap();
        let end = Instant::now();
        assert!(end - start >= Duration::from_millis(20));
        assert!(buf.is_empty());
        assert!(
            other.await.unwrap() < end,
            "the other task ran while the connection polled"
        );
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_closed_peer_ends_the_poll_at_once() {
        let (mut server, client) = tokio::io::duplex(64);
        drop(client);
        let mut buf = BytesMut::new();
        let start = Instant::now();
        busy_poll(&mut server, &mut buf, Duration::from_secs(5))
            .await
            .unwrap();
        assert!(start.elapsed() < Duration::from_secs(4));
        assert!(buf.is_empty());
    }
}

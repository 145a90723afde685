//! Blocking transports (feature `blocking`): a client connection over any `Read + Write`
//! (a [`TcpStream`], a Unix domain socket, ...) and a threaded server with a bounded number
//! of workers and idle, read and write timeouts, on any [`Listener`] (TCP, Unix domain
//! sockets).

mod listener;
mod pool;
#[cfg(feature = "sasl")]
mod sasl;
#[cfg(feature = "tls")]
mod tls;

use std::cell::Cell;
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use bytes::BytesMut;

pub use self::listener::{Listener, Stream};
pub use self::pool::{Pool, Pooled};
#[cfg(feature = "sasl")]
pub use self::sasl::{SaslListener, SaslStream};
#[cfg(feature = "tls")]
pub use self::tls::{TlsListener, TlsStream};
use super::frame::{self, FrameLimits, Received, Transport};
use super::options::call_name;
// The documented path is `rpc::ClientOptions`; these stay for code written against them.
#[doc(hidden)]
pub use super::options::{ClientOptions, ServerOptions};
use super::reading::{AfterRead, MessageRead, ReadTimeouts};
use super::service::{Channel, Processor};
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, Result};
use crate::wire::MessageType;

/// Bytes offered to one `read` call.
const READ_CHUNK: usize = 16 * 1024;

/// A blocking client connection: implements [`Channel`] for generated clients, one call at a
/// time, checking each reply's sequence id and method name.
///
/// ```no_run
/// use thrift_runtime::rpc::blocking::Connection;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::{ProtocolKind, Transport};
///
/// let options = ClientOptions::new(ProtocolKind::Compact, Transport::Framed);
/// let connection = Connection::connect("127.0.0.1:9090", options)?;
/// // let mut client = idl::calculator::CalculatorClient::new(connection);
/// # Ok::<(), thrift_runtime::Error>(())
/// ```
#[derive(Debug)]
pub struct Connection<S = TcpStream> {
    stream: S,
    options: ClientOptions,
    seq: i32,
    read_buf: BytesMut,
    write_buf: Vec<u8>,
    name_buf: String,
    /// Set when a call failed below the protocol (I/O, a timeout, a malformed reply): the
    /// stream may hold part of a message or a late reply, so no call uses it again.
    broken: bool,
}

impl Connection<TcpStream> {
    /// Connects over TCP (`TCP_NODELAY` on; the options' timeout bounds connecting to each
    /// address the name resolves to, and is the read and write timeout). A failure is
    /// [`ErrorKind::Connect`](crate::ErrorKind::Connect), naming `addr`.
    pub fn connect(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        options: ClientOptions,
    ) -> Result<Self> {
        let stream = connect_tcp(&addr, options.timeout)
            .map_err(|e| Error::connect(super::options::address_text(&addr), e))?;
        stream.set_nodelay(true)?;
        stream.set_read_timeout(options.timeout)?;
        stream.set_write_timeout(options.timeout)?;
        Ok(Connection::new(stream, options))
    }
}

#[cfg(unix)]
impl Connection<std::os::unix::net::UnixStream> {
    /// Connects to the Unix domain socket at `path` (the options' timeout as read and write
    /// timeout).
    pub fn connect_unix(path: impl AsRef<std::path::Path>, options: ClientOptions) -> Result<Self> {
        let path = path.as_ref();
        let stream = std::os::unix::net::UnixStream::connect(path)
            .map_err(|e| Error::connect(path.display().to_string(), e))?;
        stream.set_read_timeout(options.timeout)?;
        stream.set_write_timeout(options.timeout)?;
        Ok(Connection::new(stream, options))
    }
}

/// Connects to the first address `addr` resolves to that answers, each within `timeout`;
/// the error is the last address's (the caller names what it was given).
pub(crate) fn connect_tcp(
    addr: &impl ToSocketAddrs,
    timeout: Option<Duration>,
) -> io::Result<TcpStream> {
    let mut last = None;
    for resolved in addr.to_socket_addrs()? {
        let attempt = match timeout {
            Some(limit) => TcpStream::connect_timeout(&resolved, limit),
            None => TcpStream::connect(resolved),
        };
        match attempt {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            "the name resolves to no address",
        )
    }))
}

impl<S: Read + Write> Connection<S> {
    /// A connection over an established stream.
    pub fn new(stream: S, options: ClientOptions) -> Self {
        Connection {
            stream,
            options,
            seq: 0,
            read_buf: BytesMut::new(),
            write_buf: Vec::new(),
            name_buf: String::new(),
            broken: false,
        }
    }

    /// The stream.
    pub fn get_ref(&self) -> &S {
        &self.stream
    }

    /// Returns the stream.
    pub fn into_inner(self) -> S {
        self.stream
    }

    /// The options.
    pub fn options(&self) -> &ClientOptions {
        &self.options
    }

    fn check_usable(&self) -> Result<()> {
        if self.broken {
            Err(Error::closed(
                "an earlier call on this connection failed; connect again",
            ))
        } else {
            Ok(())
        }
    }

    fn send<A: ThriftWrite>(&mut self, method: &str, kind: MessageType, args: &A) -> Result<i32> {
        self.seq = self.seq.wrapping_add(1);
        let seq = self.seq;
        let framing = self.options.framing();
        let out = &mut self.write_buf;
        out.clear();
        let start = frame::begin_frame(out, framing, seq, &self.options.headers);
        let name = call_name(self.options.service.as_deref(), method, &mut self.name_buf);
        framing.protocol.write_message(out, name, kind, seq, args)?;
        frame::end_frame(out, start, self.options.limits.max_frame_size)?;
        // Nothing was written before this point: a call that fails to encode leaves the
        // connection usable; a failed write does not.
        if let Err(e) = self
            .stream
            .write_all(out)
            .and_then(|()| self.stream.flush())
        {
            self.broken = true;
            return Err(Error::from(e));
        }
        Ok(seq)
    }
}

impl<S: Read + Write> Channel for Connection<S> {
    fn call<A, R>(&mut self, method: &'static str, args: &A) -> Result<R>
    where
        A: ThriftWrite,
        R: for<'de> ThriftRead<'de>,
    {
        self.check_usable()?;
        let seq = self.send(method, MessageType::Call, args)?;
        let received = read_message(
            &mut self.stream,
            &mut self.read_buf,
            Some(self.options.transport),
            &self.options.limits,
            None,
        )
        .and_then(|received| {
            received
                .ok_or_else(|| Error::closed("the server closed the connection before replying"))
        });
        match received {
            Ok(received) => received.message.reply_body(method, seq),
            Err(e) => {
                self.broken = true;
                Err(e)
            }
        }
    }

    fn call_oneway<A: ThriftWrite>(&mut self, method: &'static str, args: &A) -> Result<()> {
        self.check_usable()?;
        self.send(method, MessageType::Oneway, args).map(|_| ())
    }

    fn is_usable(&self) -> bool {
        !self.broken
    }
}

/// What a server connection's reads need beyond a client's: timeouts, set on the stream
/// before each read, and the stop flag of a shutdown.
pub(crate) struct ServerRead<'a, S> {
    timeouts: ReadTimeouts,
    set_timeout: fn(&mut S, Option<Duration>) -> io::Result<()>,
    stop: &'a AtomicBool,
    /// The read timeout the stream has (outer `None`: not known), kept across messages so
    /// that it is set only when it must change: a server waiting for each next call with
    /// the same stop-flag poll would otherwise make one `setsockopt` per call.
    current: &'a Cell<Option<Option<Duration>>>,
}

/// Whether a stream whose read timeout is `current` may read as is when `wanted` is the
/// wait: a shorter timeout only wakes the read early (it then looks at its deadlines again),
/// so anything from half the wait up to the wait will do; a quiet window is set exactly.
fn timeout_will_do(
    current: Option<Option<Duration>>,
    wanted: Option<Duration>,
    window: bool,
) -> bool {
    match (current, wanted) {
        (Some(current), wanted) if current == wanted => true,
        (Some(Some(current)), Some(wanted)) if !window => {
            current <= wanted && current >= wanted / 2
        }
        _ => false,
    }
}

/// How often an idle server connection looks at the stop flag.
pub(crate) const STOP_POLL: Duration = Duration::from_millis(200);

/// Reads until `buf` holds a whole message and splits it off; `Ok(None)` when the peer
/// closed the connection between messages (or, on a server, shutdown began while waiting
/// for a new message). The rules are [`MessageRead`]'s, shared with the async transports.
pub(crate) fn read_message<S: Read>(
    stream: &mut S,
    buf: &mut BytesMut,
    expect: Option<Transport>,
    limits: &FrameLimits,
    server: Option<ServerRead<'_, S>>,
) -> Result<Option<Received>> {
    let mut read = MessageRead::new(buf, expect, limits, server.as_ref().map(|s| s.timeouts));
    loop {
        if let Some(received) = read.message(buf)? {
            return Ok(Some(received));
        }
        let next = read.next_read(buf)?;
        if let Some(server) = &server {
            let mut wait = next.wait();
            if next.between_messages {
                if server.stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                wait = Some(wait.map_or(STOP_POLL, |w| w.min(STOP_POLL)));
            }
            if !timeout_will_do(server.current.get(), wait, next.is_window()) {
                (server.set_timeout)(stream, wait)?;
                server.current.set(Some(wait));
            }
        }
        let len = buf.len();
        buf.resize(len + READ_CHUNK, 0);
        let n = match stream.read(&mut buf[len..]) {
            Ok(n) => n,
            Err(e) => {
                buf.truncate(len);
                match e.kind() {
                    io::ErrorKind::Interrupted => continue,
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut if server.is_some() => {
                        read.woke(&next);
                        continue;
                    }
                    _ => return Err(Error::from(e)),
                }
            }
        };
        buf.truncate(len + n);
        if read.read(n, buf)? == AfterRead::Closed {
            return Ok(None);
        }
    }
}

/// A threaded server: each connection is served by one of a bounded number of worker
/// threads. Every client framing is accepted on the same port (buffered or framed, binary or
/// compact, THeader with or without zlib, framed or not) and answered in kind. It serves any
/// [`Listener`]: a [`TcpListener`](std::net::TcpListener), or a Unix domain socket's
/// listener.
///
/// ```no_run
/// use std::net::TcpListener;
/// use thrift_runtime::rpc::blocking::Server;
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::MultiplexedProcessor;
///
/// let listener = TcpListener::bind("127.0.0.1:9090")?;
/// let processor = MultiplexedProcessor::new(); // or a generated `FooProcessor::new(handler)`
/// Server::new(ServerOptions::default()).serve(listener, processor)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// On a Unix domain socket (the path must not exist yet):
///
/// ```no_run
/// # #[cfg(unix)] {
/// use std::os::unix::net::UnixListener;
/// use thrift_runtime::rpc::blocking::Server;
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::MultiplexedProcessor;
///
/// let listener = UnixListener::bind("/run/my-service.sock")?;
/// Server::new(ServerOptions::default()).serve(listener, MultiplexedProcessor::new())?;
/// # }
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Server {
    options: ServerOptions,
}

/// A server started by [`Server::spawn`]; dropping it shuts the server down.
#[derive(Debug)]
pub struct ServerHandle<A: Clone + std::fmt::Debug = SocketAddr> {
    addr: A,
    wake: fn(&A),
    stop: Arc<AtomicBool>,
    acceptor: Option<thread::JoinHandle<()>>,
}

impl<A: Clone + std::fmt::Debug> ServerHandle<A> {
    /// The address the server listens on.
    pub fn local_addr(&self) -> A {
        self.addr.clone()
    }

    /// Stops accepting, lets each connection finish the call it is serving, and waits for
    /// the workers to end.
    pub fn shutdown(mut self) {
        self.stop_and_join();
    }

    fn stop_and_join(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the acceptor.
        (self.wake)(&self.addr);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

impl<A: Clone + std::fmt::Debug> Drop for ServerHandle<A> {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

impl Server {
    /// A server with these options.
    pub fn new(options: ServerOptions) -> Self {
        Server { options }
    }

    /// Serves on `listener` until the process ends.
    pub fn serve<L: Listener, P: Processor + 'static>(
        self,
        listener: L,
        processor: P,
    ) -> io::Result<()> {
        self.serve_with(listener, each_connection(processor))
    }

    /// Serves on `listener` until the process ends, each connection with `serve` (see
    /// [`Server::spawn_with`]).
    pub(crate) fn serve_with<L: Listener>(
        self,
        listener: L,
        serve: ServeConnection<L::Stream>,
    ) -> io::Result<()> {
        self.run(listener, serve, Arc::new(AtomicBool::new(false)));
        Ok(())
    }

    /// Serves on `listener` in the background.
    pub fn spawn<L: Listener, P: Processor + 'static>(
        self,
        listener: L,
        processor: P,
    ) -> io::Result<ServerHandle<L::Addr>> {
        self.spawn_with(listener, each_connection(processor))
    }

    /// Serves on `listener` in the background, each connection with `serve` (on a worker,
    /// with the server's options and its stop flag): how other wire formats on these
    /// workers (HTTP) are served.
    pub(crate) fn spawn_with<L: Listener>(
        self,
        listener: L,
        serve: ServeConnection<L::Stream>,
    ) -> io::Result<ServerHandle<L::Addr>> {
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let stop = Arc::clone(&stop);
            thread::Builder::new()
                .name("thrift-accept".into())
                .spawn(move || self.run(listener, serve, stop))?
        };
        Ok(ServerHandle {
            addr,
            wake: L::wake,
            stop,
            acceptor: Some(acceptor),
        })
    }

    /// Serves on `listener` until stopped, each connection with `serve`.
    fn run<L: Listener>(
        self,
        listener: L,
        serve: ServeConnection<L::Stream>,
        stop: Arc<AtomicBool>,
    ) {
        let options = Arc::new(self.options);
        let workers = options.workers.max(1);
        // Connections wait here for a worker (the channel holds a few; the kernel's accept
        // queue the rest).
        let (sender, receiver) = mpsc::sync_channel::<L::Stream>(workers);
        let receiver = Arc::new(Mutex::new(receiver));
        let mut threads = Vec::with_capacity(workers);
        for index in 0..workers {
            let receiver = Arc::clone(&receiver);
            let serve = Arc::clone(&serve);
            let options = Arc::clone(&options);
            let stop = Arc::clone(&stop);
            let spawned = thread::Builder::new()
                .name(format!("thrift-worker-{index}"))
                .spawn(move || {
                    loop {
                        let next = match receiver.lock() {
                            Ok(receiver) => receiver.recv(),
                            Err(_) => return,
                        };
                        match next {
                            // A panic in a processor ends that connection, not the worker.
                            Ok(stream) => {
                                let _ =
                                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                        serve(stream, &options, &stop)
                                    }));
                            }
                            Err(_) => return,
                        }
                    }
                });
            if let Ok(thread) = spawned {
                threads.push(thread);
            }
        }
        loop {
            let accepted = listener.accept();
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let Ok(stream) = accepted else {
                // Out of file descriptors and the like: back off instead of spinning.
                thread::sleep(Duration::from_millis(10));
                continue;
            };
            if sender.send(stream).is_err() {
                break;
            }
        }
        drop(sender);
        for thread in threads {
            let _ = thread.join();
        }
    }
}

/// What a server's worker does with a connection it accepted: serves it, with the server's
/// options and its stop flag, until it is done.
pub(crate) type ServeConnection<S> = Arc<dyn Fn(S, &ServerOptions, &AtomicBool) + Send + Sync>;

/// Serves each connection with `processor`, in any of the framings the server detects.
fn each_connection<S: Stream, P: Processor + 'static>(processor: P) -> ServeConnection<S> {
    Arc::new(move |stream, options, stop| serve_connection(stream, &processor, options, stop))
}

/// Serves one connection until the client closes it, a timeout, an error, or shutdown.
fn serve_connection<S: Stream, P: Processor + ?Sized>(
    mut stream: S,
    processor: &P,
    options: &ServerOptions,
    stop: &AtomicBool,
) {
    if stream.set_write_timeout(options.write_timeout).is_err() {
        return;
    }
    let mut buf = BytesMut::with_capacity(READ_CHUNK);
    let mut out = Vec::with_capacity(READ_CHUNK);
    let read_timeout = Cell::new(None);
    loop {
        if let Some(window) = options.busy_poll.filter(|_| buf.is_empty()) {
            buf.resize(READ_CHUNK, 0);
            let Ok(n) = busy_poll(&mut stream, &mut buf, window) else {
                return;
            };
            buf.truncate(n);
        }
        let server = ServerRead {
            timeouts: ReadTimeouts {
                idle: options.idle_timeout,
                message: options.read_timeout,
            },
            set_timeout: S::set_read_timeout,
            stop,
            current: &read_timeout,
        };
        let mut received =
            match read_message(&mut stream, &mut buf, None, &options.limits, Some(server)) {
                Ok(Some(received)) => received,
                Ok(None) | Err(_) => return,
            };
        if let Some(identity) = stream.client_identity() {
            received.message.set_identity(identity);
        }
        if respond(
            processor,
            &received,
            &mut out,
            options.limits.max_frame_size,
        )
        .is_err()
        {
            return;
        }
        drop(received);
        if out.is_empty() {
            continue;
        }
        if write_within(&mut stream, &out, options.write_timeout).is_err() {
            return;
        }
    }
}

/// Latency mode ([`ServerOptions::busy_poll`]): reads the stream into `into` without blocking
/// until bytes come, the peer closes, or `window` passes, keeping the thread on its core (and
/// yielding it to threads with work) instead of asleep in the kernel. Returns how many bytes
/// it read: 0 when none came or the peer closed, which the blocking read that follows tells
/// apart. A stream that cannot be made non-blocking reads nothing here.
pub(crate) fn busy_poll<S: Stream>(
    stream: &mut S,
    into: &mut [u8],
    window: Duration,
) -> io::Result<usize> {
    if stream.set_nonblocking(true).is_err() {
        return Ok(0);
    }
    let deadline = Instant::now() + window;
    let read = loop {
        match stream.read(into) {
            Ok(n) => break Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    break Ok(0);
                }
                // Other threads with work (the server's other connections) run meanwhile.
                thread::yield_now();
            }
            Err(e) => break Err(e),
        }
    };
    stream.set_nonblocking(false)?;
    read
}

/// What the blocking server does with each message it receives, without the socket: a call
/// or oneway goes to `processor`, and the reply (nothing for a oneway) is written to `out`,
/// which is cleared first, in the framing the call came in (for THeader, with its sequence
/// id). An error means the server closes the connection: the message is not a call (a
/// client sent a reply or an exception), the processor could not write the reply, or the
/// reply is larger than `max_frame_size`.
///
/// For embedding the server's handling in another I/O loop, and for tests and fuzzing:
/// split messages off a connection's bytes with [`frame::decode`], answer each with this.
pub fn respond<P: Processor + ?Sized>(
    processor: &P,
    received: &Received,
    out: &mut Vec<u8>,
    max_frame_size: usize,
) -> Result<()> {
    let start = frame::begin_reply(received, out)?;
    processor.process(&received.message, out)?;
    frame::end_reply(out, start, max_frame_size)
}

/// Writes all of `bytes` within `limit` in total. A socket's write timeout bounds each
/// `write` only: a client reading a large reply a little at a time would hold a worker for
/// as long as it likes. The stream's write timeout is `limit` already; it is lowered to what
/// is left only after a partial write, so a reply that fits in one write costs no extra call.
pub(crate) fn write_within<S: Stream + ?Sized>(
    stream: &mut S,
    bytes: &[u8],
    limit: Option<Duration>,
) -> io::Result<()> {
    let deadline = limit.and_then(|limit| Instant::now().checked_add(limit));
    let mut rest = bytes;
    let mut lowered = false;
    while !rest.is_empty() {
        let partly_written = rest.len() < bytes.len();
        if let Some(deadline) = deadline.filter(|_| partly_written) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the reply took longer than the write timeout to send",
                ));
            }
            stream.set_write_timeout(Some(left))?;
            lowered = true;
        }
        match stream.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if lowered {
        stream.set_write_timeout(limit)?;
    }
    Ok(())
}

#[cfg(test)]
mod timeout_tests {
    use super::timeout_will_do;
    use std::time::Duration;

    #[test]
    fn a_read_timeout_is_set_only_when_it_must_change() {
        let ms = Duration::from_millis;
        // Unknown: set. The same: kept (the stop-flag poll between calls).
        assert!(!timeout_will_do(None, Some(ms(200)), false));
        assert!(timeout_will_do(Some(Some(ms(200))), Some(ms(200)), false));
        assert!(timeout_will_do(Some(None), None, false));
        // Shorter, down to half: kept (the read wakes early and looks again); longer than
        // the wait or under half of it: set, so no deadline is overrun and no read spins.
        assert!(timeout_will_do(Some(Some(ms(200))), Some(ms(300)), false));
        assert!(!timeout_will_do(
            Some(Some(ms(200))),
            Some(ms(30_000)),
            false
        ));
        assert!(!timeout_will_do(
            Some(Some(ms(200))),
            Some(ms(100) / 2),
            false
        ));
        assert!(!timeout_will_do(Some(Some(ms(200))), None, false));
        assert!(!timeout_will_do(Some(None), Some(ms(200)), false));
        // A quiet window is waited exactly.
        assert!(!timeout_will_do(Some(Some(ms(200))), Some(ms(300)), true));
        assert!(timeout_will_do(Some(Some(ms(300))), Some(ms(300)), true));
    }
}

#[cfg(all(test, unix))]
mod busy_poll_tests {
    use super::busy_poll;
    use std::io::{ErrorKind, Read, Write};
    use std::os::unix::net::UnixStream;
    use std::time::{Duration, Instant};

    #[test]
    fn takes_bytes_that_come_within_the_window_and_leaves_the_stream_blocking() {
        let (mut server, mut client) = UnixStream::pair().unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            client.write_all(b"call").unwrap();
            client
        });
        let mut buf = [0; 16];
        let start = Instant::now();
        let n = busy_poll(&mut server, &mut buf, Duration::from_secs(5)).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "it returned when the bytes came"
        );
        assert_eq!(&buf[..n], b"call");
        let _client = writer.join().unwrap();
        // Blocking again: a read waits for its timeout instead of failing at once.
        server
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let start = Instant::now();
        let err = server.read(&mut buf).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::WouldBlock | ErrorKind::TimedOut
        ));
        assert!(
            start.elapsed() >= Duration::from_millis(40),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn gives_up_after_the_window_with_nothing_read() {
        let (mut server, _client) = UnixStream::pair().unwrap();
        let start = Instant::now();
        let n = busy_poll(&mut server, &mut [0; 16], Duration::from_millis(20)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(20));
        assert_eq!(n, 0);
    }

    #[test]
    fn a_closed_peer_ends_the_poll_at_once() {
        let (mut server, client) = UnixStream::pair().unwrap();
        drop(client);
        let start = Instant::now();
        let n = busy_poll(&mut server, &mut [0; 16], Duration::from_secs(5)).unwrap();
        assert!(start.elapsed() < Duration::from_secs(4));
        assert_eq!(n, 0);
    }
}

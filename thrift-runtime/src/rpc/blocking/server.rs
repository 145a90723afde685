//! The threaded server: a bounded number of workers, each serving one connection at a time,
//! with idle, read and write timeouts and a graceful shutdown.

use std::cell::Cell;
use std::io;

use bytes::BytesMut;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread;
use std::time::Duration;

use super::io::{READ_CHUNK, ServerRead, busy_poll, read_message, write_within};
use super::listener::{Listener, Stream};
use crate::error::Result;
use crate::rpc::frame::{self, Received};
use crate::rpc::options::ServerOptions;
use crate::rpc::reading::ReadTimeouts;
use crate::rpc::service::Processor;

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
    /// A handle of a server run by `thread`, which ends when `stop` is set; `wake` wakes it
    /// when it may be waiting (for a listener, a connection to its address).
    #[cfg(feature = "udp")]
    pub(crate) fn new(
        addr: A,
        wake: fn(&A),
        stop: Arc<AtomicBool>,
        thread: thread::JoinHandle<()>,
    ) -> Self {
        ServerHandle {
            addr,
            wake,
            stop,
            acceptor: Some(thread),
        }
    }

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

//! Thrift over UDP (feature `udp`), as Jaeger's agent takes it: each datagram is one whole
//! oneway call, unframed (compact for Jaeger, any protocol here: a server detects it), and
//! nothing is sent back.
//!
//! - Clients: [`UdpClient`] (blocking [`Channel`]) and, with feature `async`,
//!   [`AsyncUdpClient`] ([`AsyncChannel`](super::AsyncChannel)). Only oneway calls: a call that expects a reply is
//!   an error, as is a message larger than the datagram limit (checked before sending).
//! - Servers: [`UdpServer`] (blocking, a thread; dropping its handle stops it) and, with
//!   `async`, [`serve_async`]. A datagram over the limit, one that is not a whole oneway call
//!   (a call expecting a reply included: there is no one to reply to), or malformed bytes are
//!   dropped and counted; the server goes on.

use std::io;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::Duration;

use bytes::Bytes;

use super::message::{Message, ProtocolKind};
use super::options::{ClientOptions, call_name};
use super::service::{Channel, Processor};
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, Result};
use crate::limits::ReadLimits;
use crate::wire::MessageType;

/// The largest datagram sent or received by default: Jaeger's agent's (65,000 bytes).
pub const DEFAULT_MAX_DATAGRAM: usize = 65_000;

fn not_oneway() -> Error {
    Error::from(io::Error::new(
        io::ErrorKind::Unsupported,
        "UDP carries oneway calls only (no reply can come back)",
    ))
}

fn too_large(len: usize, max: usize) -> Error {
    Error::from(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("a {len}-byte message does not fit in a UDP datagram of at most {max} bytes"),
    ))
}

/// A oneway call, encoded as a datagram.
fn datagram(
    options: &ClientOptions,
    max: usize,
    name: &mut String,
    method: &str,
    write: impl FnOnce(&mut Vec<u8>, &str) -> Result<()>,
) -> Result<Vec<u8>> {
    let method = call_name(options.service.as_deref(), method, name);
    let mut out = Vec::new();
    write(&mut out, method)?;
    if out.len() > max {
        return Err(too_large(out.len(), max));
    }
    Ok(out)
}

/// A blocking UDP client: a [`Channel`] whose oneway calls each go out as one datagram to
/// the address it was connected to. [`ClientOptions`] gives the protocol (compact for Jaeger)
/// and the multiplexed service name.
///
/// ```no_run
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::udp::UdpClient;
/// use thrift_runtime::rpc::{ProtocolKind, Transport};
///
/// let options = ClientOptions::new(ProtocolKind::Compact, Transport::Buffered);
/// let channel = UdpClient::connect("127.0.0.1:6831", options)?;
/// // let mut agent = jaeger::AgentClient::new(channel);
/// // agent.emit_batch(batch)?;
/// # Ok::<(), thrift_runtime::Error>(())
/// ```
#[derive(Debug)]
pub struct UdpClient {
    socket: UdpSocket,
    options: ClientOptions,
    max_datagram: usize,
    seq: i32,
    name: String,
}

impl UdpClient {
    /// A socket on an ephemeral port of the right family, connected to `addr`.
    pub fn connect(addr: impl ToSocketAddrs, options: ClientOptions) -> Result<Self> {
        let addr = addr
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no address"))?;
        let local: SocketAddr = if addr.is_ipv4() {
            ([0, 0, 0, 0], 0).into()
        } else {
            ([0u16; 8], 0).into()
        };
        let socket = UdpSocket::bind(local)?;
        socket.connect(addr)?;
        socket.set_write_timeout(options.timeout)?;
        Ok(UdpClient {
            socket,
            options,
            max_datagram: DEFAULT_MAX_DATAGRAM,
            seq: 0,
            name: String::new(),
        })
    }

    /// Datagrams of at most `max` bytes (default [`DEFAULT_MAX_DATAGRAM`]).
    pub fn max_datagram(mut self, max: usize) -> Self {
        self.max_datagram = max;
        self
    }

    /// The socket.
    pub fn socket(&self) -> &UdpSocket {
        &self.socket
    }
}

impl Channel for UdpClient {
    /// An error: UDP carries no reply.
    fn call<A, R>(&mut self, _method: &'static str, _args: &A) -> Result<R>
    where
        A: ThriftWrite,
        R: for<'de> ThriftRead<'de>,
    {
        Err(not_oneway())
    }

    /// Sends the call as one datagram.
    fn call_oneway<A: ThriftWrite>(&mut self, method: &'static str, args: &A) -> Result<()> {
        self.seq = self.seq.wrapping_add(1);
        let (protocol, seq) = (self.options.protocol, self.seq);
        let bytes = datagram(
            &self.options,
            self.max_datagram,
            &mut self.name,
            method,
            |out, name| protocol.write_message(out, name, MessageType::Oneway, seq, args),
        )?;
        self.socket.send(&bytes)?;
        Ok(())
    }
}

/// What a server does with a datagram: the oneway call in it, or `None` (dropped).
fn oneway_call(datagram: &[u8], limits: ReadLimits) -> Option<Message> {
    let protocol = ProtocolKind::detect(datagram).ok()??;
    if protocol.message_len(datagram, limits).ok()?? != datagram.len() {
        return None;
    }
    let message = Message::parse(Bytes::copy_from_slice(datagram), protocol, limits).ok()?;
    (message.kind() == MessageType::Oneway).then_some(message)
}

/// What a UDP server counts.
#[derive(Debug, Default)]
pub struct UdpStats {
    /// Oneway calls handed to the processor.
    pub served: AtomicU64,
    /// Datagrams dropped: over the limit, malformed, or not a oneway call.
    pub dropped: AtomicU64,
}

/// A blocking UDP server: a thread receives datagrams and hands each oneway call to the
/// processor, in turn. Dropping the handle (or [`UdpServer::shutdown`]) stops it.
#[derive(Debug)]
pub struct UdpServer {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    stats: Arc<UdpStats>,
    thread: Option<thread::JoinHandle<()>>,
}

impl UdpServer {
    /// Serves `processor` on `socket`, datagrams of at most `max_datagram` bytes (larger ones
    /// are dropped whole).
    pub fn spawn<P: Processor + 'static>(
        socket: UdpSocket,
        processor: P,
        max_datagram: usize,
        limits: ReadLimits,
    ) -> io::Result<UdpServer> {
        let addr = socket.local_addr()?;
        // Wakes to look at the stop flag.
        socket.set_read_timeout(Some(Duration::from_millis(200)))?;
        let stop = Arc::new(AtomicBool::new(false));
        let stats = Arc::new(UdpStats::default());
        let thread = {
            let (stop, stats) = (Arc::clone(&stop), Arc::clone(&stats));
            thread::Builder::new()
                .name("thrift-udp".into())
                .spawn(move || {
                    // One byte more than the limit: a datagram that fills it is too large.
                    let mut buf = vec![0u8; max_datagram + 1];
                    let mut out = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let n = match socket.recv(&mut buf) {
                            Ok(n) => n,
                            Err(_) => continue,
                        };
                        let call = (n <= max_datagram)
                            .then(|| oneway_call(&buf[..n], limits))
                            .flatten();
                        let Some(call) = call else {
                            stats.dropped.fetch_add(1, Ordering::Relaxed);
                            continue;
                        };
                        out.clear();
                        // A panicking handler loses its call, not the server.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            processor.process(&call, &mut out)
                        }));
                        stats.served.fetch_add(1, Ordering::Relaxed);
                    }
                })?
        };
        Ok(UdpServer {
            addr,
            stop,
            stats,
            thread: Some(thread),
        })
    }

    /// The address the server receives on.
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// What it served and dropped so far.
    pub fn stats(&self) -> &UdpStats {
        &self.stats
    }

    /// Stops receiving and waits for the thread (the call being handled finishes).
    pub fn shutdown(mut self) {
        self.stop_and_join();
    }

    fn stop_and_join(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for UdpServer {
    fn drop(&mut self) {
        self.stop_and_join();
    }
}

#[cfg(feature = "async")]
pub use self::async_udp::{AsyncUdpClient, serve_async};

#[cfg(feature = "async")]
mod async_udp {
    use std::future::{Future, poll_fn};
    use std::io;
    use std::pin::pin;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::task::Poll;

    use ::tokio::net::{ToSocketAddrs, UdpSocket};

    use super::{DEFAULT_MAX_DATAGRAM, UdpStats, datagram, not_oneway, oneway_call};
    use crate::error::Result;
    use crate::limits::ReadLimits;
    use crate::rpc::message::{Message, ProtocolKind};
    use crate::rpc::options::ClientOptions;
    use crate::rpc::service::{AsyncChannel, AsyncProcessor, ClientRequest};
    use crate::wire::MessageType;

    /// An async UDP client: an [`AsyncChannel`] whose oneway calls each go out as one
    /// datagram. Cheap to clone.
    #[derive(Clone, Debug)]
    pub struct AsyncUdpClient {
        socket: Arc<UdpSocket>,
        options: Arc<ClientOptions>,
        max_datagram: usize,
        seq: Arc<AtomicI32>,
    }

    impl AsyncUdpClient {
        /// A socket on an ephemeral port, connected to `addr`. Needs a tokio runtime with IO.
        pub async fn connect(addr: impl ToSocketAddrs, options: ClientOptions) -> Result<Self> {
            let target = ::tokio::net::lookup_host(addr)
                .await?
                .next()
                .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no address"))?;
            let local = if target.is_ipv4() {
                "0.0.0.0:0"
            } else {
                "[::]:0"
            };
            let socket = UdpSocket::bind(local).await?;
            socket.connect(target).await?;
            Ok(AsyncUdpClient {
                socket: Arc::new(socket),
                options: Arc::new(options),
                max_datagram: DEFAULT_MAX_DATAGRAM,
                seq: Arc::new(AtomicI32::new(0)),
            })
        }

        /// Datagrams of at most `max` bytes.
        pub fn max_datagram(mut self, max: usize) -> Self {
            self.max_datagram = max;
            self
        }
    }

    impl AsyncChannel for AsyncUdpClient {
        fn protocol(&self) -> ProtocolKind {
            self.options.protocol
        }

        /// Sends a oneway call as one datagram; a call expecting a reply is an error.
        fn send(
            &self,
            request: ClientRequest,
        ) -> impl Future<Output = Result<Option<Message>>> + Send {
            let this = self.clone();
            async move {
                if !request.oneway {
                    return Err(not_oneway());
                }
                request.check_protocol(this.options.protocol)?;
                let seq = this.seq.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
                let protocol = this.options.protocol;
                let mut name = String::new();
                let bytes = datagram(
                    &this.options,
                    this.max_datagram,
                    &mut name,
                    request.method,
                    |out, name| {
                        protocol.write_message_header(out, name, MessageType::Oneway, seq)?;
                        out.extend_from_slice(&request.body);
                        protocol.write_message_end(out)
                    },
                )?;
                this.socket.send(&bytes).await?;
                Ok(None)
            }
        }
    }

    /// Serves `processor` on `socket` until `signal` completes: each datagram's oneway call
    /// is handled on a task of its own; datagrams over `max_datagram` bytes, malformed ones
    /// and calls expecting a reply are dropped and counted in `stats`.
    pub async fn serve_async<P: AsyncProcessor + 'static>(
        socket: UdpSocket,
        processor: P,
        max_datagram: usize,
        limits: ReadLimits,
        stats: Arc<UdpStats>,
        signal: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let processor = Arc::new(processor);
        let mut buf = vec![0u8; max_datagram + 1];
        let mut signal = pin!(signal);
        loop {
            let received = {
                let mut recv = pin!(socket.recv(&mut buf));
                poll_fn(|cx| {
                    if signal.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(None);
                    }
                    recv.as_mut().poll(cx).map(Some)
                })
                .await
            };
            let n = match received {
                None => return Ok(()),
                Some(Ok(n)) => n,
                // An ICMP error of an earlier send and the like: go on.
                Some(Err(_)) => continue,
            };
            let call = (n <= max_datagram)
                .then(|| oneway_call(&buf[..n], limits))
                .flatten();
            let Some(call) = call else {
                stats.dropped.fetch_add(1, Ordering::Relaxed);
                continue;
            };
            stats.served.fetch_add(1, Ordering::Relaxed);
            let processor = Arc::clone(&processor);
            ::tokio::spawn(async move {
                let mut out = Vec::new();
                let _ = processor.process(&call, &mut out).await;
            });
        }
    }
}

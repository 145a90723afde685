//! The blocking UDP client and server (feature `udp`): oneway calls, one per datagram.

use std::io;
use std::net::{SocketAddr, ToSocketAddrs, UdpSocket};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use super::ServerHandle;
use super::io::STOP_POLL;
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::Result;
use crate::rpc::options::ClientOptions;
use crate::rpc::service::{Channel, Processor, call_name};
use crate::rpc::udp::{DEFAULT_MAX_DATAGRAM, datagram, not_oneway, oneway_call, udp_server};
use crate::wire::MessageType;

/// A blocking UDP client: a [`Channel`] whose oneway calls each go out as one datagram to
/// the address it was connected to. [`ClientOptions`] gives the protocol (compact for Jaeger)
/// and the multiplexed service name.
///
/// ```no_run
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::blocking::UdpClient;
/// use thrift_runtime::rpc::ProtocolKind;
///
/// let options = ClientOptions::new(ProtocolKind::Compact);
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
        let name = call_name(self.options.service.as_deref(), method, &mut self.name);
        let bytes = datagram(self.max_datagram, |out| {
            protocol.write_message(out, name, MessageType::Oneway, seq, args)
        })?;
        self.socket.send(&bytes)?;
        Ok(())
    }
}

udp_server! {
    /// A blocking UDP server: a thread receives datagrams and hands each oneway call to the
    /// processor, in turn. Datagrams over [`max_datagram`](UdpServer::max_datagram) bytes,
    /// malformed ones and calls expecting a reply are dropped and counted in its
    /// [`UdpStats`](crate::rpc::udp::UdpStats).
    /// Built and run as every blocking server is: [`serve`](UdpServer::serve) on this thread,
    /// or [`spawn`](UdpServer::spawn) a thread whose handle stops it. Decoding has the options'
    /// `limits.read`.
    ///
    /// ```no_run
    /// use std::net::UdpSocket;
    /// use thrift_runtime::rpc::blocking::UdpServer;
    /// use thrift_runtime::rpc::{MultiplexedProcessor, ServerOptions};
    ///
    /// let server = UdpServer::new(ServerOptions::default());
    /// let stats = server.stats();
    /// let handle = server.spawn(UdpSocket::bind("127.0.0.1:6831")?, MultiplexedProcessor::new())?;
    /// // ...
    /// handle.shutdown();
    /// println!("served {:?}", stats.served);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    UdpServer
}

impl UdpServer {
    /// Serves `processor` on `socket` on this thread, forever.
    pub fn serve<P: Processor + 'static>(self, socket: UdpSocket, processor: P) -> io::Result<()> {
        self.run(socket, processor, &AtomicBool::new(false))
    }

    /// Serves `processor` on `socket` on a thread of its own; the handle stops it (the call
    /// being handled finishes).
    pub fn spawn<P: Processor + 'static>(
        self,
        socket: UdpSocket,
        processor: P,
    ) -> io::Result<ServerHandle> {
        let addr = socket.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = Arc::clone(&stop);
            thread::Builder::new()
                .name("thrift-udp".into())
                .spawn(move || {
                    let _ = self.run(socket, processor, &stop);
                })?
        };
        // The thread looks at the stop flag between reads of at most `STOP_POLL`.
        Ok(ServerHandle::new(addr, |_| {}, stop, thread))
    }

    fn run<P: Processor>(
        self,
        socket: UdpSocket,
        processor: P,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        socket.set_read_timeout(Some(STOP_POLL))?;
        let max_datagram = self.max_datagram.unwrap_or(DEFAULT_MAX_DATAGRAM);
        let (limits, stats) = (self.options.limits.read, self.stats);
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
        Ok(())
    }
}

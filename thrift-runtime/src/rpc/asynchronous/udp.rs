//! The async UDP client and server (feature `udp`): oneway calls, one per datagram.

use std::future::{Future, poll_fn};
use std::io;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::task::Poll;

use ::tokio::net::{ToSocketAddrs, UdpSocket};

use super::ServerHandle;
use crate::error::Result;
use crate::rpc::message::ProtocolKind;
use crate::rpc::options::ClientOptions;
use crate::rpc::service::{AsyncChannel, AsyncProcessor, ClientRequest, Reply};
use crate::rpc::udp::{DEFAULT_MAX_DATAGRAM, datagram, not_oneway, oneway_call, udp_server};

/// An async UDP client: an [`AsyncChannel`] whose oneway calls each go out as one
/// datagram. Cheap to clone.
#[derive(Clone, Debug)]
pub struct UdpClient {
    socket: Arc<UdpSocket>,
    options: Arc<ClientOptions>,
    max_datagram: usize,
    seq: Arc<AtomicI32>,
}

impl UdpClient {
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
        Ok(UdpClient {
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

impl AsyncChannel for UdpClient {
    fn protocol(&self) -> ProtocolKind {
        self.options.protocol
    }

    /// Sends a oneway call as one datagram; a call expecting a reply is an error.
    fn send(&self, request: ClientRequest) -> impl Future<Output = Result<Option<Reply>>> + Send {
        let this = self.clone();
        async move {
            if !request.oneway {
                return Err(not_oneway());
            }
            request.check_protocol(this.options.protocol)?;
            let seq = this.seq.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
            let mut name = String::new();
            let service = this.options.service.as_deref();
            let bytes = datagram(this.max_datagram, |out| {
                request.write_message(out, service, seq, &mut name)
            })?;
            this.socket.send(&bytes).await?;
            Ok(None)
        }
    }
}

udp_server! {
    /// An async UDP server: each datagram's oneway call is handled on a task of its own;
    /// datagrams over [`max_datagram`](UdpServer::max_datagram) bytes, malformed ones and calls
    /// expecting a reply are dropped and counted in its [`UdpStats`](crate::rpc::udp::UdpStats). Built and run as every
    /// async server is: [`serve`](UdpServer::serve), [`serve_with_shutdown`](UdpServer::serve_with_shutdown),
    /// [`spawn`](UdpServer::spawn). Decoding has the options' `limits.read`.
    ///
    /// ```no_run
    /// # async fn run() -> std::io::Result<()> {
    /// use thrift_runtime::rpc::asynchronous::UdpServer;
    /// use thrift_runtime::rpc::{AsyncMultiplexedProcessor, ServerOptions};
    ///
    /// let socket = tokio::net::UdpSocket::bind("127.0.0.1:6831").await?;
    /// let server = UdpServer::new(ServerOptions::default());
    /// let stats = server.stats();
    /// let handle = server.spawn(socket, AsyncMultiplexedProcessor::new())?;
    /// // ...
    /// handle.shutdown().await?;
    /// println!("served {:?}", stats.served);
    /// # Ok(()) }
    /// ```
    UdpServer
}

impl UdpServer {
    /// Serves `processor` on `socket` forever.
    pub async fn serve<P: AsyncProcessor + 'static>(
        self,
        socket: UdpSocket,
        processor: P,
    ) -> io::Result<()> {
        self.serve_with_shutdown(socket, processor, std::future::pending())
            .await
    }

    /// Runs the server on a task of its own; the handle stops it.
    pub fn spawn<P: AsyncProcessor + 'static>(
        self,
        socket: UdpSocket,
        processor: P,
    ) -> io::Result<ServerHandle> {
        let addr = socket.local_addr()?;
        Ok(ServerHandle::spawn(addr, |stop| {
            self.serve_with_shutdown(socket, processor, stop)
        }))
    }

    /// Serves `processor` on `socket` until `signal` completes (calls already handed to
    /// their tasks finish on their own).
    pub async fn serve_with_shutdown<P: AsyncProcessor + 'static>(
        self,
        socket: UdpSocket,
        processor: P,
        signal: impl Future<Output = ()>,
    ) -> io::Result<()> {
        let max_datagram = self.max_datagram.unwrap_or(DEFAULT_MAX_DATAGRAM);
        let limits = self.options.limits.read;
        let stats = self.stats;
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

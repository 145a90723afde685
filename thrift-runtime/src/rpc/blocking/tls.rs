//! TLS for the blocking transports (features `blocking` and `tls`): a [`TlsStream`] over any
//! [`Stream`], a [`TlsListener`] around any [`Listener`], and [`Connection::connect_tls`].
//!
//! The server's handshake happens in the connection's first reads, on its worker thread and
//! within the server's idle timeout, never in the accepting thread: a client that connects
//! and stalls holds one worker as a plain-TCP client would, not the listener.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use rustls::{ClientConfig, ServerConfig};

use super::{Connect, Connection, Listener, Stream};
use crate::error::Result;
use crate::rpc::frame::Framing;
use crate::rpc::options::ClientOptions;
use crate::rpc::tls::{TlsConnector, server_name, tls_error};

/// A TLS session over a stream: either end, client or server. Reads and writes are
/// plaintext; the stream's timeouts bound each read and write of TLS records, and a
/// timed-out read leaves the session where it was (a partly received record is kept), so
/// the read can be tried again.
///
/// A peer that closes its socket without a TLS `close_notify` (Apache's peers do) reads as
/// the end of the stream; a cut-off message is still an error, as every Thrift framing
/// carries its lengths. This side ends its session with a `close_notify` (RFC 8446 section
/// 6.1) when it is dropped, or before with [`TlsStream::close`], unless a write to the socket
/// failed.
#[derive(Debug)]
pub struct TlsStream<S: Read + Write> {
    session: rustls::Connection,
    io: S,
    /// The socket has reached its end.
    eof: bool,
    /// `close_notify` was sent, or no more is to be written (a write failed).
    closed: bool,
}

impl<S: Read + Write> Drop for TlsStream<S> {
    fn drop(&mut self) {
        let _ = self.close();
    }
}

impl<S: Read + Write> TlsStream<S> {
    /// A TLS session of `session`'s side over `io`, before its handshake: the handshake is
    /// made by the first reads and writes (or [`TlsStream::handshake`]).
    pub fn new(session: impl Into<rustls::Connection>, io: S) -> Self {
        TlsStream {
            session: session.into(),
            io,
            eof: false,
            closed: false,
        }
    }

    /// Ends the session: sends TLS's `close_notify` alert, after which nothing more is
    /// written (the socket stays open until the stream is dropped). Done by dropping the
    /// stream too; once only, and only for a session whose handshake is complete (a peer
    /// that never said hello is told nothing).
    pub fn close(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.closed, true) || self.session.is_handshaking() {
            return Ok(());
        }
        self.session.send_close_notify();
        self.send_records()?;
        self.io.flush()
    }

    /// Completes the handshake, if it is not complete: each read and write of it within the
    /// stream's timeouts.
    pub fn handshake(&mut self) -> io::Result<()> {
        while self.session.is_handshaking() {
            if self.session.wants_write() {
                self.session.write_tls(&mut self.io)?;
            } else if self.session.wants_read() {
                if self.receive()? == 0 {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the peer closed the connection during the TLS handshake",
                    ));
                }
            } else {
                break;
            }
        }
        self.send_records()
    }

    /// The TLS session (the peer's certificates, the protocol version, ALPN...).
    pub fn session(&self) -> &rustls::Connection {
        &self.session
    }

    /// The stream below.
    pub fn get_ref(&self) -> &S {
        &self.io
    }

    /// The stream below, mutably (writing to it directly breaks the session).
    pub fn get_mut(&mut self) -> &mut S {
        &mut self.io
    }

    /// Reads TLS records once and processes them; the number of bytes read (0: the end of
    /// the stream). A record the session refuses is an error, after the alert saying so has
    /// been sent if the socket takes it.
    fn receive(&mut self) -> io::Result<usize> {
        let n = self.session.read_tls(&mut self.io)?;
        if n == 0 {
            self.eof = true;
        }
        if let Err(e) = self.session.process_new_packets() {
            let _ = self.send_records();
            return Err(tls_error(e));
        }
        Ok(n)
    }

    /// Writes every pending TLS record. After a failed write nothing more is written on
    /// drop (a socket that did not take a record within its timeout is not waited on again).
    fn send_records(&mut self) -> io::Result<()> {
        while self.session.wants_write() {
            match self.session.write_tls(&mut self.io) {
                Ok(0) => {
                    self.closed = true;
                    return Err(io::ErrorKind::WriteZero.into());
                }
                Ok(_) => {}
                Err(e) => {
                    self.closed = true;
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}

impl<S: Read + Write> Read for TlsStream<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            // The handshake's answers, a key update's.
            self.send_records()?;
            match self.session.reader().read(buf) {
                Ok(n) => return Ok(n),
                // Closed without close_notify: the end, as Apache's peers close.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(0),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
            if self.eof {
                return Ok(0);
            }
            self.receive()?;
        }
    }
}

impl<S: Read + Write> Write for TlsStream<S> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.closed {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the TLS session was closed",
            ));
        }
        self.handshake()?;
        let n = self.session.writer().write(buf)?;
        self.send_records()?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.session.writer().flush()?;
        self.send_records()?;
        self.io.flush()
    }
}

impl<S: Stream> Stream for TlsStream<S> {
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        self.io.set_read_timeout(timeout)
    }

    fn set_write_timeout(&mut self, timeout: Option<Duration>) -> io::Result<()> {
        self.io.set_write_timeout(timeout)
    }

    fn set_nonblocking(&mut self, nonblocking: bool) -> io::Result<()> {
        self.io.set_nonblocking(nonblocking)
    }
}

/// A listener whose connections are TLS sessions, for [`Server`](super::Server): around a
/// [`TcpListener`] (or a Unix domain socket's, or any [`Listener`]).
///
/// ```no_run
/// use std::net::TcpListener;
/// use thrift_runtime::rpc::blocking::{Server, TlsListener};
/// use thrift_runtime::rpc::ServerOptions;
/// use thrift_runtime::rpc::{tls, MultiplexedProcessor};
///
/// let config = tls::server_config("server.pem", "server.key", None)?;
/// let listener = TlsListener::new(TcpListener::bind("0.0.0.0:9443")?, config);
/// Server::new(ServerOptions::default()).serve(listener, MultiplexedProcessor::new())?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct TlsListener<L = TcpListener> {
    inner: L,
    config: Arc<ServerConfig>,
}

impl<L: Listener> TlsListener<L> {
    /// TLS with `config` on the connections of `inner`.
    pub fn new(inner: L, config: Arc<ServerConfig>) -> Self {
        TlsListener { inner, config }
    }

    /// The listener below.
    pub fn get_ref(&self) -> &L {
        &self.inner
    }
}

impl<L: Listener> Listener for TlsListener<L> {
    type Stream = TlsStream<L::Stream>;
    type Addr = L::Addr;

    /// Accepts a connection; its handshake is made by the worker serving it.
    fn accept(&self) -> io::Result<Self::Stream> {
        let io = self.inner.accept()?;
        let session = rustls::ServerConnection::new(Arc::clone(&self.config)).map_err(tls_error)?;
        Ok(TlsStream::new(session, io))
    }

    fn local_addr(&self) -> io::Result<L::Addr> {
        self.inner.local_addr()
    }

    fn wake(addr: &L::Addr) {
        L::wake(addr)
    }
}

/// The handshake is made in `connect`, bounded by the timeout as every read and write is.
impl<C: Connect> Connect for TlsConnector<C> {
    type Stream = TlsStream<C::Stream>;

    fn connect(&self, endpoint: &str, timeout: Option<Duration>) -> Result<Self::Stream> {
        let name = server_name(self.name_for(endpoint))?;
        let session =
            rustls::ClientConnection::new(Arc::clone(&self.config), name).map_err(tls_error)?;
        let mut stream = TlsStream::new(session, self.inner.connect(endpoint, timeout)?);
        stream.handshake()?;
        Ok(stream)
    }

    fn framing(&self) -> Option<Framing> {
        self.inner.framing()
    }
}

impl Connection<TlsStream<TcpStream>> {
    /// Connects over TCP and makes a TLS handshake with `config`, checking the server's
    /// certificate against `server_name` (a DNS name or an IP address); the options'
    /// timeout bounds each read and write, the handshake's too.
    ///
    /// ```no_run
    /// use std::path::Path;
    /// use thrift_runtime::rpc::blocking::Connection;
    /// use thrift_runtime::rpc::ClientOptions;
    /// use thrift_runtime::rpc::{tls, ProtocolKind, Framing};
    ///
    /// let config = tls::client_config("ca.pem", None)?;
    /// let options = ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed);
    /// let connection = Connection::connect_tls("hive.example.com:9083", "hive.example.com", config, options)?;
    /// # Ok::<(), thrift_runtime::Error>(())
    /// ```
    pub fn connect_tls(
        addr: impl ToSocketAddrs + std::fmt::Debug,
        server_name: &str,
        config: Arc<ClientConfig>,
        options: ClientOptions,
    ) -> Result<Self> {
        let stream = Connection::connect(addr, options.clone())?.into_inner();
        let name = self::server_name(server_name)?;
        let session = rustls::ClientConnection::new(config, name).map_err(tls_error)?;
        let mut stream = TlsStream::new(session, stream);
        stream.handshake()?;
        Ok(Connection::new(stream, options))
    }
}

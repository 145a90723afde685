//! The blocking client connection: one call at a time over any `Read + Write`.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};

use bytes::BytesMut;

use super::connect::{Connect, connect_tcp};
use super::io::read_message;
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, Result};
use crate::rpc::frame;
use crate::rpc::options::ClientOptions;
use crate::rpc::service::{Channel, call_name};
use crate::wire::MessageType;

/// A blocking client connection: implements [`Channel`] for generated clients, one call at a
/// time, checking each reply's sequence id and method name.
///
/// ```no_run
/// use thrift_runtime::rpc::blocking::Connection;
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::{ProtocolKind, Framing};
///
/// let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
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
            .map_err(|e| Error::connect(crate::rpc::options::address_text(&addr), e))?;
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

impl<S: Read + Write> Connection<S> {
    /// Connects to `endpoint` with `connector` (TCP, a Unix domain socket, TLS or SASL over
    /// either, or a connector of yours), the options' timeout bounding the connect and each
    /// read and write; when the connector requires a framing (SASL does), it replaces the
    /// options'.
    ///
    /// ```no_run
    /// use thrift_runtime::rpc::blocking::Connection;
    /// use thrift_runtime::rpc::sasl::{Plain, SaslConnector};
    /// use thrift_runtime::rpc::tls::{self, TlsConnector};
    /// use thrift_runtime::rpc::{ClientOptions, ProtocolKind, TcpConnector};
    ///
    /// // SASL inside TLS, as HiveServer2 and Impala speak it with both SSL and authentication on.
    /// let tls = TlsConnector::new(TcpConnector, tls::client_config("ca.pem", None)?);
    /// let connector = SaslConnector::new(tls, Plain::new("hive", "s3cret"));
    /// let options = ClientOptions::new(ProtocolKind::Binary);
    /// let connection = Connection::connect_with(&connector, "hs2.example.com:10000", options)?;
    /// // let mut client = hive::TCLIServiceClient::new(connection);
    /// # Ok::<(), thrift_runtime::Error>(())
    /// ```
    pub fn connect_with<C: Connect<Stream = S>>(
        connector: &C,
        endpoint: &str,
        mut options: ClientOptions,
    ) -> Result<Self> {
        let stream = connector.connect(endpoint, options.timeout)?;
        if let Some(framing) = connector.framing() {
            options.framing = framing;
        }
        Ok(Connection::new(stream, options))
    }
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
        let format = self.options.wire_format();
        let out = &mut self.write_buf;
        out.clear();
        let start = frame::begin_frame(out, format, seq, &self.options.headers);
        let name = call_name(self.options.service.as_deref(), method, &mut self.name_buf);
        format.protocol.write_message(out, name, kind, seq, args)?;
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
            Some(self.options.framing),
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

//! [`HttpClient`]: Thrift calls as HTTP `POST`s, blocking, on one keep-alive connection.

use std::io::{self, Write};
#[cfg(feature = "tls")]
use std::sync::Arc;

use bytes::Bytes;

use super::Stream;
use super::connect::connect_tcp;
use super::http_incoming::Incoming;
use crate::codec::{ThriftRead, ThriftWrite};
use crate::error::{Error, Result};
use crate::rpc::http::{CONTENT_TYPE, Url, status_error, too_large};
use crate::rpc::message::Message;
use crate::rpc::options::ClientOptions;
use crate::rpc::service::Channel;
use crate::rpc::service::call_name;
use crate::wire::MessageType;

/// A blocking HTTP client channel on one connection, kept alive between calls and opened
/// again when the server has closed it: before each call a kept-alive connection is checked
/// (a read that does not wait) and replaced if the server closed it while idle; a call is
/// sent again only when writing it to a reused connection failed, so no call runs twice.
/// One call at a time, as every blocking channel. [`ClientOptions`] gives the protocol, the
/// multiplexed service name, the limits and the timeout (of connecting, of writing, and of
/// the whole response); its transport and THeader settings do not apply.
///
/// ```no_run
/// use thrift_runtime::rpc::ClientOptions;
/// use thrift_runtime::rpc::blocking::HttpClient;
/// use thrift_runtime::rpc::{ProtocolKind, Framing};
///
/// let options = ClientOptions::new(ProtocolKind::Binary);
/// let channel = HttpClient::new("http://hbase-thrift:9090/", options)?;
/// // let mut client = hbase::HbaseClient::new(channel);
/// # Ok::<(), thrift_runtime::Error>(())
/// ```
pub struct HttpClient {
    url: Url,
    text: String,
    options: ClientOptions,
    head: Vec<u8>,
    stream: Option<Box<dyn Stream>>,
    /// Whether `stream` has carried a call already (a failure then may be a stale
    /// keep-alive connection).
    reused: bool,
    seq: i32,
    buf: Vec<u8>,
    out: Vec<u8>,
    name: String,
    #[cfg(feature = "tls")]
    tls: Option<Arc<rustls::ClientConfig>>,
}

impl std::fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpClient")
            .field("url", &self.text)
            .field("protocol", &self.options.protocol)
            .field("connected", &self.stream.is_some())
            .finish_non_exhaustive()
    }
}

/// What a request waits for.
#[derive(Clone, Copy)]
enum Want {
    /// A call's reply: `200` and the reply as the body.
    Reply,
    /// A oneway call taken: `200`, the body not waited for.
    Oneway,
    /// A value posted: any `2xx`, and whatever body comes.
    Success,
}

/// How a call's exchange failed.
enum Failure {
    /// Writing the request to a reused connection failed: the server had closed it, so it
    /// received nothing, and one retry on a new connection is safe.
    Stale(Error),
    Other(Error),
}

impl HttpClient {
    /// A client of the Thrift endpoint at `url` (`http://host[:port]/path`; `https://` with
    /// [`HttpClient::with_tls`]). Connects at the first call.
    pub fn new(url: &str, options: ClientOptions) -> Result<Self> {
        let parsed = Url::parse(url)?;
        let mut connection = HttpClient {
            head: Vec::new(),
            text: url.to_owned(),
            options,
            stream: None,
            reused: false,
            seq: 0,
            buf: Vec::new(),
            out: Vec::new(),
            name: String::new(),
            #[cfg(feature = "tls")]
            tls: None,
            url: parsed,
        };
        connection.head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: {CONTENT_TYPE}\r\nAccept: {CONTENT_TYPE}\r\nUser-Agent: thrift-rs\r\n",
            connection.url.path,
            connection.url.authority()
        )
        .into_bytes();
        Ok(connection)
    }

    /// Sends `name: value` with every call.
    pub fn header(mut self, name: &str, value: &str) -> Result<Self> {
        let token = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !token || value.bytes().any(|b| b == b'\r' || b == b'\n' || b == 0) {
            return Err(Error::from(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("not an HTTP header: {name:?}: {value:?}"),
            )));
        }
        self.head
            .extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        Ok(self)
    }

    /// HTTPS with this `rustls` configuration: needed for an `https://` URL. The server's
    /// certificate is checked against the URL's host.
    #[cfg(feature = "tls")]
    pub fn with_tls(mut self, config: Arc<rustls::ClientConfig>) -> Self {
        self.tls = Some(config);
        self
    }

    /// Posts `value` alone as the body, encoded in the options' protocol (no message around
    /// it), and returns the response's status (any `2xx`; another is an error naming it) and
    /// body. For HTTP APIs that take a Thrift struct rather than a call: Jaeger's collector
    /// takes a binary `Batch` at `/api/traces?format=jaeger.thrift` and answers `202
    /// Accepted`. The keep-alive connection, headers, limits and timeout are the calls'.
    ///
    /// ```no_run
    /// # fn run(batch: &impl thrift_runtime::ThriftWrite) -> thrift_runtime::Result<()> {
    /// use thrift_runtime::rpc::ClientOptions;
    /// use thrift_runtime::rpc::blocking::HttpClient;
    /// use thrift_runtime::rpc::{ProtocolKind, Framing};
    ///
    /// let options = ClientOptions::new(ProtocolKind::Binary);
    /// let mut collector =
    ///     HttpClient::new("http://jaeger:14268/api/traces?format=jaeger.thrift", options)?;
    /// let (status, _) = collector.post(batch)?;
    /// assert_eq!(status, 202);
    /// # Ok(()) }
    /// ```
    pub fn post<T: ThriftWrite + ?Sized>(&mut self, value: &T) -> Result<(u16, Bytes)> {
        self.out.clear();
        self.options.protocol.encode(value, &mut self.out)?;
        if self.out.len() > self.options.limits.max_frame_size {
            return Err(too_large());
        }
        self.exchange(Want::Success)
    }

    /// The URL calls go to.
    pub fn url(&self) -> &str {
        &self.text
    }

    fn connect(&self) -> Result<Box<dyn Stream>> {
        let address = (self.url.host.as_str(), self.url.port);
        // A failure names the URL, as given.
        let tcp = connect_tcp(&address, self.options.timeout)
            .map_err(|e| Error::connect(self.text.as_str(), e))?;
        tcp.set_nodelay(true)?;
        tcp.set_read_timeout(self.options.timeout)?;
        tcp.set_write_timeout(self.options.timeout)?;
        if self.url.https {
            #[cfg(feature = "tls")]
            if let Some(config) = &self.tls {
                let name = crate::rpc::tls::server_name(&self.url.host)?;
                let session = rustls::ClientConnection::new(Arc::clone(config), name)
                    .map_err(crate::rpc::tls::tls_error)?;
                let mut stream = crate::rpc::blocking::TlsStream::new(session, tcp);
                stream.handshake()?;
                return Ok(Box::new(stream));
            }
            return Err(Error::from(io::Error::new(
                io::ErrorKind::InvalidInput,
                "an https:// URL needs HttpClient::with_tls (feature `tls`)",
            )));
        }
        Ok(Box::new(tcp))
    }

    /// Sends the body in `self.out` and returns the response's status and body (for a oneway
    /// call, nothing: once the status says the call was taken).
    fn exchange(&mut self, want: Want) -> Result<(u16, Bytes)> {
        match self.try_exchange(want) {
            Ok(body) => Ok(body),
            Err(Failure::Stale(_)) => {
                self.stream = None;
                self.try_exchange(want).map_err(|f| match f {
                    Failure::Stale(e) | Failure::Other(e) => e,
                })
            }
            Err(Failure::Other(e)) => Err(e),
        }
    }

    fn try_exchange(&mut self, want: Want) -> std::result::Result<(u16, Bytes), Failure> {
        let reused = self.stream.is_some() && self.reused;
        if reused && !self.still_open() {
            // The server closed the kept-alive connection while it was idle: connect again
            // before sending anything (after sending, a call is never sent twice).
            self.stream = None;
        }
        if self.stream.is_none() {
            self.stream = Some(self.connect().map_err(Failure::Other)?);
            self.reused = false;
        }
        let outcome = self.send_and_receive(reused, want);
        match &outcome {
            Ok((_, _, true)) => self.reused = true,
            _ => self.stream = None,
        }
        outcome.map(|(status, body, _)| (status, body))
    }

    /// Whether the idle kept-alive connection is still open (see [`idle_and_open`]).
    fn still_open(&mut self) -> bool {
        match self.stream.as_mut() {
            Some(stream) => idle_and_open(stream.as_mut(), self.options.timeout),
            None => false,
        }
    }

    /// One request and its response: the status, the body, and whether the connection stays
    /// open.
    fn send_and_receive(
        &mut self,
        reused: bool,
        want: Want,
    ) -> std::result::Result<(u16, Bytes, bool), Failure> {
        let Some(stream) = self.stream.as_mut() else {
            return Err(Failure::Other(Error::from(io::Error::from(
                io::ErrorKind::NotConnected,
            ))));
        };
        let stale = |e: io::Error| {
            if reused {
                Failure::Stale(Error::from(e))
            } else {
                Failure::Other(Error::from(e))
            }
        };
        let mut request = Vec::with_capacity(self.head.len() + 32 + self.out.len());
        request.extend_from_slice(&self.head);
        request.extend_from_slice(format!("Content-Length: {}\r\n\r\n", self.out.len()).as_bytes());
        request.extend_from_slice(&self.out);
        stream.write_all(&request).map_err(stale)?;
        stream.flush().map_err(stale)?;
        self.buf.clear();
        let mut response = Incoming {
            stream: stream.as_mut(),
            buf: &mut self.buf,
            pos: 0,
            // The timeout bounds the whole response, not each read.
            deadline: self
                .options
                .timeout
                .and_then(|limit| std::time::Instant::now().checked_add(limit)),
            scanned: 0,
        };
        let head = match response.response_head() {
            Ok(head) => head,
            Err(e) => return Err(Failure::Other(Error::from(e))),
        };
        let status = head.status;
        let accepted = match want {
            Want::Reply | Want::Oneway => status == 200,
            Want::Success => (200..300).contains(&status),
        };
        if !accepted {
            let expected = match want {
                Want::Success => "2xx",
                Want::Reply | Want::Oneway => "200",
            };
            return Err(Failure::Other(status_error(status, &self.text, expected)));
        }
        let framing = head.framing;
        if let Want::Oneway = want {
            // Accepted: a oneway caller does not wait for the body (Apache's THttpServer ends
            // it only when the handler is done). The connection is kept if the body is empty.
            let empty = framing.content_length == Some(0);
            return Ok((status, Bytes::new(), empty && framing.keep_alive));
        }
        // 204 and 304 have no body, whatever the headers say.
        if status == 204 || status == 304 {
            return Ok((status, Bytes::new(), framing.keep_alive));
        }
        let max = self.options.limits.max_frame_size;
        let body = response.body(&framing, max, true).map_err(Failure::Other)?;
        Ok((status, body, framing.keep_alive && framing.delimited()))
    }

    fn encode<A: ThriftWrite>(&mut self, method: &str, kind: MessageType, args: &A) -> Result<i32> {
        self.seq = self.seq.wrapping_add(1);
        let name = call_name(self.options.service.as_deref(), method, &mut self.name);
        self.out.clear();
        self.options
            .protocol
            .write_message(&mut self.out, name, kind, self.seq, args)?;
        if self.out.len() > self.options.limits.max_frame_size {
            return Err(too_large());
        }
        Ok(self.seq)
    }
}

impl Channel for HttpClient {
    fn call<A, R>(&mut self, method: &'static str, args: &A) -> Result<R>
    where
        A: ThriftWrite,
        R: for<'de> ThriftRead<'de>,
    {
        let seq = self.encode(method, MessageType::Call, args)?;
        let (_, body) = self.exchange(Want::Reply)?;
        let reply = Message::parse(body, self.options.protocol, self.options.limits.read)?;
        reply.reply_body(method, seq)
    }

    /// Sends the call and waits for the server's response status (HTTP answers every
    /// request), not for its body.
    fn call_oneway<A: ThriftWrite>(&mut self, method: &'static str, args: &A) -> Result<()> {
        self.encode(method, MessageType::Oneway, args)?;
        self.exchange(Want::Oneway).map(drop)
    }
}

/// Whether an idle kept-alive connection is still open: a read that must not wait finds
/// nothing (closed: the end of the stream; anything else is unexpected too). The read is
/// non-blocking, so the check costs three system calls and no wait; a stream that cannot be
/// made non-blocking is read with a 1 µs timeout instead, which the kernel rounds up to its
/// next timer tick (this cost 8 ms a call on a kept-alive connection when it was the only way:
/// 125 calls a second, `BENCHMARKS.md`). `timeout` is the stream's read timeout, restored.
fn idle_and_open(stream: &mut dyn Stream, timeout: Option<std::time::Duration>) -> bool {
    let nonblocking = stream.set_nonblocking(true).is_ok();
    if !nonblocking
        && stream
            .set_read_timeout(Some(std::time::Duration::from_micros(1)))
            .is_err()
    {
        return false;
    }
    let mut byte = [0u8; 1];
    let open = matches!(
        stream.read(&mut byte),
        Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
    );
    let restored = if nonblocking {
        stream.set_nonblocking(false).is_ok()
    } else {
        stream.set_read_timeout(timeout).is_ok()
    };
    open && restored
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::net::{TcpListener, TcpStream};
    use std::time::{Duration, Instant};

    use super::idle_and_open;

    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (server, _) = listener.accept().unwrap();
        (client, server)
    }

    #[test]
    fn an_idle_open_connection_is_open_at_once_and_stays_blocking() {
        let (mut client, mut server) = pair();
        let timeout = Some(Duration::from_secs(5));
        client.set_read_timeout(timeout).unwrap();
        let start = Instant::now();
        for _ in 0..100 {
            assert!(idle_and_open(&mut client, timeout));
        }
        // Without waiting for a timer tick (1 to 10 ms each): 100 checks in well under one.
        assert!(
            start.elapsed() < Duration::from_millis(100),
            "{:?}",
            start.elapsed()
        );
        // Blocking again, with its timeout: a read waits for the byte the server sends.
        assert_eq!(client.read_timeout().unwrap(), timeout);
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            server.write_all(b"x").unwrap();
            server
        });
        let mut byte = [0u8; 1];
        assert_eq!(client.read(&mut byte).unwrap(), 1);
        drop(sender.join().unwrap());
    }

    #[test]
    fn a_closed_or_talking_connection_is_not_open() {
        let (mut client, server) = pair();
        drop(server);
        std::thread::sleep(Duration::from_millis(20));
        assert!(!idle_and_open(&mut client, None));
        let (mut client, mut server) = pair();
        server.write_all(b"unexpected").unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert!(!idle_and_open(&mut client, None));
    }
}

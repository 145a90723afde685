//! The crate's single error type.
//!
//! [`Error`] is an [`ErrorKind`] plus a `&'static str` context describing
//! where the error happened, boxed: an `Error` is one pointer, so `Result<()>`
//! fits in one register and `Result<u64>` in two, and the many small reader
//! and writer calls return in registers rather than through a 56-byte slot in
//! memory (less CPU time in every benchmark, BENCHMARKS.md; the same choice
//! `serde_json::Error` makes). Building one allocates that box; every
//! constructor is `#[cold]` so the happy path stays tight.

use std::fmt;

use crate::application::ApplicationException;

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong. Matched on by callers; see [`Error::kind`].
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ended in the middle of a value.
    UnexpectedEof,
    /// A `string` value was not valid UTF-8.
    InvalidUtf8,
    /// A length prefix or element count points past the end of the input, a value is too
    /// large to encode (longer than `i32::MAX`), or a fixed-size output buffer is full.
    /// (A configured limit gives [`ErrorKind::LimitExceeded`].)
    SizeLimit,
    /// A length prefix or element count is negative.
    NegativeSize,
    /// The input exceeded one of the configured limits of [`crate::ReadLimits`] or
    /// [`crate::FrameLimits`] (see [`crate::limits`]): nesting depth, string length, container
    /// count, message, frame or decompressed size.
    LimitExceeded(crate::limits::Limit),
    /// Malformed data: unknown type id, over-long varint, bad protocol id or
    /// version, out-of-range value, ...
    InvalidData,
    /// A `required` field was absent when decoding a struct.
    MissingRequiredField {
        /// IDL name of the struct.
        struct_name: &'static str,
        /// IDL name of the missing field.
        field_name: &'static str,
    },
    /// A message header carried a message type other than 1..=4.
    UnknownMessageType,
    /// Borrowed reads (`read_str`, `read_bytes`) were attempted on an input
    /// that cannot lend its bytes (an [`crate::IoInput`]), or a borrowing form generated in
    /// arena mode (`Builder::arena`) was decoded without an arena (use `decode_in`).
    BorrowUnsupported,
    /// An error from the underlying reader or writer (other than the ones classified as
    /// [`ErrorKind::TimedOut`] and [`ErrorKind::Closed`]).
    Io(std::io::Error),
    /// The peer answered with a `TApplicationException` (boxed to keep
    /// [`Error`] small). Only the peer sends these: an error of this side never becomes one.
    Application(Box<ApplicationException>),
    /// A local timeout ran out: a client's [`ClientOptions::timeout`](crate::rpc) (connect,
    /// write, or wait for the reply), a tower `timeout` layer around an async client, or a
    /// server's idle, read or write timeout. The call may or may not have reached the peer.
    /// An I/O error of kind `TimedOut` or `WouldBlock` (what a blocking socket's timeout
    /// gives) becomes this; [`Error::io_error`] keeps it.
    TimedOut,
    /// The connection was closed (by the peer, by a reset, or by an earlier failure on it)
    /// before the reply arrived. An I/O error of kind `UnexpectedEof`, `ConnectionReset`,
    /// `ConnectionAborted`, `BrokenPipe` or `NotConnected` becomes this; [`Error::io_error`]
    /// keeps it. Connect again (a [`Pool`](crate::rpc) does).
    Closed,
    /// Connecting to `address` failed (refused, unreachable, a name that does not resolve, or
    /// the client's `ClientOptions::timeout` ran out while
    /// connecting): nothing was sent. A TLS or SASL handshake that fails once connected is
    /// [`ErrorKind::Io`] (`PermissionDenied` when a SASL server refuses the credentials).
    Connect {
        /// The address tried last, as it was given (`host:port`, a URL, a socket path).
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// An error from something else in the call's path: a tower layer around a client (a
    /// concurrency limit, a load shedder) or a user's own channel.
    Other(Box<dyn std::error::Error + Send + Sync>),
}

impl ErrorKind {
    fn describe(&self) -> &'static str {
        match self {
            ErrorKind::UnexpectedEof => "unexpected end of input",
            ErrorKind::InvalidUtf8 => "string is not valid UTF-8",
            ErrorKind::SizeLimit => "size limit exceeded",
            ErrorKind::NegativeSize => "negative size",
            ErrorKind::LimitExceeded(_) => "limit exceeded",
            ErrorKind::InvalidData => "invalid data",
            ErrorKind::MissingRequiredField { .. } => "missing required field",
            ErrorKind::UnknownMessageType => "unknown message type",
            ErrorKind::BorrowUnsupported => "input cannot lend borrowed data",
            ErrorKind::Io(_) => "i/o error",
            ErrorKind::Application(_) => "application exception",
            ErrorKind::TimedOut => "timed out",
            ErrorKind::Closed => "connection closed",
            ErrorKind::Connect { .. } => "cannot connect",
            ErrorKind::Other(_) => "call failed",
        }
    }
}

/// The error type of every fallible operation in this crate.
pub struct Error {
    inner: Box<Inner>,
}

/// What an [`Error`] points to.

#[derive(Debug)]
struct Inner {
    kind: ErrorKind,
    context: &'static str,
    /// The I/O error a [`ErrorKind::TimedOut`] or [`ErrorKind::Closed`] was made from.
    io: Option<std::io::Error>,
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Error");
        d.field("kind", &self.inner.kind);
        if !self.inner.context.is_empty() {
            d.field("context", &self.inner.context);
        }
        if let Some(io) = &self.inner.io {
            d.field("io", io);
        }
        d.finish()
    }
}

impl Error {
    /// Creates an error of the given kind with a short static context
    /// (may be `""`).
    #[cold]
    #[inline(never)]
    pub fn new(kind: ErrorKind, context: &'static str) -> Error {
        Error {
            inner: Box::new(Inner {
                kind,
                context,
                io: None,
            }),
        }
    }

    /// The kind of error.
    #[inline]
    pub fn kind(&self) -> &ErrorKind {
        &self.inner.kind
    }

    /// Consumes the error, returning its kind (e.g. to get the `io::Error`).
    pub fn into_kind(self) -> ErrorKind {
        self.inner.kind
    }

    /// A short description of where the error happened (may be empty).
    #[inline]
    pub fn context(&self) -> &'static str {
        self.inner.context
    }

    /// The I/O error behind this one, if any: that of [`ErrorKind::Io`] and
    /// [`ErrorKind::Connect`], or the one a [`ErrorKind::TimedOut`] or [`ErrorKind::Closed`]
    /// was made from.
    pub fn io_error(&self) -> Option<&std::io::Error> {
        match &self.inner.kind {
            ErrorKind::Io(e) | ErrorKind::Connect { source: e, .. } => Some(e),
            _ => self.inner.io.as_ref(),
        }
    }

    /// Whether a local timeout ran out ([`ErrorKind::TimedOut`]).
    pub fn is_timeout(&self) -> bool {
        matches!(self.inner.kind, ErrorKind::TimedOut)
    }

    /// Whether the connection is gone: it closed ([`ErrorKind::Closed`]) or could not be made
    /// ([`ErrorKind::Connect`]). Connecting again may help; the same call on this connection
    /// will not.
    pub fn is_disconnected(&self) -> bool {
        matches!(
            self.inner.kind,
            ErrorKind::Closed | ErrorKind::Connect { .. }
        )
    }

    /// The exception the peer sent ([`ErrorKind::Application`]).
    pub fn application_exception(&self) -> Option<&ApplicationException> {
        match &self.inner.kind {
            ErrorKind::Application(e) => Some(e),
            _ => None,
        }
    }

    /// [`ErrorKind::TimedOut`] saying which timeout.
    #[cold]
    #[inline(never)]
    pub fn timed_out(context: &'static str) -> Error {
        Error::new(ErrorKind::TimedOut, context)
    }

    /// [`ErrorKind::Closed`] saying how.
    #[cold]
    #[inline(never)]
    pub fn closed(context: &'static str) -> Error {
        Error::new(ErrorKind::Closed, context)
    }

    /// [`ErrorKind::Connect`]: connecting to `address` failed.
    #[cold]
    #[inline(never)]
    pub fn connect(address: impl Into<String>, source: std::io::Error) -> Error {
        Error::new(
            ErrorKind::Connect {
                address: address.into(),
                source,
            },
            "",
        )
    }

    /// [`ErrorKind::UnexpectedEof`].
    #[cold]
    #[inline(never)]
    pub fn eof() -> Error {
        Error::new(ErrorKind::UnexpectedEof, "")
    }

    /// [`ErrorKind::InvalidData`] with a context.
    #[cold]
    #[inline(never)]
    pub fn invalid_data(context: &'static str) -> Error {
        Error::new(ErrorKind::InvalidData, context)
    }

    /// [`ErrorKind::SizeLimit`] with a context.
    #[cold]
    #[inline(never)]
    pub fn size_limit(context: &'static str) -> Error {
        Error::new(ErrorKind::SizeLimit, context)
    }

    /// [`ErrorKind::NegativeSize`] with a context.
    #[cold]
    #[inline(never)]
    pub fn negative_size(context: &'static str) -> Error {
        Error::new(ErrorKind::NegativeSize, context)
    }

    /// [`ErrorKind::LimitExceeded`] with a context.
    #[cold]
    #[inline(never)]
    pub fn limit(limit: crate::limits::Limit, context: &'static str) -> Error {
        Error::new(ErrorKind::LimitExceeded(limit), context)
    }

    /// [`ErrorKind::InvalidUtf8`].
    #[cold]
    #[inline(never)]
    pub fn invalid_utf8() -> Error {
        Error::new(ErrorKind::InvalidUtf8, "")
    }

    /// [`ErrorKind::MissingRequiredField`]; called by generated code.
    #[cold]
    #[inline(never)]
    pub fn missing_required_field(struct_name: &'static str, field_name: &'static str) -> Error {
        Error::new(
            ErrorKind::MissingRequiredField {
                struct_name,
                field_name,
            },
            "",
        )
    }

    /// [`ErrorKind::UnknownMessageType`].
    #[cold]
    #[inline(never)]
    pub fn unknown_message_type() -> Error {
        Error::new(ErrorKind::UnknownMessageType, "")
    }
}

impl From<std::io::Error> for Error {
    #[cold]
    #[inline(never)]
    fn from(err: std::io::Error) -> Error {
        use std::io::ErrorKind as Io;
        let kind = match err.kind() {
            Io::TimedOut | Io::WouldBlock => ErrorKind::TimedOut,
            Io::UnexpectedEof
            | Io::ConnectionReset
            | Io::ConnectionAborted
            | Io::BrokenPipe
            | Io::NotConnected => ErrorKind::Closed,
            _ => return Error::new(ErrorKind::Io(err), ""),
        };
        let mut e = Error::new(kind, "");
        e.inner.io = Some(err);
        e
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.inner.kind.describe())?;
        match &self.inner.kind {
            ErrorKind::MissingRequiredField {
                struct_name,
                field_name,
            } => write!(f, " `{struct_name}.{field_name}`")?,
            ErrorKind::Io(err) => write!(f, ": {err}")?,
            ErrorKind::LimitExceeded(limit) => write!(f, ": {limit}")?,
            ErrorKind::Application(e) => write!(f, " {}: {}", e.kind, e.message)?,
            ErrorKind::Connect { address, source } => write!(f, " to {address}: {source}")?,
            ErrorKind::Other(e) => write!(f, ": {e}")?,
            _ => {}
        }
        if !self.inner.context.is_empty() {
            write!(f, " ({})", self.inner.context)?;
        } else if let Some(io) = &self.inner.io {
            write!(f, " ({io})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.inner.kind {
            ErrorKind::Io(err) | ErrorKind::Connect { source: err, .. } => Some(err),
            ErrorKind::Application(e) => Some(&**e),
            ErrorKind::Other(e) => Some(&**e),
            _ => self
                .inner
                .io
                .as_ref()
                .map(|e| e as &(dyn std::error::Error + 'static)),
        }
    }
}

impl From<ApplicationException> for Error {
    #[cold]
    fn from(e: ApplicationException) -> Error {
        Error::new(ErrorKind::Application(Box::new(e)), "")
    }
}

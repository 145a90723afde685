//! `TApplicationException`: the struct sent in a message of type
//! [`MessageType::Exception`](crate::MessageType::Exception)
//! (`thrift-rpc.md`, "Response struct"). The type is at the bottom of the crate, so that
//! [`Error`](crate::Error) can hold one; its wire form is in `codec`, its conversion into an
//! `Error` in `error`.

use std::fmt;

/// The `type` field of an [`ApplicationException`]. A plain `i32` so that
/// values unknown to this crate survive a round trip. Printed (`Debug` and `Display`) by
/// its name in Apache's libraries, `UNKNOWN_METHOD`, or by number when it has none.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ApplicationExceptionKind(pub i32);

impl fmt::Debug for ApplicationExceptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "ApplicationExceptionKind({})", self.0),
        }
    }
}

impl fmt::Display for ApplicationExceptionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "{}", self.0),
        }
    }
}

impl ApplicationExceptionKind {
    /// 0: the type from the peer is unknown.
    pub const UNKNOWN: Self = Self(0);
    /// 1: the requested method is unknown to the server.
    pub const UNKNOWN_METHOD: Self = Self(1);
    /// 2: invalid message type.
    pub const INVALID_MESSAGE_TYPE: Self = Self(2);
    /// 3: wrong method name in a reply.
    pub const WRONG_METHOD_NAME: Self = Self(3);
    /// 4: wrong sequence id in a reply.
    pub const BAD_SEQUENCE_ID: Self = Self(4);
    /// 5: a reply had neither a result nor a declared exception.
    pub const MISSING_RESULT: Self = Self(5);
    /// 6: the server failed with an undeclared error.
    pub const INTERNAL_ERROR: Self = Self(6);
    /// 7: decoding failed.
    pub const PROTOCOL_ERROR: Self = Self(7);
    /// 8: invalid transform.
    pub const INVALID_TRANSFORM: Self = Self(8);
    /// 9: invalid protocol.
    pub const INVALID_PROTOCOL: Self = Self(9);
    /// 10: unsupported client type.
    pub const UNSUPPORTED_CLIENT_TYPE: Self = Self(10);

    /// The name of the constant, as Apache's libraries spell it (`UNKNOWN_METHOD`); `None` for
    /// a value none of them defines.
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            0 => "UNKNOWN",
            1 => "UNKNOWN_METHOD",
            2 => "INVALID_MESSAGE_TYPE",
            3 => "WRONG_METHOD_NAME",
            4 => "BAD_SEQUENCE_ID",
            5 => "MISSING_RESULT",
            6 => "INTERNAL_ERROR",
            7 => "PROTOCOL_ERROR",
            8 => "INVALID_TRANSFORM",
            9 => "INVALID_PROTOCOL",
            10 => "UNSUPPORTED_CLIENT_TYPE",
            _ => return None,
        })
    }
}

/// `exception TApplicationException { 1: string message, 2: i32 type }`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ApplicationException {
    /// Human-readable description.
    pub message: String,
    /// What went wrong.
    pub kind: ApplicationExceptionKind,
}

impl ApplicationException {
    /// Creates an exception.
    pub fn new(kind: ApplicationExceptionKind, message: impl Into<String>) -> Self {
        ApplicationException {
            message: message.into(),
            kind,
        }
    }
}

impl fmt::Display for ApplicationException {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "application exception {}: {}", self.kind, self.message)
    }
}

impl std::error::Error for ApplicationException {}

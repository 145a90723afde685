//! Protocol-independent wire vocabulary: type ids, message types and the
//! headers returned by [`crate::ProtocolReader`].

use std::borrow::Cow;

use crate::error::{Error, Result};

/// A Thrift type id as used in field, list, set and map headers.
///
/// The discriminants are the binary protocol's ids; the compact protocol
/// translates to and from its own 4-bit ids internally.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TType {
    /// Marks the end of a struct's fields.
    Stop = 0,
    /// `bool`.
    Bool = 2,
    /// `i8` (`byte`).
    I8 = 3,
    /// `double`.
    Double = 4,
    /// `i16`.
    I16 = 6,
    /// `i32` (and enums).
    I32 = 8,
    /// `i64`.
    I64 = 10,
    /// `string` and `binary`.
    String = 11,
    /// `struct`, `union` and `exception`.
    Struct = 12,
    /// `map`.
    Map = 13,
    /// `set`.
    Set = 14,
    /// `list`.
    List = 15,
    /// `uuid`.
    Uuid = 16,
}

impl TType {
    /// Converts a binary-protocol type id; `None` for unknown ids.
    #[inline]
    pub const fn from_u8(id: u8) -> Option<TType> {
        Some(match id {
            0 => TType::Stop,
            2 => TType::Bool,
            3 => TType::I8,
            4 => TType::Double,
            6 => TType::I16,
            8 => TType::I32,
            10 => TType::I64,
            11 => TType::String,
            12 => TType::Struct,
            13 => TType::Map,
            14 => TType::Set,
            15 => TType::List,
            16 => TType::Uuid,
            _ => return None,
        })
    }

    /// Like [`TType::from_u8`] but an [`ErrorKind::InvalidData`](crate::ErrorKind::InvalidData)
    /// error for unknown ids.
    #[inline]
    pub fn try_from_u8(id: u8) -> Result<TType> {
        match TType::from_u8(id) {
            Some(t) => Ok(t),
            None => Err(Error::invalid_data("unknown type id")),
        }
    }

    /// The binary-protocol id.
    #[inline]
    pub const fn as_u8(self) -> u8 {
        self as u8
    }
}

/// The type of an RPC message.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageType {
    /// A request expecting a reply.
    Call = 1,
    /// A successful reply (the result struct may hold a declared exception).
    Reply = 2,
    /// An `TApplicationException` reply.
    Exception = 3,
    /// A request not expecting a reply.
    Oneway = 4,
}

impl MessageType {
    /// Converts a wire value; `None` unless 1..=4.
    #[inline]
    pub const fn from_u8(v: u8) -> Option<MessageType> {
        Some(match v {
            1 => MessageType::Call,
            2 => MessageType::Reply,
            3 => MessageType::Exception,
            4 => MessageType::Oneway,
            _ => return None,
        })
    }

    /// Like [`MessageType::from_u8`] but an
    /// [`ErrorKind::UnknownMessageType`](crate::ErrorKind::UnknownMessageType) error.
    #[inline]
    pub fn try_from_u8(v: u8) -> Result<MessageType> {
        match MessageType::from_u8(v) {
            Some(t) => Ok(t),
            None => Err(Error::unknown_message_type()),
        }
    }
}

/// A field header. `ttype == TType::Stop` marks the end of the struct (the
/// id is then 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldHeader {
    /// Type of the field's value.
    pub ttype: TType,
    /// Field id from the IDL.
    pub id: i16,
}

impl FieldHeader {
    /// True for the stop field.
    #[inline]
    pub fn is_stop(&self) -> bool {
        self.ttype == TType::Stop
    }
}

/// A list or set header.
///
/// Readers guarantee `len <= max_container_len` and, on slice input,
/// `len <= remaining bytes` (every element takes at least one byte). If
/// `len == 0` the element type may be [`TType::Stop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ListHeader {
    /// Element type.
    pub elem: TType,
    /// Number of elements.
    pub len: usize,
}

/// A map header.
///
/// Same guarantees as [`ListHeader`] (on slice input `2 * len <= remaining`).
/// The compact protocol encodes an empty map without key/value types; the
/// reader then reports both as [`TType::Stop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapHeader {
    /// Key type.
    pub key: TType,
    /// Value type.
    pub value: TType,
    /// Number of key/value pairs.
    pub len: usize,
}

/// A message header. The name borrows from slice input and is owned when
/// read from an [`crate::IoInput`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageHeader<'a> {
    /// Method name.
    pub name: Cow<'a, str>,
    /// Message type.
    pub kind: MessageType,
    /// Sequence id.
    pub seq: i32,
}

/// Opaque state returned by `*_struct_begin` and handed back to
/// `*_struct_end`. The compact protocol keeps the enclosing struct's last
/// field id in it, so nesting needs no heap stack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StructToken(pub(crate) i16);

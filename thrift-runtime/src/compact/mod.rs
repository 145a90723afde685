//! The Thrift compact protocol (`thrift-compact-protocol.md`): zigzag
//! varints, field-id deltas, bools folded into field headers,
//! little-endian doubles.

mod reader;
mod writer;

pub use reader::CompactReader;
pub use writer::CompactWriter;

use crate::error::{Error, Result};
use crate::input::Input;
use crate::limits::ReadLimits;
use crate::output::Output;
use crate::protocol::{Protocol, ProtocolSize};
use crate::varint::{varint_len_u32, varint_len_u64, zigzag32, zigzag64};
use crate::wire::{MessageType, TType};

/// First byte of every compact message header.
pub const PROTOCOL_ID: u8 = 0x82;
/// Compact protocol version (low 5 bits of the second header byte).
pub const VERSION: u8 = 1;

/// Compact type id of `BOOLEAN_TRUE` (field headers; also used for bool
/// list elements, as Apache Thrift does).
pub(crate) const CT_TRUE: u8 = 1;
/// Compact type id of `BOOLEAN_FALSE`.
pub(crate) const CT_FALSE: u8 = 2;

/// The 4-bit compact type id of `ttype`.
#[inline]
pub(crate) const fn compact_type(ttype: TType) -> u8 {
    match ttype {
        TType::Stop => 0,
        TType::Bool => CT_TRUE,
        TType::I8 => 3,
        TType::I16 => 4,
        TType::I32 => 5,
        TType::I64 => 6,
        TType::Double => 7,
        TType::String => 8,
        TType::List => 9,
        TType::Set => 10,
        TType::Map => 11,
        TType::Struct => 12,
        TType::Uuid => 13,
    }
}

/// The [`TType`] of a 4-bit compact type id.
#[inline]
pub(crate) fn ttype_of(ct: u8) -> Result<TType> {
    // A table lookup, not a `match`: the match compiles to a jump table whose indirect jump
    // mispredicts when element types vary (list, set and map headers).
    match TYPE_OF.get(usize::from(ct)) {
        Some(Some(ttype)) => Ok(*ttype),
        _ => Err(Error::invalid_data("unknown compact type id")),
    }
}

/// The wire type of each compact type id; `None` for the ids that are not one.
pub(crate) const TYPE_OF: [Option<TType>; 16] = [
    Some(TType::Stop),
    Some(TType::Bool), // CT_TRUE (1)
    Some(TType::Bool), // CT_FALSE (2)
    Some(TType::I8),
    Some(TType::I16),
    Some(TType::I32),
    Some(TType::I64),
    Some(TType::Double),
    Some(TType::String),
    Some(TType::List),
    Some(TType::Set),
    Some(TType::Map),
    Some(TType::Struct),
    Some(TType::Uuid),
    None,
    None,
];

/// True when a field id delta fits the short (one byte) header form.
#[inline]
pub(crate) fn short_delta(id: i16, prev_id: i16) -> Option<u8> {
    let delta = id as i32 - prev_id as i32;
    if (1..=15).contains(&delta) {
        Some(delta as u8)
    } else {
        None
    }
}

/// Marker type for the compact protocol: `value.encode_to_vec::<Compact>()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Compact;

impl ProtocolSize for Compact {
    #[inline]
    fn message_begin_len(name: &str, _kind: MessageType, seq: i32) -> usize {
        2 + varint_len_u32(seq as u32) + Self::binary_len(name.len())
    }

    #[inline]
    fn field_begin_len(_ttype: TType, id: i16, prev_id: i16) -> usize {
        match short_delta(id, prev_id) {
            Some(_) => 1,
            None => 1 + varint_len_u32(zigzag32(id as i32)),
        }
    }

    #[inline]
    fn bool_field_value_len() -> usize {
        0
    }

    #[inline]
    fn bool_len(_v: bool) -> usize {
        1
    }

    #[inline]
    fn i16_len(v: i16) -> usize {
        varint_len_u32(zigzag32(v as i32))
    }

    #[inline]
    fn i32_len(v: i32) -> usize {
        varint_len_u32(zigzag32(v))
    }

    #[inline]
    fn i64_len(v: i64) -> usize {
        varint_len_u64(zigzag64(v))
    }

    #[inline]
    fn binary_len(len: usize) -> usize {
        varint_len_u64(len as u64) + len
    }

    #[inline]
    fn list_begin_len(_elem: TType, len: usize) -> usize {
        if len < 15 {
            1
        } else {
            1 + varint_len_u64(len as u64)
        }
    }

    #[inline]
    fn map_begin_len(_key: TType, _value: TType, len: usize) -> usize {
        if len == 0 {
            1
        } else {
            varint_len_u64(len as u64) + 1
        }
    }
}

impl Protocol for Compact {
    /// [`PROTOCOL_ID`], the first byte of every compact message.
    const MESSAGE_START: &'static [u8] = &[PROTOCOL_ID];
    const HEADER_PROTOCOL_ID: u64 = 2;
    type Reader<'de, I: Input<'de>> = CompactReader<I>;
    type Writer<O: Output> = CompactWriter<O>;

    #[inline]
    fn reader<'de, I: Input<'de>>(input: I, limits: ReadLimits) -> CompactReader<I> {
        CompactReader::with_limits(input, limits)
    }

    #[inline]
    fn writer<O: Output>(output: O) -> CompactWriter<O> {
        CompactWriter::new(output)
    }
}

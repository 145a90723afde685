//! The Thrift binary protocol (`thrift-binary-protocol.md`): fixed-width
//! big-endian integers and doubles, `i32` length prefixes, strict message
//! headers on write, strict or old-style headers on read.

mod reader;
mod writer;

pub use reader::BinaryReader;
pub use writer::BinaryWriter;

use crate::input::Input;
use crate::limits::ReadLimits;
use crate::output::Output;
use crate::protocol::{Protocol, ProtocolSize};
use crate::wire::{MessageType, TType};

/// Version word of a strict message header (`0x8001_0000 | type`).
pub const VERSION_1: u32 = 0x8001_0000;
/// Mask selecting the version in the first word of a strict header.
pub const VERSION_MASK: u32 = 0xffff_0000;

/// Marker type for the binary protocol: `value.encode_to_vec::<Binary>()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Binary;

impl ProtocolSize for Binary {
    #[inline]
    fn message_begin_len(name: &str, _kind: MessageType, _seq: i32) -> usize {
        4 + 4 + name.len() + 4
    }

    #[inline]
    fn field_begin_len(_ttype: TType, _id: i16, _prev_id: i16) -> usize {
        3
    }

    #[inline]
    fn bool_field_value_len() -> usize {
        1
    }

    #[inline]
    fn bool_len(_v: bool) -> usize {
        1
    }

    #[inline]
    fn i16_len(_v: i16) -> usize {
        2
    }

    #[inline]
    fn i32_len(_v: i32) -> usize {
        4
    }

    #[inline]
    fn i64_len(_v: i64) -> usize {
        8
    }

    #[inline]
    fn binary_len(len: usize) -> usize {
        4 + len
    }

    #[inline]
    fn list_begin_len(_elem: TType, _len: usize) -> usize {
        5
    }

    #[inline]
    fn map_begin_len(_key: TType, _value: TType, _len: usize) -> usize {
        6
    }
}

impl Protocol for Binary {
    /// The high half of [`VERSION_1`]: a strict message header's version word.
    const MESSAGE_START: &'static [u8] = &[0x80, 0x01];
    const HEADER_PROTOCOL_ID: u64 = 0;
    type Reader<'de, I: Input<'de>> = BinaryReader<I>;
    type Writer<O: Output> = BinaryWriter<O>;

    #[inline]
    fn reader<'de, I: Input<'de>>(input: I, limits: ReadLimits) -> BinaryReader<I> {
        BinaryReader::with_limits(input, limits)
    }

    #[inline]
    fn writer<O: Output>(output: O) -> BinaryWriter<O> {
        BinaryWriter::new(output)
    }
}

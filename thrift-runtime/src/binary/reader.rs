//! [`BinaryReader`].

use crate::error::{Error, Result};
use crate::input::Input;
use crate::limits::ReadLimits;
use crate::protocol::ProtocolReader;
use crate::reader_util::{Depth, container_len, cow_to_str, fixed_elements, string_len};
use crate::wire::{
    FieldHeader, ListHeader, MapHeader, MessageHeader, MessageType, StructToken, TType,
};

use super::{VERSION_1, VERSION_MASK};

/// Binary protocol reader over an [`Input`].
///
/// Accepts both strict and old-style (non-strict) message headers unless
/// [`BinaryReader::strict_read`] is set.
#[derive(Debug)]
pub struct BinaryReader<I> {
    input: I,
    limits: ReadLimits,
    depth: Depth,
    strict_read: bool,
}

impl<'de, I: Input<'de>> BinaryReader<I> {
    /// A reader with [`ReadLimits::default`].
    pub fn new(input: I) -> Self {
        Self::with_limits(input, ReadLimits::default())
    }

    /// A reader with the given limits.
    pub fn with_limits(mut input: I, limits: ReadLimits) -> Self {
        input.set_max_message_size(limits.max_message_size);
        BinaryReader {
            input,
            limits,
            depth: Depth::new(limits.max_depth),
            strict_read: false,
        }
    }

    /// Rejects old-style message headers (without version word) when `true`.
    pub fn strict_read(mut self, strict: bool) -> Self {
        self.strict_read = strict;
        self
    }

    /// The limits in force.
    pub fn limits(&self) -> &ReadLimits {
        &self.limits
    }

    /// The underlying input.
    pub fn input(&self) -> &I {
        &self.input
    }

    /// Returns the underlying input.
    pub fn into_input(self) -> I {
        self.input
    }

    #[inline]
    fn read_len(&mut self) -> Result<usize> {
        Self::len_prefix(&mut self.input, &self.limits)
    }

    /// A string's or binary's length prefix (a big-endian `i32`) read from `input`, checked.
    #[inline]
    fn len_prefix(input: &mut impl Input<'de>, limits: &ReadLimits) -> Result<usize> {
        string_len(i32::from_be_bytes(input.read_array::<4>()?), limits)
    }

    #[inline]
    fn read_ttype(&mut self) -> Result<TType> {
        TType::try_from_u8(self.input.read_u8()?)
    }

    #[inline]
    fn read_list_header(&mut self) -> Result<ListHeader> {
        let elem = self.read_ttype()?;
        let raw = self.read_i32()?;
        let len = container_len(raw, &self.limits, self.input.remaining(), 1)?;
        if elem == TType::Stop && len > 0 {
            return Err(Error::invalid_data("list element type stop"));
        }
        self.depth.enter()?;
        Ok(ListHeader { elem, len })
    }
}

impl<'de, I: Input<'de>> ProtocolReader<'de> for BinaryReader<I> {
    fn read_message_begin(&mut self) -> Result<MessageHeader<'de>> {
        let first = self.read_i32()?;
        if first < 0 {
            let word = first as u32;
            if word & VERSION_MASK != VERSION_1 {
                return Err(Error::invalid_data("bad binary protocol version"));
            }
            let kind = MessageType::try_from_u8(word as u8)?;
            let len = self.read_len()?;
            let name = cow_to_str(self.input.read_cow(len)?)?;
            let seq = self.read_i32()?;
            Ok(MessageHeader { name, kind, seq })
        } else {
            if self.strict_read {
                return Err(Error::invalid_data("missing version in message header"));
            }
            let len = string_len(first, &self.limits)?;
            let name = cow_to_str(self.input.read_cow(len)?)?;
            let kind = MessageType::try_from_u8(self.input.read_u8()?)?;
            let seq = self.read_i32()?;
            Ok(MessageHeader { name, kind, seq })
        }
    }

    #[inline]
    fn read_struct_begin(&mut self) -> Result<StructToken> {
        self.depth.enter()?;
        Ok(StructToken::default())
    }

    #[inline]
    fn read_struct_end(&mut self, _token: StructToken) -> Result<()> {
        self.depth.leave();
        Ok(())
    }

    #[inline]
    fn read_field_begin(&mut self) -> Result<FieldHeader> {
        let ttype = self.read_ttype()?;
        if ttype == TType::Stop {
            return Ok(FieldHeader { ttype, id: 0 });
        }
        let id = self.read_i16()?;
        Ok(FieldHeader { ttype, id })
    }

    /// One three-byte comparison with the header `[ttype, id (big-endian)]`.
    #[inline]
    fn read_field_if(&mut self, ttype: TType, id: i16) -> bool {
        let [hi, lo] = id.to_be_bytes();
        self.input.peek_array::<3>() == Some([ttype as u8, hi, lo]) && self.input.skip(3).is_ok()
    }

    #[inline]
    fn read_map_begin(&mut self) -> Result<MapHeader> {
        let key = self.read_ttype()?;
        let value = self.read_ttype()?;
        let raw = self.read_i32()?;
        let len = container_len(raw, &self.limits, self.input.remaining(), 2)?;
        if (key == TType::Stop || value == TType::Stop) && len > 0 {
            return Err(Error::invalid_data("map key or value type stop"));
        }
        self.depth.enter()?;
        Ok(MapHeader { key, value, len })
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool> {
        Ok(self.input.read_u8()? != 0)
    }

    #[inline]
    fn read_i8(&mut self) -> Result<i8> {
        Ok(self.input.read_u8()? as i8)
    }

    #[inline]
    fn read_i16(&mut self) -> Result<i16> {
        Ok(i16::from_be_bytes(self.input.read_array()?))
    }

    #[inline]
    fn read_i32(&mut self) -> Result<i32> {
        Ok(i32::from_be_bytes(self.input.read_array()?))
    }

    #[inline]
    fn read_i64(&mut self) -> Result<i64> {
        Ok(i64::from_be_bytes(self.input.read_array()?))
    }

    #[inline]
    fn read_double(&mut self) -> Result<f64> {
        Ok(f64::from_bits(u64::from_be_bytes(self.input.read_array()?)))
    }

    #[inline]
    fn read_uuid(&mut self) -> Result<[u8; 16]> {
        self.input.read_array()
    }

    #[inline]
    fn read_i32_elements(&mut self, out: &mut [i32]) -> Result<()> {
        fixed_elements(&mut self.input, out, i32::from_be_bytes)
    }

    #[inline]
    fn read_i64_elements(&mut self, out: &mut [i64]) -> Result<()> {
        fixed_elements(&mut self.input, out, i64::from_be_bytes)
    }

    #[inline]
    fn read_double_elements(&mut self, out: &mut [f64]) -> Result<()> {
        fixed_elements(&mut self.input, out, |b| {
            f64::from_bits(u64::from_be_bytes(b))
        })
    }

    crate::reader_util::shared_reads!();
}

//! [`BinaryWriter`].

use crate::error::Result;
use crate::output::Output;
use crate::protocol::{ProtocolWriter, len_to_i32};
use crate::wire::{MessageType, StructToken, TType};

use super::VERSION_1;

/// Binary protocol writer over an [`Output`]. Always writes strict message
/// headers (version word `0x8001_0000 | type`).
#[derive(Debug)]
pub struct BinaryWriter<O> {
    out: O,
}

impl<O: Output> BinaryWriter<O> {
    /// A writer appending to `out`.
    pub fn new(out: O) -> Self {
        BinaryWriter { out }
    }

    /// The underlying output.
    pub fn output(&self) -> &O {
        &self.out
    }

    /// The underlying output, mutably.
    pub fn output_mut(&mut self) -> &mut O {
        &mut self.out
    }

    /// Returns the underlying output.
    pub fn into_output(self) -> O {
        self.out
    }
}

impl<O: Output> BinaryWriter<O> {
    /// A list or set field's header and the collection's header: eight bytes, one word.
    #[inline(always)]
    fn collection_field_begin(
        &mut self,
        ttype: TType,
        id: i16,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        let len = len_to_i32(len)? as u32;
        let word = header(ttype, id) | (elem as u64) << 24 | (len.swap_bytes() as u64) << 32;
        self.out.write_bytes(&word.to_le_bytes())
    }
}

impl<O: Output> ProtocolWriter for BinaryWriter<O> {
    fn write_message_begin(&mut self, name: &str, kind: MessageType, seq: i32) -> Result<()> {
        self.write_i32((VERSION_1 | kind as u32) as i32)?;
        self.write_string(name)?;
        self.write_i32(seq)
    }

    #[inline]
    fn write_struct_begin(&mut self) -> Result<StructToken> {
        Ok(StructToken::default())
    }

    #[inline]
    fn write_struct_end(&mut self, _token: StructToken) -> Result<()> {
        Ok(())
    }

    #[inline]
    fn write_field_begin(&mut self, ttype: TType, id: i16) -> Result<()> {
        let [hi, lo] = id.to_be_bytes();
        self.out.write_bytes(&[ttype as u8, hi, lo])
    }

    #[inline]
    fn write_field_stop(&mut self) -> Result<()> {
        self.out.write_u8(TType::Stop as u8)
    }

    #[inline]
    fn write_list_begin(&mut self, elem: TType, len: usize) -> Result<()> {
        let [a, b, c, d] = len_to_i32(len)?.to_be_bytes();
        self.out.write_bytes(&[elem as u8, a, b, c, d])
    }

    #[inline]
    fn write_set_begin(&mut self, elem: TType, len: usize) -> Result<()> {
        self.write_list_begin(elem, len)
    }

    #[inline]
    fn write_map_begin(&mut self, key: TType, value: TType, len: usize) -> Result<()> {
        let [a, b, c, d] = len_to_i32(len)?.to_be_bytes();
        self.out.write_bytes(&[key as u8, value as u8, a, b, c, d])
    }

    #[inline]
    fn write_bool(&mut self, v: bool) -> Result<()> {
        self.out.write_u8(v as u8)
    }

    #[inline]
    fn write_i8(&mut self, v: i8) -> Result<()> {
        self.out.write_u8(v as u8)
    }

    #[inline]
    fn write_i16(&mut self, v: i16) -> Result<()> {
        self.out.write_bytes(&v.to_be_bytes())
    }

    #[inline]
    fn write_i32(&mut self, v: i32) -> Result<()> {
        self.out.write_bytes(&v.to_be_bytes())
    }

    #[inline]
    fn write_i64(&mut self, v: i64) -> Result<()> {
        self.out.write_bytes(&v.to_be_bytes())
    }

    #[inline]
    fn write_double(&mut self, v: f64) -> Result<()> {
        self.out.write_bytes(&v.to_bits().to_be_bytes())
    }

    #[inline]
    fn write_uuid(&mut self, v: &[u8; 16]) -> Result<()> {
        self.out.write_bytes(v)
    }

    #[inline(always)]
    fn write_string(&mut self, v: &str) -> Result<()> {
        self.write_binary(v.as_bytes())
    }

    #[inline(always)]
    fn write_binary(&mut self, v: &[u8]) -> Result<()> {
        let len = len_to_i32(v.len())? as u32;
        self.out.write_prefixed_data(len.swap_bytes() as u64, 4, v)
    }

    // Whole fields: the three header bytes and the value (or length, or container header)
    // built in one register pair and stored with one capacity check.

    #[inline(always)]
    fn write_i32_field(&mut self, id: i16, _prev_id: Option<i16>, v: i32) -> Result<()> {
        let word = header(TType::I32, id) | ((v as u32).swap_bytes() as u64) << 24;
        self.out.write_small(word as u128, 7)
    }

    #[inline(always)]
    fn write_i64_field(&mut self, id: i16, _prev_id: Option<i16>, v: i64) -> Result<()> {
        let bytes = header(TType::I64, id) as u128 | ((v as u64).swap_bytes() as u128) << 24;
        self.out.write_small(bytes, 11)
    }

    #[inline(always)]
    fn write_double_field(&mut self, id: i16, _prev_id: Option<i16>, v: f64) -> Result<()> {
        let bytes = header(TType::Double, id) as u128 | (v.to_bits().swap_bytes() as u128) << 24;
        self.out.write_small(bytes, 11)
    }

    #[inline(always)]
    fn write_string_field(&mut self, id: i16, prev_id: Option<i16>, v: &str) -> Result<()> {
        self.write_binary_field(id, prev_id, v.as_bytes())
    }

    #[inline(always)]
    fn write_binary_field(&mut self, id: i16, _prev_id: Option<i16>, v: &[u8]) -> Result<()> {
        let len = len_to_i32(v.len())? as u32;
        let prefix = header(TType::String, id) | (len.swap_bytes() as u64) << 24;
        self.out.write_prefixed_data(prefix, 7, v)
    }

    #[inline(always)]
    fn write_list_field_begin(
        &mut self,
        id: i16,
        _prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        self.collection_field_begin(TType::List, id, elem, len)
    }

    #[inline(always)]
    fn write_set_field_begin(
        &mut self,
        id: i16,
        _prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        self.collection_field_begin(TType::Set, id, elem, len)
    }

    #[inline(always)]
    fn write_map_field_begin(
        &mut self,
        id: i16,
        _prev_id: Option<i16>,
        key: TType,
        value: TType,
        len: usize,
    ) -> Result<()> {
        let len = len_to_i32(len)? as u32;
        let bytes = header(TType::Map, id) as u128
            | (key as u128) << 24
            | (value as u128) << 32
            | (len.swap_bytes() as u128) << 40;
        self.out.write_small(bytes, 9)
    }
}

/// A field header (type byte, then the id big-endian) in the low three bytes of a word, in
/// the order they are written.
#[inline]
fn header(ttype: TType, id: i16) -> u64 {
    ttype as u64 | ((id as u16).swap_bytes() as u64) << 8
}

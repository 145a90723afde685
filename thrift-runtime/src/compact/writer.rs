//! [`CompactWriter`].

use crate::error::Result;
use crate::output::Output;
use crate::protocol::{ProtocolWriter, len_to_i32};
use crate::varint::{varint_words, write_varint_u32, write_varint_u64, zigzag32, zigzag64};
use crate::wire::{MessageType, StructToken, TType};

use super::{CT_FALSE, CT_TRUE, PROTOCOL_ID, VERSION, compact_type, short_delta};

/// Compact protocol writer over an [`Output`].
///
/// `write_field_begin(TType::Bool, id)` writes nothing: the header is
/// emitted by the following `write_bool`, with the value folded into the
/// type nibble (as Apache Thrift does).
#[derive(Debug)]
pub struct CompactWriter<O> {
    out: O,
    last_field_id: i16,
    /// Id of a bool field whose header waits for its value.
    pending_bool_field: Option<i16>,
}

impl<O: Output> CompactWriter<O> {
    /// A writer appending to `out`.
    pub fn new(out: O) -> Self {
        CompactWriter {
            out,
            last_field_id: 0,
            pending_bool_field: None,
        }
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

    /// The one-byte header of field `id` of compact type `ct` when its delta from the previous
    /// field (`prev_id` when known, else the last one written) fits in four bits, recording
    /// `id` as the last field; `None` for a long-form header (nothing recorded).
    #[inline(always)]
    fn short_header(&mut self, ct: u8, id: i16, prev_id: Option<i16>) -> Option<u64> {
        debug_assert!(
            prev_id.is_none_or(|prev| prev == self.last_field_id),
            "wrong previous field id"
        );
        let delta = short_delta(id, prev_id.unwrap_or(self.last_field_id))?;
        self.last_field_id = id;
        Some(((delta << 4) | ct) as u64)
    }

    /// A list or set field's header and the collection's header.
    #[inline(always)]
    fn collection_field_begin(
        &mut self,
        ttype: TType,
        id: i16,
        prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        let len = len_to_i32(len)?;
        let ct = compact_type(elem) as u64;
        match self.short_header(compact_type(ttype), id, prev_id) {
            Some(header) if len < 15 => {
                let word = header | ((len as u64) << 4 | ct) << 8;
                self.out.write_small(word as u128, 2)
            }
            Some(header) => {
                let (low, _, n) = varint_words(len as u64);
                let word = header | (0xf0 | ct) << 8 | low << 16;
                self.out.write_small(word as u128, n + 2)
            }
            None => {
                self.write_field_header(compact_type(ttype), id)?;
                self.write_list_begin(elem, len as usize)
            }
        }
    }

    #[inline]
    fn write_field_header(&mut self, ct: u8, id: i16) -> Result<()> {
        match short_delta(id, self.last_field_id) {
            Some(delta) => self.out.write_u8((delta << 4) | ct)?,
            None => {
                self.out.write_u8(ct)?;
                write_varint_u32(&mut self.out, zigzag32(id as i32))?;
            }
        }
        self.last_field_id = id;
        Ok(())
    }
}

impl<O: Output> ProtocolWriter for CompactWriter<O> {
    fn write_message_begin(&mut self, name: &str, kind: MessageType, seq: i32) -> Result<()> {
        self.out
            .write_bytes(&[PROTOCOL_ID, ((kind as u8) << 5) | VERSION])?;
        write_varint_u32(&mut self.out, seq as u32)?;
        self.write_string(name)
    }

    #[inline]
    fn write_struct_begin(&mut self) -> Result<StructToken> {
        let saved = StructToken(self.last_field_id);
        self.last_field_id = 0;
        Ok(saved)
    }

    #[inline]
    fn write_struct_end(&mut self, token: StructToken) -> Result<()> {
        self.last_field_id = token.0;
        Ok(())
    }

    #[inline]
    fn write_field_begin(&mut self, ttype: TType, id: i16) -> Result<()> {
        if ttype == TType::Bool {
            debug_assert!(
                self.pending_bool_field.is_none(),
                "bool field without write_bool"
            );
            self.pending_bool_field = Some(id);
            return Ok(());
        }
        self.write_field_header(compact_type(ttype), id)
    }

    /// With `id` and `prev_id` constants, the short header is a constant byte.
    #[inline]
    fn write_field_begin_after(&mut self, ttype: TType, id: i16, prev_id: i16) -> Result<()> {
        debug_assert_eq!(prev_id, self.last_field_id, "wrong previous field id");
        match short_delta(id, prev_id) {
            Some(delta) if ttype != TType::Bool => {
                self.last_field_id = id;
                self.out.write_u8((delta << 4) | compact_type(ttype))
            }
            _ => self.write_field_begin(ttype, id),
        }
    }

    #[inline]
    fn write_field_stop(&mut self) -> Result<()> {
        self.out.write_u8(0)
    }

    #[inline]
    fn write_list_begin(&mut self, elem: TType, len: usize) -> Result<()> {
        let len = len_to_i32(len)?;
        let ct = compact_type(elem);
        if len < 15 {
            self.out.write_u8(((len as u8) << 4) | ct)
        } else {
            self.out.write_u8(0xf0 | ct)?;
            write_varint_u32(&mut self.out, len as u32)
        }
    }

    #[inline]
    fn write_set_begin(&mut self, elem: TType, len: usize) -> Result<()> {
        self.write_list_begin(elem, len)
    }

    #[inline]
    fn write_map_begin(&mut self, key: TType, value: TType, len: usize) -> Result<()> {
        let len = len_to_i32(len)?;
        if len == 0 {
            return self.out.write_u8(0);
        }
        write_varint_u32(&mut self.out, len as u32)?;
        self.out
            .write_u8((compact_type(key) << 4) | compact_type(value))
    }

    #[inline]
    fn write_bool(&mut self, v: bool) -> Result<()> {
        let ct = if v { CT_TRUE } else { CT_FALSE };
        match self.pending_bool_field.take() {
            Some(id) => self.write_field_header(ct, id),
            None => self.out.write_u8(ct),
        }
    }

    #[inline]
    fn write_i8(&mut self, v: i8) -> Result<()> {
        self.out.write_u8(v as u8)
    }

    #[inline]
    fn write_i16(&mut self, v: i16) -> Result<()> {
        write_varint_u32(&mut self.out, zigzag32(v as i32))
    }

    #[inline]
    fn write_i32(&mut self, v: i32) -> Result<()> {
        write_varint_u32(&mut self.out, zigzag32(v))
    }

    #[inline]
    fn write_i64(&mut self, v: i64) -> Result<()> {
        write_varint_u64(&mut self.out, zigzag64(v))
    }

    #[inline]
    fn write_double(&mut self, v: f64) -> Result<()> {
        self.out.write_bytes(&v.to_bits().to_le_bytes())
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
        let len = len_to_i32(v.len())?;
        let (prefix, _, prefix_len) = varint_words(len as u64);
        self.out.write_prefixed_data(prefix, prefix_len, v)
    }

    // Whole fields: a one-byte header (the id's delta from the previous field fits in four
    // bits, as in most structs) built with the value, length or container header in registers
    // and stored with one capacity check; a long-form header is written as separate calls.

    #[inline(always)]
    fn write_i32_field(&mut self, id: i16, prev_id: Option<i16>, v: i32) -> Result<()> {
        match self.short_header(compact_type(TType::I32), id, prev_id) {
            Some(header) => {
                let (low, _, len) = varint_words(zigzag32(v) as u64);
                self.out.write_small((header | low << 8) as u128, len + 1)
            }
            None => {
                self.write_field_header(compact_type(TType::I32), id)?;
                self.write_i32(v)
            }
        }
    }

    #[inline(always)]
    fn write_i64_field(&mut self, id: i16, prev_id: Option<i16>, v: i64) -> Result<()> {
        match self.short_header(compact_type(TType::I64), id, prev_id) {
            Some(header) => {
                let (low, high, len) = varint_words(zigzag64(v));
                let bytes = (header as u128) | ((low as u128) << 8) | ((high as u128) << 72);
                self.out.write_small(bytes, len + 1)
            }
            None => {
                self.write_field_header(compact_type(TType::I64), id)?;
                self.write_i64(v)
            }
        }
    }

    #[inline(always)]
    fn write_double_field(&mut self, id: i16, prev_id: Option<i16>, v: f64) -> Result<()> {
        match self.short_header(compact_type(TType::Double), id, prev_id) {
            Some(header) => {
                let bytes = (header as u128) | ((v.to_bits() as u128) << 8);
                self.out.write_small(bytes, 9)
            }
            None => {
                self.write_field_header(compact_type(TType::Double), id)?;
                self.write_double(v)
            }
        }
    }

    #[inline(always)]
    fn write_string_field(&mut self, id: i16, prev_id: Option<i16>, v: &str) -> Result<()> {
        self.write_binary_field(id, prev_id, v.as_bytes())
    }

    #[inline(always)]
    fn write_binary_field(&mut self, id: i16, prev_id: Option<i16>, v: &[u8]) -> Result<()> {
        let len = len_to_i32(v.len())?;
        match self.short_header(compact_type(TType::String), id, prev_id) {
            Some(header) => {
                let (low, _, n) = varint_words(len as u64);
                self.out.write_prefixed_data(header | low << 8, n + 1, v)
            }
            None => {
                self.write_field_header(compact_type(TType::String), id)?;
                self.write_binary(v)
            }
        }
    }

    #[inline(always)]
    fn write_list_field_begin(
        &mut self,
        id: i16,
        prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        self.collection_field_begin(TType::List, id, prev_id, elem, len)
    }

    #[inline(always)]
    fn write_set_field_begin(
        &mut self,
        id: i16,
        prev_id: Option<i16>,
        elem: TType,
        len: usize,
    ) -> Result<()> {
        self.collection_field_begin(TType::Set, id, prev_id, elem, len)
    }

    #[inline(always)]
    fn write_map_field_begin(
        &mut self,
        id: i16,
        prev_id: Option<i16>,
        key: TType,
        value: TType,
        len: usize,
    ) -> Result<()> {
        let len = len_to_i32(len)?;
        match self.short_header(compact_type(TType::Map), id, prev_id) {
            // An empty map is one zero byte.
            Some(header) if len == 0 => self.out.write_small(header as u128, 2),
            Some(header) => {
                let (low, _, n) = varint_words(len as u64);
                let types = ((compact_type(key) << 4) | compact_type(value)) as u64;
                self.out
                    .write_small((header | low << 8 | types << (8 * n + 8)) as u128, n + 2)
            }
            None => {
                self.write_field_header(compact_type(TType::Map), id)?;
                self.write_map_begin(key, value, len as usize)
            }
        }
    }
}

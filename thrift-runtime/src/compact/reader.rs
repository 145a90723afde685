//! [`CompactReader`].

use crate::error::{Error, Result};
use crate::input::Input;
use crate::limits::ReadLimits;
use crate::protocol::ProtocolReader;
use crate::reader_util::{Depth, container_len, cow_to_str, fixed_elements, string_len};
use crate::varint::{
    read_varint_u32, read_varint_u64, unzigzag32, unzigzag64, varint_elements, varint_u32_in,
    varint_u64_in,
};
use crate::wire::{
    FieldHeader, ListHeader, MapHeader, MessageHeader, MessageType, StructToken, TType,
};

use super::{CT_FALSE, CT_TRUE, PROTOCOL_ID, TYPE_OF, VERSION, compact_type, ttype_of};

/// Compact protocol reader over an [`Input`].
///
/// The id of the last field read in the current struct is a plain field;
/// `read_struct_begin` hands the enclosing struct's value out in the
/// [`StructToken`] and `read_struct_end` takes it back, so nesting needs no
/// heap stack.
#[derive(Debug)]
pub struct CompactReader<I> {
    input: I,
    limits: ReadLimits,
    depth: Depth,
    last_field_id: i16,
    /// Value of a bool field, decoded from its header, for the next `read_bool`.
    pending_bool: Option<bool>,
}

impl<'de, I: Input<'de>> CompactReader<I> {
    /// A reader with [`ReadLimits::default`].
    pub fn new(input: I) -> Self {
        Self::with_limits(input, ReadLimits::default())
    }

    /// A reader with the given limits.
    pub fn with_limits(mut input: I, limits: ReadLimits) -> Self {
        input.set_max_message_size(limits.max_message_size);
        CompactReader {
            input,
            limits,
            depth: Depth::new(limits.max_depth),
            last_field_id: 0,
            pending_bool: None,
        }
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

    /// A string's or binary's length prefix (a varint) read from `input`, checked.
    #[inline]
    fn len_prefix(input: &mut impl Input<'de>, limits: &ReadLimits) -> Result<usize> {
        string_len(read_varint_u32(input)? as i32, limits)
    }

    #[inline]
    fn read_list_header(&mut self) -> Result<ListHeader> {
        let b = self.input.read_u8()?;
        let elem = ttype_of(b & 0x0f)?;
        let short = b >> 4;
        let raw = if short == 15 {
            read_varint_u32(&mut self.input)? as i32
        } else {
            short as i32
        };
        let len = container_len(raw, &self.limits, self.input.remaining(), 1)?;
        if elem == TType::Stop && len > 0 {
            return Err(Error::invalid_data("list element type stop"));
        }
        self.depth.enter()?;
        Ok(ListHeader { elem, len })
    }

    /// [`ProtocolReader::read_field_if`] with the previous field id `last`.
    #[inline(always)]
    fn field_if_after(&mut self, last: i16, ttype: TType, id: i16) -> bool {
        let delta = id.wrapping_sub(last);
        if !(1..=15).contains(&delta) {
            return false;
        }
        let Some([b]) = self.input.peek_array::<1>() else {
            return false;
        };
        let expected = ((delta as u8) << 4) | compact_type(ttype);
        let pending_bool = if ttype != TType::Bool {
            if b != expected {
                return false;
            }
            None
        } else if b == expected {
            Some(true)
        } else if b == ((delta as u8) << 4) | CT_FALSE {
            Some(false)
        } else {
            return false;
        };
        if self.input.skip(1).is_err() {
            return false;
        }
        self.pending_bool = pending_bool;
        self.last_field_id = id;
        true
    }
}

/// Compact type ids that map to a wire type without state: [`TYPE_OF`] without stop and the
/// two bools.
const PLAIN_TYPES: [Option<TType>; 16] = {
    let mut types = TYPE_OF;
    types[0] = None;
    types[CT_TRUE as usize] = None;
    types[CT_FALSE as usize] = None;
    types
};

impl<'de, I: Input<'de>> CompactReader<I> {
    /// Field headers other than short-delta plain types: stop, bools (the value is in the
    /// header), long-form ids, unknown type ids.
    #[cold]
    #[inline(never)]
    fn read_field_begin_other(&mut self, b: u8) -> Result<FieldHeader> {
        let ct = b & 0x0f;
        if ct == 0 {
            return Ok(FieldHeader {
                ttype: TType::Stop,
                id: 0,
            });
        }
        let delta = b >> 4;
        let id = if delta != 0 {
            self.last_field_id.wrapping_add(delta as i16)
        } else {
            self.read_i16()?
        };
        let ttype = match ct {
            CT_TRUE => {
                self.pending_bool = Some(true);
                TType::Bool
            }
            CT_FALSE => {
                self.pending_bool = Some(false);
                TType::Bool
            }
            _ => {
                // A bool header whose value was never read must not leak
                // into a later `read_bool`.
                self.pending_bool = None;
                ttype_of(ct)?
            }
        };
        self.last_field_id = id;
        Ok(FieldHeader { ttype, id })
    }
}

impl<'de, I: Input<'de>> ProtocolReader<'de> for CompactReader<I> {
    fn read_message_begin(&mut self) -> Result<MessageHeader<'de>> {
        if self.input.read_u8()? != PROTOCOL_ID {
            return Err(Error::invalid_data("bad compact protocol id"));
        }
        let b = self.input.read_u8()?;
        if b & 0x1f != VERSION {
            return Err(Error::invalid_data("bad compact protocol version"));
        }
        let kind = MessageType::try_from_u8(b >> 5)?;
        let seq = read_varint_u32(&mut self.input)? as i32;
        let len = self.read_len()?;
        let name = cow_to_str(self.input.read_cow(len)?)?;
        Ok(MessageHeader { name, kind, seq })
    }

    #[inline]
    fn read_struct_begin(&mut self) -> Result<StructToken> {
        self.depth.enter()?;
        let saved = StructToken(self.last_field_id);
        self.last_field_id = 0;
        Ok(saved)
    }

    #[inline]
    fn read_struct_end(&mut self, token: StructToken) -> Result<()> {
        self.depth.leave();
        self.last_field_id = token.0;
        Ok(())
    }

    #[inline]
    fn read_field_begin(&mut self) -> Result<FieldHeader> {
        let b = self.input.read_u8()?;
        if b == 0 {
            return Ok(FieldHeader {
                ttype: TType::Stop,
                id: 0,
            });
        }
        // The common header: a short delta and a type that is neither stop nor bool (which
        // carry state); everything else takes the out-of-line path.
        let (delta, ct) = (b >> 4, b & 0x0f);
        if delta != 0 && ct > CT_FALSE {
            if let Some(&Some(ttype)) = PLAIN_TYPES.get(usize::from(ct)) {
                self.pending_bool = None;
                let id = self.last_field_id.wrapping_add(i16::from(delta));
                self.last_field_id = id;
                return Ok(FieldHeader { ttype, id });
            }
        }
        self.read_field_begin_other(b)
    }

    /// One byte comparison with the short-form header `delta << 4 | type` (for a `bool` field,
    /// either of its two headers, which carry the value); long-form headers (a delta outside
    /// 1..=15) are left to `read_field_begin`.
    #[inline]
    fn read_field_if(&mut self, ttype: TType, id: i16) -> bool {
        self.field_if_after(self.last_field_id, ttype, id)
    }

    #[inline(always)]
    fn read_field_after(&mut self, ttype: TType, id: i16, prev: i16) -> bool {
        if self.last_field_id == prev {
            // With `prev` a constant, so are the delta and the expected header byte.
            self.field_if_after(prev, ttype, id)
        } else {
            // The field before was absent (or came out of order).
            self.field_if_after(self.last_field_id, ttype, id)
        }
    }

    #[inline]
    fn read_map_begin(&mut self) -> Result<MapHeader> {
        let raw = read_varint_u32(&mut self.input)? as i32;
        let len = container_len(raw, &self.limits, self.input.remaining(), 2)?;
        let (key, value) = if len == 0 {
            (TType::Stop, TType::Stop)
        } else {
            let kv = self.input.read_u8()?;
            let key = ttype_of(kv >> 4)?;
            let value = ttype_of(kv & 0x0f)?;
            if key == TType::Stop || value == TType::Stop {
                return Err(Error::invalid_data("map key or value type stop"));
            }
            (key, value)
        };
        self.depth.enter()?;
        Ok(MapHeader { key, value, len })
    }

    #[inline]
    fn read_bool(&mut self) -> Result<bool> {
        if let Some(v) = self.pending_bool.take() {
            return Ok(v);
        }
        match self.input.read_u8()? {
            CT_TRUE => Ok(true),
            0 | CT_FALSE => Ok(false),
            _ => Err(Error::invalid_data("bad compact bool")),
        }
    }

    #[inline]
    fn read_i8(&mut self) -> Result<i8> {
        Ok(self.input.read_u8()? as i8)
    }

    #[inline]
    fn read_i16(&mut self) -> Result<i16> {
        let v = unzigzag32(read_varint_u32(&mut self.input)?);
        i16::try_from(v).map_err(|_| Error::invalid_data("i16 out of range"))
    }

    #[inline]
    fn read_i32(&mut self) -> Result<i32> {
        Ok(unzigzag32(read_varint_u32(&mut self.input)?))
    }

    #[inline]
    fn read_i64(&mut self) -> Result<i64> {
        Ok(unzigzag64(read_varint_u64(&mut self.input)?))
    }

    #[inline]
    fn read_double(&mut self) -> Result<f64> {
        Ok(f64::from_bits(u64::from_le_bytes(self.input.read_array()?)))
    }

    #[inline]
    fn read_uuid(&mut self) -> Result<[u8; 16]> {
        self.input.read_array()
    }

    #[inline]
    fn read_i32_elements(&mut self, out: &mut [i32]) -> Result<()> {
        varint_elements(
            &mut self.input,
            out,
            |bytes| varint_u32_in(bytes).map(|(v, n)| (unzigzag32(v), n)),
            |input| Ok(unzigzag32(read_varint_u32(input)?)),
        )
    }

    #[inline]
    fn read_i64_elements(&mut self, out: &mut [i64]) -> Result<()> {
        varint_elements(
            &mut self.input,
            out,
            |bytes| varint_u64_in(bytes).map(|(v, n)| (unzigzag64(v), n)),
            |input| Ok(unzigzag64(read_varint_u64(input)?)),
        )
    }

    #[inline]
    fn read_double_elements(&mut self, out: &mut [f64]) -> Result<()> {
        fixed_elements(&mut self.input, out, |b| {
            f64::from_bits(u64::from_le_bytes(b))
        })
    }

    crate::reader_util::shared_reads!();
}

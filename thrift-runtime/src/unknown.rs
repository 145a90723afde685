//! Fields a struct's IDL does not know, kept so that they are written back unchanged: the
//! `unknown_fields` member of types generated with `Builder::keep_unknown_fields`, for proxies
//! and stores that decode and re-encode messages from newer peers.
//!
//! A kept field is held as a [`Value`]: a tree of Thrift values, the same in every protocol.
//! A message read with the compact protocol can be written with the binary one, and two
//! values compare, hash and order like any other field. (Raw bytes of the reading protocol
//! would tie a value to that protocol, and the compact protocol's field headers to the fields
//! around them.) Re-encoding with the protocol it came in gives the same bytes: every field
//! is written back at its place among the known ones, in the order it came in, and containers
//! keep their element order and declared element types.
//!
//! With the option off, a generated struct has no such member and skips unknown fields
//! without allocating.

use crate::codec::capacity_hint;
use crate::error::Result;
use crate::float::OrderedF64;
use crate::protocol::{ProtocolReader, ProtocolSize, ProtocolWriter};
use crate::wire::TType;

/// One Thrift value of any type, as read from the wire without a schema.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    /// `bool`.
    Bool(bool),
    /// `i8` (`byte`).
    I8(i8),
    /// `i16`.
    I16(i16),
    /// `i32`, also enums.
    I32(i32),
    /// `i64`.
    I64(i64),
    /// `double` (ordered by [`f64::total_cmp`], so that a NaN equals itself).
    Double(OrderedF64),
    /// `string` or `binary`: the wire does not tell them apart, so both are bytes (read from
    /// JSON, where a binary is base64 text, the text: [`ProtocolReader::read_raw_string`]).
    Binary(Vec<u8>),
    /// `uuid`.
    Uuid([u8; 16]),
    /// A struct, union or exception: its fields in wire order.
    Struct(Vec<(i16, Value)>),
    /// A list: the element type and the elements.
    List(TType, Vec<Value>),
    /// A set: the element type and the elements, in wire order.
    Set(TType, Vec<Value>),
    /// A map: key and value types and the entries, in wire order.
    Map(TType, TType, Vec<(Value, Value)>),
}

impl Value {
    /// The value's wire type.
    pub fn ttype(&self) -> TType {
        match self {
            Value::Bool(_) => TType::Bool,
            Value::I8(_) => TType::I8,
            Value::I16(_) => TType::I16,
            Value::I32(_) => TType::I32,
            Value::I64(_) => TType::I64,
            Value::Double(_) => TType::Double,
            Value::Binary(_) => TType::String,
            Value::Uuid(_) => TType::Uuid,
            Value::Struct(_) => TType::Struct,
            Value::List(..) => TType::List,
            Value::Set(..) => TType::Set,
            Value::Map(..) => TType::Map,
        }
    }

    /// Reads one value of type `ttype`. Nesting goes through the reader's `*_begin` calls,
    /// which enforce the depth limit, and container counts were checked against the input
    /// by the reader before anything is reserved.
    pub fn read<'de, R: ProtocolReader<'de>>(r: &mut R, ttype: TType) -> Result<Value> {
        Ok(match ttype {
            TType::Bool => Value::Bool(r.read_bool()?),
            TType::I8 => Value::I8(r.read_i8()?),
            TType::I16 => Value::I16(r.read_i16()?),
            TType::I32 => Value::I32(r.read_i32()?),
            TType::I64 => Value::I64(r.read_i64()?),
            TType::Double => Value::Double(OrderedF64(r.read_double()?)),
            TType::String => Value::Binary(r.read_raw_string()?),
            TType::Uuid => Value::Uuid(r.read_uuid()?),
            TType::Struct => {
                let token = r.read_struct_begin()?;
                let mut fields = Vec::new();
                loop {
                    let field = r.read_field_begin()?;
                    if field.is_stop() {
                        break;
                    }
                    fields.push((field.id, Value::read(r, field.ttype)?));
                    r.read_field_end()?;
                }
                r.read_struct_end(token)?;
                Value::Struct(fields)
            }
            TType::List | TType::Set => {
                let header = if ttype == TType::List {
                    r.read_list_begin()?
                } else {
                    r.read_set_begin()?
                };
                let mut items = Vec::with_capacity(capacity_hint::<Value>(header.len));
                for _ in 0..header.len {
                    items.push(Value::read(r, header.elem)?);
                }
                if ttype == TType::List {
                    r.read_list_end()?;
                    Value::List(header.elem, items)
                } else {
                    r.read_set_end()?;
                    Value::Set(header.elem, items)
                }
            }
            TType::Map => {
                let header = r.read_map_begin()?;
                let mut entries = Vec::with_capacity(capacity_hint::<(Value, Value)>(header.len));
                for _ in 0..header.len {
                    let key = Value::read(r, header.key)?;
                    let value = Value::read(r, header.value)?;
                    entries.push((key, value));
                }
                r.read_map_end()?;
                Value::Map(header.key, header.value, entries)
            }
            TType::Stop => {
                return Err(crate::error::Error::invalid_data(
                    "a value cannot have type stop",
                ));
            }
        })
    }

    /// Writes the value. A container's elements must all have its declared type (they do
    /// when the value was read); otherwise the output is not valid Thrift.
    pub fn write<W: ProtocolWriter>(&self, w: &mut W) -> Result<()> {
        match self {
            Value::Bool(v) => w.write_bool(*v),
            Value::I8(v) => w.write_i8(*v),
            Value::I16(v) => w.write_i16(*v),
            Value::I32(v) => w.write_i32(*v),
            Value::I64(v) => w.write_i64(*v),
            Value::Double(v) => w.write_double(v.0),
            Value::Binary(v) => w.write_raw_string(v),
            Value::Uuid(v) => w.write_uuid(v),
            Value::Struct(fields) => {
                let token = w.write_struct_begin()?;
                for (id, value) in fields {
                    w.write_field_begin(value.ttype(), *id)?;
                    value.write(w)?;
                    w.write_field_end()?;
                }
                w.write_field_stop()?;
                w.write_struct_end(token)
            }
            Value::List(elem, items) => {
                w.write_list_begin(*elem, items.len())?;
                items.iter().try_for_each(|item| item.write(w))?;
                w.write_list_end()
            }
            Value::Set(elem, items) => {
                w.write_set_begin(*elem, items.len())?;
                items.iter().try_for_each(|item| item.write(w))?;
                w.write_set_end()
            }
            Value::Map(key, value, entries) => {
                w.write_map_begin(*key, *value, entries.len())?;
                for (k, v) in entries {
                    k.write(w)?;
                    v.write(w)?;
                }
                w.write_map_end()
            }
        }
    }

    /// The value's encoded size under protocol `P`, as [`Value::write`] writes it.
    pub fn encoded_len<P: ProtocolSize>(&self) -> usize {
        match self {
            Value::Bool(v) => P::bool_len(*v),
            Value::I8(v) => P::i8_len(*v),
            Value::I16(v) => P::i16_len(*v),
            Value::I32(v) => P::i32_len(*v),
            Value::I64(v) => P::i64_len(*v),
            Value::Double(v) => P::double_len(v.0),
            Value::Binary(v) => P::raw_string_len(v.len()),
            Value::Uuid(v) => P::uuid_len(v),
            Value::Struct(fields) => {
                let mut prev = 0;
                let mut len = P::struct_begin_len();
                for (id, value) in fields {
                    len += field_len::<P>(*id, value, prev);
                    prev = *id;
                }
                len + P::field_stop_len() + P::struct_end_len()
            }
            Value::List(elem, items) => {
                P::list_begin_len(*elem, items.len())
                    + items.iter().map(Value::encoded_len::<P>).sum::<usize>()
            }
            Value::Set(elem, items) => {
                P::set_begin_len(*elem, items.len())
                    + items.iter().map(Value::encoded_len::<P>).sum::<usize>()
            }
            Value::Map(key, value, entries) => {
                P::map_begin_len(*key, *value, entries.len())
                    + entries
                        .iter()
                        .map(|(k, v)| k.encoded_len::<P>() + v.encoded_len::<P>())
                        .sum::<usize>()
            }
        }
    }
}

/// A field's size: header after `prev` and value (a `bool` field's value may live in its
/// header, as in the compact protocol).
fn field_len<P: ProtocolSize>(id: i16, value: &Value, prev: i16) -> usize {
    let value_len = match value {
        Value::Bool(_) => P::bool_field_value_len(),
        other => other.encoded_len::<P>(),
    };
    P::field_begin_len(value.ttype(), id, prev) + value_len
}

/// A kept field: its id and value, and where it came among the known fields.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Kept {
    /// How many known fields (in the order generated code writes them, by id) came before
    /// it; [`UnknownFields::END`] after all of them, and for fields added by
    /// [`UnknownFields::push`].
    after: u16,
    id: i16,
    value: Value,
}

/// The fields of one struct value that its IDL does not know, in the order they came in
/// (see the [module](self) documentation). Empty by default; `Debug`, `Clone`, equality,
/// order and hash compare the fields and where they sit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnknownFields {
    fields: Vec<Kept>,
}

impl UnknownFields {
    /// Where [`UnknownFields::push`] puts a field: after every known field.
    const END: u16 = u16::MAX;

    /// No fields.
    pub const fn new() -> Self {
        UnknownFields { fields: Vec::new() }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// How many fields are kept.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// The kept fields' ids and values, in order.
    pub fn iter(&self) -> impl Iterator<Item = (i16, &Value)> + '_ {
        self.fields.iter().map(|kept| (kept.id, &kept.value))
    }

    /// The value of the first kept field with this id.
    pub fn get(&self, id: i16) -> Option<&Value> {
        self.fields
            .iter()
            .find(|kept| kept.id == id)
            .map(|kept| &kept.value)
    }

    /// Adds a field, written after the known ones.
    pub fn push(&mut self, id: i16, value: Value) {
        self.fields.push(Kept {
            after: Self::END,
            id,
            value,
        });
    }

    /// Removes every field.
    pub fn clear(&mut self) {
        self.fields.clear();
    }

    /// Reads the value of a field the generated decoder does not know (`id`, `ttype`: its
    /// header, already read), which came after `after` known fields (`u16::MAX`: after all of
    /// them). Called by generated code.
    #[doc(hidden)]
    pub fn read_field<'de, R: ProtocolReader<'de>>(
        &mut self,
        r: &mut R,
        id: i16,
        ttype: TType,
        after: u16,
    ) -> Result<()> {
        let value = Value::read(r, ttype)?;
        self.fields.push(Kept { after, id, value });
        Ok(())
    }

    /// Orders the fields by where they go among the known ones, keeping their order within
    /// each place: the order encoding writes them in, so that decoding what was encoded gives
    /// the same value even when the input had known fields out of order or twice. Called by
    /// generated code at the end of a struct; costs one pass when the fields are in order.
    #[doc(hidden)]
    pub fn settle(&mut self) {
        if self
            .fields
            .windows(2)
            .any(|pair| pair[0].after > pair[1].after)
        {
            self.fields.sort_by_key(|kept| kept.after);
        }
    }

    /// Writes the fields that came after `known` known fields (all from `known` on when
    /// `last`: the fields before the stop). Called by generated code before each known field
    /// and before the stop field.
    #[doc(hidden)]
    #[inline]
    pub fn write_at<W: ProtocolWriter>(&self, w: &mut W, known: u16, last: bool) -> Result<()> {
        if self.fields.is_empty() {
            return Ok(());
        }
        for kept in self.at(known, last) {
            w.write_field_begin(kept.value.ttype(), kept.id)?;
            kept.value.write(w)?;
            w.write_field_end()?;
        }
        Ok(())
    }

    /// The encoded size under `P` of what [`UnknownFields::write_at`] writes, `prev` being
    /// the id of the field written before (updated to the last one written). Called by
    /// generated code.
    #[doc(hidden)]
    #[inline]
    pub fn len_at<P: ProtocolSize>(&self, known: u16, last: bool, prev: &mut i16) -> usize {
        if self.fields.is_empty() {
            return 0;
        }
        let mut len = 0;
        for kept in self.at(known, last) {
            len += field_len::<P>(kept.id, &kept.value, *prev);
            *prev = kept.id;
        }
        len
    }

    fn at(&self, known: u16, last: bool) -> impl Iterator<Item = &Kept> + '_ {
        self.fields
            .iter()
            .filter(move |kept| kept.after == known || (last && kept.after > known))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::Binary;
    use crate::compact::Compact;
    use crate::input::SliceInput;
    use crate::limits::ReadLimits;
    use crate::protocol::Protocol;

    fn sample() -> Value {
        Value::Struct(vec![
            (1, Value::Bool(true)),
            (-7, Value::Binary(b"x".to_vec())),
            (
                40,
                Value::Map(
                    TType::I32,
                    TType::List,
                    vec![(
                        Value::I32(3),
                        Value::List(TType::Double, vec![Value::Double(OrderedF64(f64::NAN))]),
                    )],
                ),
            ),
            (2, Value::Set(TType::Bool, vec![Value::Bool(false)])),
            (3, Value::Uuid([7; 16])),
            (4, Value::Struct(vec![])),
        ])
    }

    fn round_trip<P: Protocol>() {
        let value = sample();
        let mut bytes = Vec::new();
        value.write(&mut P::writer(&mut bytes)).unwrap();
        assert_eq!(bytes.len(), value.encoded_len::<P>());
        let mut r = P::reader(SliceInput::new(&bytes), ReadLimits::default());
        assert_eq!(Value::read(&mut r, TType::Struct).unwrap(), value);
    }

    #[test]
    fn values_round_trip_in_both_protocols() {
        round_trip::<Binary>();
        round_trip::<Compact>();
    }

    #[test]
    fn fields_are_written_where_they_came() {
        let mut fields = UnknownFields::new();
        let mut r = Binary::reader(SliceInput::new(&[0, 0, 0, 5]), ReadLimits::default());
        fields.read_field(&mut r, 9, TType::I32, 1).unwrap();
        fields.push(10, Value::I8(1));
        // Out of place (as after a known field seen twice): settled where encoding puts it.
        fields
            .read_field(
                &mut Binary::reader(SliceInput::new(&[3]), ReadLimits::default()),
                8,
                TType::I8,
                0,
            )
            .unwrap();
        fields.settle();
        assert_eq!(
            fields.iter().map(|(id, _)| id).collect::<Vec<_>>(),
            [8, 9, 10]
        );
        fields.fields.remove(0);
        let mut before = Vec::new();
        fields
            .write_at(&mut Binary::writer(&mut before), 0, false)
            .unwrap();
        assert!(before.is_empty());
        let mut at_one = Vec::new();
        fields
            .write_at(&mut Binary::writer(&mut at_one), 1, false)
            .unwrap();
        assert_eq!(at_one, [8, 0, 9, 0, 0, 0, 5]);
        let mut tail = Vec::new();
        fields
            .write_at(&mut Binary::writer(&mut tail), 2, true)
            .unwrap();
        assert_eq!(tail, [3, 0, 10, 1]);
        let mut prev = 0;
        assert_eq!(fields.len_at::<Compact>(2, true, &mut prev), 2);
        assert_eq!(prev, 10);
        assert_eq!(fields.get(9), Some(&Value::I32(5)));
    }

    #[test]
    fn hostile_input_is_an_error() {
        // A list announcing more elements than the input holds, and nesting past the limit.
        let mut r = Binary::reader(SliceInput::new(&[8, 0x7f, 0, 0, 0]), ReadLimits::default());
        assert!(Value::read(&mut r, TType::List).is_err());
        let deep = [0x0f_u8, 0x0f, 0, 0, 0, 1].repeat(100);
        let mut r = Binary::reader(SliceInput::new(&deep), ReadLimits::default());
        assert!(Value::read(&mut r, TType::List).is_err());
        let mut r = Binary::reader(SliceInput::new(&[]), ReadLimits::default());
        assert!(Value::read(&mut r, TType::Stop).is_err());
    }
}

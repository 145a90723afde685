//! [`JsonWriter`].

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::output::Output;
use crate::protocol::{ProtocolWriter, len_to_i32};
use crate::wire::{MessageType, StructToken, TType};

use super::{VERSION, base64_encode, format_double, special_double, type_name};

/// Where the writer is: what separates the next value from the one before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Level {
    /// A message's array, after its header (the header wrote the comma).
    Message,
    /// A struct's object: field headers, separated by commas.
    Struct { first: bool },
    /// A field's object, after `"type":`: its one value.
    Field,
    /// A list's or set's array, after its header: a comma before each element.
    List,
    /// A map's object: keys (quoted when numbers) and values, `:` and `,` between them.
    Map { first: bool, key: bool },
}

/// JSON protocol writer over an [`Output`] ([`crate::json`] says what it writes).
///
/// It keeps the nesting it is in (to know where commas, colons and quoted keys go) inline
/// for 16 levels, on the heap beyond.
#[derive(Debug)]
pub struct JsonWriter<O> {
    out: O,
    levels: SmallVec<[Level; 16]>,
}

impl<O: Output> JsonWriter<O> {
    /// A writer appending to `out`.
    pub fn new(out: O) -> Self {
        JsonWriter {
            out,
            levels: SmallVec::new(),
        }
    }

    /// Returns the output.
    pub fn into_output(self) -> O {
        self.out
    }

    /// Writes what comes before a value where the writer is; whether the value is a map key
    /// (numbers are then quoted).
    #[inline]
    fn before_value(&mut self) -> Result<bool> {
        match self.levels.last_mut() {
            Some(Level::List) => self.out.write_u8(b',').map(|()| false),
            Some(Level::Map { first, key }) => {
                if *key {
                    *key = false;
                    if !std::mem::replace(first, false) {
                        self.out.write_u8(b',')?;
                    }
                    Ok(true)
                } else {
                    *key = true;
                    self.out.write_u8(b':').map(|()| false)
                }
            }
            Some(Level::Message | Level::Field | Level::Struct { .. }) | None => Ok(false),
        }
    }

    fn end(&mut self, expected: fn(&Level) -> bool, close: &[u8]) -> Result<()> {
        match self.levels.pop() {
            Some(level) if expected(&level) => self.out.write_bytes(close),
            _ => Err(Error::invalid_data("JSON writer: an end without its begin")),
        }
    }

    fn integer(&mut self, v: i64) -> Result<()> {
        let quoted = self.before_value()?;
        let mut buf = itoa_buf();
        let text = itoa(v, &mut buf);
        if quoted {
            self.out.write_u8(b'"')?;
            self.out.write_bytes(text)?;
            self.out.write_u8(b'"')
        } else {
            self.out.write_bytes(text)
        }
    }

    /// A JSON string: quotes, and `"` `\` and control characters escaped.
    fn string(&mut self, v: &[u8]) -> Result<()> {
        self.before_value()?;
        self.out.write_u8(b'"')?;
        let mut start = 0;
        for (i, &b) in v.iter().enumerate() {
            let short = match b {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x0c => b'f',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                0..=0x1f => 0,
                _ => continue,
            };
            self.out.write_data(&v[start..i])?;
            if short == 0 {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                self.out.write_bytes(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ])?;
            } else {
                self.out.write_bytes(&[b'\\', short])?;
            }
            start = i + 1;
        }
        self.out.write_data(&v[start..])?;
        self.out.write_u8(b'"')
    }
}

fn itoa_buf() -> [u8; 20] {
    [0; 20]
}

/// The decimal text of `v` in `buf`.
fn itoa(v: i64, buf: &mut [u8; 20]) -> &[u8] {
    let mut n = v.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    &buf[at..]
}

impl<O: Output> ProtocolWriter for JsonWriter<O> {
    fn write_message_begin(&mut self, name: &str, kind: MessageType, seq: i32) -> Result<()> {
        self.levels.clear();
        self.out.write_u8(b'[')?;
        self.integer(VERSION)?;
        self.out.write_u8(b',')?;
        self.string(name.as_bytes())?;
        self.out.write_u8(b',')?;
        self.integer(kind as i64)?;
        self.out.write_u8(b',')?;
        self.integer(seq.into())?;
        // The comma before the body: a body encoded on its own follows the header as is.
        self.out.write_u8(b',')?;
        self.levels.push(Level::Message);
        Ok(())
    }

    /// Closes the message's array (also for a header written by another writer, whose body
    /// was encoded on its own).
    fn write_message_end(&mut self) -> Result<()> {
        if self.levels.last() == Some(&Level::Message) {
            self.levels.pop();
        }
        self.out.write_u8(b']')
    }

    fn write_struct_begin(&mut self) -> Result<StructToken> {
        self.before_value()?;
        self.out.write_u8(b'{')?;
        self.levels.push(Level::Struct { first: true });
        Ok(StructToken::default())
    }

    fn write_struct_end(&mut self, _token: StructToken) -> Result<()> {
        self.end(|l| matches!(l, Level::Struct { .. }), b"}")
    }

    fn write_field_begin(&mut self, ttype: TType, id: i16) -> Result<()> {
        let Some(Level::Struct { first }) = self.levels.last_mut() else {
            return Err(Error::invalid_data("JSON writer: a field outside a struct"));
        };
        if !std::mem::replace(first, false) {
            self.out.write_u8(b',')?;
        }
        let mut buf = itoa_buf();
        self.out.write_u8(b'"')?;
        self.out.write_bytes(itoa(id.into(), &mut buf))?;
        self.out.write_bytes(b"\":{\"")?;
        self.out.write_bytes(type_name(ttype))?;
        self.out.write_bytes(b"\":")?;
        self.levels.push(Level::Field);
        Ok(())
    }

    fn write_field_end(&mut self) -> Result<()> {
        self.end(|l| *l == Level::Field, b"}")
    }

    fn write_field_stop(&mut self) -> Result<()> {
        Ok(())
    }

    fn write_list_begin(&mut self, elem: TType, len: usize) -> Result<()> {
        let len = len_to_i32(len)?;
        self.before_value()?;
        self.out.write_bytes(b"[\"")?;
        self.out.write_bytes(type_name(elem))?;
        self.out.write_bytes(b"\",")?;
        let mut buf = itoa_buf();
        self.out.write_bytes(itoa(len.into(), &mut buf))?;
        self.levels.push(Level::List);
        Ok(())
    }

    fn write_list_end(&mut self) -> Result<()> {
        self.end(|l| *l == Level::List, b"]")
    }

    fn write_set_begin(&mut self, elem: TType, len: usize) -> Result<()> {
        self.write_list_begin(elem, len)
    }

    fn write_set_end(&mut self) -> Result<()> {
        self.write_list_end()
    }

    fn write_map_begin(&mut self, key: TType, value: TType, len: usize) -> Result<()> {
        let len = len_to_i32(len)?;
        self.before_value()?;
        self.out.write_bytes(b"[\"")?;
        self.out.write_bytes(type_name(key))?;
        self.out.write_bytes(b"\",\"")?;
        self.out.write_bytes(type_name(value))?;
        self.out.write_bytes(b"\",")?;
        let mut buf = itoa_buf();
        self.out.write_bytes(itoa(len.into(), &mut buf))?;
        self.out.write_bytes(b",{")?;
        self.levels.push(Level::Map {
            first: true,
            key: true,
        });
        Ok(())
    }

    fn write_map_end(&mut self) -> Result<()> {
        self.end(|l| matches!(l, Level::Map { .. }), b"}]")
    }

    fn write_bool(&mut self, v: bool) -> Result<()> {
        self.integer(v.into())
    }

    fn write_i8(&mut self, v: i8) -> Result<()> {
        self.integer(v.into())
    }

    fn write_i16(&mut self, v: i16) -> Result<()> {
        self.integer(v.into())
    }

    fn write_i32(&mut self, v: i32) -> Result<()> {
        self.integer(v.into())
    }

    fn write_i64(&mut self, v: i64) -> Result<()> {
        self.integer(v)
    }

    fn write_double(&mut self, v: f64) -> Result<()> {
        let quoted = self.before_value()?;
        let mut buf = [0u8; 32];
        let (text, quoted) = match format_double(v, &mut buf) {
            Some(n) => (&buf[..n], quoted),
            // NaN and the infinities are strings, keys or not.
            None => (special_double(v), true),
        };
        if quoted {
            self.out.write_u8(b'"')?;
            self.out.write_bytes(text)?;
            self.out.write_u8(b'"')
        } else {
            self.out.write_bytes(text)
        }
    }

    fn write_uuid(&mut self, v: &[u8; 16]) -> Result<()> {
        self.before_value()?;
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut text = [0u8; 38];
        text[0] = b'"';
        let mut at = 1;
        for (i, &b) in v.iter().enumerate() {
            if matches!(i, 4 | 6 | 8 | 10) {
                text[at] = b'-';
                at += 1;
            }
            text[at] = HEX[usize::from(b >> 4)];
            text[at + 1] = HEX[usize::from(b & 15)];
            at += 2;
        }
        text[37] = b'"';
        self.out.write_bytes(&text)
    }

    fn write_string(&mut self, v: &str) -> Result<()> {
        len_to_i32(v.len())?;
        self.string(v.as_bytes())
    }

    /// The text as a string: what `read_raw_string` read (a binary's base64 included).
    fn write_raw_string(&mut self, v: &[u8]) -> Result<()> {
        len_to_i32(v.len())?;
        self.string(v)
    }

    fn write_binary(&mut self, v: &[u8]) -> Result<()> {
        len_to_i32(v.len())?;
        self.before_value()?;
        self.out.write_u8(b'"')?;
        base64_encode(v, |part| self.out.write_bytes(part))?;
        self.out.write_u8(b'"')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_print_as_decimal() {
        for v in [0, 1, -1, 9, 10, -10, i64::MAX, i64::MIN, 1234567890] {
            let mut buf = itoa_buf();
            assert_eq!(itoa(v, &mut buf), v.to_string().as_bytes());
            assert_eq!(super::super::decimal_len(v), v.to_string().len());
        }
    }
}

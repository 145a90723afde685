//! [`JsonReader`].

use std::borrow::Cow;

use bytes::Bytes;
use bytestring::ByteString;
use smallvec::SmallVec;

use crate::error::{Error, ErrorKind, Result};
use crate::input::Input;
use crate::limits::{Limit, ReadLimits};
use crate::protocol::ProtocolReader;
use crate::reader_util::{Depth, byte_string, container_len, cow_to_str, cow_to_string, utf8};
use crate::wire::{
    FieldHeader, ListHeader, MapHeader, MessageHeader, MessageType, StructToken, TType,
};

use super::writer::Level;
use super::{VERSION, base64_decode, ttype_of};

/// JSON protocol reader over an [`Input`] ([`crate::json`] says what it reads).
///
/// From a slice, strings without escapes are found and lent in one scan; from an
/// [`IoInput`](crate::IoInput), the reader goes byte by byte. Hostile input gives errors:
/// nesting is bounded by `max_depth`, strings by `max_string_len` (counted in input bytes),
/// container counts by `max_container_len` and by what the input can hold.
#[derive(Debug)]
pub struct JsonReader<I> {
    input: I,
    limits: ReadLimits,
    depth: Depth,
    levels: SmallVec<[Level; 16]>,
    /// A byte looked at and not consumed.
    peeked: Option<u8>,
}

/// Longest number token read (digits, sign, point, exponent): longer is an error.
const MAX_NUMBER: usize = 40;

impl<'de, I: Input<'de>> JsonReader<I> {
    /// A reader with [`ReadLimits::default`].
    pub fn new(input: I) -> Self {
        Self::with_limits(input, ReadLimits::default())
    }

    /// A reader with the given limits.
    pub fn with_limits(mut input: I, limits: ReadLimits) -> Self {
        input.set_max_message_size(limits.max_message_size);
        JsonReader {
            input,
            limits,
            depth: Depth::new(limits.max_depth),
            levels: SmallVec::new(),
            peeked: None,
        }
    }

    /// The limits in force.
    pub fn limits(&self) -> &ReadLimits {
        &self.limits
    }

    /// The underlying input. A byte the reader looked at without consuming it is not in it
    /// any more: after a whole value, there is none.
    pub fn input(&self) -> &I {
        &self.input
    }

    /// Returns the underlying input.
    pub fn into_input(self) -> I {
        self.input
    }

    #[inline]
    fn next(&mut self) -> Result<u8> {
        match self.peeked.take() {
            Some(b) => Ok(b),
            None => self.input.read_u8(),
        }
    }

    #[inline]
    fn peek(&mut self) -> Result<u8> {
        match self.peeked {
            Some(b) => Ok(b),
            None => {
                let b = self.input.read_u8()?;
                self.peeked = Some(b);
                Ok(b)
            }
        }
    }

    /// The next byte that is not JSON whitespace, not consumed.
    #[inline]
    fn peek_token(&mut self) -> Result<u8> {
        loop {
            let b = self.peek()?;
            if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                return Ok(b);
            }
            self.peeked = None;
        }
    }

    #[inline]
    fn expect(&mut self, c: u8) -> Result<()> {
        if self.peek_token()? == c {
            self.peeked = None;
            Ok(())
        } else {
            Err(unexpected(c))
        }
    }

    /// Reads what comes before a value where the reader is; whether the value is a map key
    /// (numbers are then quoted).
    #[inline]
    fn before_value(&mut self) -> Result<bool> {
        match self.levels.last_mut() {
            Some(Level::List) => self.expect(b',').map(|()| false),
            Some(Level::Map { first, key }) => {
                if *key {
                    *key = false;
                    if !std::mem::replace(first, false) {
                        self.expect(b',')?;
                    }
                    Ok(true)
                } else {
                    *key = true;
                    self.expect(b':').map(|()| false)
                }
            }
            Some(Level::Message | Level::Field | Level::Struct { .. }) | None => Ok(false),
        }
    }

    fn end(&mut self, expected: fn(&Level) -> bool, close: &[u8]) -> Result<()> {
        match self.levels.pop() {
            Some(level) if expected(&level) => {
                for &c in close {
                    self.expect(c)?;
                }
                Ok(())
            }
            _ => Err(Error::invalid_data("JSON reader: an end without its begin")),
        }
    }

    /// A number's characters (and, with `words`, letters: `NaN`, `Infinity`), up to the first
    /// other byte, into `buf`.
    fn number_token<'b>(&mut self, buf: &'b mut [u8; MAX_NUMBER], words: bool) -> Result<&'b [u8]> {
        self.peek_token()?;
        let mut len = 0;
        loop {
            let b = match self.peek() {
                Ok(b) => b,
                // A number alone (no message, struct or container around it) ends with the
                // input; inside one, the input ending means more is to come.
                Err(e)
                    if len > 0
                        && self.levels.is_empty()
                        && matches!(e.kind(), ErrorKind::UnexpectedEof) =>
                {
                    break;
                }
                Err(e) => return Err(e),
            };
            let part = matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                || (words && b.is_ascii_alphabetic());
            if !part {
                break;
            }
            if len == MAX_NUMBER {
                return Err(Error::invalid_data("JSON: number too long"));
            }
            buf[len] = b;
            len += 1;
            self.peeked = None;
        }
        if len == 0 {
            return Err(Error::invalid_data("JSON: expected a number"));
        }
        Ok(&buf[..len])
    }

    /// An integer: quoted as a map key (or anywhere, as some writers do), or not.
    fn integer(&mut self) -> Result<i64> {
        let key = self.before_value()?;
        self.bare_integer(key)
    }

    fn bare_integer(&mut self, quoted: bool) -> Result<i64> {
        let quoted = quoted || self.peek_token()? == b'"';
        if quoted {
            self.expect(b'"')?;
        }
        let mut buf = [0u8; MAX_NUMBER];
        let text = self.number_token(&mut buf, false)?;
        let v = std::str::from_utf8(text)
            .ok()
            .and_then(|t| t.parse::<i64>().ok())
            .ok_or_else(|| Error::invalid_data("JSON: not an integer"))?;
        if quoted {
            self.expect(b'"')?;
        }
        Ok(v)
    }

    fn narrow<T: TryFrom<i64>>(&mut self) -> Result<T> {
        let v = self.integer()?;
        T::try_from(v).map_err(|_| Error::invalid_data("JSON: integer out of range"))
    }

    /// A string's bytes, escapes decoded; the opening quote is read here. Lent by the input
    /// when it has no escapes and the input can lend.
    fn string_bytes(&mut self) -> Result<Cow<'de, [u8]>> {
        self.expect(b'"')?;
        if let Some(n) = self.plain_string_len()? {
            let bytes = self.input.read_cow(n)?;
            self.input.skip(1)?;
            return Ok(bytes);
        }
        self.decode_string().map(Cow::Owned)
    }

    /// The same as [`string_bytes`](Self::string_bytes), as a shared buffer: a slice of a
    /// [`BytesInput`](crate::BytesInput)'s buffer when there are no escapes.
    fn string_shared(&mut self) -> Result<Bytes> {
        self.expect(b'"')?;
        if let Some(n) = self.plain_string_len()? {
            let bytes = self.input.read_shared(n)?;
            self.input.skip(1)?;
            return Ok(bytes);
        }
        self.decode_string().map(Bytes::from)
    }

    /// After an opening quote: the length of the string up to its closing quote when the
    /// input shows it (a slice) and it holds no escape; `None` otherwise.
    fn plain_string_len(&mut self) -> Result<Option<usize>> {
        if self.peeked.is_some() {
            return Ok(None);
        }
        let Some(rest) = self.input.lookahead() else {
            return Ok(None);
        };
        match rest.iter().position(|&b| b == b'"' || b == b'\\') {
            Some(n) if rest[n] == b'"' => {
                self.check_string_len(n)?;
                Ok(Some(n))
            }
            Some(_) => Ok(None),
            // No closing quote in the input: more is to come (or it is cut off).
            None => {
                self.check_string_len(rest.len())?;
                Err(Error::eof())
            }
        }
    }

    fn check_string_len(&self, len: usize) -> Result<()> {
        if len > self.limits.max_string_len {
            Err(Error::limit(
                Limit::StringLen,
                "string longer than max_string_len",
            ))
        } else {
            Ok(())
        }
    }

    /// After an opening quote: the string up to its closing quote, escapes decoded.
    fn decode_string(&mut self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        let mut read = 0usize;
        loop {
            let b = self.next()?;
            read += 1;
            self.check_string_len(read)?;
            match b {
                b'"' => return Ok(out),
                b'\\' => {
                    let e = self.next()?;
                    read += 1;
                    let c = match e {
                        b'"' => b'"',
                        b'\\' => b'\\',
                        b'/' => b'/',
                        b'b' => 0x08,
                        b'f' => 0x0c,
                        b'n' => b'\n',
                        b'r' => b'\r',
                        b't' => b'\t',
                        b'u' => {
                            let unit = self.hex4()?;
                            read += 4;
                            let code = match unit {
                                0xd800..=0xdbff => {
                                    if self.next()? != b'\\' || self.next()? != b'u' {
                                        return Err(Error::invalid_data(
                                            "JSON: a high surrogate without its low one",
                                        ));
                                    }
                                    let low = self.hex4()?;
                                    read += 6;
                                    if !(0xdc00..=0xdfff).contains(&low) {
                                        return Err(Error::invalid_data(
                                            "JSON: a high surrogate without its low one",
                                        ));
                                    }
                                    0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)
                                }
                                0xdc00..=0xdfff => {
                                    return Err(Error::invalid_data(
                                        "JSON: a low surrogate without its high one",
                                    ));
                                }
                                unit => unit,
                            };
                            let c = char::from_u32(code)
                                .ok_or_else(|| Error::invalid_data("JSON: bad \\u escape"))?;
                            let mut utf8 = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
                            continue;
                        }
                        _ => return Err(Error::invalid_data("JSON: unknown escape")),
                    };
                    out.push(c);
                }
                b => out.push(b),
            }
        }
    }

    fn hex4(&mut self) -> Result<u32> {
        let mut v = 0;
        for _ in 0..4 {
            let b = self.next()?;
            let d = (b as char)
                .to_digit(16)
                .ok_or_else(|| Error::invalid_data("JSON: bad \\u escape"))?;
            v = v << 4 | d;
        }
        Ok(v)
    }

    /// A string value where the reader is.
    fn string_value(&mut self) -> Result<Cow<'de, [u8]>> {
        self.before_value()?;
        self.string_bytes()
    }

    /// A type name (`"i32"`), as the element of a header array.
    fn type_name(&mut self) -> Result<TType> {
        let name = self.string_bytes()?;
        ttype_of(&name)
    }

    fn enter(&mut self, level: Level) -> Result<()> {
        self.depth.enter()?;
        self.levels.push(level);
        Ok(())
    }

    fn leave(&mut self, expected: fn(&Level) -> bool, close: &[u8]) -> Result<()> {
        self.end(expected, close)?;
        self.depth.leave();
        Ok(())
    }

    /// A list's or set's header, after its `[`.
    fn list_header(&mut self) -> Result<ListHeader> {
        self.before_value()?;
        self.expect(b'[')?;
        let elem = self.type_name()?;
        self.expect(b',')?;
        let raw = self.bare_integer(false)?;
        // Each element takes at least two bytes (a comma and a digit).
        let len = container_len(count(raw)?, &self.limits, self.input.remaining(), 2)?;
        self.enter(Level::List)?;
        Ok(ListHeader { elem, len })
    }
}

fn count(raw: i64) -> Result<i32> {
    i32::try_from(raw).map_err(|_| Error::invalid_data("JSON: container size out of range"))
}

#[cold]
fn unexpected(expected: u8) -> Error {
    match expected {
        b'"' => Error::invalid_data("JSON: expected '\"'"),
        b',' => Error::invalid_data("JSON: expected ','"),
        b':' => Error::invalid_data("JSON: expected ':'"),
        b'{' => Error::invalid_data("JSON: expected '{'"),
        b'}' => Error::invalid_data("JSON: expected '}'"),
        b'[' => Error::invalid_data("JSON: expected '['"),
        b']' => Error::invalid_data("JSON: expected ']'"),
        _ => Error::invalid_data("JSON: unexpected character"),
    }
}

fn no_borrow(what: &'static str) -> Error {
    Error::new(ErrorKind::BorrowUnsupported, what)
}

impl<'de, I: Input<'de>> ProtocolReader<'de> for JsonReader<I> {
    #[cfg(feature = "arena")]
    #[inline]
    fn arena(&self) -> Option<&'de crate::arena::Arena> {
        self.input.arena()
    }

    fn read_message_begin(&mut self) -> Result<MessageHeader<'de>> {
        self.levels.clear();
        self.expect(b'[')?;
        if self.bare_integer(false)? != VERSION {
            return Err(Error::invalid_data("JSON: bad message version"));
        }
        self.expect(b',')?;
        let name = cow_to_str(self.string_bytes()?)?;
        self.expect(b',')?;
        let kind = self.bare_integer(false)?;
        let kind = u8::try_from(kind)
            .ok()
            .and_then(MessageType::from_u8)
            .ok_or_else(Error::unknown_message_type)?;
        self.expect(b',')?;
        let seq = i32::try_from(self.bare_integer(false)?)
            .map_err(|_| Error::invalid_data("JSON: sequence id out of range"))?;
        self.expect(b',')?;
        self.levels.push(Level::Message);
        Ok(MessageHeader { name, kind, seq })
    }

    fn read_message_end(&mut self) -> Result<()> {
        if self.levels.last() == Some(&Level::Message) {
            self.levels.pop();
        }
        self.expect(b']')
    }

    fn read_struct_begin(&mut self) -> Result<StructToken> {
        self.before_value()?;
        self.expect(b'{')?;
        self.enter(Level::Struct { first: true })?;
        Ok(StructToken::default())
    }

    fn read_struct_end(&mut self, _token: StructToken) -> Result<()> {
        self.leave(|l| matches!(l, Level::Struct { .. }), b"}")
    }

    fn read_field_begin(&mut self) -> Result<FieldHeader> {
        let first = match self.levels.last_mut() {
            Some(Level::Struct { first }) => first,
            _ => return Err(Error::invalid_data("JSON reader: a field outside a struct")),
        };
        let was_first = std::mem::replace(first, false);
        if self.peek_token()? == b'}' {
            return Ok(FieldHeader {
                ttype: TType::Stop,
                id: 0,
            });
        }
        if !was_first {
            self.expect(b',')?;
        }
        let id = i16::try_from(self.bare_integer(true)?)
            .map_err(|_| Error::invalid_data("JSON: field id out of range"))?;
        self.expect(b':')?;
        self.expect(b'{')?;
        let ttype = self.type_name()?;
        self.expect(b':')?;
        self.levels.push(Level::Field);
        Ok(FieldHeader { ttype, id })
    }

    fn read_field_end(&mut self) -> Result<()> {
        self.end(|l| *l == Level::Field, b"}")
    }

    fn read_list_begin(&mut self) -> Result<ListHeader> {
        self.list_header()
    }

    fn read_list_end(&mut self) -> Result<()> {
        self.leave(|l| *l == Level::List, b"]")
    }

    fn read_set_begin(&mut self) -> Result<ListHeader> {
        self.list_header()
    }

    fn read_set_end(&mut self) -> Result<()> {
        self.read_list_end()
    }

    fn read_map_begin(&mut self) -> Result<MapHeader> {
        self.before_value()?;
        self.expect(b'[')?;
        let key = self.type_name()?;
        self.expect(b',')?;
        let value = self.type_name()?;
        self.expect(b',')?;
        let raw = self.bare_integer(false)?;
        self.expect(b',')?;
        self.expect(b'{')?;
        // Each entry takes at least four bytes (`"":0`).
        let len = container_len(count(raw)?, &self.limits, self.input.remaining(), 4)?;
        self.enter(Level::Map {
            first: true,
            key: true,
        })?;
        Ok(MapHeader { key, value, len })
    }

    fn read_map_end(&mut self) -> Result<()> {
        self.leave(|l| matches!(l, Level::Map { .. }), b"}]")
    }

    fn read_bool(&mut self) -> Result<bool> {
        Ok(self.integer()? != 0)
    }

    fn read_i8(&mut self) -> Result<i8> {
        self.narrow()
    }

    fn read_i16(&mut self) -> Result<i16> {
        self.narrow()
    }

    fn read_i32(&mut self) -> Result<i32> {
        self.narrow()
    }

    fn read_i64(&mut self) -> Result<i64> {
        self.integer()
    }

    fn read_double(&mut self) -> Result<f64> {
        let key = self.before_value()?;
        let quoted = key || self.peek_token()? == b'"';
        if quoted {
            self.expect(b'"')?;
        }
        let mut buf = [0u8; MAX_NUMBER];
        let text = self.number_token(&mut buf, true)?;
        let v = match text {
            b"NaN" | b"nan" => f64::NAN,
            b"Infinity" | b"inf" => f64::INFINITY,
            b"-Infinity" | b"-inf" => f64::NEG_INFINITY,
            _ => std::str::from_utf8(text)
                .ok()
                .filter(|t| {
                    t.bytes()
                        .all(|b| !b.is_ascii_alphabetic() || b == b'e' || b == b'E')
                })
                .and_then(|t| t.parse::<f64>().ok())
                .ok_or_else(|| Error::invalid_data("JSON: not a number"))?,
        };
        if quoted {
            self.expect(b'"')?;
        }
        Ok(v)
    }

    fn read_uuid(&mut self) -> Result<[u8; 16]> {
        let text = self.string_value()?;
        let hex: SmallVec<[u8; 32]> = text.iter().copied().filter(|&b| b != b'-').collect();
        let dashes_right = text.len() == 32
            || (text.len() == 36 && [8, 13, 18, 23].iter().all(|&i| text[i] == b'-'));
        if hex.len() != 32 || !dashes_right {
            return Err(Error::invalid_data("JSON: not a uuid"));
        }
        let mut out = [0u8; 16];
        for (i, pair) in hex.chunks_exact(2).enumerate() {
            let digit = |b: u8| {
                (b as char)
                    .to_digit(16)
                    .ok_or_else(|| Error::invalid_data("JSON: not a uuid"))
            };
            out[i] = (digit(pair[0])? << 4 | digit(pair[1])?) as u8;
        }
        Ok(out)
    }

    fn read_string(&mut self) -> Result<String> {
        cow_to_string(self.string_value()?)
    }

    fn read_binary(&mut self) -> Result<Vec<u8>> {
        let text = self.string_value()?;
        base64_decode(&text)
    }

    fn read_str(&mut self) -> Result<&'de str> {
        match self.string_value()? {
            Cow::Borrowed(bytes) => utf8(bytes),
            Cow::Owned(_) => Err(no_borrow(
                "a JSON string with escapes (or from an io input) cannot be borrowed",
            )),
        }
    }

    fn read_bytes(&mut self) -> Result<&'de [u8]> {
        // Read it anyway, so that the error is the only difference.
        self.string_value()?;
        Err(no_borrow("a JSON binary is base64: it cannot be borrowed"))
    }

    fn read_byte_string(&mut self) -> Result<ByteString> {
        self.before_value()?;
        byte_string(self.string_shared()?)
    }

    fn read_shared_bytes(&mut self) -> Result<Bytes> {
        let text = self.string_value()?;
        base64_decode(&text).map(Bytes::from)
    }

    /// The text: a string's, or a binary's base64.
    fn read_raw_string(&mut self) -> Result<Vec<u8>> {
        self.string_value().map(Cow::into_owned)
    }

    fn skip_binary(&mut self) -> Result<()> {
        self.string_value().map(drop)
    }
}

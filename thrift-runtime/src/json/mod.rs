//! Apache Thrift's JSON protocol (`TJSONProtocol`): every value is JSON text, a struct an
//! object of fields keyed by id (`{"1":{"i32":7},"2":{"str":"x"}}`), a list
//! `["i32",3,1,2,3]`, a map `["str","i32",2,{"a":1,"b":2}]`, a message
//! `[1,"name",1,0,{...}]`.
//!
//! What the writer writes, byte for byte as Apache's C++ and Python writers do:
//! - integers and bools (`1`, `0`) as JSON numbers, quoted where they are a map's keys;
//! - doubles with 17 significant digits (`%.17g`, as C++'s `TJSONProtocol` and Python's
//!   write them: `0.10000000000000001`), quoted as keys; NaN and the infinities as the strings
//!   `"NaN"`, `"Infinity"` and `"-Infinity"` (as C++ and Java write them, and Python reads);
//! - strings as UTF-8 with `"` `\` and control characters escaped (`\b \f \n \r \t`, others
//!   `\u00XX`);
//! - binaries in base64 with padding (as Python, Go and Node write them; C++ and Java leave the
//!   padding out, and read it);
//! - uuids as `"xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"`, lowercase.
//!
//! The reader reads all of those and what other Apache writers write: numbers quoted or not,
//! base64 with or without padding, `\uXXXX` escapes with surrogate pairs, `\/`, bare
//! `nan`/`inf`/`-inf` (Python's writer), whitespace between tokens.
//!
//! Borrowing: a string without escapes is lent by a slice input (`read_str`); one with
//! escapes is decoded into a new buffer, which a borrowing type (`FooRef<'de>`) cannot hold
//! (`BorrowUnsupported`), and a binary (base64) is never lent. Owned and `Strings::Bytes`
//! types read everything.
//!
//! Sizes ([`ProtocolSize`] for [`Json`]) are a lower bound, exact unless a string holds
//! characters that need escapes or a double is NaN or infinite: `encode` reserves that much,
//! and the buffer grows if the text is longer.

mod reader;
mod writer;

pub use reader::JsonReader;
pub use writer::JsonWriter;

use crate::error::{Error, Result};
use crate::input::Input;
use crate::limits::ReadLimits;
use crate::output::Output;
use crate::protocol::{Protocol, ProtocolSize};
use crate::wire::{MessageType, TType};

/// The version a message starts with (`[1,`).
pub const VERSION: i64 = 1;

/// Marker type for the JSON protocol: `value.encode_to_vec::<Json>()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Json;

/// The name a JSON value's type has on the wire.
pub(crate) fn type_name(ttype: TType) -> &'static [u8] {
    match ttype {
        TType::Bool => b"tf",
        TType::I8 => b"i8",
        TType::I16 => b"i16",
        TType::I32 => b"i32",
        TType::I64 => b"i64",
        TType::Double => b"dbl",
        TType::String => b"str",
        TType::Struct => b"rec",
        TType::Map => b"map",
        TType::List => b"lst",
        TType::Set => b"set",
        TType::Uuid => b"uid",
        // Never written: `Stop` is no value.
        TType::Stop => b"",
    }
}

/// The type a wire name names.
pub(crate) fn ttype_of(name: &[u8]) -> Result<TType> {
    Ok(match name {
        b"tf" => TType::Bool,
        b"i8" => TType::I8,
        b"i16" => TType::I16,
        b"i32" => TType::I32,
        b"i64" => TType::I64,
        b"dbl" => TType::Double,
        b"str" => TType::String,
        b"rec" => TType::Struct,
        b"map" => TType::Map,
        b"lst" => TType::List,
        b"set" => TType::Set,
        b"uid" => TType::Uuid,
        _ => return Err(Error::invalid_data("JSON: unknown type name")),
    })
}

/// Whether a map key of this type is written as a quoted number.
fn quoted_key(ttype: TType) -> bool {
    matches!(
        ttype,
        TType::Bool | TType::I8 | TType::I16 | TType::I32 | TType::I64 | TType::Double
    )
}

/// Decimal digits of `v`, its sign included.
pub(crate) fn decimal_len(v: i64) -> usize {
    let mut n = v.unsigned_abs();
    let mut len = usize::from(v < 0) + 1;
    while n >= 10 {
        n /= 10;
        len += 1;
    }
    len
}

/// The text the JSON protocol writes for a `binary`: base64, standard alphabet, padded. For
/// tools that convert what [`ProtocolReader::read_raw_string`](crate::ProtocolReader::read_raw_string)
/// reads from JSON to bytes and back ([`json_binary_from_text`]).
pub fn json_binary_to_text(data: &[u8]) -> Vec<u8> {
    let mut text = Vec::with_capacity(base64_len(data.len()));
    // Appending to a Vec cannot fail.
    let _ = base64_encode(data, |chunk| {
        text.extend_from_slice(chunk);
        Ok(())
    });
    text
}

/// The bytes of a `binary` as the JSON protocol writes it (base64, padding optional); an
/// `InvalidData` error for other text.
pub fn json_binary_from_text(text: &[u8]) -> Result<Vec<u8>> {
    base64_decode(text)
}

/// Base64 (standard alphabet, padded) length of `len` bytes.
pub(crate) fn base64_len(len: usize) -> usize {
    len.div_ceil(3).saturating_mul(4)
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Appends the base64 text of `data` (standard alphabet, padded) to `out`, 3 bytes at a time.
pub(crate) fn base64_encode(data: &[u8], mut out: impl FnMut(&[u8]) -> Result<()>) -> Result<()> {
    let mut chunks = data.chunks_exact(3);
    let mut buf = [0u8; 64];
    let mut used = 0;
    for chunk in &mut chunks {
        let n = u32::from(chunk[0]) << 16 | u32::from(chunk[1]) << 8 | u32::from(chunk[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            buf[used + i] = BASE64[(n >> shift) as usize & 63];
        }
        used += 4;
        if used == buf.len() {
            out(&buf)?;
            used = 0;
        }
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let n = u32::from(rest[0]) << 16 | rest.get(1).map_or(0, |&b| u32::from(b) << 8);
        buf[used] = BASE64[(n >> 18) as usize & 63];
        buf[used + 1] = BASE64[(n >> 12) as usize & 63];
        buf[used + 2] = if rest.len() == 2 {
            BASE64[(n >> 6) as usize & 63]
        } else {
            b'='
        };
        buf[used + 3] = b'=';
        used += 4;
    }
    if used > 0 {
        out(&buf[..used])?;
    }
    Ok(())
}

/// The bytes of base64 text (standard alphabet; padding optional, as Apache's writers differ
/// on it).
pub(crate) fn base64_decode(text: &[u8]) -> Result<Vec<u8>> {
    fn value(c: u8) -> Result<u32> {
        Ok(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return Err(Error::invalid_data("JSON: not base64")),
        }
        .into())
    }
    let text = match text {
        [rest @ .., b'=', b'='] | [rest @ .., b'='] => rest,
        _ => text,
    };
    if text.len() % 4 == 1 {
        return Err(Error::invalid_data("JSON: truncated base64"));
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut chunks = text.chunks_exact(4);
    for chunk in &mut chunks {
        let n = value(chunk[0])? << 18
            | value(chunk[1])? << 12
            | value(chunk[2])? << 6
            | value(chunk[3])?;
        out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8, n as u8]);
    }
    match *chunks.remainder() {
        [] => {}
        [a, b] => {
            let n = value(a)? << 18 | value(b)? << 12;
            out.push((n >> 16) as u8);
        }
        [a, b, c] => {
            let n = value(a)? << 18 | value(b)? << 12 | value(c)? << 6;
            out.extend_from_slice(&[(n >> 16) as u8, (n >> 8) as u8]);
        }
        _ => return Err(Error::invalid_data("JSON: truncated base64")),
    }
    Ok(out)
}

/// A double as Apache's C++ and Python JSON writers format it (`%.17g`), into `buf`; `None`
/// for NaN and the infinities, which are written as strings.
pub(crate) fn format_double(v: f64, buf: &mut [u8; 32]) -> Option<usize> {
    use std::io::Write;
    if !v.is_finite() {
        return None;
    }
    // 17 significant digits, rounded correctly: `d.dddddddddddddddde<exp>`.
    let mut sci = [0u8; 32];
    let sci_len = {
        let mut cursor = &mut sci[..];
        // 32 bytes hold the longest: `-d.` 16 digits `e-324`.
        write!(cursor, "{v:.16e}").ok()?;
        32 - cursor.len()
    };
    let sci = &sci[..sci_len];
    let negative = sci.first() == Some(&b'-');
    let body = if negative { &sci[1..] } else { sci };
    let e_at = body.iter().position(|&b| b == b'e')?;
    let exp: i32 = std::str::from_utf8(&body[e_at + 1..]).ok()?.parse().ok()?;
    let mut digits = [0u8; 17];
    let mut count = 0;
    for &b in &body[..e_at] {
        if b.is_ascii_digit() && count < 17 {
            digits[count] = b;
            count += 1;
        }
    }
    // Trailing zeros are not significant for %g.
    let mut significant = count;
    while significant > 1 && digits[significant - 1] == b'0' {
        significant -= 1;
    }
    let mut len = 0;
    let mut put = |b: u8| {
        buf[len] = b;
        len += 1;
    };
    if negative {
        put(b'-');
    }
    if (-4..17).contains(&exp) {
        if exp >= 0 {
            let int_digits = exp as usize + 1;
            for &d in &digits[..int_digits] {
                put(d);
            }
            if significant > int_digits {
                put(b'.');
                for &d in &digits[int_digits..significant] {
                    put(d);
                }
            }
        } else {
            put(b'0');
            put(b'.');
            for _ in 0..(-exp - 1) {
                put(b'0');
            }
            for &d in &digits[..significant] {
                put(d);
            }
        }
    } else {
        put(digits[0]);
        if significant > 1 {
            put(b'.');
            for &d in &digits[1..significant] {
                put(d);
            }
        }
        put(b'e');
        put(if exp < 0 { b'-' } else { b'+' });
        let e = exp.unsigned_abs();
        if e >= 100 {
            put(b'0' + (e / 100) as u8);
        }
        put(b'0' + (e / 10 % 10) as u8);
        put(b'0' + (e % 10) as u8);
    }
    Some(len)
}

/// What a non-finite double is written as (a JSON string).
pub(crate) fn special_double(v: f64) -> &'static [u8] {
    if v.is_nan() {
        b"NaN"
    } else if v > 0.0 {
        b"Infinity"
    } else {
        b"-Infinity"
    }
}

impl ProtocolSize for Json {
    const EXACT: bool = false;

    #[inline]
    fn message_begin_len(name: &str, kind: MessageType, seq: i32) -> usize {
        // `[1,"name",K,SEQ,` and the closing `]`.
        4 + name.len() + 2 + decimal_len(kind as i64) + 1 + decimal_len(seq.into()) + 1 + 1
    }

    #[inline]
    fn struct_begin_len() -> usize {
        1
    }

    #[inline]
    fn struct_end_len() -> usize {
        1
    }

    /// `,"ID":{"type":` and the field's closing `}`.
    #[inline]
    fn field_begin_len(ttype: TType, id: i16, prev_id: i16) -> usize {
        // `"ID"`, `:{`, `"type"`, `:` and `}`.
        usize::from(prev_id != 0)
            + 2
            + decimal_len(id.into())
            + 2
            + 2
            + type_name(ttype).len()
            + 1
            + 1
    }

    #[inline]
    fn bool_field_value_len() -> usize {
        1
    }

    #[inline]
    fn field_stop_len() -> usize {
        0
    }

    #[inline]
    fn bool_len(_v: bool) -> usize {
        1
    }

    #[inline]
    fn i8_len(v: i8) -> usize {
        decimal_len(v.into())
    }

    #[inline]
    fn i16_len(v: i16) -> usize {
        decimal_len(v.into())
    }

    #[inline]
    fn i32_len(v: i32) -> usize {
        decimal_len(v.into())
    }

    #[inline]
    fn i64_len(v: i64) -> usize {
        decimal_len(v)
    }

    /// The digits; a NaN or infinity's quotes are not counted (a lower bound).
    #[inline]
    fn double_len(v: f64) -> usize {
        let mut buf = [0u8; 32];
        format_double(v, &mut buf).unwrap_or(special_double(v).len())
    }

    #[inline]
    fn uuid_len(_v: &[u8; 16]) -> usize {
        38
    }

    #[inline]
    fn binary_len(len: usize) -> usize {
        2 + base64_len(len)
    }

    /// The quotes and the bytes; escapes are not counted (a lower bound).
    #[inline]
    fn string_len(len: usize) -> usize {
        2 + len
    }

    #[inline]
    fn raw_string_len(len: usize) -> usize {
        2 + len
    }

    /// `["type",N`, a comma before each element, and `]`.
    #[inline]
    fn list_begin_len(elem: TType, len: usize) -> usize {
        2 + type_name(elem).len() + 2 + decimal_len(len as i64) + len + 1
    }

    /// `["key","value",N,{`, a colon in each entry and a comma between entries, `}]`, and the
    /// quotes of numeric keys.
    #[inline]
    fn map_begin_len(key: TType, value: TType, len: usize) -> usize {
        2 + type_name(key).len()
            + 3
            + type_name(value).len()
            + 2
            + decimal_len(len as i64)
            + 2
            + len
            + len.saturating_sub(1)
            + 2
            + if quoted_key(key) { 2 * len } else { 0 }
    }
}

impl Protocol for Json {
    /// `[1,`: a message is an array whose first element is the version, 1.
    const MESSAGE_START: &'static [u8] = b"[1,";
    const HEADER_PROTOCOL_ID: u64 = 1;
    type Reader<'de, I: Input<'de>> = JsonReader<I>;
    type Writer<O: Output> = JsonWriter<O>;

    #[inline]
    fn reader<'de, I: Input<'de>>(input: I, limits: ReadLimits) -> JsonReader<I> {
        JsonReader::with_limits(input, limits)
    }

    #[inline]
    fn writer<O: Output>(output: O) -> JsonWriter<O> {
        JsonWriter::new(output)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g17(v: f64) -> String {
        let mut buf = [0u8; 32];
        let n = format_double(v, &mut buf).unwrap();
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }

    #[test]
    fn doubles_are_formatted_as_printf_17g() {
        // What Python's '{0:.17g}'.format(v) and C's printf("%.17g", v) give.
        for (v, text) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1, "0.10000000000000001"),
            (2.71, "2.71"),
            (1e16, "10000000000000000"),
            (1e17, "1e+17"),
            (123456789012345680.0, "1.2345678901234568e+17"),
            (0.0001, "0.0001"),
            (0.00001, "1.0000000000000001e-05"),
            (1e-300, "1e-300"),
            (f64::MAX, "1.7976931348623157e+308"),
            (f64::MIN_POSITIVE, "2.2250738585072014e-308"),
            (5e-324, "4.9406564584124654e-324"),
            (-123.456, "-123.456"),
            (2.5e-5, "2.5000000000000001e-05"),
        ] {
            assert_eq!(g17(v), text, "{v:e}");
        }
        assert!(format_double(f64::NAN, &mut [0; 32]).is_none());
    }

    #[test]
    fn base64_round_trips_with_and_without_padding() {
        for len in 0..20 {
            let data: Vec<u8> = (0..len as u8).map(|i| i.wrapping_mul(37)).collect();
            let mut text = Vec::new();
            base64_encode(&data, |part| {
                text.extend_from_slice(part);
                Ok(())
            })
            .unwrap();
            assert_eq!(text.len(), base64_len(len));
            assert_eq!(base64_decode(&text).unwrap(), data);
            let unpadded: Vec<u8> = text.iter().copied().filter(|&b| b != b'=').collect();
            assert_eq!(base64_decode(&unpadded).unwrap(), data);
        }
        let mut text = Vec::new();
        base64_encode(b"any carnal pleasure.", |p| {
            text.extend_from_slice(p);
            Ok(())
        })
        .unwrap();
        assert_eq!(text, b"YW55IGNhcm5hbCBwbGVhc3VyZS4=");
        assert!(base64_decode(b"YW5").is_ok());
        assert!(base64_decode(b"Y").is_err());
        assert!(base64_decode(b"YW5*").is_err());
    }
}

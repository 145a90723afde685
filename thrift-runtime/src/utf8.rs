//! UTF-8 validation of `string` values with a fast path for ASCII.
//!
//! Most Thrift strings are short and ASCII (names, labels, keys). The
//! standard library's validator handles them a byte at a time with a
//! branch per byte; checking eight bytes at once for a high bit and
//! skipping validation when none is set cuts the cost of a typical
//! 10-30 byte string several times (`benchmarks/instructions.sh`,
//! recorded in BENCHMARKS.md). Non-ASCII input, and long strings (where the
//! standard validator has its own word-at-a-time ASCII path), go to
//! `std::str::from_utf8` unchanged, so what is accepted is exactly what the
//! standard library accepts.
#![allow(unsafe_code)]

use bytes::Bytes;
use bytestring::ByteString;

/// Longest string checked by the word-at-a-time ASCII test; longer ones go
/// straight to the standard validator.
const SHORT: usize = 64;

const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Whether every byte of a slice of at most [`SHORT`] bytes is ASCII,
/// reading eight bytes at a time (the last word may overlap the one before).
#[inline]
fn is_short_ascii(b: &[u8]) -> bool {
    let n = b.len();
    if n >= 8 {
        let mut acc = 0u64;
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            acc |= u64::from_le_bytes(to_array(c));
        }
        acc |= u64::from_le_bytes(to_array(&b[n - 8..]));
        acc & HIGH_BITS == 0
    } else if n >= 4 {
        let head = u32::from_le_bytes(to_array(&b[..4]));
        let tail = u32::from_le_bytes(to_array(&b[n - 4..]));
        (head | tail) & 0x8080_8080 == 0
    } else {
        b.iter().fold(0u8, |acc, &x| acc | x) < 0x80
    }
}

#[inline(always)]
fn to_array<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&b[..N]);
    out
}

/// `std::str::from_utf8`, with short ASCII strings accepted without the
/// byte-by-byte validation.
#[inline]
pub(crate) fn str_from_utf8(b: &[u8]) -> Option<&str> {
    if b.len() <= SHORT && is_short_ascii(b) {
        // SAFETY: every byte of `b` is below 0x80 (checked just above), and a
        // sequence of ASCII bytes is valid UTF-8.
        Some(unsafe { std::str::from_utf8_unchecked(b) })
    } else {
        std::str::from_utf8(b).ok()
    }
}

/// `String::from_utf8`, with short ASCII strings accepted without the
/// byte-by-byte validation.
#[inline]
pub(crate) fn string_from_utf8(v: Vec<u8>) -> Option<String> {
    if v.len() <= SHORT && is_short_ascii(&v) {
        // SAFETY: every byte of `v` is below 0x80 (checked just above), and a
        // sequence of ASCII bytes is valid UTF-8.
        Some(unsafe { String::from_utf8_unchecked(v) })
    } else {
        String::from_utf8(v).ok()
    }
}

/// A [`ByteString`] over `b` if it is UTF-8 (same rules as [`str_from_utf8`]).
#[inline]
pub(crate) fn byte_string_from_utf8(b: Bytes) -> Option<ByteString> {
    if str_from_utf8(&b).is_some() {
        // SAFETY: `b` was just checked to be valid UTF-8, `from_bytes_unchecked`'s only
        // requirement.
        Some(unsafe { ByteString::from_bytes_unchecked(b) })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn every_length_and_high_byte_position_is_checked() {
        // Every length around the word boundaries, with a non-ASCII byte at
        // every position, must be rejected by the ASCII test, and the result
        // must agree with the standard library either way.
        for len in 0..=SHORT + 3 {
            let ascii = vec![b'a'; len];
            assert!(len > SHORT || is_short_ascii(&ascii), "len {len}");
            assert_eq!(str_from_utf8(&ascii), std::str::from_utf8(&ascii).ok());
            for pos in 0..len {
                for high in [0x80u8, 0xC3, 0xFF] {
                    let mut b = ascii.clone();
                    b[pos] = high;
                    if len <= SHORT {
                        assert!(!is_short_ascii(&b), "len {len} pos {pos} byte {high:#x}");
                    }
                    assert_eq!(str_from_utf8(&b), std::str::from_utf8(&b).ok());
                    assert_eq!(
                        string_from_utf8(b.clone()),
                        String::from_utf8(b).ok(),
                        "len {len} pos {pos}"
                    );
                }
            }
        }
    }

    #[test]
    fn valid_multibyte_strings_are_accepted() {
        for s in [
            "é",
            "héllo",
            "日本語のテキスト",
            "emoji 🦀 in the middle of a longer text",
        ] {
            assert_eq!(str_from_utf8(s.as_bytes()), Some(s));
            assert_eq!(string_from_utf8(s.as_bytes().to_vec()).as_deref(), Some(s));
        }
    }

    proptest! {
        #[test]
        fn agrees_with_std(b in proptest::collection::vec(any::<u8>(), 0..100)) {
            prop_assert_eq!(str_from_utf8(&b), std::str::from_utf8(&b).ok());
            prop_assert_eq!(string_from_utf8(b.clone()), String::from_utf8(b).ok());
        }

        #[test]
        fn agrees_with_std_on_mostly_ascii(
            s in "[a-z0-9 ]{0,80}",
            pos in any::<prop::sample::Index>(),
            high in 0x80u8..=0xFF,
        ) {
            let mut b = s.into_bytes();
            if !b.is_empty() {
                let i = pos.index(b.len());
                b[i] = high;
            }
            prop_assert_eq!(str_from_utf8(&b), std::str::from_utf8(&b).ok());
        }
    }
}

//! ZigZag and ULEB128 varint helpers for the compact protocol.

use crate::error::{Error, Result};
use crate::input::Input;
use crate::output::Output;

/// Maps a signed 32-bit value so small magnitudes get small codes.
#[inline]
pub const fn zigzag32(n: i32) -> u32 {
    ((n << 1) ^ (n >> 31)) as u32
}

/// Inverse of [`zigzag32`].
#[inline]
pub const fn unzigzag32(n: u32) -> i32 {
    ((n >> 1) as i32) ^ -((n & 1) as i32)
}

/// Maps a signed 64-bit value so small magnitudes get small codes.
#[inline]
pub const fn zigzag64(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

/// Inverse of [`zigzag64`].
#[inline]
pub const fn unzigzag64(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

/// Encoded size of `v` as a varint (1..=5).
#[inline]
pub const fn varint_len_u32(v: u32) -> usize {
    varint_len_u64(v as u64)
}

/// Encoded size of `v` as a varint (1..=10).
#[inline]
pub const fn varint_len_u64(v: u64) -> usize {
    // Number of significant bits (at least 1), 7 per byte, rounded up: for 1 to 64 bits,
    // (bits * 9 + 64) / 64 equals bits.div_ceil(7) (checked for every length by a test) and
    // costs a shift and a multiply-add instead of a division by 7.
    let bits = 64 - (v | 1).leading_zeros() as usize;
    (bits * 9 + 64) / 64
}

/// Writes `v` as a varint: values below 128 as one inline `write_u8`, others through
/// [`write_varint_u64`].
#[inline]
pub fn write_varint_u32<O: Output + ?Sized>(out: &mut O, v: u32) -> Result<()> {
    if v < 0x80 {
        return out.write_u8(v as u8);
    }
    write_varint_u64(out, v as u64)
}

/// Writes `v` as a varint. Longer values are built in two registers (`varint_words`)
/// and stored whole with [`Output::write_small`]: filling a stack buffer a byte at a time and
/// copying it out as words stalls the copy on every varint (the CPU cannot forward eight 1-byte
/// stores to an 8-byte load), which `perf` showed as half of the compact encoder's time.
#[inline]
pub fn write_varint_u64<O: Output + ?Sized>(out: &mut O, v: u64) -> Result<()> {
    if v < 0x80 {
        return out.write_u8(v as u8);
    }
    let (low, high, len) = varint_words(v);
    out.write_small(low as u128 | (high as u128) << 64, len)
}

/// The varint encoding of `v`: its first eight bytes (little-endian) in `low`, the ninth and
/// tenth in `high`, and its length (1..=10).
#[inline]
pub(crate) fn varint_words(v: u64) -> (u64, u64, usize) {
    if v < 0x80 {
        (v, 0, 1)
    } else if v < 0x4000 {
        // Two bytes, the most common long varint.
        ((v & 0x7f) | 0x80 | ((v >> 7) << 8), 0, 2)
    } else if v < 1 << 56 {
        // Three to eight bytes: continuation bits on all but the last.
        let len = varint_len_u64(v);
        let low = spread7(v) | (0x8080_8080_8080_8080 & (u64::MAX >> (72 - 8 * len)));
        (low, 0, len)
    } else {
        // Nine or ten bytes: the first eight all continue.
        let len = varint_len_u64(v);
        let ninth = ((v >> 56) & 0x7f) | if len == 10 { 0x80 } else { 0 };
        (
            spread7(v) | 0x8080_8080_8080_8080,
            ninth | ((v >> 63) << 8),
            len,
        )
    }
}

/// The inverse of `gather7`: bits 0..56 of `x` as eight 7-bit groups, one per byte
/// (little-endian), high bits clear.
#[inline]
fn spread7(x: u64) -> u64 {
    let x = x & 0x00ff_ffff_ffff_ffff;
    let x = (x & 0x0000_0000_0fff_ffff) | ((x & 0x00ff_ffff_f000_0000) << 4);
    let x = (x & 0x0000_3fff_0000_3fff) | ((x & 0x0fff_c000_0fff_c000) << 2);
    (x & 0x007f_007f_007f_007f) | ((x & 0x3f80_3f80_3f80_3f80) << 1)
}

/// The low seven bits of each of the eight bytes of `x` (little-endian), packed into the low
/// 56 bits: byte 0's in bits 0..7, byte 1's in bits 7..14, and so on.
#[inline]
fn gather7(x: u64) -> u64 {
    let x = x & 0x7f7f_7f7f_7f7f_7f7f;
    let x = (x & 0x007f_007f_007f_007f) | ((x & 0x7f00_7f00_7f00_7f00) >> 1);
    let x = (x & 0x0000_3fff_0000_3fff) | ((x & 0x3fff_0000_3fff_0000) >> 2);
    (x & 0x0000_0000_0fff_ffff) | ((x & 0x0fff_ffff_0000_0000) >> 4)
}

#[cold]
#[inline(never)]
fn overlong() -> Error {
    Error::invalid_data("varint too long or out of range")
}

/// Reads a varint of at most 5 bytes whose value fits in 32 bits. One-byte values (most
/// field ids, lengths, enum values and small integers) are read inline; longer ones out of
/// line, so the common case costs one load and one compare.
#[inline(always)]
pub fn read_varint_u32<'de, I: Input<'de> + ?Sized>(input: &mut I) -> Result<u32> {
    let b = input.read_u8()?;
    if b < 0x80 {
        return Ok(b as u32);
    }
    read_varint_u32_rest(input, b)
}

/// The rest of a varint whose first byte `b` has the continuation bit set.
#[inline(never)]
fn read_varint_u32_rest<'de, I: Input<'de> + ?Sized>(input: &mut I, b: u8) -> Result<u32> {
    if let Some(bytes) = input.peek_ten() {
        // As in `read_varint_u64_rest`: at most four more bytes, the value below 2^32.
        let second = bytes[0];
        if second < 0x80 {
            input.skip(1)?;
            return Ok((b & 0x7f) as u32 | ((second as u32) << 7));
        }
        let word = u64::from_le_bytes(*bytes.first_chunk::<8>().expect("ten bytes"));
        let ends = !word & 0x8080_8080_8080_8080;
        let n = (ends.trailing_zeros() / 8) as usize + 1; // 9 when no byte ends it
        if n > 4 {
            return Err(overlong());
        }
        let v = (b & 0x7f) as u64 | (gather7(word & (u64::MAX >> (64 - 8 * n))) << 7);
        let v = u32::try_from(v).map_err(|_| overlong())?;
        input.skip(n)?;
        return Ok(v);
    }
    let mut v = (b & 0x7f) as u32;
    for shift in [7u32, 14, 21] {
        let b = input.read_u8()?;
        v |= ((b & 0x7f) as u32) << shift;
        if b < 0x80 {
            return Ok(v);
        }
    }
    // Fifth byte: only 4 bits left and no continuation.
    let b = input.read_u8()?;
    if b > 0x0f {
        return Err(overlong());
    }
    Ok(v | ((b as u32) << 28))
}

/// Reads a varint of at most 10 bytes whose value fits in 64 bits: one-byte values inline,
/// longer ones out of line.
#[inline(always)]
pub fn read_varint_u64<'de, I: Input<'de> + ?Sized>(input: &mut I) -> Result<u64> {
    let b = input.read_u8()?;
    if b < 0x80 {
        return Ok(b as u64);
    }
    read_varint_u64_rest(input, b)
}

/// The rest of a varint whose first byte `b` has the continuation bit set.
#[inline(never)]
fn read_varint_u64_rest<'de, I: Input<'de> + ?Sized>(input: &mut I, b: u8) -> Result<u64> {
    if let Some(bytes) = input.peek_ten() {
        // The same decoding as below, on bytes already known to be there: two-byte varints
        // (the most common long ones) directly, longer ones without a branch per byte (the
        // first byte without a continuation bit ends the varint).
        let second = bytes[0];
        if second < 0x80 {
            input.skip(1)?;
            return Ok((b & 0x7f) as u64 | ((second as u64) << 7));
        }
        // Three bytes (values below 2^21; zigzagged, offsets and sizes below 1 MiB) without
        // the word arithmetic below.
        let third = bytes[1];
        if third < 0x80 {
            input.skip(2)?;
            return Ok((b & 0x7f) as u64 | ((second & 0x7f) as u64) << 7 | (third as u64) << 14);
        }
        let word = u64::from_le_bytes(*bytes.first_chunk::<8>().expect("ten bytes"));
        let ends = !word & 0x8080_8080_8080_8080;
        if ends != 0 {
            let n = (ends.trailing_zeros() / 8) as usize + 1; // bytes after `b`: 1..=8
            let kept = word & (u64::MAX >> (64 - 8 * n));
            input.skip(n)?;
            return Ok((b & 0x7f) as u64 | (gather7(kept) << 7));
        }
        // Tenth byte: only 1 bit left and no continuation.
        let last = bytes[8];
        if last > 0x01 {
            return Err(overlong());
        }
        input.skip(9)?;
        return Ok((b & 0x7f) as u64 | (gather7(word) << 7) | ((last as u64) << 63));
    }
    let mut v = (b & 0x7f) as u64;
    let mut shift = 7;
    while shift < 63 {
        let b = input.read_u8()?;
        v |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return Ok(v);
        }
        shift += 7;
    }
    // Tenth byte: only 1 bit left and no continuation.
    let b = input.read_u8()?;
    if b > 0x01 {
        return Err(overlong());
    }
    Ok(v | ((b as u64) << 63))
}

/// Decodes the varint at the start of `bytes`, ten bytes in view (enough for any): its value
/// and its length. The end is found in the first word at once (the first byte without a
/// continuation bit) rather than byte by byte; a varint of more than ten bytes, or whose
/// value passes 64 bits, is an error, as in [`read_varint_u64`].
#[inline(always)]
pub(crate) fn varint_u64_in(bytes: &[u8; 10]) -> Result<(u64, usize)> {
    let word = u64::from_le_bytes(*bytes.first_chunk::<8>().expect("ten bytes"));
    let ends = !word & 0x8080_8080_8080_8080;
    if ends != 0 {
        let n = (ends.trailing_zeros() / 8) as usize + 1; // 1..=8
        return Ok((gather7(word & (u64::MAX >> (64 - 8 * n))), n));
    }
    let ninth = bytes[8];
    if ninth < 0x80 {
        return Ok((gather7(word) | (ninth as u64) << 56, 9));
    }
    // Tenth byte: only 1 bit left and no continuation.
    let last = bytes[9];
    if last > 0x01 {
        return Err(overlong());
    }
    Ok((
        gather7(word) | ((ninth & 0x7f) as u64) << 56 | (last as u64) << 63,
        10,
    ))
}

/// [`varint_u64_in`] for a varint of at most 5 bytes whose value fits in 32 bits, as in
/// [`read_varint_u32`].
#[inline(always)]
pub(crate) fn varint_u32_in(bytes: &[u8; 10]) -> Result<(u32, usize)> {
    let word = u64::from_le_bytes(*bytes.first_chunk::<8>().expect("ten bytes"));
    let ends = !word & 0x8080_8080_8080_8080;
    let n = (ends.trailing_zeros() / 8) as usize + 1; // 9 when no byte of the word ends it
    if n > 5 {
        return Err(overlong());
    }
    let v = gather7(word & (u64::MAX >> (64 - 8 * n)));
    Ok((u32::try_from(v).map_err(|_| overlong())?, n))
}

/// Reads varint elements of a list or set into `out` with `decode` ([`varint_u64_in`] or
/// [`varint_u32_in`] and the zigzag), in one loop over the input's bytes while ten of them
/// are left (slices): no call, bounds check or position store per element. The others (the
/// last few of an input that ends within ten bytes, or all of them from an input that cannot
/// show its bytes) are read one at a time with `read_one`.
#[inline(always)]
pub(crate) fn varint_elements<'de, I: Input<'de>, T>(
    input: &mut I,
    out: &mut [T],
    decode: impl Fn(&[u8; 10]) -> Result<(T, usize)>,
    read_one: impl Fn(&mut I) -> Result<T>,
) -> Result<()> {
    let mut done = 0;
    if let Some(rest) = input.lookahead() {
        let mut pos = 0;
        for item in out.iter_mut() {
            let Some(bytes) = rest.get(pos..).and_then(|r| r.first_chunk::<10>()) else {
                break;
            };
            let (v, n) = decode(bytes)?;
            *item = v;
            pos += n;
            done += 1;
        }
        input.skip(pos)?;
    }
    for item in &mut out[done..] {
        *item = read_one(input)?;
    }
    Ok(())
}

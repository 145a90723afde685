//! Byte sinks for writers: `Vec<u8>` (the fast path), [`IoOutput`] over any
//! [`std::io::Write`], and [`SliceOutput`] over a fixed `&mut [u8]`.

use std::io::Write;

use crate::error::{Error, Result};

/// A sink of bytes that protocol writers encode into.
pub trait Output {
    /// Appends one byte.
    fn write_u8(&mut self, b: u8) -> Result<()>;

    /// Appends `bytes`.
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()>;

    /// Appends the bytes of a `string` or `binary` (any length, most often short). A `Vec`
    /// with room to spare copies up to 16 bytes as two words built in registers instead of
    /// calling `memcpy`.
    #[inline]
    fn write_data(&mut self, bytes: &[u8]) -> Result<()> {
        self.write_bytes(bytes)
    }

    /// Appends the low `len` bytes (at most 16) of `bytes`, least significant first: a field
    /// header and its value built in registers by the writer. A `Vec` with room to spare stores
    /// them with one capacity check instead of one per part.
    #[inline]
    fn write_small(&mut self, bytes: u128, len: usize) -> Result<()> {
        debug_assert!(len <= 16);
        self.write_bytes(&bytes.to_le_bytes()[..len])
    }

    /// Appends the low `prefix_len` bytes (at most 8) of `prefix`, least significant first,
    /// then `data` as [`write_data`](Output::write_data) does: a length (and field header)
    /// with the bytes of a `string` or `binary`. A `Vec` with room to spare stores a prefix and
    /// data of 16 bytes or less together, with one capacity check.
    #[inline]
    fn write_prefixed_data(&mut self, prefix: u64, prefix_len: usize, data: &[u8]) -> Result<()> {
        debug_assert!(prefix_len <= 8);
        self.write_bytes(&prefix.to_le_bytes()[..prefix_len])?;
        self.write_data(data)
    }
}

impl Output for Vec<u8> {
    #[inline]
    fn write_u8(&mut self, b: u8) -> Result<()> {
        self.push(b);
        Ok(())
    }

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend_from_slice(bytes);
        Ok(())
    }

    #[inline]
    fn write_data(&mut self, bytes: &[u8]) -> Result<()> {
        // The room is checked here as well as in `extend_words`: dropping this check and the
        // one in `write_prefixed_data` (letting `extend_words` copy when there is no room)
        // measured more instructions on the large struct (figures in BENCHMARKS.md).
        if bytes.len() <= 16 && self.capacity() - self.len() >= 16 {
            let (low, high) = short_words(bytes);
            extend_words(self, low, high, bytes.len());
        } else {
            self.extend_from_slice(bytes);
        }
        Ok(())
    }

    #[inline(always)]
    fn write_small(&mut self, bytes: u128, len: usize) -> Result<()> {
        extend_words(self, bytes as u64, (bytes >> 64) as u64, len);
        Ok(())
    }

    #[inline(always)]
    fn write_prefixed_data(&mut self, prefix: u64, prefix_len: usize, data: &[u8]) -> Result<()> {
        debug_assert!(prefix_len <= 8);
        // Only the low prefix_len bytes are the prefix (a constant mask once inlined).
        let prefix = if prefix_len < 8 {
            prefix & ((1 << (8 * prefix_len)) - 1)
        } else {
            prefix
        };
        if prefix_len + data.len() <= 16 && self.capacity() - self.len() >= 16 {
            let (low, high) = short_words(data);
            let words = (low as u128) | ((high as u128) << 64);
            // prefix_len <= 8, so the shift stays below 128, and the bytes of `words` beyond
            // data.len() <= 16 - prefix_len are zero: nothing is shifted out.
            let all = (prefix as u128) | (words << (8 * prefix_len));
            extend_words(
                self,
                all as u64,
                (all >> 64) as u64,
                prefix_len + data.len(),
            );
        } else {
            extend_words(self, prefix, 0, prefix_len);
            self.write_data(data)?;
        }
        Ok(())
    }
}

/// Appends the low `len` bytes (at most 16) of the two words `low` and `high`: within
/// capacity as two 8-byte stores straight into the spare capacity, then the length set to
/// cover the `len` bytes meant; otherwise just the `len` bytes.
///
/// The one `unsafe` block of the writers. The safe ways measured worse: a 16-byte stack buffer
/// copied in with `extend_from_slice` is stored as two words and loaded as one 16-byte load,
/// which the CPU cannot forward from the two stores (a stall on every field); `resize` then
/// two slice copies costs a zero fill and more instructions; two `extend_from_slice` calls
/// keep both capacity checks. Each was slower on the small and large structs (BENCHMARKS.md,
/// "What each runtime/codegen change did").
#[inline(always)]
fn extend_words(out: &mut Vec<u8>, low: u64, high: u64, len: usize) {
    debug_assert!(len <= 16);
    let start = out.len();
    let spare = out.spare_capacity_mut();
    if spare.len() >= 16 {
        let dst = spare.as_mut_ptr().cast::<u8>();
        // SAFETY: `dst` points to at least 16 bytes of the vector's spare capacity (checked
        // just above), which the two unaligned 8-byte writes fill; the first `len <= 16` of
        // them are then initialized, so the length may cover them.
        #[allow(unsafe_code)]
        unsafe {
            dst.cast::<[u8; 8]>().write_unaligned(low.to_le_bytes());
            dst.add(8)
                .cast::<[u8; 8]>()
                .write_unaligned(high.to_le_bytes());
            out.set_len(start + len);
        }
    } else {
        let mut buf = [0u8; 16];
        buf[..8].copy_from_slice(&low.to_le_bytes());
        buf[8..].copy_from_slice(&high.to_le_bytes());
        out.extend_from_slice(&buf[..len]);
    }
}

/// The bytes of `b` (at most 16) as two little-endian words, zero beyond `b.len()`: loaded
/// as overlapping head and tail words (as `memcpy` does for short copies), so whatever the
/// length there are at most two loads of each size.
#[inline]
fn short_words(b: &[u8]) -> (u64, u64) {
    let len = b.len();
    debug_assert!(len <= 16);
    if len >= 8 {
        let low = u64::from_le_bytes(b[..8].try_into().unwrap_or_default());
        let high = if len > 8 {
            u64::from_le_bytes(b[len - 8..].try_into().unwrap_or_default()) >> (128 - 8 * len)
        } else {
            0
        };
        (low, high)
    } else if len >= 4 {
        let head = u32::from_le_bytes(b[..4].try_into().unwrap_or_default()) as u64;
        let tail = u32::from_le_bytes(b[len - 4..].try_into().unwrap_or_default()) as u64;
        (head | (tail << (8 * (len - 4))), 0)
    } else if len > 0 {
        let (first, middle, last) = (b[0] as u64, b[len / 2] as u64, b[len - 1] as u64);
        (
            first | (middle << (8 * (len / 2))) | (last << (8 * (len - 1))),
            0,
        )
    } else {
        (0, 0)
    }
}

impl<O: Output + ?Sized> Output for &mut O {
    #[inline]
    fn write_u8(&mut self, b: u8) -> Result<()> {
        (**self).write_u8(b)
    }

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write_bytes(bytes)
    }

    #[inline]
    fn write_data(&mut self, bytes: &[u8]) -> Result<()> {
        (**self).write_data(bytes)
    }

    #[inline(always)]
    fn write_small(&mut self, bytes: u128, len: usize) -> Result<()> {
        (**self).write_small(bytes, len)
    }

    #[inline(always)]
    fn write_prefixed_data(&mut self, prefix: u64, prefix_len: usize, data: &[u8]) -> Result<()> {
        (**self).write_prefixed_data(prefix, prefix_len, data)
    }
}

/// Output to any [`Write`]. Every call goes straight to the writer, so wrap
/// unbuffered sinks (sockets, files) in a [`std::io::BufWriter`] and flush
/// it when done.
#[derive(Debug)]
pub struct IoOutput<W> {
    inner: W,
}

impl<W: Write> IoOutput<W> {
    /// Writes to `inner`.
    pub fn new(inner: W) -> Self {
        IoOutput { inner }
    }

    /// Flushes the wrapped writer.
    pub fn flush(&mut self) -> Result<()> {
        Ok(self.inner.flush()?)
    }

    /// Returns the wrapped writer (not flushed).
    pub fn into_inner(self) -> W {
        self.inner
    }

    /// The wrapped writer.
    pub fn get_ref(&self) -> &W {
        &self.inner
    }
}

impl<W: Write> Output for IoOutput<W> {
    #[inline]
    fn write_u8(&mut self, b: u8) -> Result<()> {
        Ok(self.inner.write_all(&[b])?)
    }

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        Ok(self.inner.write_all(bytes)?)
    }
}

/// Output into a fixed buffer; writing past its end gives
/// [`ErrorKind::SizeLimit`](crate::ErrorKind::SizeLimit).
#[derive(Debug)]
pub struct SliceOutput<'a> {
    buf: &'a mut [u8],
    pos: usize,
}

impl<'a> SliceOutput<'a> {
    /// Writes into `buf` from its start.
    pub fn new(buf: &'a mut [u8]) -> Self {
        SliceOutput { buf, pos: 0 }
    }

    /// Number of bytes written.
    pub fn position(&self) -> usize {
        self.pos
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        &self.buf[..self.pos]
    }
}

impl Output for SliceOutput<'_> {
    #[inline]
    fn write_u8(&mut self, b: u8) -> Result<()> {
        match self.buf.get_mut(self.pos) {
            Some(slot) => {
                *slot = b;
                self.pos += 1;
                Ok(())
            }
            None => Err(Error::size_limit("output buffer full")),
        }
    }

    #[inline]
    fn write_bytes(&mut self, bytes: &[u8]) -> Result<()> {
        let end = self.pos.checked_add(bytes.len());
        match end.and_then(|end| self.buf.get_mut(self.pos..end)) {
            Some(dst) => {
                dst.copy_from_slice(bytes);
                self.pos += bytes.len();
                Ok(())
            }
            None => Err(Error::size_limit("output buffer full")),
        }
    }
}

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

    /// Appends the first `len` bytes of `buf` (a varint encoded on the stack). A `Vec` with
    /// room to spare copies all ten bytes, a fixed-size move, and drops the extra ones, instead
    /// of a variable-length copy.
    #[inline]
    fn write_prefix(&mut self, buf: &[u8; 10], len: usize) -> Result<()> {
        self.write_bytes(&buf[..len])
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
        if bytes.len() <= 16 && self.capacity() - self.len() >= 16 {
            let (low, high) = short_words(bytes);
            let mut buf = [0u8; 16];
            buf[..8].copy_from_slice(&low.to_le_bytes());
            buf[8..].copy_from_slice(&high.to_le_bytes());
            extend_prefix(self, &buf, bytes.len());
        } else {
            self.extend_from_slice(bytes);
        }
        Ok(())
    }

    #[inline]
    fn write_prefix(&mut self, buf: &[u8; 10], len: usize) -> Result<()> {
        extend_prefix(self, buf, len);
        Ok(())
    }
}

/// Appends the first `len` bytes of `buf`: within capacity as one fixed-size store of all `N`
/// bytes, the extra ones dropped again (no reallocation, so a pre-sized buffer stays exact),
/// instead of a variable-length copy; otherwise just the `len` bytes.
#[inline]
fn extend_prefix<const N: usize>(out: &mut Vec<u8>, buf: &[u8; N], len: usize) {
    let start = out.len();
    if out.capacity() - start >= N {
        out.extend_from_slice(buf);
        out.truncate(start + len);
    } else {
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

    #[inline]
    fn write_prefix(&mut self, buf: &[u8; 10], len: usize) -> Result<()> {
        (**self).write_prefix(buf, len)
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

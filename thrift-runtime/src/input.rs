//! Byte sources for readers: [`SliceInput`] (the fast path, can lend
//! borrowed data) and [`IoInput`] (any [`std::io::BufRead`]).

use std::borrow::Cow;
use std::io::{self, BufRead};

use bytes::Bytes;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limit;

/// Size of the chunks in which [`IoInput`] grows a buffer for a
/// length-prefixed value, so that a huge (hostile) prefix never allocates
/// more than the data actually received.
const IO_CHUNK: usize = 64 * 1024;

/// A source of bytes that protocol readers decode from.
///
/// `'de` is the lifetime of data that the input can lend
/// ([`Input::read_borrowed`]); only [`SliceInput`] actually lends, other
/// inputs return [`ErrorKind::BorrowUnsupported`]. The entry points that
/// take an `io::Read` ([`crate::ThriftReadOwned::decode_from_reader`]) only
/// accept owned types, so that error cannot happen through them.
pub trait Input<'de> {
    /// Reads one byte.
    fn read_u8(&mut self) -> Result<u8>;

    /// Reads exactly `N` bytes.
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]>;

    /// Reads `len` bytes, borrowed when possible. `len` is checked against
    /// the remaining input (or read in bounded chunks) before allocating.
    fn read_cow(&mut self, len: usize) -> Result<Cow<'de, [u8]>>;

    /// Reads `len` bytes borrowed from the input, if the input can lend.
    fn read_borrowed(&mut self, len: usize) -> Result<&'de [u8]>;

    /// Discards `len` bytes.
    fn skip(&mut self, len: usize) -> Result<()>;

    /// Number of bytes left, if known (slices). Readers use it to reject
    /// length prefixes and element counts that cannot possibly fit.
    fn remaining(&self) -> Option<usize>;

    /// Caps the total number of bytes that may be read from now on;
    /// reading beyond gives [`ErrorKind::LimitExceeded`] (`Limit::MessageSize`).
    fn set_max_message_size(&mut self, max: usize);

    /// At least ten upcoming bytes, without consuming them, when the input can show them
    /// cheaply (slices); `None` otherwise. Varint decoding uses it to read a whole varint
    /// with one bounds check, then [`Input::skip`]s what it used.
    #[inline]
    fn peek_ten(&self) -> Option<&[u8; 10]> {
        None
    }

    /// Reads `len` bytes as a shared buffer: a slice of the input's own `Bytes` when it has
    /// one ([`BytesInput`]), otherwise a copy (one allocation).
    #[inline]
    fn read_shared(&mut self, len: usize) -> Result<Bytes> {
        Ok(match self.read_cow(len)? {
            Cow::Borrowed(b) => Bytes::copy_from_slice(b),
            Cow::Owned(v) => Bytes::from(v),
        })
    }

    /// The next `N` bytes, without consuming them, when the input can show them cheaply
    /// (slices); `None` otherwise. Readers use it to match a field header against the one
    /// generated code expects next (`ProtocolReader::read_field_if`).
    #[inline]
    fn peek_array<const N: usize>(&self) -> Option<[u8; N]> {
        None
    }

    /// Every unread byte, without consuming them, when the input holds them all (slices);
    /// `None` otherwise. The JSON reader scans a string for its end in it, then lends or
    /// copies it whole.
    #[inline]
    fn lookahead(&self) -> Option<&'de [u8]> {
        None
    }

    /// The arena that the values read from this input keep their lists, sets, maps and
    /// optional structs in ([`ArenaInput`]), for the borrowing forms of code generated with
    /// `Builder::arena`; `None` for every other input.
    #[cfg(feature = "arena")]
    #[inline]
    fn arena(&self) -> Option<&'de crate::arena::Arena> {
        None
    }
}

/// Input from a byte slice. Bounds-checked, never copies unless asked to,
/// and lends `&'de [u8]` / `&'de str` for zero-copy decoding.
///
/// The slice stays whole and a position moves along it: reading a byte stores one word (the
/// position), where narrowing a `&[u8]` stores two (its start and length) and computes both.
/// Generated decoders read a byte or a varint per field, so this is on every field's path.
#[derive(Clone, Debug)]
pub struct SliceInput<'de> {
    /// The readable bytes: the input, less what `set_max_message_size` hides.
    data: &'de [u8],
    /// How many bytes of `data` have been read; never more than `data.len()`.
    pos: usize,
    /// Bytes beyond `data` hidden by `set_max_message_size`.
    hidden: usize,
}

impl<'de> SliceInput<'de> {
    /// Reads from `data`.
    #[inline]
    pub fn new(data: &'de [u8]) -> Self {
        SliceInput {
            data,
            pos: 0,
            hidden: 0,
        }
    }

    /// The bytes not read yet.
    #[inline]
    pub fn rest(&self) -> &'de [u8] {
        self.data.get(self.pos..).unwrap_or_default()
    }

    /// Number of bytes read so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// Bytes left to read.
    #[inline]
    fn left(&self) -> usize {
        // `pos` never exceeds `data.len()`.
        self.data.len() - self.pos
    }

    #[cold]
    #[inline(never)]
    fn eof(&self) -> Error {
        if self.hidden > 0 {
            Error::limit(Limit::MessageSize, "message larger than max_message_size")
        } else {
            Error::eof()
        }
    }

    #[cold]
    #[inline(never)]
    fn too_long(&self) -> Error {
        if self.hidden > 0 {
            Error::limit(Limit::MessageSize, "message larger than max_message_size")
        } else {
            Error::size_limit("length exceeds remaining input")
        }
    }

    #[inline]
    fn take(&mut self, len: usize) -> Result<&'de [u8]> {
        let start = self.pos;
        // `get` checks both ends; a `len` so large that `end` wraps gives `end < start`.
        match self.data.get(start..start.wrapping_add(len)) {
            Some(head) => {
                self.pos = start + len;
                Ok(head)
            }
            None => Err(self.too_long()),
        }
    }
}

impl<'de> Input<'de> for SliceInput<'de> {
    #[inline]
    fn lookahead(&self) -> Option<&'de [u8]> {
        Some(self.rest())
    }

    #[inline]
    fn peek_ten(&self) -> Option<&[u8; 10]> {
        self.peek_ref::<10>()
    }

    #[inline]
    fn peek_array<const N: usize>(&self) -> Option<[u8; N]> {
        self.peek_ref::<N>().copied()
    }

    #[inline]
    fn read_u8(&mut self) -> Result<u8> {
        match self.data.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        match self.peek_ref::<N>() {
            Some(&head) => {
                self.pos += N;
                Ok(head)
            }
            None => Err(self.eof()),
        }
    }

    #[inline]
    fn read_cow(&mut self, len: usize) -> Result<Cow<'de, [u8]>> {
        self.take(len).map(Cow::Borrowed)
    }

    #[inline]
    fn read_borrowed(&mut self, len: usize) -> Result<&'de [u8]> {
        self.take(len)
    }

    #[inline]
    fn skip(&mut self, len: usize) -> Result<()> {
        if len <= self.left() {
            self.pos += len;
            Ok(())
        } else {
            Err(self.too_long())
        }
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        Some(self.left())
    }

    /// Only ever shrinks the readable window.
    fn set_max_message_size(&mut self, max: usize) {
        if self.left() > max {
            let end = self.pos + max;
            self.hidden += self.data.len() - end;
            self.data = &self.data[..end];
        }
    }
}

impl<'de> SliceInput<'de> {
    /// The next `N` bytes, if there are that many.
    #[inline]
    fn peek_ref<const N: usize>(&self) -> Option<&'de [u8; N]> {
        self.data
            .get(self.pos..self.pos.wrapping_add(N))
            .and_then(|bytes| bytes.first_chunk::<N>())
    }
}

/// The [`Input`] methods of an input that reads through the [`SliceInput`] in its field `slice`
/// ([`BytesInput`], [`ArenaInput`]), each a call of the same method there, for use inside the
/// input's `impl Input`. A declarative macro, so that each input gets the very methods it had
/// written out (`#[inline]` on all but `set_max_message_size`), with no shared inner type or
/// extra call between the input and its slice: the hot decode path compiles as before.
macro_rules! forward_to_slice_input {
    () => {
        #[inline]
        fn read_u8(&mut self) -> Result<u8> {
            self.slice.read_u8()
        }

        #[inline]
        fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
            self.slice.read_array()
        }

        #[inline]
        fn read_cow(&mut self, len: usize) -> Result<Cow<'de, [u8]>> {
            self.slice.read_cow(len)
        }

        #[inline]
        fn read_borrowed(&mut self, len: usize) -> Result<&'de [u8]> {
            self.slice.read_borrowed(len)
        }

        #[inline]
        fn skip(&mut self, len: usize) -> Result<()> {
            self.slice.skip(len)
        }

        #[inline]
        fn remaining(&self) -> Option<usize> {
            self.slice.remaining()
        }

        fn set_max_message_size(&mut self, max: usize) {
            self.slice.set_max_message_size(max);
        }

        #[inline]
        fn peek_ten(&self) -> Option<&[u8; 10]> {
            self.slice.peek_ten()
        }

        #[inline]
        fn peek_array<const N: usize>(&self) -> Option<[u8; N]> {
            self.slice.peek_array()
        }

        #[inline]
        fn lookahead(&self) -> Option<&'de [u8]> {
            self.slice.lookahead()
        }
    };
}

/// Input from a [`Bytes`] buffer: everything [`SliceInput`] does (borrowed reads included),
/// and [`Input::read_shared`] returns slices of the same buffer (a reference-count increment,
/// no copy), which is how types generated with `Strings::Bytes` decode without allocating per
/// string or binary.
#[derive(Clone, Debug)]
pub struct BytesInput<'de> {
    buffer: &'de Bytes,
    slice: SliceInput<'de>,
}

impl<'de> BytesInput<'de> {
    /// Reads from `buffer`.
    #[inline]
    pub fn new(buffer: &'de Bytes) -> Self {
        BytesInput {
            buffer,
            slice: SliceInput::new(buffer),
        }
    }

    /// Number of bytes read so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.slice.position()
    }
}

impl<'de> Input<'de> for BytesInput<'de> {
    forward_to_slice_input!();

    // Always inlined: left to the inliner, it stayed out of line in some builds of the same
    // code, and the benchmark's `ours-bytes` decode then paid a call per string.
    #[inline(always)]
    fn read_shared(&mut self, len: usize) -> Result<Bytes> {
        let start = self.slice.position();
        self.slice.take(len)?;
        // `slice` by offsets: the same as `slice_ref(part)` without its pointer arithmetic
        // and checks (measured: see BENCHMARKS.md).
        Ok(self.buffer.slice(start..start + len))
    }
}

/// Input from a byte slice, with an arena that the values read from it allocate their lists,
/// sets, maps and optional structs in ([`ThriftRead::decode_in`](crate::ThriftRead::decode_in),
/// feature `arena`): everything [`SliceInput`] does, and [`Input::arena`].
#[cfg(feature = "arena")]
#[derive(Clone, Debug)]
pub struct ArenaInput<'de> {
    slice: SliceInput<'de>,
    arena: &'de crate::arena::Arena,
}

#[cfg(feature = "arena")]
impl<'de> ArenaInput<'de> {
    /// Reads from `data`, allocating in `arena`.
    #[inline]
    pub fn new(data: &'de [u8], arena: &'de crate::arena::Arena) -> Self {
        ArenaInput {
            slice: SliceInput::new(data),
            arena,
        }
    }

    /// Number of bytes read so far.
    #[inline]
    pub fn position(&self) -> usize {
        self.slice.position()
    }
}

#[cfg(feature = "arena")]
impl<'de> Input<'de> for ArenaInput<'de> {
    forward_to_slice_input!();

    #[inline]
    fn arena(&self) -> Option<&'de crate::arena::Arena> {
        Some(self.arena)
    }
}

/// Input from any [`BufRead`]: a `BufReader` over a file or socket, or
/// `&[u8]`.
///
/// Uses the reader's own buffer (`fill_buf`/`consume`), so it never reads
/// past the end of the decoded value: pass `&mut your_buf_reader` to decode
/// several values from one stream. Borrowed reads are unavailable.
#[derive(Debug)]
pub struct IoInput<R> {
    inner: R,
    /// Bytes that may still be read before `max_message_size` is hit.
    budget: usize,
}

impl<R: BufRead> IoInput<R> {
    /// Reads from `inner` (no size cap until a reader sets one).
    pub fn new(inner: R) -> Self {
        IoInput {
            inner,
            budget: usize::MAX,
        }
    }

    /// Returns the wrapped reader.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// The wrapped reader.
    pub fn get_ref(&self) -> &R {
        &self.inner
    }

    #[inline]
    fn charge(&mut self, n: usize) -> Result<()> {
        if n <= self.budget {
            self.budget -= n;
            Ok(())
        } else {
            Err(Error::limit(
                Limit::MessageSize,
                "message larger than max_message_size",
            ))
        }
    }

    /// `fill_buf`, retrying on `Interrupted`; empty means end of input.
    #[inline]
    fn fill(&mut self) -> Result<&[u8]> {
        loop {
            match self.inner.fill_buf() {
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e.into()),
            }
        }
        // Re-borrow after the loop (the borrow checker cannot see through
        // the retry loop otherwise).
        Ok(self.inner.fill_buf()?)
    }

    /// Copies exactly `out.len()` bytes.
    fn read_exact_into(&mut self, out: &mut [u8]) -> Result<()> {
        let mut done = 0;
        while done < out.len() {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Err(Error::eof());
            }
            let n = buf.len().min(out.len() - done);
            out[done..done + n].copy_from_slice(&buf[..n]);
            self.inner.consume(n);
            done += n;
        }
        Ok(())
    }
}

impl<'de, R: BufRead> Input<'de> for IoInput<R> {
    #[inline]
    fn read_u8(&mut self) -> Result<u8> {
        self.charge(1)?;
        let b = match self.fill()?.first() {
            Some(&b) => b,
            None => return Err(Error::eof()),
        };
        self.inner.consume(1);
        Ok(b)
    }

    #[inline]
    fn read_array<const N: usize>(&mut self) -> Result<[u8; N]> {
        self.charge(N)?;
        let mut out = [0u8; N];
        if let Some(head) = self.fill()?.first_chunk::<N>() {
            out = *head;
            self.inner.consume(N);
        } else {
            self.read_exact_into(&mut out)?;
        }
        Ok(out)
    }

    fn read_cow(&mut self, len: usize) -> Result<Cow<'de, [u8]>> {
        self.charge(len)?;
        let mut out = Vec::with_capacity(len.min(IO_CHUNK));
        while out.len() < len {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Err(Error::eof());
            }
            let n = buf.len().min(len - out.len());
            out.extend_from_slice(&buf[..n]);
            self.inner.consume(n);
        }
        Ok(Cow::Owned(out))
    }

    fn read_borrowed(&mut self, _len: usize) -> Result<&'de [u8]> {
        Err(Error::new(
            ErrorKind::BorrowUnsupported,
            "use read_string/read_binary with io input",
        ))
    }

    fn skip(&mut self, len: usize) -> Result<()> {
        self.charge(len)?;
        let mut left = len;
        while left > 0 {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Err(Error::eof());
            }
            let n = buf.len().min(left);
            self.inner.consume(n);
            left -= n;
        }
        Ok(())
    }

    #[inline]
    fn remaining(&self) -> Option<usize> {
        None
    }

    fn set_max_message_size(&mut self, max: usize) {
        self.budget = max;
    }
}

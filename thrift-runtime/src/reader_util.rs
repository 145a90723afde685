//! Checks shared by the protocol readers: nesting depth and length prefixes.

use crate::error::{Error, Result};
use crate::limits::{Limit, ReadLimits};

/// Nesting depth counter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Depth {
    current: usize,
    max: usize,
}

impl Depth {
    pub(crate) fn new(max: usize) -> Depth {
        Depth { current: 0, max }
    }

    #[inline]
    pub(crate) fn enter(&mut self) -> Result<()> {
        if self.current < self.max {
            self.current += 1;
            Ok(())
        } else {
            Err(Error::limit(Limit::Depth, "nested deeper than max_depth"))
        }
    }

    #[inline]
    pub(crate) fn leave(&mut self) {
        self.current = self.current.saturating_sub(1);
    }
}

/// Validates a `string`/`binary` length prefix (the remaining-input check
/// is done by the input itself before it allocates).
#[inline]
pub(crate) fn string_len(raw: i32, limits: &ReadLimits) -> Result<usize> {
    if raw < 0 {
        return Err(Error::negative_size("string length"));
    }
    let len = raw as usize;
    if len > limits.max_string_len {
        return Err(Error::limit(
            Limit::StringLen,
            "string longer than max_string_len",
        ));
    }
    Ok(len)
}

/// Validates a container element count. Every element takes at least one
/// byte in both protocols, so `len * min_bytes_per_elem` must fit in the
/// remaining input when that is known.
#[inline]
pub(crate) fn container_len(
    raw: i32,
    limits: &ReadLimits,
    remaining: Option<usize>,
    min_bytes_per_elem: usize,
) -> Result<usize> {
    if raw < 0 {
        return Err(Error::negative_size("container size"));
    }
    let len = raw as usize;
    if len > limits.max_container_len {
        return Err(Error::limit(
            Limit::ContainerLen,
            "container larger than max_container_len",
        ));
    }
    if let Some(rem) = remaining {
        if len.saturating_mul(min_bytes_per_elem) > rem {
            return Err(Error::size_limit("container size exceeds remaining input"));
        }
    }
    Ok(len)
}

/// Validates UTF-8 of borrowed bytes.
#[inline]
pub(crate) fn utf8(bytes: &[u8]) -> Result<&str> {
    match crate::utf8::str_from_utf8(bytes) {
        Some(s) => Ok(s),
        None => Err(Error::invalid_utf8()),
    }
}

/// Validates UTF-8 of owned bytes without copying.
#[inline]
pub(crate) fn utf8_owned(bytes: Vec<u8>) -> Result<String> {
    match crate::utf8::string_from_utf8(bytes) {
        Some(s) => Ok(s),
        None => Err(Error::invalid_utf8()),
    }
}

/// Validates UTF-8 of a shared buffer without copying.
#[inline]
pub(crate) fn byte_string(bytes: bytes::Bytes) -> Result<bytestring::ByteString> {
    match crate::utf8::byte_string_from_utf8(bytes) {
        Some(s) => Ok(s),
        None => Err(Error::invalid_utf8()),
    }
}

/// Converts possibly-borrowed bytes to an owned, validated `String`,
/// validating before copying.
#[inline]
pub(crate) fn cow_to_string(bytes: std::borrow::Cow<'_, [u8]>) -> Result<String> {
    match bytes {
        std::borrow::Cow::Borrowed(b) => utf8(b).map(str::to_owned),
        std::borrow::Cow::Owned(v) => utf8_owned(v),
    }
}

/// Validates possibly-borrowed bytes into `out`: borrowed ones copied into `out`'s buffer
/// (kept when it is large enough), owned ones moved in.
///
/// Always inlined, as is [`cow_into_vec`]: left to the inliner both stayed out of line in the
/// readers' `read_string_into`/`read_binary_into`, where a slice input's `Cow` is always
/// borrowed and the owned arm is dead (fewer instructions per decode when inlined:
/// BENCHMARKS.md, "What each runtime/codegen change did").
#[inline(always)]
pub(crate) fn cow_into_string(bytes: std::borrow::Cow<'_, [u8]>, out: &mut String) -> Result<()> {
    match bytes {
        std::borrow::Cow::Borrowed(b) => {
            let s = utf8(b)?;
            if out.capacity() >= s.len() {
                out.clear();
                out.push_str(s);
            } else {
                // A new exact-size buffer: growing an empty `String` by `push_str` goes
                // through its amortized-growth path, which measured slower on a fresh decode.
                *out = s.to_owned();
            }
        }
        std::borrow::Cow::Owned(v) => *out = utf8_owned(v)?,
    }
    Ok(())
}

/// Possibly-borrowed bytes into `out`: borrowed ones copied into `out`'s buffer (kept when it
/// is large enough, else a new exact-size one, as [`cow_into_string`]), owned ones moved in.
#[inline(always)]
pub(crate) fn cow_into_vec(bytes: std::borrow::Cow<'_, [u8]>, out: &mut Vec<u8>) {
    match bytes {
        std::borrow::Cow::Borrowed(b) if out.capacity() >= b.len() => {
            out.clear();
            out.extend_from_slice(b);
        }
        std::borrow::Cow::Borrowed(b) => *out = b.to_vec(),
        std::borrow::Cow::Owned(v) => *out = v,
    }
}

/// Converts possibly-borrowed bytes to a possibly-borrowed, validated `str`.
#[inline]
pub(crate) fn cow_to_str(bytes: std::borrow::Cow<'_, [u8]>) -> Result<std::borrow::Cow<'_, str>> {
    match bytes {
        std::borrow::Cow::Borrowed(b) => utf8(b).map(std::borrow::Cow::Borrowed),
        std::borrow::Cow::Owned(v) => utf8_owned(v).map(std::borrow::Cow::Owned),
    }
}

/// Validates possibly-borrowed bytes into `out`, written where it lives: borrowed ones copied
/// into `out` (inline when they fit, its heap buffer kept when large enough), owned ones moved
/// in.
#[cfg(feature = "compact_str")]
#[inline]
pub(crate) fn cow_into_compact(
    bytes: std::borrow::Cow<'_, [u8]>,
    out: &mut compact_str::CompactString,
) -> Result<()> {
    match bytes {
        std::borrow::Cow::Borrowed(b) => {
            let s = utf8(b)?;
            // `CompactString` keeps up to its own size (24 bytes on 64-bit targets) inline.
            if s.len() > std::mem::size_of::<compact_str::CompactString>()
                && out.capacity() >= s.len()
            {
                // A heap buffer with room is kept.
                out.clear();
                out.push_str(s);
            } else {
                // Inline (up to 24 bytes) or a new heap buffer. `push_str` into an inline
                // `out` goes through `compact_str`'s out-of-line reserve/buffer/length calls:
                // more instructions and time per decode of the large struct
                // (`ours-compact-hash`, BENCHMARKS.md) than building the new value, which the
                // compiler does on the stack and copies into `out`.
                *out = compact_str::CompactString::new(s);
            }
        }
        std::borrow::Cow::Owned(v) => *out = utf8_owned(v)?.into(),
    }
    Ok(())
}

/// Converts possibly-borrowed bytes to a validated `CompactString`: inline when at most 24
/// bytes, validated before copying.
#[cfg(feature = "compact_str")]
#[inline]
pub(crate) fn cow_to_compact(
    bytes: std::borrow::Cow<'_, [u8]>,
) -> Result<compact_str::CompactString> {
    match bytes {
        std::borrow::Cow::Borrowed(b) => utf8(b).map(compact_str::CompactString::new),
        std::borrow::Cow::Owned(v) => utf8_owned(v).map(compact_str::CompactString::from),
    }
}

/// The reads whose code the binary and compact protocols share, expanded inside each one's
/// `ProtocolReader` impl: strings and binaries (a length prefix and the bytes; the two differ
/// only in how `self.read_len()` reads and checks the prefix, a big-endian `i32` or a
/// varint, from `self.input`, the [`crate::input::Input`]), list and set headers (through
/// `self.read_list_header()`) and the container ends (`self.depth`).
macro_rules! shared_reads {
    () => {
        #[inline]
        fn read_list_begin(&mut self) -> Result<ListHeader> {
            self.read_list_header()
        }

        #[inline]
        fn read_list_end(&mut self) -> Result<()> {
            self.depth.leave();
            Ok(())
        }

        #[inline]
        fn read_set_begin(&mut self) -> Result<ListHeader> {
            self.read_list_header()
        }

        #[inline]
        fn read_set_end(&mut self) -> Result<()> {
            self.depth.leave();
            Ok(())
        }

        #[inline]
        fn read_map_end(&mut self) -> Result<()> {
            self.depth.leave();
            Ok(())
        }

        #[inline]
        fn read_string(&mut self) -> Result<String> {
            let len = self.read_len()?;
            $crate::reader_util::cow_to_string(self.input.read_cow(len)?)
        }

        #[inline]
        fn read_binary(&mut self) -> Result<Vec<u8>> {
            let len = self.read_len()?;
            Ok(self.input.read_cow(len)?.into_owned())
        }

        #[inline]
        fn read_binary_into(&mut self, out: &mut Vec<u8>) -> Result<()> {
            let len = self.read_len()?;
            $crate::reader_util::cow_into_vec(self.input.read_cow(len)?, out);
            Ok(())
        }

        // Always inlined: out of line it returns the `ByteString` through memory, and the
        // caller (a map key or value, a set element) moves it with loads of the words just
        // stored, a store-forwarding stall (BENCHMARKS.md, "What each runtime/codegen change did":
        // `read_byte_string` always inlined).
        #[inline(always)]
        fn read_byte_string(&mut self) -> Result<bytestring::ByteString> {
            let len = self.read_len()?;
            $crate::reader_util::byte_string(self.input.read_shared(len)?)
        }

        #[cfg(feature = "compact_str")]
        #[inline]
        fn read_compact_string(&mut self) -> Result<::compact_str::CompactString> {
            let len = self.read_len()?;
            $crate::reader_util::cow_to_compact(self.input.read_cow(len)?)
        }

        #[inline]
        fn read_string_into(&mut self, out: &mut String) -> Result<()> {
            let len = self.read_len()?;
            $crate::reader_util::cow_into_string(self.input.read_cow(len)?, out)
        }

        #[cfg(feature = "compact_str")]
        #[inline]
        fn read_compact_string_into(
            &mut self,
            out: &mut ::compact_str::CompactString,
        ) -> Result<()> {
            let len = self.read_len()?;
            $crate::reader_util::cow_into_compact(self.input.read_cow(len)?, out)
        }

        #[inline]
        fn read_shared_bytes(&mut self) -> Result<bytes::Bytes> {
            let len = self.read_len()?;
            self.input.read_shared(len)
        }

        // Always inlined: out of line, its `Result<&str>` (three words) comes back through
        // memory, and the inliner left it out of line in the generated readers of structs
        // with several string fields.
        #[inline(always)]
        fn read_str(&mut self) -> Result<&'de str> {
            let len = self.read_len()?;
            $crate::reader_util::utf8(self.input.read_borrowed(len)?)
        }

        #[inline]
        fn read_bytes(&mut self) -> Result<&'de [u8]> {
            let len = self.read_len()?;
            self.input.read_borrowed(len)
        }

        #[inline]
        fn skip_binary(&mut self) -> Result<()> {
            let len = self.read_len()?;
            self.input.skip(len)
        }

        #[cfg(feature = "arena")]
        #[inline]
        fn arena(&self) -> Option<&'de $crate::arena::Arena> {
            self.input.arena()
        }

        #[inline]
        fn read_binary_if_eq(&mut self, expected: &[u8]) -> Result<bool> {
            let Some(rest) = self.input.lookahead() else {
                return Ok(false);
            };
            // The prefix read from a copy of the position: a prefix that does not read (or
            // breaks a limit) answers `false`, and the caller's own read reports it.
            let mut peek = $crate::input::SliceInput::new(rest);
            let Ok(len) = Self::len_prefix(&mut peek, &self.limits) else {
                return Ok(false);
            };
            let start = peek.position();
            if len != expected.len() || rest.get(start..start + len) != Some(expected) {
                return Ok(false);
            }
            self.input.skip(start + len)?;
            Ok(true)
        }
    };
}
pub(crate) use shared_reads;

/// Reads `out.len()` list or set elements of `N` bytes each, each converted by `from`: in one
/// loop over the input's bytes when it holds them all (slices; the loop has no per-element
/// bounds check or error path, and compiles to wide loads), else one [`Input::read_array`]
/// each. What the binary reader's `read_i32_elements` and the like, and the compact reader's
/// `read_double_elements`, are.
#[inline]
pub(crate) fn fixed_elements<'de, const N: usize, T>(
    input: &mut impl crate::input::Input<'de>,
    out: &mut [T],
    from: impl Fn([u8; N]) -> T,
) -> Result<()> {
    let bytes = input
        .lookahead()
        .and_then(|rest| rest.get(..out.len().checked_mul(N)?));
    if let Some(bytes) = bytes {
        for (item, chunk) in out.iter_mut().zip(bytes.chunks_exact(N)) {
            *item = from(chunk.try_into().expect("chunks of N bytes"));
        }
        return input.skip(bytes.len());
    }
    for item in out {
        *item = from(input.read_array()?);
    }
    Ok(())
}

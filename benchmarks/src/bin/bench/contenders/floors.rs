//! The floors: what no decoder can beat. `memcpy` touches the bytes and nothing more;
//! `alloc-floor` and `bytes-floor` make the heap calls (and the reference counts) of our decodes
//! without decoding.

use std::hint::black_box;

use thrift_runtime::ThriftRead;
#[cfg(feature = "mappings")]
use thrift_runtime::{Binary, Compact, Protocol, ThriftWrite};

use super::{decode_ours, Proto};
use crate::alloc::Step;
use crate::measure::Runner;

/// The heap calls of our owned decode (the decode and the value's drop), traced once and
/// replayed without decoding: the same sizes allocated and freed in the same order through the
/// same global allocator. What the allocator alone costs for what `ours` allocates: the floor
/// of any decoder making those allocations, as `memcpy` is the floor of touching the bytes.
pub fn alloc_floor<'a, T: for<'de> ThriftRead<'de>>(
    proto: Proto,
    bytes: &[u8],
) -> Result<Runner<'a>, String> {
    replay_floor(|| decode_ours::<T>(proto, bytes).map(drop), None)
}

/// [`alloc_floor`] for a `Strings::Bytes` decode (`ours-bytes`): its heap calls, and as many
/// clones and drops of the shared input buffer as the value holds non-empty strings and
/// binaries (each one a `Bytes` slice of the input: one atomic increment when it is made, one
/// decrement when it is dropped). The floor of any decoder that builds that value.
#[cfg(feature = "mappings")]
pub fn bytes_floor<'a, T: for<'de> ThriftRead<'de> + ThriftWrite>(
    proto: Proto,
    bytes: &[u8],
) -> Result<Runner<'a>, String> {
    let buffer = thrift_runtime::Bytes::copy_from_slice(bytes);
    let decode = || {
        match proto {
            Proto::Binary => T::decode_bytes::<Binary>(&buffer),
            Proto::Compact => T::decode_bytes::<Compact>(&buffer),
        }
        .map_err(|e| format!("{e}"))
    };
    // The first decode promotes the buffer to shared (one allocation, once), as the
    // contender's check before timing does for `ours-bytes`.
    let shares = count_shares(&decode()?)?;
    replay_floor(|| decode().map(drop), Some((buffer.clone(), shares)))
}

/// The non-empty strings and binaries `value` writes: its `Bytes` slices when it is a
/// `Strings::Bytes` value decoded from a shared buffer (an empty one is `Bytes::new()`, no
/// reference to the buffer).
#[cfg(feature = "mappings")]
fn count_shares<T: ThriftWrite>(value: &T) -> Result<usize, String> {
    use thrift_runtime::protocol::ProtocolWriter;
    use thrift_runtime::wire::{MessageType, StructToken, TType};
    use thrift_runtime::Result as R;

    /// A binary writer that counts the non-empty binaries (and strings: `write_string`'s
    /// default calls `write_binary`) written through it.
    struct Counting<W> {
        inner: W,
        shares: usize,
    }
    impl<W: ProtocolWriter> ProtocolWriter for Counting<W> {
        fn write_message_begin(&mut self, name: &str, kind: MessageType, seq: i32) -> R<()> {
            self.inner.write_message_begin(name, kind, seq)
        }
        fn write_struct_begin(&mut self) -> R<StructToken> {
            self.inner.write_struct_begin()
        }
        fn write_struct_end(&mut self, token: StructToken) -> R<()> {
            self.inner.write_struct_end(token)
        }
        fn write_field_begin(&mut self, ttype: TType, id: i16) -> R<()> {
            self.inner.write_field_begin(ttype, id)
        }
        fn write_field_stop(&mut self) -> R<()> {
            self.inner.write_field_stop()
        }
        fn write_list_begin(&mut self, elem: TType, len: usize) -> R<()> {
            self.inner.write_list_begin(elem, len)
        }
        fn write_set_begin(&mut self, elem: TType, len: usize) -> R<()> {
            self.inner.write_set_begin(elem, len)
        }
        fn write_map_begin(&mut self, key: TType, value: TType, len: usize) -> R<()> {
            self.inner.write_map_begin(key, value, len)
        }
        fn write_bool(&mut self, v: bool) -> R<()> {
            self.inner.write_bool(v)
        }
        fn write_i8(&mut self, v: i8) -> R<()> {
            self.inner.write_i8(v)
        }
        fn write_i16(&mut self, v: i16) -> R<()> {
            self.inner.write_i16(v)
        }
        fn write_i32(&mut self, v: i32) -> R<()> {
            self.inner.write_i32(v)
        }
        fn write_i64(&mut self, v: i64) -> R<()> {
            self.inner.write_i64(v)
        }
        fn write_double(&mut self, v: f64) -> R<()> {
            self.inner.write_double(v)
        }
        fn write_uuid(&mut self, v: &[u8; 16]) -> R<()> {
            self.inner.write_uuid(v)
        }
        fn write_binary(&mut self, v: &[u8]) -> R<()> {
            self.shares += usize::from(!v.is_empty());
            self.inner.write_binary(v)
        }
    }

    let mut out = Vec::new();
    let mut w = Counting {
        inner: Binary::writer(&mut out),
        shares: 0,
    };
    value.write(&mut w).map_err(|e| format!("{e}"))?;
    Ok(w.shares)
}

/// Traces the heap calls of `decode` (a decode and the value's drop) once and replays them;
/// with `shares = Some((buffer, k))`, each replay also makes `k` clones of `buffer` and drops
/// them.
fn replay_floor<'a>(
    mut decode: impl FnMut() -> Result<(), String>,
    shares: Option<(thrift_runtime::Bytes, usize)>,
) -> Result<Runner<'a>, String> {
    let mut decoded = Ok(());
    let replay = crate::alloc::trace(|| {
        decoded = decode();
    })
    .ok_or("more heap calls than the trace has room for")?;
    decoded?;
    // Leaked like the replay (see `alloc::trace`).
    let blocks: &'static mut [*mut u8] = vec![std::ptr::null_mut(); replay.slots].leak();
    let (buffer, shares) = shares.unwrap_or_default();
    // Room for the clones before timing, so holding them allocates nothing.
    let mut held = Vec::with_capacity(shares);
    let mut runner: Runner<'a> = Box::new(move |n: u64| {
        use std::alloc::{alloc, dealloc, handle_alloc_error, realloc};
        for _ in 0..n {
            for _ in 0..shares {
                held.push(black_box(&buffer).clone());
            }
            for step in &replay.steps {
                match *step {
                    Step::Alloc { slot, layout } => {
                        // SAFETY: `layout` is one the decoder allocated with, so its size is
                        // not zero.
                        let block = unsafe { alloc(layout) };
                        if block.is_null() {
                            handle_alloc_error(layout);
                        }
                        blocks[slot] = black_box(block);
                    }
                    Step::Realloc { slot, layout, size } => {
                        // SAFETY: the slot holds the live block allocated with `layout` (the
                        // trace follows the decoder's own calls); `size` is what it asked for.
                        let block = unsafe { realloc(blocks[slot], layout, size) };
                        if block.is_null() {
                            handle_alloc_error(layout);
                        }
                        blocks[slot] = block;
                    }
                    Step::Free { slot, layout } => {
                        // SAFETY: the slot holds the live block allocated with `layout`; each
                        // slot is freed once per replay, after its allocation.
                        unsafe { dealloc(blocks[slot], layout) }
                    }
                }
            }
            held.clear();
        }
    });
    // The check before timing: one replay allocates what one decode does.
    let (_, decode) = crate::alloc::count(&mut decode);
    let ((), replay) = crate::alloc::count(|| runner(1));
    if (replay.allocs, replay.bytes) != (decode.allocs, decode.bytes) {
        return Err(format!(
            "the replay allocates {} blocks, {} bytes; the decode {}, {}",
            replay.allocs, replay.bytes, decode.allocs, decode.bytes
        ));
    }
    Ok(runner)
}

/// Copies the bytes into a reused buffer: the floor of touching them.
pub fn memcpy<'a>(bytes: &'a [u8]) -> Runner<'a> {
    let mut buf = Vec::with_capacity(bytes.len());
    Box::new(move |n: u64| {
        for _ in 0..n {
            buf.clear();
            buf.extend_from_slice(black_box(bytes));
            black_box(&buf);
        }
    })
}

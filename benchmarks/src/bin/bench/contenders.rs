//! The contenders: one runner per (contender, protocol, operation), each checked before it is
//! timed.
//!
//! Every contender gets the benchmark value by decoding our encoding of it. Verification:
//! - ours: decoding our bytes gives the value back; `encoded_len` matches;
//! - Apache, pilota: decode our bytes, encode again with the contender, and our decoder must get
//!   the original value from the contender's bytes (so the contender's decode and encode both
//!   preserve the value; map/set order may differ on the wire, the decoded values may not);
//! - ours-borrowed: converting the `FooRef` to the owned type gives the value;
//! - serde_json: the mirror value survives a JSON round trip;
//! - the parquet crate: its `ParquetMetaData` agrees with our `FileMetaData` on rows, row groups,
//!   columns per row group, sizes and `created_by`.
//!
//! A contender that fails verification (an error or a panic) is reported as failed for that
//! scenario with the reason, and is not timed.

use std::hint::black_box;
use std::panic::{catch_unwind, AssertUnwindSafe};

use thrift_runtime::{Binary, Compact, Protocol, ThriftRead, ThriftWrite};

use crate::alloc::Step;
use crate::gen;
use crate::measure::Runner;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Proto {
    Binary,
    Compact,
}

impl Proto {
    pub fn name(self) -> &'static str {
        match self {
            Proto::Binary => "binary",
            Proto::Compact => "compact",
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Op {
    Decode,
    Encode,
}

impl Op {
    pub fn name(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::Encode => "encode",
        }
    }
}

pub struct Contender<'a> {
    pub name: &'static str,
    /// `Err(reason)`: failed verification, not timed.
    pub runner: Result<Runner<'a>, String>,
}

#[allow(dead_code)] // unused when only ours is built (compare.sh)
fn guard<T>(f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    // A contender's panic is a verification failure, reported in the results: keep the
    // default hook's message and backtrace off stderr meanwhile.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    match result {
        Ok(r) => r,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".into());
            Err(format!("panicked: {msg}"))
        }
    }
}

/// A benchmarked type, with its counterpart in each contender's generated code.
pub trait Workload: 'static {
    type Ours: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + Default + std::fmt::Debug;
    #[cfg(feature = "apache")]
    type Apache: thrift::protocol::TSerializable;
    #[cfg(feature = "pilota")]
    type Pilota: pilota::thrift::Message;
    #[cfg(feature = "json")]
    type Json: serde::Serialize + serde::de::DeserializeOwned + PartialEq;
    #[cfg(feature = "json")]
    fn to_json(v: &Self::Ours) -> Option<Self::Json>;
    #[cfg(feature = "borrowed")]
    type Ref<'a>: ThriftRead<'a>;
    #[cfg(feature = "borrowed")]
    fn ref_to_owned(r: &Self::Ref<'_>) -> Self::Ours;
    /// The borrowing form generated in arena mode (`Builder::arena`).
    #[cfg(feature = "arena")]
    type ArenaRef<'a>: ThriftRead<'a> + ThriftWrite;
    /// The same type generated with `Strings::Bytes`.
    #[cfg(feature = "mappings")]
    type Shared: for<'de> ThriftRead<'de> + ThriftWrite;
    /// The same type generated with `Collections::Hash`, when the workload has sets or maps.
    #[cfg(feature = "mappings")]
    type Hash: for<'de> ThriftRead<'de> + ThriftWrite;
    /// The same type generated with `Strings::Bytes`, `Collections::Hash` and foldhash.
    #[cfg(feature = "mappings")]
    type SharedHash: for<'de> ThriftRead<'de> + ThriftWrite;
    /// The same type generated with `Strings::Compact`, `Collections::Hash` and foldhash.
    #[cfg(feature = "compact")]
    type CompactHash: for<'de> ThriftRead<'de> + ThriftWrite;
    /// Whether the workload has sets or maps (the `Hash` types differ from the default ones).
    #[cfg(feature = "mappings")]
    const HAS_HASH: bool;
    /// Contenders only this workload has (the parquet crate's footer decoder).
    fn extra_decoders<'a>(_value: &'a Self::Ours, _bytes: &'a [u8]) -> Vec<Contender<'a>> {
        Vec::new()
    }
}

pub fn decode_ours<T: for<'de> ThriftRead<'de>>(proto: Proto, bytes: &[u8]) -> Result<T, String> {
    match proto {
        Proto::Binary => T::decode::<Binary>(bytes),
        Proto::Compact => T::decode::<Compact>(bytes),
    }
    .map_err(|e| format!("{e}"))
}

pub fn encode_ours<T: ThriftWrite>(proto: Proto, value: &T) -> Vec<u8> {
    match proto {
        Proto::Binary => value.encode_to_vec::<Binary>(),
        Proto::Compact => value.encode_to_vec::<Compact>(),
    }
    .expect("our encoder")
}

/// Our decoder must read `bytes` (made by some contender) back to `value`.
fn check_bytes<T: for<'de> ThriftRead<'de> + PartialEq + std::fmt::Debug>(
    proto: Proto,
    bytes: &[u8],
    value: &T,
) -> Result<(), String> {
    let back: T = decode_ours(proto, bytes)
        .map_err(|e| format!("its {} bytes do not decode: {e}", proto.name()))?;
    if &back != value {
        return Err("its bytes decode to a different value".into());
    }
    Ok(())
}

fn ours_decoder<'a, T: for<'de> ThriftRead<'de>, P: Protocol>(bytes: &'a [u8]) -> Runner<'a> {
    Box::new(move |n: u64| {
        for _ in 0..n {
            black_box(T::decode::<P>(black_box(bytes)).unwrap());
        }
    })
}

#[cfg(feature = "reuse")]
/// `decode_into` one value again and again, as a reader of a stream of similar messages does
/// (the value's allocations are reused: steady state).
fn ours_decoder_into<'a, T, P>(bytes: &'a [u8], mut value: T) -> Runner<'a>
where
    T: for<'de> ThriftRead<'de> + 'a,
    P: Protocol,
{
    Box::new(move |n: u64| {
        for _ in 0..n {
            T::decode_into::<P>(black_box(bytes), &mut value).unwrap();
            black_box(&value);
        }
    })
}

#[cfg(feature = "reuse")]
/// The `ours-decode_into` contender: checked to give the value when decoding into a used one.
fn ours_into_contender<'a, T>(proto: Proto, bytes: &'a [u8], value: &T) -> Contender<'a>
where
    T: for<'de> ThriftRead<'de> + PartialEq + Default + 'a,
{
    let runner = (|| {
        let mut used = T::default();
        for _ in 0..2 {
            match proto {
                Proto::Binary => T::decode_into::<Binary>(bytes, &mut used),
                Proto::Compact => T::decode_into::<Compact>(bytes, &mut used),
            }
            .map_err(|e| format!("{e}"))?;
        }
        if used != *value {
            return Err("decodes into a used value as a different value".to_string());
        }
        Ok(match proto {
            Proto::Binary => ours_decoder_into::<T, Binary>(bytes, used),
            Proto::Compact => ours_decoder_into::<T, Compact>(bytes, used),
        })
    })();
    Contender {
        name: "ours-decode_into",
        runner,
    }
}

/// `decoded` (a value of another mapping of the same IDL) must re-encode to bytes that our
/// default types decode to `value`.
#[cfg(feature = "mappings")]
fn reencodes_to<T, O>(proto: Proto, decoded: &T, value: &O) -> Result<(), String>
where
    T: ThriftWrite,
    O: for<'de> ThriftRead<'de> + PartialEq,
{
    let back: O = decode_ours(proto, &encode_ours(proto, decoded))?;
    if back != *value {
        return Err("decodes to a different value".to_string());
    }
    Ok(())
}

/// Ours generated with the type-mapping options (decode only): `Strings::Bytes` decoded from a
/// `Bytes` (strings and binaries are slices of it); with `Collections::Hash` and foldhash as
/// well, pilota's own mapping (`FastStr`/`Bytes` and `AHashMap`); `Strings::Compact` (strings
/// inline up to 24 bytes, binaries slices of the `Bytes`) with `Collections::Hash` and
/// foldhash; `Collections::Hash` alone (its encoding order is the maps' own, so it is not an
/// encoder).
#[cfg(feature = "mappings")]
fn mapping_contenders<'a, W: Workload>(
    proto: Proto,
    bytes: &'a [u8],
    value: &W::Ours,
) -> Vec<Contender<'a>> {
    let mut out = vec![
        shared_contender::<W::Shared, _>("ours-bytes", proto, bytes, value),
        Contender {
            name: "bytes-floor",
            runner: bytes_floor::<W::Shared>(proto, bytes),
        },
    ];
    #[cfg(feature = "compact")]
    out.push(shared_contender::<W::CompactHash, _>(
        "ours-compact-hash",
        proto,
        bytes,
        value,
    ));
    if W::HAS_HASH {
        out.push(shared_contender::<W::SharedHash, _>(
            "ours-bytes-hash",
            proto,
            bytes,
            value,
        ));
        let check = decode_ours::<W::Hash>(proto, bytes)
            .and_then(|hashed| reencodes_to(proto, &hashed, value));
        out.push(Contender {
            name: "ours-hash",
            runner: check.map(|()| match proto {
                Proto::Binary => ours_decoder::<W::Hash, Binary>(bytes),
                Proto::Compact => ours_decoder::<W::Hash, Compact>(bytes),
            }),
        });
    }
    out
}

/// Decodes from a shared buffer (`decode_bytes`); the buffer is already shared (its first
/// slice, made by the check before timing, promoted it), so decoding allocates nothing for it.
#[cfg(feature = "mappings")]
fn shared_decoder<'a, T: for<'de> ThriftRead<'de>, P: Protocol>(
    buffer: thrift_runtime::Bytes,
) -> Runner<'a> {
    Box::new(move |n: u64| {
        for _ in 0..n {
            black_box(T::decode_bytes::<P>(black_box(&buffer)).unwrap());
        }
    })
}

/// A `Strings::Bytes` contender `T`, checked to re-encode to `value` before timing.
#[cfg(feature = "mappings")]
fn shared_contender<'a, T, O>(
    name: &'static str,
    proto: Proto,
    bytes: &[u8],
    value: &O,
) -> Contender<'a>
where
    T: for<'de> ThriftRead<'de> + ThriftWrite,
    O: for<'de> ThriftRead<'de> + PartialEq,
{
    let buffer = thrift_runtime::Bytes::copy_from_slice(bytes);
    let check = match proto {
        Proto::Binary => T::decode_bytes::<Binary>(&buffer),
        Proto::Compact => T::decode_bytes::<Compact>(&buffer),
    }
    .map_err(|e| format!("{e}"))
    .and_then(|shared| reencodes_to(proto, &shared, value));
    Contender {
        name,
        runner: check.map(|()| match proto {
            Proto::Binary => shared_decoder::<T, Binary>(buffer),
            Proto::Compact => shared_decoder::<T, Compact>(buffer),
        }),
    }
}

fn ours_encoder<'a, T: ThriftWrite, P: Protocol>(value: &'a T, cap: usize) -> Runner<'a> {
    // What a user calls: `encode` into a reused Vec (cleared, its capacity kept), as the
    // other contenders write into their reused buffers.
    let mut buf = Vec::with_capacity(cap);
    Box::new(move |n: u64| {
        for _ in 0..n {
            buf.clear();
            black_box(value).encode::<P>(&mut buf).unwrap();
            black_box(&buf);
        }
    })
}

/// `encode_to_vec`: a new vector per value, allocated once with the exact size.
fn ours_encoder_to_vec<'a, T: ThriftWrite, P: Protocol>(value: &'a T) -> Runner<'a> {
    Box::new(move |n: u64| {
        for _ in 0..n {
            black_box(black_box(value).encode_to_vec::<P>().unwrap());
        }
    })
}

/// The heap calls of our owned decode (the decode and the value's drop), traced once and
/// replayed without decoding: the same sizes allocated and freed in the same order through the
/// same global allocator. What the allocator alone costs for what `ours` allocates: the floor
/// of any decoder making those allocations, as `memcpy` is the floor of touching the bytes.
fn alloc_floor<'a, T: for<'de> ThriftRead<'de>>(
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
fn bytes_floor<'a, T: for<'de> ThriftRead<'de> + ThriftWrite>(
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

fn memcpy<'a>(bytes: &'a [u8]) -> Runner<'a> {
    let mut buf = Vec::with_capacity(bytes.len());
    Box::new(move |n: u64| {
        for _ in 0..n {
            buf.clear();
            buf.extend_from_slice(black_box(bytes));
            black_box(&buf);
        }
    })
}

/// Everything the contenders of one workload and protocol need, made and verified once.
pub struct Prepared<W: Workload> {
    pub proto: Proto,
    pub value: W::Ours,
    pub bytes: Vec<u8>,
    #[cfg(feature = "apache")]
    apache: Result<W::Apache, String>,
    #[cfg(feature = "pilota")]
    pilota_bytes: pilota::Bytes,
    #[cfg(feature = "pilota")]
    pilota: Result<W::Pilota, String>,
    #[cfg(feature = "json")]
    json: Option<Checked<(W::Json, Vec<u8>)>>,
}

/// A contender's prepared input, or why it failed the check before timing.
#[cfg(feature = "json")]
type Checked<T> = Result<T, String>;

#[cfg(feature = "apache")]
mod apache_rt {
    use thrift::protocol::{
        TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
        TSerializable,
    };

    use super::Proto;

    #[inline]
    pub fn decode<T: TSerializable>(proto: Proto, bytes: &[u8]) -> thrift::Result<T> {
        match proto {
            Proto::Binary => T::read_from_in_protocol(&mut TBinaryInputProtocol::new(bytes, true)),
            Proto::Compact => T::read_from_in_protocol(&mut TCompactInputProtocol::new(bytes)),
        }
    }

    #[inline]
    pub fn encode<T: TSerializable>(proto: Proto, v: &T, out: &mut Vec<u8>) -> thrift::Result<()> {
        match proto {
            Proto::Binary => v.write_to_out_protocol(&mut TBinaryOutputProtocol::new(out, true)),
            Proto::Compact => v.write_to_out_protocol(&mut TCompactOutputProtocol::new(out)),
        }
    }
}

#[cfg(feature = "pilota")]
mod pilota_rt {
    use pilota::thrift::binary::TBinaryProtocol;
    use pilota::thrift::compact::{TCompactInputProtocol, TCompactOutputProtocol};
    use pilota::thrift::{Message, ThriftException};
    use pilota::{Bytes, BytesMut};

    use super::Proto;

    /// Decodes from a clone of the `Bytes` (a reference count), zero-copy for strings and
    /// binaries, as pilota's users (volo) do.
    #[inline]
    pub fn decode<T: Message>(proto: Proto, bytes: &Bytes) -> Result<T, ThriftException> {
        let mut b = bytes.clone();
        match proto {
            Proto::Binary => T::decode(&mut TBinaryProtocol::new(&mut b, true)),
            Proto::Compact => T::decode(&mut TCompactInputProtocol::new(&mut b)),
        }
    }

    #[inline]
    pub fn encode<T: Message>(
        proto: Proto,
        v: &T,
        out: &mut BytesMut,
    ) -> Result<(), ThriftException> {
        match proto {
            Proto::Binary => v.encode(&mut TBinaryProtocol::new(out, false)),
            Proto::Compact => v.encode(&mut TCompactOutputProtocol::new(out, false)),
        }
    }
}

impl<W: Workload> Prepared<W> {
    /// From a value: the bytes every decoder reads are our encoding of it.
    pub fn new(proto: Proto, value: W::Ours) -> Prepared<W> {
        let bytes = encode_ours(proto, &value);
        Prepared::with_bytes(proto, value, bytes)
    }

    /// From bytes made elsewhere (a Parquet footer): the value is what we decode from them.
    pub fn from_bytes(proto: Proto, bytes: Vec<u8>) -> Result<Prepared<W>, String> {
        let value = decode_ours(proto, &bytes)?;
        Ok(Prepared::with_bytes(proto, value, bytes))
    }

    fn with_bytes(proto: Proto, value: W::Ours, bytes: Vec<u8>) -> Prepared<W> {
        #[cfg(feature = "apache")]
        let apache = guard(|| {
            let a: W::Apache = apache_rt::decode(proto, &bytes)
                .map_err(|e| format!("cannot decode the {} bytes: {e}", proto.name()))?;
            let mut out = Vec::new();
            apache_rt::encode(proto, &a, &mut out).map_err(|e| format!("cannot encode: {e}"))?;
            check_bytes(proto, &out, &value)?;
            Ok(a)
        });
        #[cfg(feature = "pilota")]
        let pilota_bytes = pilota::Bytes::from(bytes.clone());
        #[cfg(feature = "pilota")]
        let pilota = guard(|| {
            let p: W::Pilota = pilota_rt::decode(proto, &pilota_bytes)
                .map_err(|e| format!("cannot decode the {} bytes: {e:?}", proto.name()))?;
            let mut out = pilota::BytesMut::new();
            pilota_rt::encode(proto, &p, &mut out).map_err(|e| format!("cannot encode: {e:?}"))?;
            check_bytes(proto, &out, &value)?;
            Ok(p)
        });
        // When Apache's decoder reads these bytes and pilota's does not, say so.
        #[cfg(all(feature = "pilota", feature = "apache"))]
        let pilota = match (pilota, &apache) {
            (Err(e), Ok(_)) => Err(format!(
                "{e} (Apache's generated code passes the same check on the same bytes)"
            )),
            (p, _) => p,
        };
        #[cfg(feature = "json")]
        let json = W::to_json(&value).map(|j| {
            guard(|| {
                let text = serde_json::to_vec(&j).map_err(|e| e.to_string())?;
                let back: W::Json = serde_json::from_slice(&text).map_err(|e| e.to_string())?;
                if back != j {
                    return Err("JSON round trip changed the value".into());
                }
                Ok((j, text))
            })
        });
        Prepared {
            proto,
            value,
            bytes,
            #[cfg(feature = "apache")]
            apache,
            #[cfg(feature = "pilota")]
            pilota_bytes,
            #[cfg(feature = "pilota")]
            pilota,
            #[cfg(feature = "json")]
            json,
        }
    }

    /// The contenders of this workload, protocol and operation, in table order.
    pub fn contenders(&self, op: Op) -> Vec<Contender<'_>> {
        let proto = self.proto;
        let bytes = &self.bytes[..];
        let mut out = Vec::new();

        // Ours, owned.
        let ours = (|| {
            let back: W::Ours = decode_ours(proto, bytes)?;
            if back != self.value {
                return Err("decodes to a different value".to_string());
            }
            let ours_bytes = encode_ours(proto, &self.value);
            let len = match proto {
                Proto::Binary => self.value.encoded_len::<Binary>(),
                Proto::Compact => self.value.encoded_len::<Compact>(),
            };
            if len != ours_bytes.len() {
                return Err("encoded_len disagrees with the bytes written".into());
            }
            check_bytes(proto, &ours_bytes, &self.value)?;
            Ok(match (op, proto) {
                (Op::Decode, Proto::Binary) => ours_decoder::<W::Ours, Binary>(bytes),
                (Op::Decode, Proto::Compact) => ours_decoder::<W::Ours, Compact>(bytes),
                (Op::Encode, Proto::Binary) => ours_encoder::<_, Binary>(&self.value, len),
                (Op::Encode, Proto::Compact) => ours_encoder::<_, Compact>(&self.value, len),
            })
        })();
        let checked = ours.is_ok();
        out.push(Contender {
            name: "ours",
            runner: ours,
        });
        if op == Op::Encode && checked {
            out.push(Contender {
                name: "ours-encode_to_vec",
                runner: Ok(match proto {
                    Proto::Binary => ours_encoder_to_vec::<_, Binary>(&self.value),
                    Proto::Compact => ours_encoder_to_vec::<_, Compact>(&self.value),
                }),
            });
        }
        #[cfg(feature = "reuse")]
        if op == Op::Decode && checked {
            out.push(ours_into_contender::<W::Ours>(proto, bytes, &self.value));
        }
        if op == Op::Decode {
            out.push(Contender {
                name: "alloc-floor",
                runner: alloc_floor::<W::Ours>(proto, bytes),
            });
        }

        #[cfg(feature = "mappings")]
        if op == Op::Decode {
            out.extend(mapping_contenders::<W>(proto, bytes, &self.value));
        }

        // Ours, borrowed (`FooRef<'a>`).
        #[cfg(feature = "borrowed")]
        if op == Op::Decode {
            out.push(Contender {
                name: "ours-borrowed",
                runner: borrowed::<W>(proto, &self.value, bytes),
            });
        }

        // Ours, borrowed in an arena (`Builder::arena`).
        #[cfg(feature = "arena")]
        if op == Op::Decode {
            out.extend(arena_contenders::<W>(proto, &self.value, bytes));
        }

        #[cfg(feature = "apache")]
        out.push(Contender {
            name: "apache",
            runner: match &self.apache {
                Err(e) => Err(e.clone()),
                Ok(a) => Ok(match op {
                    Op::Decode => Box::new(move |n: u64| {
                        for _ in 0..n {
                            black_box(
                                apache_rt::decode::<W::Apache>(proto, black_box(bytes)).unwrap(),
                            );
                        }
                    }) as Runner<'_>,
                    Op::Encode => {
                        let mut buf = Vec::with_capacity(bytes.len() * 2);
                        Box::new(move |n: u64| {
                            for _ in 0..n {
                                buf.clear();
                                apache_rt::encode(proto, black_box(a), &mut buf).unwrap();
                                black_box(&buf);
                            }
                        })
                    }
                }),
            },
        });

        #[cfg(feature = "pilota")]
        out.push(Contender {
            name: "pilota",
            runner: match &self.pilota {
                Err(e) => Err(e.clone()),
                Ok(p) => Ok(match op {
                    Op::Decode => {
                        let pb = &self.pilota_bytes;
                        Box::new(move |n: u64| {
                            for _ in 0..n {
                                black_box(
                                    pilota_rt::decode::<W::Pilota>(proto, black_box(pb)).unwrap(),
                                );
                            }
                        }) as Runner<'_>
                    }
                    Op::Encode => {
                        let mut buf = pilota::BytesMut::with_capacity(bytes.len() * 2);
                        Box::new(move |n: u64| {
                            for _ in 0..n {
                                buf.clear();
                                pilota_rt::encode(proto, black_box(p), &mut buf).unwrap();
                                black_box(&buf);
                            }
                        })
                    }
                }),
            },
        });

        if op == Op::Decode {
            out.extend(W::extra_decoders(&self.value, bytes));
        }

        #[cfg(feature = "json")]
        if let Some(json) = &self.json {
            out.push(Contender {
                name: "serde_json",
                runner: match json {
                    Err(e) => Err(e.clone()),
                    Ok((j, text)) => Ok(match op {
                        Op::Decode => Box::new(move |n: u64| {
                            for _ in 0..n {
                                black_box(
                                    serde_json::from_slice::<W::Json>(black_box(text)).unwrap(),
                                );
                            }
                        }) as Runner<'_>,
                        Op::Encode => {
                            let mut buf = Vec::with_capacity(text.len() * 2);
                            Box::new(move |n: u64| {
                                for _ in 0..n {
                                    buf.clear();
                                    serde_json::to_writer(&mut buf, black_box(j)).unwrap();
                                    black_box(&buf);
                                }
                            })
                        }
                    }),
                },
            });
        }

        out.push(Contender {
            name: "memcpy",
            runner: Ok(memcpy(bytes)),
        });
        out
    }

    /// Size of the serde_json text, when there is one.
    pub fn json_len(&self) -> Option<usize> {
        #[cfg(feature = "json")]
        if let Some(Ok((_, text))) = &self.json {
            return Some(text.len());
        }
        None
    }
}

#[cfg(feature = "borrowed")]
fn borrowed<'a, W: Workload>(
    proto: Proto,
    value: &W::Ours,
    bytes: &'a [u8],
) -> Result<Runner<'a>, String> {
    guard(|| {
        let r = match proto {
            Proto::Binary => <W::Ref<'a> as ThriftRead<'a>>::decode::<Binary>(bytes),
            Proto::Compact => <W::Ref<'a> as ThriftRead<'a>>::decode::<Compact>(bytes),
        }
        .map_err(|e| format!("cannot decode: {e}"))?;
        if &W::ref_to_owned(&r) != value {
            return Err("converts to a different value".into());
        }
        Ok(())
    })?;
    fn run<'a, W: Workload, P: Protocol>(bytes: &'a [u8]) -> Runner<'a> {
        Box::new(move |n: u64| {
            for _ in 0..n {
                black_box(<W::Ref<'a> as ThriftRead<'a>>::decode::<P>(black_box(bytes)).unwrap());
            }
        })
    }
    Ok(match proto {
        Proto::Binary => run::<W, Binary>(bytes),
        Proto::Compact => run::<W, Compact>(bytes),
    })
}

/// Arena mode's borrowing form (`Builder::arena`), checked to re-encode to the value:
/// - `ours-arena`: each decode in a new `Arena::with_capacity(n)`, `n` the bytes the value
///   takes (what a reader sizing its arena from the last message does): one allocation per
///   decode, of exactly the value's bytes (on Linux a block of 128 KiB or more fresh from the
///   system is faulted in at once: `Arena::with_capacity`);
/// - `ours-arena-reused`: one arena, `Arena::reset` between decodes (a reader of a stream of
///   messages): nothing allocated once it has grown.
#[cfg(feature = "arena")]
fn arena_contenders<'a, W: Workload>(
    proto: Proto,
    value: &W::Ours,
    bytes: &'a [u8],
) -> Vec<Contender<'a>> {
    use thrift_runtime::Arena;
    fn decode<'x, W: Workload>(proto: Proto, bytes: &'x [u8], arena: &'x Arena) -> W::ArenaRef<'x> {
        match proto {
            Proto::Binary => W::ArenaRef::decode_in::<Binary>(bytes, arena),
            Proto::Compact => W::ArenaRef::decode_in::<Compact>(bytes, arena),
        }
        .unwrap()
    }
    let check = guard(|| {
        let arena = Arena::new();
        let r = match proto {
            Proto::Binary => W::ArenaRef::decode_in::<Binary>(bytes, &arena),
            Proto::Compact => W::ArenaRef::decode_in::<Compact>(bytes, &arena),
        }
        .map_err(|e| format!("cannot decode: {e}"))?;
        reencodes_to(proto, &r, value)?;
        // Decoded again into the reset arena (one block), the value's own bytes: no unused
        // block ends of the first decode's growth.
        drop(r);
        let mut arena = arena;
        arena.reset();
        let _ = decode::<W>(proto, bytes, &arena);
        let size = arena.used_bytes();
        // The value fits in an arena of that size: one block, nothing more.
        let sized = Arena::with_capacity(size);
        let block = sized.allocated_bytes();
        let _ = decode::<W>(proto, bytes, &sized);
        if sized.allocated_bytes() != block {
            return Err(format!("does not fit in an arena of {size} bytes"));
        }
        Ok(size)
    });
    let sized: Result<Runner<'a>, String> = check.clone().map(|size| {
        Box::new(move |n: u64| {
            for _ in 0..n {
                let arena = Arena::with_capacity(size);
                black_box(decode::<W>(proto, black_box(bytes), &arena));
            }
        }) as Runner<'a>
    });
    let reused: Result<Runner<'a>, String> = check.map(|_| {
        let mut arena = Arena::new();
        Box::new(move |n: u64| {
            for _ in 0..n {
                black_box(decode::<W>(proto, black_box(bytes), &arena));
                arena.reset();
            }
        }) as Runner<'a>
    });
    vec![
        Contender {
            name: "ours-arena",
            runner: sized,
        },
        Contender {
            name: "ours-arena-reused",
            runner: reused,
        },
    ]
}

// ---- The workloads' types in each contender's generated code. ----

macro_rules! bench_workload {
    ($marker:ident, $ty:ident, $reft:ident) => {
        pub struct $marker;
        impl Workload for $marker {
            type Ours = gen::ours::bench::$ty;
            #[cfg(feature = "mappings")]
            type Hash = gen::ours_hash::bench::$ty;
            #[cfg(feature = "mappings")]
            type Shared = gen::ours_bytes::bench::$ty;
            #[cfg(feature = "mappings")]
            type SharedHash = gen::ours_bytes_hash::bench::$ty;
            #[cfg(feature = "compact")]
            type CompactHash = gen::ours_compact_hash::bench::$ty;
            #[cfg(feature = "mappings")]
            const HAS_HASH: bool = true;
            #[cfg(feature = "apache")]
            type Apache = gen::apache::bench::$ty;
            #[cfg(feature = "pilota")]
            type Pilota = gen::pilota_bench::bench::$ty;
            #[cfg(feature = "json")]
            type Json = crate::data::json::$ty;
            #[cfg(feature = "json")]
            fn to_json(v: &Self::Ours) -> Option<Self::Json> {
                Some(v.into())
            }
            #[cfg(feature = "arena")]
            type ArenaRef<'a> = gen::ours_arena::bench::$reft<'a>;
            #[cfg(feature = "borrowed")]
            type Ref<'a> = gen::ours::bench::$reft<'a>;
            #[cfg(feature = "borrowed")]
            fn ref_to_owned(r: &Self::Ref<'_>) -> Self::Ours {
                r.into()
            }
        }
    };
}

bench_workload!(SmallW, Small, SmallRef);
bench_workload!(LargeW, Large, LargeRef);
bench_workload!(ScalingW, Scaling, ScalingRef);

pub struct ParquetW;

impl Workload for ParquetW {
    type Ours = gen::ours::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    type Hash = gen::ours::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    type Shared = gen::ours_bytes::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    type SharedHash = gen::ours_bytes::parquet::FileMetaData;
    #[cfg(feature = "compact")]
    type CompactHash = gen::ours_compact_hash::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    const HAS_HASH: bool = false;
    #[cfg(feature = "apache")]
    type Apache = gen::apache::parquet::FileMetaData;
    #[cfg(feature = "pilota")]
    type Pilota = gen::pilota_parquet::parquet::FileMetaData;
    #[cfg(feature = "json")]
    type Json = ();
    #[cfg(feature = "json")]
    fn to_json(_: &Self::Ours) -> Option<()> {
        None
    }
    #[cfg(feature = "arena")]
    type ArenaRef<'a> = gen::ours_arena::parquet::FileMetaDataRef<'a>;
    #[cfg(feature = "borrowed")]
    type Ref<'a> = gen::ours::parquet::FileMetaDataRef<'a>;
    #[cfg(feature = "borrowed")]
    fn ref_to_owned(r: &Self::Ref<'_>) -> Self::Ours {
        r.into()
    }

    #[allow(unused_variables, unused_mut)]
    fn extra_decoders<'a>(value: &'a Self::Ours, bytes: &'a [u8]) -> Vec<Contender<'a>> {
        let mut contenders = Vec::new();
        // The borrowing form with the optional structs most footers lack boxed: the same value
        // (checked by re-encoding), in less memory per column.
        #[cfg(all(feature = "mappings", feature = "borrowed"))]
        {
            use gen::ours_boxed::parquet::FileMetaDataRef as BoxedRef;
            let check = guard(|| {
                let boxed = BoxedRef::decode::<Compact>(bytes).map_err(|e| e.to_string())?;
                reencodes_to(Proto::Compact, &boxed, value)
            });
            contenders.push(Contender {
                name: "ours-borrowed-boxed",
                runner: check.map(|()| {
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            black_box(BoxedRef::decode::<Compact>(black_box(bytes)).unwrap());
                        }
                    }) as Runner<'a>
                }),
            });
        }
        // Arena mode with the two optional structs every writer sets held inline
        // (`Builder::arena_inline`): a new arena per decode sized from the last footer, as
        // `ours-arena`; checked to re-encode to the value.
        #[cfg(feature = "arena")]
        {
            use gen::ours_arena_inline::parquet::FileMetaDataRef as InlineRef;
            use thrift_runtime::Arena;
            let check = guard(|| {
                let mut arena = Arena::new();
                let r = InlineRef::decode_in::<Compact>(bytes, &arena)
                    .map_err(|e| format!("cannot decode: {e}"))?;
                reencodes_to(Proto::Compact, &r, value)?;
                drop(r);
                arena.reset();
                let _ = InlineRef::decode_in::<Compact>(bytes, &arena).unwrap();
                Ok(arena.used_bytes())
            });
            contenders.push(Contender {
                name: "ours-arena-inline",
                runner: check.map(|size| {
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            let arena = Arena::with_capacity(size);
                            black_box(
                                InlineRef::decode_in::<Compact>(black_box(bytes), &arena).unwrap(),
                            );
                        }
                    }) as Runner<'a>
                }),
            });
        }
        // Selective decoding: the same footer without column statistics, size statistics and
        // encoding stats; checked to agree with the full decode on everything else.
        #[cfg(feature = "skip")]
        {
            use gen::ours_skip::parquet::FileMetaData as Skip;
            let skipped_equal = |skip: &Skip| {
                let mut expected = value.clone();
                for column in expected.row_groups.iter_mut().flat_map(|g| &mut g.columns) {
                    if let Some(meta) = &mut column.meta_data {
                        meta.statistics = None;
                        meta.size_statistics = None;
                        meta.encoding_stats = None;
                    }
                }
                expected.encode_to_vec::<Compact>().ok() == skip.encode_to_vec::<Compact>().ok()
            };
            let check = guard(|| {
                let skip = Skip::decode::<Compact>(bytes).map_err(|e| e.to_string())?;
                if skipped_equal(&skip) {
                    Ok(())
                } else {
                    Err("skipping decode disagrees with the full one".into())
                }
            });
            contenders.push(Contender {
                name: "ours-skip-stats",
                runner: check.map(|()| {
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            black_box(Skip::decode::<Compact>(black_box(bytes)).unwrap());
                        }
                    }) as Runner<'a>
                }),
            });
            #[cfg(feature = "borrowed")]
            {
                use gen::ours_skip::parquet::FileMetaDataRef as SkipRef;
                let check = guard(|| {
                    let skip = SkipRef::decode::<Compact>(bytes).map_err(|e| e.to_string())?;
                    if skipped_equal(&Skip::from(&skip)) {
                        Ok(())
                    } else {
                        Err("skipping decode disagrees with the full one".into())
                    }
                });
                contenders.push(Contender {
                    name: "ours-skip-stats-borrowed",
                    runner: check.map(|()| {
                        Box::new(move |n: u64| {
                            for _ in 0..n {
                                black_box(SkipRef::decode::<Compact>(black_box(bytes)).unwrap());
                            }
                        }) as Runner<'a>
                    }),
                });
            }
        }
        #[cfg(feature = "parquet")]
        {
            use parquet::file::metadata::ParquetMetaDataReader;
            let check = guard(|| {
                let md =
                    ParquetMetaDataReader::decode_metadata(bytes).map_err(|e| e.to_string())?;
                let f = md.file_metadata();
                let same = f.num_rows() == value.num_rows
                    && md.num_row_groups() == value.row_groups.len()
                    && f.created_by() == value.created_by.as_deref()
                    && md.row_groups().iter().zip(&value.row_groups).all(|(a, b)| {
                        a.num_columns() == b.columns.len()
                            && a.num_rows() == b.num_rows
                            && a.total_byte_size() == b.total_byte_size
                    });
                if same {
                    Ok(())
                } else {
                    Err("ParquetMetaData disagrees with our FileMetaData".into())
                }
            });
            contenders.push(Contender {
                name: "parquet-crate",
                runner: check.clone().map(|()| {
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            black_box(
                                ParquetMetaDataReader::decode_metadata(black_box(bytes)).unwrap(),
                            );
                        }
                    }) as Runner<'a>
                }),
            });
            // The parquet crate's own selective decoding: `ParquetMetaDataOptions` skipping
            // column statistics, size statistics and encoding stats for every column.
            use parquet::file::metadata::{ParquetMetaDataOptions, ParquetStatisticsPolicy};
            let options = ParquetMetaDataOptions::new()
                .with_column_stats_policy(ParquetStatisticsPolicy::SkipAll)
                .with_size_stats_policy(ParquetStatisticsPolicy::SkipAll)
                .with_encoding_stats_policy(ParquetStatisticsPolicy::SkipAll);
            let check = check.and_then(|()| {
                guard(|| {
                    ParquetMetaDataReader::decode_metadata_with_options(bytes, Some(&options))
                        .map(drop)
                        .map_err(|e| e.to_string())
                })
            });
            contenders.push(Contender {
                name: "parquet-crate-no-stats",
                runner: check.map(|()| {
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            black_box(
                                ParquetMetaDataReader::decode_metadata_with_options(
                                    black_box(bytes),
                                    Some(&options),
                                )
                                .unwrap(),
                            );
                        }
                    }) as Runner<'a>
                }),
            });
        }
        contenders
    }
}

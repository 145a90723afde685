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
//!
//! This module holds what every contender shares (the protocols and operations, the
//! [`Workload`] trait, the checks) and [`Prepared`], which makes a workload's contenders in
//! table order from the submodules, one per contender or group of contenders.

#[cfg(feature = "apache")]
mod apache;
#[cfg(feature = "arena")]
mod arena;
#[cfg(feature = "borrowed")]
mod borrowed;
mod floors;
mod footers;
#[cfg(feature = "json")]
mod json;
#[cfg(feature = "mappings")]
mod mappings;
mod ours;
#[cfg(feature = "pilota")]
mod pilota;
mod workloads;

pub use workloads::{LargeW, ParquetW, ScalingW, SmallW};

use std::panic::{catch_unwind, AssertUnwindSafe};

use thrift_runtime::{Binary, Compact, ThriftRead, ThriftWrite};

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
    type Pilota: ::pilota::thrift::Message;
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

/// Everything the contenders of one workload and protocol need, made and verified once.
pub struct Prepared<W: Workload> {
    pub proto: Proto,
    pub value: W::Ours,
    pub bytes: Vec<u8>,
    #[cfg(feature = "apache")]
    apache: Result<W::Apache, String>,
    /// Our bytes for pilota's decoder (`::pilota` is the crate, `pilota` the submodule).
    #[cfg(feature = "pilota")]
    pilota_bytes: ::pilota::Bytes,
    #[cfg(feature = "pilota")]
    pilota: Result<W::Pilota, String>,
    #[cfg(feature = "json")]
    json: Option<json::Checked<(W::Json, Vec<u8>)>>,
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
        let apache = apache::decode_checked::<W>(proto, &bytes, &value);
        #[cfg(feature = "pilota")]
        let pilota_bytes = ::pilota::Bytes::from(bytes.clone());
        #[cfg(feature = "pilota")]
        let pilota = pilota::decode_checked::<W>(proto, &pilota_bytes, &value);
        // When Apache's decoder reads these bytes and pilota's does not, say so.
        #[cfg(all(feature = "pilota", feature = "apache"))]
        let pilota = match (pilota, &apache) {
            (Err(e), Ok(_)) => Err(format!(
                "{e} (Apache's generated code passes the same check on the same bytes)"
            )),
            (p, _) => p,
        };
        #[cfg(feature = "json")]
        let json = json::round_trip::<W>(&value);
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

        // Ours, owned.
        let mut out = ours::contenders::<W>(proto, op, bytes, &self.value);
        if op == Op::Decode {
            out.push(Contender {
                name: "alloc-floor",
                runner: floors::alloc_floor::<W::Ours>(proto, bytes),
            });
        }

        #[cfg(feature = "mappings")]
        if op == Op::Decode {
            out.extend(mappings::contenders::<W>(proto, bytes, &self.value));
        }

        // Ours, borrowed (`FooRef<'a>`).
        #[cfg(feature = "borrowed")]
        if op == Op::Decode {
            out.push(borrowed::contender::<W>(proto, &self.value, bytes));
        }

        // Ours, borrowed in an arena (`Builder::arena`).
        #[cfg(feature = "arena")]
        if op == Op::Decode {
            out.extend(arena::contenders::<W>(proto, &self.value, bytes));
        }

        #[cfg(feature = "apache")]
        out.push(apache::contender::<W>(proto, op, bytes, &self.apache));

        #[cfg(feature = "pilota")]
        out.push(pilota::contender::<W>(
            proto,
            op,
            bytes.len(),
            &self.pilota_bytes,
            &self.pilota,
        ));

        if op == Op::Decode {
            out.extend(W::extra_decoders(&self.value, bytes));
        }

        #[cfg(feature = "json")]
        if let Some(json) = &self.json {
            out.push(json::contender::<W>(op, json));
        }

        out.push(Contender {
            name: "memcpy",
            runner: Ok(floors::memcpy(bytes)),
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

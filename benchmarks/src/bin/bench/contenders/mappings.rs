//! Ours generated with the type-mapping options (feature `mappings`): `ours-bytes`,
//! `ours-compact-hash`, `ours-bytes-hash` and `ours-hash`, with `bytes-floor`.

use std::hint::black_box;

use thrift_runtime::{Binary, Compact, Protocol, ThriftRead, ThriftWrite};

use super::floors::bytes_floor;
use super::ours::ours_decoder;
use super::{decode_ours, reencodes_to, Contender, Proto, Workload};
use crate::measure::Runner;

/// Ours generated with the type-mapping options (decode only): `Strings::Bytes` decoded from a
/// `Bytes` (strings and binaries are slices of it); with `Collections::Hash` and foldhash as
/// well, pilota's own mapping (`FastStr`/`Bytes` and `AHashMap`); `Strings::Compact` (strings
/// inline up to 24 bytes, binaries slices of the `Bytes`) with `Collections::Hash` and
/// foldhash; `Collections::Hash` alone (its encoding order is the maps' own, so it is not an
/// encoder).
pub fn contenders<'a, W: Workload>(
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

//! Ours, owned: the generated types decoded from a byte slice (`ours`), encoded into a reused
//! buffer (`ours`) or a new vector (`ours-encode_to_vec`), and decoded into the same value again
//! and again (`ours-decode_into`).

use std::hint::black_box;

use thrift_runtime::{Binary, Compact, Protocol, ThriftRead, ThriftWrite};

use super::{check_bytes, decode_ours, encode_ours, Contender, Op, Proto, Workload};
use crate::measure::Runner;

/// `ours` (checked: our bytes decode back to the value, `encoded_len` is exact), and with it
/// `ours-encode_to_vec` (encode) or `ours-decode_into` (decode, feature `reuse`).
pub fn contenders<'a, W: Workload>(
    proto: Proto,
    op: Op,
    bytes: &'a [u8],
    value: &'a W::Ours,
) -> Vec<Contender<'a>> {
    let mut out = Vec::new();
    let ours = (|| {
        let back: W::Ours = decode_ours(proto, bytes)?;
        if back != *value {
            return Err("decodes to a different value".to_string());
        }
        let ours_bytes = encode_ours(proto, value);
        let len = match proto {
            Proto::Binary => value.encoded_len::<Binary>(),
            Proto::Compact => value.encoded_len::<Compact>(),
        };
        if len != ours_bytes.len() {
            return Err("encoded_len disagrees with the bytes written".into());
        }
        check_bytes(proto, &ours_bytes, value)?;
        Ok(match (op, proto) {
            (Op::Decode, Proto::Binary) => ours_decoder::<W::Ours, Binary>(bytes),
            (Op::Decode, Proto::Compact) => ours_decoder::<W::Ours, Compact>(bytes),
            (Op::Encode, Proto::Binary) => ours_encoder::<_, Binary>(value, len),
            (Op::Encode, Proto::Compact) => ours_encoder::<_, Compact>(value, len),
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
                Proto::Binary => ours_encoder_to_vec::<_, Binary>(value),
                Proto::Compact => ours_encoder_to_vec::<_, Compact>(value),
            }),
        });
    }
    #[cfg(feature = "reuse")]
    if op == Op::Decode && checked {
        out.push(ours_into_contender::<W::Ours>(proto, bytes, value));
    }
    out
}

/// Decodes from the byte slice (also `ours-hash`: the types generated with `Collections::Hash`).
pub fn ours_decoder<'a, T: for<'de> ThriftRead<'de>, P: Protocol>(bytes: &'a [u8]) -> Runner<'a> {
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

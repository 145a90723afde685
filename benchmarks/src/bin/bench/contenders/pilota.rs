//! CloudWeGo's pilota (feature `pilota`): the code pilota-build generated and the `pilota`
//! runtime; decodes from a `Bytes` clone with zero-copy strings (as volo does), encodes into a
//! reused `BytesMut`.

use std::hint::black_box;

use pilota::thrift::binary::TBinaryProtocol;
use pilota::thrift::compact::{TCompactInputProtocol, TCompactOutputProtocol};
use pilota::thrift::{Message, ThriftException};
use pilota::{Bytes, BytesMut};

use super::{check_bytes, guard, Contender, Op, Proto, Workload};
use crate::measure::Runner;

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
pub fn encode<T: Message>(proto: Proto, v: &T, out: &mut BytesMut) -> Result<(), ThriftException> {
    match proto {
        Proto::Binary => v.encode(&mut TBinaryProtocol::new(out, false)),
        Proto::Compact => v.encode(&mut TCompactOutputProtocol::new(out, false)),
    }
}

/// pilota's value decoded from our bytes (`pilota_bytes`), checked: encoded again by pilota,
/// our decoder reads `value` from its bytes.
pub fn decode_checked<W: Workload>(
    proto: Proto,
    pilota_bytes: &Bytes,
    value: &W::Ours,
) -> Result<W::Pilota, String> {
    guard(|| {
        let p: W::Pilota = decode(proto, pilota_bytes)
            .map_err(|e| format!("cannot decode the {} bytes: {e:?}", proto.name()))?;
        let mut out = BytesMut::new();
        encode(proto, &p, &mut out).map_err(|e| format!("cannot encode: {e:?}"))?;
        check_bytes(proto, &out, value)?;
        Ok(p)
    })
}

/// The `pilota` contender: decodes `pilota_bytes`, or encodes its value into a reused buffer
/// of twice the size of our bytes (`len`).
pub fn contender<'a, W: Workload>(
    proto: Proto,
    op: Op,
    len: usize,
    pilota_bytes: &'a Bytes,
    pilota: &'a Result<W::Pilota, String>,
) -> Contender<'a> {
    Contender {
        name: "pilota",
        runner: match pilota {
            Err(e) => Err(e.clone()),
            Ok(p) => Ok(match op {
                Op::Decode => Box::new(move |n: u64| {
                    for _ in 0..n {
                        black_box(decode::<W::Pilota>(proto, black_box(pilota_bytes)).unwrap());
                    }
                }) as Runner<'_>,
                Op::Encode => {
                    let mut buf = BytesMut::with_capacity(len * 2);
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            buf.clear();
                            encode(proto, black_box(p), &mut buf).unwrap();
                            black_box(&buf);
                        }
                    })
                }
            }),
        },
    }
}

//! Apache Thrift (feature `apache`): the code Apache's compiler generated (`thrift --gen rs`)
//! and the `thrift` crate's protocols.

use std::hint::black_box;

use thrift::protocol::{
    TBinaryInputProtocol, TBinaryOutputProtocol, TCompactInputProtocol, TCompactOutputProtocol,
    TSerializable,
};

use super::{check_bytes, guard, Contender, Op, Proto, Workload};
use crate::measure::Runner;

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

/// Apache's value decoded from our `bytes`, checked: encoded again by Apache, our decoder
/// reads `value` from its bytes.
pub fn decode_checked<W: Workload>(
    proto: Proto,
    bytes: &[u8],
    value: &W::Ours,
) -> Result<W::Apache, String> {
    guard(|| {
        let a: W::Apache = decode(proto, bytes)
            .map_err(|e| format!("cannot decode the {} bytes: {e}", proto.name()))?;
        let mut out = Vec::new();
        encode(proto, &a, &mut out).map_err(|e| format!("cannot encode: {e}"))?;
        check_bytes(proto, &out, value)?;
        Ok(a)
    })
}

/// The `apache` contender: decodes `bytes`, or encodes its value into a reused buffer.
pub fn contender<'a, W: Workload>(
    proto: Proto,
    op: Op,
    bytes: &'a [u8],
    apache: &'a Result<W::Apache, String>,
) -> Contender<'a> {
    Contender {
        name: "apache",
        runner: match apache {
            Err(e) => Err(e.clone()),
            Ok(a) => Ok(match op {
                Op::Decode => Box::new(move |n: u64| {
                    for _ in 0..n {
                        black_box(decode::<W::Apache>(proto, black_box(bytes)).unwrap());
                    }
                }) as Runner<'_>,
                Op::Encode => {
                    let mut buf = Vec::with_capacity(bytes.len() * 2);
                    Box::new(move |n: u64| {
                        for _ in 0..n {
                            buf.clear();
                            encode(proto, black_box(a), &mut buf).unwrap();
                            black_box(&buf);
                        }
                    })
                }
            }),
        },
    }
}

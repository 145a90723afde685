//! serde_json (feature `json`): serde-derived mirrors of the same values (binaries as arrays of
//! numbers, serde's default).

use std::hint::black_box;

use super::{guard, Contender, Op, Workload};
use crate::measure::Runner;

/// A contender's prepared input, or why it failed the check before timing.
pub type Checked<T> = Result<T, String>;

/// The value's mirror and its JSON text, checked to survive a round trip; `None` for a
/// workload without a mirror.
pub fn round_trip<W: Workload>(value: &W::Ours) -> Option<Checked<(W::Json, Vec<u8>)>> {
    W::to_json(value).map(|j| {
        guard(|| {
            let text = serde_json::to_vec(&j).map_err(|e| e.to_string())?;
            let back: W::Json = serde_json::from_slice(&text).map_err(|e| e.to_string())?;
            if back != j {
                return Err("JSON round trip changed the value".into());
            }
            Ok((j, text))
        })
    })
}

/// The `serde_json` contender: parses the text, or writes the mirror into a reused buffer.
pub fn contender<W: Workload>(op: Op, json: &Checked<(W::Json, Vec<u8>)>) -> Contender<'_> {
    Contender {
        name: "serde_json",
        runner: match json {
            Err(e) => Err(e.clone()),
            Ok((j, text)) => Ok(match op {
                Op::Decode => Box::new(move |n: u64| {
                    for _ in 0..n {
                        black_box(serde_json::from_slice::<W::Json>(black_box(text)).unwrap());
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
    }
}

//! Ours, borrowed (`ours-borrowed`, feature `borrowed`): the generated `FooRef<'a>` types,
//! whose strings and binaries are slices of the input.

use std::hint::black_box;

use thrift_runtime::{Binary, Compact, Protocol, ThriftRead};

use super::{guard, Contender, Proto, Workload};
use crate::measure::Runner;

/// The `ours-borrowed` contender.
pub fn contender<'a, W: Workload>(proto: Proto, value: &W::Ours, bytes: &'a [u8]) -> Contender<'a> {
    Contender {
        name: "ours-borrowed",
        runner: runner::<W>(proto, value, bytes),
    }
}

/// Decodes the `FooRef`, checked to convert to the same owned value.
fn runner<'a, W: Workload>(
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

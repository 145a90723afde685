//! Ours, borrowed in an arena (feature `arena`): `ours-arena` and `ours-arena-reused`.

use std::hint::black_box;

use thrift_runtime::{Binary, Compact, ThriftRead};

use super::{guard, reencodes_to, Contender, Proto, Workload};
use crate::measure::Runner;

/// Arena mode's borrowing form (`Builder::arena`), checked to re-encode to the value:
/// - `ours-arena`: each decode in a new `Arena::with_capacity(n)`, `n` the bytes the value
///   takes (what a reader sizing its arena from the last message does): one allocation per
///   decode, of exactly the value's bytes (on Linux a block of 128 KiB or more fresh from the
///   system is faulted in at once: `Arena::with_capacity`);
/// - `ours-arena-reused`: one arena, `Arena::reset` between decodes (a reader of a stream of
///   messages): nothing allocated once it has grown.
pub fn contenders<'a, W: Workload>(
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

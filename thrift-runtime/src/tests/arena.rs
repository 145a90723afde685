//! The arena's readers (`crate::arena`, feature `arena`): lists, sets, maps and structs read
//! into an `Arena` give the values read one at a time, in both protocols; a list longer than
//! the pre-allocation cap grows; a reset arena is one block that the next value fits in; a
//! reader without an arena is refused.

use super::{assert_kind, bin, cpt};
use crate::arena::Arena;
use crate::arena_reads::{
    arena_list, arena_map, arena_read, arena_scalar_list, arena_scalar_set, arena_set, arena_value,
};
use crate::codec::{ThriftRead, read_element};
use crate::input::ArenaInput;
use crate::protocol::{ProtocolReader, ProtocolWriter};
use crate::wire::TType;
use crate::{Binary, Compact, ErrorKind, Protocol, ReadLimits, Result, SliceInput};

/// A struct of one `i64` field (id 1), read in place.
#[derive(Debug, Default, PartialEq)]
struct One(i64);

impl<'de> ThriftRead<'de> for One {
    fn read<R: ProtocolReader<'de>>(r: &mut R) -> Result<Self> {
        let mut out = One::default();
        Self::read_into(r, &mut out)?;
        Ok(out)
    }

    fn read_into<R: ProtocolReader<'de>>(r: &mut R, out: &mut Self) -> Result<()> {
        let token = r.read_struct_begin()?;
        loop {
            let field = r.read_field_begin()?;
            match (field.ttype, field.id) {
                (TType::Stop, _) => break,
                (TType::I64, 1) => out.0 = r.read_i64()?,
                (ttype, _) => r.skip(ttype)?,
            }
            r.read_field_end()?;
        }
        r.read_struct_end(token)
    }
}

fn write_one<W: ProtocolWriter>(w: &mut W, v: i64) -> Result<()> {
    let token = w.write_struct_begin()?;
    w.write_field_begin(TType::I64, 1)?;
    w.write_i64(v)?;
    w.write_field_end()?;
    w.write_field_stop()?;
    w.write_struct_end(token)
}

/// A list of structs, a set of strings, a map of i32 to i64 list, and a list of numbers long
/// enough to be read many at a time.
fn write_all<W: ProtocolWriter>(w: &mut W) -> Result<()> {
    w.write_list_begin(TType::Struct, 3)?;
    for v in [1, -2, 1 << 40] {
        write_one(w, v)?;
    }
    w.write_list_end()?;
    w.write_set_begin(TType::String, 2)?;
    w.write_string("a")?;
    w.write_string("bé")?;
    w.write_set_end()?;
    w.write_map_begin(TType::I32, TType::List, 2)?;
    for (k, n) in [(7, 0), (-1, 5)] {
        w.write_i32(k)?;
        w.write_list_begin(TType::I64, n)?;
        for i in 0..n {
            w.write_i64(i as i64 * 1000 - 1)?;
        }
        w.write_list_end()?;
    }
    w.write_map_end()?;
    w.write_list_begin(TType::I32, 6)?;
    for v in [0, 1, -1, i32::MAX, i32::MIN, 300] {
        w.write_i32(v)?;
    }
    w.write_list_end()?;
    w.write_set_begin(TType::Double, 1)?;
    w.write_double(2.5)?;
    w.write_set_end()?;
    write_one(w, 9)
}

type Read<'a> = (
    &'a [One],
    &'a [&'a str],
    &'a [(i32, &'a [i64])],
    &'a [i32],
    &'a [f64],
    &'a One,
);

fn read_all<'a, R: ProtocolReader<'a>>(r: &mut R) -> Result<Read<'a>> {
    let ones = arena_list(r, TType::Struct, |r, items| {
        read_element::<One, _>(r, items)
    })?;
    let strings = arena_set(r, TType::String, |r, items| {
        items.push(r.read_str()?);
        Ok(())
    })?;
    let map = arena_map(r, TType::I32, TType::List, |r, items| {
        let key = r.read_i32()?;
        let value = arena_scalar_list::<i64, _>(r)?;
        items.push((key, value));
        Ok(())
    })?;
    let numbers = arena_scalar_list::<i32, _>(r)?;
    let doubles = arena_scalar_set::<f64, _>(r)?;
    let one = arena_read::<One, _>(r)?;
    Ok((ones, strings, map, numbers, doubles, one))
}

fn check<P: Protocol>(bytes: &[u8]) {
    let arena = Arena::new();
    let mut r = P::reader(ArenaInput::new(bytes, &arena), ReadLimits::default());
    let (ones, strings, map, numbers, doubles, one) = read_all(&mut r).unwrap();
    assert_eq!(ones, [One(1), One(-2), One(1 << 40)]);
    assert_eq!(strings, ["a", "bé"]);
    assert_eq!(map.len(), 2);
    assert_eq!(map[0], (7, &[][..]));
    assert_eq!(map[1], (-1, &[-1, 999, 1999, 2999, 3999][..]));
    assert_eq!(numbers, [0, 1, -1, i32::MAX, i32::MIN, 300]);
    assert_eq!(doubles, [2.5]);
    assert_eq!(*one, One(9));
    assert!(arena.used_bytes() > 0);
    // A value moved into the arena.
    let moved: &One = arena_value(&r, One(3)).unwrap();
    assert_eq!(*moved, One(3));
}

#[test]
fn containers_and_structs_read_into_an_arena() {
    check::<Binary>(&bin(write_all));
    check::<Compact>(&cpt(write_all));
}

#[test]
fn without_an_arena_the_readers_refuse() {
    let bytes = cpt(write_all);
    let mut r = Compact::reader(SliceInput::new(&bytes), ReadLimits::default());
    assert_kind!(
        arena_list(&mut r, TType::Struct, read_element::<One, _>),
        ErrorKind::BorrowUnsupported
    );
    let mut r = Compact::reader(SliceInput::new(&bytes), ReadLimits::default());
    assert_kind!(arena_read::<One, _>(&mut r), ErrorKind::BorrowUnsupported);
}

#[test]
fn a_list_past_the_preallocation_cap_grows() {
    // 2^17 + 5 one-byte varints: more `i64`s than 1 MiB holds, so the vector grows.
    let n = (crate::codec::MAX_PREALLOCATION / 8) + 5;
    let bytes = cpt(|w| {
        w.write_list_begin(TType::I64, n)?;
        for i in 0..n {
            w.write_i64((i % 50) as i64)?;
        }
        w.write_list_end()
    });
    let arena = Arena::new();
    let numbers = i64_list::<Compact>(&bytes, &arena).unwrap();
    assert_eq!(numbers.len(), n);
    assert!(
        numbers
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (i % 50) as i64)
    );
    // A count the input cannot hold is refused before anything is reserved for it.
    let mut hostile = cpt(|w| w.write_list_begin(TType::I64, 1000));
    hostile.extend_from_slice(&[2; 10]);
    assert!(i64_list::<Compact>(&hostile, &arena).is_err());
}

fn i64_list<'a, P: Protocol>(bytes: &'a [u8], arena: &'a Arena) -> Result<&'a [i64]> {
    let mut r = P::reader(ArenaInput::new(bytes, arena), ReadLimits::default());
    arena_scalar_list::<i64, _>(&mut r)
}

#[test]
fn a_reset_arena_is_one_block_the_next_value_fits_in() {
    // Fewer under Miri, where reading 20,000 varints takes over ten minutes.
    let n: usize = if cfg!(miri) { 2_000 } else { 20_000 };
    let bytes = cpt(|w| {
        w.write_list_begin(TType::I64, n)?;
        for i in 0..n {
            w.write_i64(i as i64)?;
        }
        w.write_list_end()
    });
    let mut arena = Arena::new();
    assert_eq!(i64_list::<Compact>(&bytes, &arena).unwrap().len(), n);
    let grown = arena.allocated_bytes();
    assert!(arena.used_bytes() >= n * 8);
    arena.reset();
    assert_eq!(arena.used_bytes(), 0);
    let block = arena.allocated_bytes();
    assert!(block >= n * 8 && block <= grown, "{block} of {grown}");
    assert_eq!(i64_list::<Compact>(&bytes, &arena).unwrap().len(), n);
    assert_eq!(
        arena.allocated_bytes(),
        block,
        "the second list fits in the block"
    );
}

/// A large block fresh from the system is faulted in when the arena is made: every page of it
/// is in memory before anything is written (64 MiB is over glibc's largest threshold for
/// mapping a block, so it is always fresh pages, which without the prefault are not in memory
/// until written). Then it decodes as any arena does.
#[cfg(all(target_os = "linux", not(miri)))]
#[test]
fn a_large_fresh_block_is_faulted_in_at_once() {
    use crate::arena::pages::resident;
    let arena = Arena::with_capacity(64 << 20);
    let (start, end) = arena.block();
    assert!(end - start >= 64 << 20);
    for at in (start + 4096..end - 4096).step_by(1 << 20) {
        assert_eq!(resident(at), Some(true), "{} bytes in", at - start);
    }
    assert_eq!(arena.used_bytes(), 0);
    let bytes = cpt(write_all);
    let mut r = Compact::reader(ArenaInput::new(&bytes, &arena), ReadLimits::default());
    let (_, _, _, numbers, _, one) = read_all(&mut r).unwrap();
    assert_eq!(numbers, [0, 1, -1, i32::MAX, i32::MIN, 300]);
    assert_eq!(*one, One(9));
}

/// A small block is left to be faulted page by page (the `mincore` call would cost more than
/// it saves), and a block made from memory already in use is not touched again: neither
/// changes what the arena holds.
#[test]
fn small_arenas_are_not_prefaulted_and_still_decode() {
    let arena = Arena::with_capacity(crate::arena::PREFAULT_FROM - 1);
    assert!(arena.allocated_bytes() >= crate::arena::PREFAULT_FROM - 1);
    assert_eq!(arena.used_bytes(), 0);
    check::<Compact>(&cpt(write_all));
}

/// The arena's own allocator: blocks of exactly the size asked for; values of mixed
/// alignment each aligned; a vector that is the last allocation grows in place, one that is
/// not moves (its elements with it); the room a vector did not fill goes back; a reset of
/// several blocks leaves one block as large as all of them, which the same values then fit
/// in without allocating.
#[test]
fn the_allocator_keeps_its_blocks_exact_and_its_vectors_whole() {
    use crate::arena::ArenaVec;
    let arena = Arena::with_capacity(1000);
    assert_eq!(arena.allocated_bytes(), 1000);
    assert_eq!(arena.used_bytes(), 0);
    let byte = arena.alloc(7u8);
    let word = arena.alloc(1u64 << 40);
    let short = arena.alloc(-3i16);
    assert_eq!((*byte, *word, *short), (7, 1 << 40, -3));
    assert_eq!(std::ptr::from_mut(word) as usize % 8, 0);
    assert_eq!(std::ptr::from_mut(short) as usize % 2, 0);
    assert_eq!(arena.used_bytes(), 18); // 1, 7 of padding, 8, 2

    // Last allocation: grows in place.
    let mut inner = ArenaVec::with_capacity_in(1, &arena);
    inner.push(1i32);
    let first = inner.as_ptr();
    inner.push(2);
    inner.push(3);
    assert_eq!(inner.as_ptr(), first);
    // Not the last allocation: moves, keeping its elements.
    let mut outer: ArenaVec<'_, &[i32]> = ArenaVec::with_capacity_in(1, &arena);
    outer.push(inner.into_slice());
    let _between = arena.alloc(0u64);
    let before = outer.as_ptr();
    for _ in 0..40 {
        outer.push(&[]);
    }
    assert_ne!(outer.as_ptr(), before);
    let outer = outer.into_slice();
    assert_eq!(outer.len(), 41);
    assert_eq!(outer[0], [1, 2, 3]);

    // Unfilled room goes back when nothing came after it.
    let used = arena.used_bytes();
    let mut spare: ArenaVec<'_, u64> = ArenaVec::with_capacity_in(8, &arena);
    spare.push(5);
    assert_eq!(spare.into_slice(), [5]);
    assert!(arena.used_bytes() <= used + 8 + 7);

    // More than the block: the arena grows by blocks; a reset makes them one.
    let mut arena = arena;
    let mut big: ArenaVec<'_, u64> = ArenaVec::with_capacity_in(0, &arena);
    for i in 0..5000 {
        big.push(i);
    }
    assert_eq!(big.iter().sum::<u64>(), 4999 * 5000 / 2);
    drop(big);
    let total = arena.allocated_bytes();
    assert!(total > 40_000);
    arena.reset();
    assert_eq!(arena.allocated_bytes(), total);
    assert_eq!(arena.used_bytes(), 0);
    let mut again: ArenaVec<'_, u64> = ArenaVec::with_capacity_in(5000, &arena);
    again.extend_copies(5000, 9);
    assert_eq!(again.into_slice().len(), 5000);
    assert_eq!(arena.allocated_bytes(), total);
}

/// Elements that need a drop are dropped with their vector (not once it is a slice), `clear`
/// drops them too, and zero-sized values take no room.
#[test]
fn arena_vectors_drop_their_elements_and_zero_sized_values_take_no_room() {
    use crate::arena::ArenaVec;
    use std::rc::Rc;
    let arena = Arena::new();
    let shared = Rc::new(());
    let mut items = ArenaVec::with_capacity_in(2, &arena);
    for _ in 0..5 {
        items.push(Rc::clone(&shared));
    }
    assert_eq!(Rc::strong_count(&shared), 6);
    items.clear();
    assert_eq!(Rc::strong_count(&shared), 1);
    items.push(Rc::clone(&shared));
    drop(items);
    assert_eq!(Rc::strong_count(&shared), 1);

    let used = arena.used_bytes();
    let mut units = ArenaVec::with_capacity_in(3, &arena);
    for _ in 0..1000 {
        units.push(());
    }
    assert_eq!(units.into_slice().len(), 1000);
    let _unit: &mut () = arena.alloc(());
    assert_eq!(arena.used_bytes(), used);
    assert_eq!(arena.allocated_bytes(), 1024); // the first block
    fn send<T: Send>() {}
    send::<Arena>();
}

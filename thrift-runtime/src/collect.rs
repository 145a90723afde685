//! Building the `BTreeSet`s and `BTreeMap`s of decoded values.
//!
//! A set or map of at most [`LEAF_CAPACITY`] entries (one B-tree leaf) is built by inserting
//! each entry: the leaf is its one allocation. A larger one is collected into a vector and
//! built in bulk: for entries in order, as writers emit them, that is one pass filling every
//! node, where inserting one by one searches the tree for each entry and leaves nodes half
//! full (more of them to allocate). With repeated keys the last entry wins either way.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use crate::codec::capacity_hint;
use crate::error::Result;
use crate::protocol::{ProtocolReader, check_element_type};
use crate::wire::TType;

/// Entries one node of std's B-tree holds (`2 * B - 1` with `B = 6`). Only the number of
/// allocations depends on it, not what is built.
pub const LEAF_CAPACITY: usize = 11;

/// Builds the `BTreeMap` of a decoded map whose header announced `len` entries (see the
/// [module docs](self)). Used by generated code.
#[derive(Debug)]
pub struct BTreeMapBuilder<K, V>(Entries<(K, V), BTreeMap<K, V>>);

/// Builds the `BTreeSet` of a decoded set whose header announced `len` elements (see the
/// [module docs](self)). Used by generated code.
#[derive(Debug)]
pub struct BTreeSetBuilder<T>(Entries<T, BTreeSet<T>>);

#[derive(Debug)]
enum Entries<E, C> {
    /// Small: inserted as they come.
    Tree(C),
    /// Large: collected, then built in bulk.
    Bulk(Vec<E>),
}

impl<E, C: Default> Entries<E, C> {
    #[inline]
    fn new(len: usize) -> Self {
        if len <= LEAF_CAPACITY {
            Entries::Tree(C::default())
        } else {
            Entries::Bulk(Vec::with_capacity(capacity_hint::<E>(len)))
        }
    }
}

impl<K: Ord, V> BTreeMapBuilder<K, V> {
    /// A builder for `len` entries.
    #[inline]
    pub fn new(len: usize) -> Self {
        BTreeMapBuilder(Entries::new(len))
    }

    /// Adds an entry; a later one with the same key replaces it.
    #[inline]
    pub fn insert(&mut self, key: K, value: V) {
        match &mut self.0 {
            Entries::Tree(map) => {
                map.insert(key, value);
            }
            Entries::Bulk(entries) => entries.push((key, value)),
        }
    }

    /// The map.
    #[inline]
    pub fn finish(self) -> BTreeMap<K, V> {
        match self.0 {
            Entries::Tree(map) => map,
            Entries::Bulk(entries) => entries.into_iter().collect(),
        }
    }
}

impl<T: Ord> BTreeSetBuilder<T> {
    /// A builder for `len` elements.
    #[inline]
    pub fn new(len: usize) -> Self {
        BTreeSetBuilder(Entries::new(len))
    }

    /// Adds an element; a later equal one replaces it.
    #[inline]
    pub fn insert(&mut self, value: T) {
        match &mut self.0 {
            Entries::Tree(set) => {
                set.replace(value);
            }
            Entries::Bulk(elements) => elements.push(value),
        }
    }

    /// The set.
    #[inline]
    pub fn finish(self) -> BTreeSet<T> {
        match self.0 {
            Entries::Tree(set) => set,
            Entries::Bulk(elements) => elements.into_iter().collect(),
        }
    }
}

/// A set or map of an owned form that [`read_map_into`] and [`read_set_into`] build again
/// from the input while reusing its old entries: taken apart with `into_iter`, built through
/// a builder. Implemented for std's `BTreeMap`, `BTreeSet`, `HashMap` and `HashSet` (any
/// hasher with a `Default`).
pub trait Rebuild: Default + IntoIterator {
    /// What collects the entries of the new value.
    type Builder;

    /// A builder for a set or map whose header announced `len` entries.
    fn builder(len: usize) -> Self::Builder;

    /// Adds an entry; a later one with an equal key replaces it.
    fn add(builder: &mut Self::Builder, item: Self::Item);

    /// The set or map.
    fn finish(builder: Self::Builder) -> Self;
}

impl<K: Ord, V> Rebuild for BTreeMap<K, V> {
    type Builder = BTreeMapBuilder<K, V>;

    #[inline]
    fn builder(len: usize) -> Self::Builder {
        BTreeMapBuilder::new(len)
    }

    #[inline]
    fn add(builder: &mut Self::Builder, (key, value): (K, V)) {
        builder.insert(key, value);
    }

    #[inline]
    fn finish(builder: Self::Builder) -> Self {
        builder.finish()
    }
}

impl<T: Ord> Rebuild for BTreeSet<T> {
    type Builder = BTreeSetBuilder<T>;

    #[inline]
    fn builder(len: usize) -> Self::Builder {
        BTreeSetBuilder::new(len)
    }

    #[inline]
    fn add(builder: &mut Self::Builder, item: T) {
        builder.insert(item);
    }

    #[inline]
    fn finish(builder: Self::Builder) -> Self {
        builder.finish()
    }
}

impl<K: Eq + Hash, V, S: BuildHasher + Default> Rebuild for HashMap<K, V, S> {
    type Builder = Self;

    #[inline]
    fn builder(len: usize) -> Self {
        HashMap::with_capacity_and_hasher(capacity_hint::<(K, V)>(len), S::default())
    }

    #[inline]
    fn add(builder: &mut Self, (key, value): (K, V)) {
        builder.insert(key, value);
    }

    #[inline]
    fn finish(builder: Self) -> Self {
        builder
    }
}

impl<T: Eq + Hash, S: BuildHasher + Default> Rebuild for HashSet<T, S> {
    type Builder = Self;

    #[inline]
    fn builder(len: usize) -> Self {
        HashSet::with_capacity_and_hasher(capacity_hint::<T>(len), S::default())
    }

    #[inline]
    fn add(builder: &mut Self, item: T) {
        // `replace`, as `BTreeSetBuilder` does: the later of two equal elements is kept.
        builder.replace(item);
    }

    #[inline]
    fn finish(builder: Self) -> Self {
        builder
    }
}

/// Reads a whole map into `map` where it lives, reusing its old entries: the header, checked
/// against the key and value types; then each entry read over an old one with `over` (which
/// keeps its strings', vectors' and nested structs' allocations), in the order the old map
/// iterates (sorted for a `BTreeMap`, so a map like the last one meets its own keys), or
/// read with `fresh` once the old entries are used up; then the end. The map's own nodes (or
/// table) are allocated again; old entries left over are dropped. Generated code calls it
/// for the map fields of structs read in place (`ThriftRead::decode_into`). On error `map`
/// holds the entries read so far, or none.
#[inline(always)]
pub fn read_map_into<'de, C, K, V, R>(
    r: &mut R,
    key: TType,
    value: TType,
    map: &mut C,
    mut over: impl FnMut(&mut R, &mut K, &mut V) -> Result<()>,
    mut fresh: impl FnMut(&mut R) -> Result<(K, V)>,
) -> Result<()>
where
    C: Rebuild<Item = (K, V)>,
    R: ProtocolReader<'de>,
{
    let header = r.read_map_begin()?;
    check_element_type(header.key, key, header.len)?;
    check_element_type(header.value, value, header.len)?;
    rebuild(
        r,
        header.len,
        map,
        |r, (k, v): &mut (K, V)| over(r, k, v),
        &mut fresh,
    )?;
    r.read_map_end()
}

/// [`read_map_into`] for sets: each element read over an old one with `over`, or with
/// `fresh` once the old ones are used up.
#[inline(always)]
pub fn read_set_into<'de, C, T, R>(
    r: &mut R,
    elem: TType,
    set: &mut C,
    mut over: impl FnMut(&mut R, &mut T) -> Result<()>,
    mut fresh: impl FnMut(&mut R) -> Result<T>,
) -> Result<()>
where
    C: Rebuild<Item = T>,
    R: ProtocolReader<'de>,
{
    let header = r.read_set_begin()?;
    check_element_type(header.elem, elem, header.len)?;
    rebuild(r, header.len, set, &mut over, &mut fresh)?;
    r.read_set_end()
}

/// The entries of [`read_map_into`] and [`read_set_into`]: `len` of them, each read over an
/// old one of `collection` or fresh, into a new collection that replaces it (also on error,
/// with the entries read so far).
#[inline(always)]
fn rebuild<C: Rebuild, R>(
    r: &mut R,
    len: usize,
    collection: &mut C,
    mut over: impl FnMut(&mut R, &mut C::Item) -> Result<()>,
    mut fresh: impl FnMut(&mut R) -> Result<C::Item>,
) -> Result<()> {
    let mut old = std::mem::take(collection).into_iter();
    let mut built = C::builder(len);
    for _ in 0..len {
        let entry = match old.next() {
            Some(mut entry) => over(r, &mut entry).map(|()| entry),
            None => fresh(r),
        };
        match entry {
            Ok(entry) => C::add(&mut built, entry),
            Err(error) => {
                *collection = C::finish(built);
                return Err(error);
            }
        }
    }
    drop(old);
    *collection = C::finish(built);
    Ok(())
}

//! Building the `BTreeSet`s and `BTreeMap`s of decoded values, and reading sets and maps
//! again where they live (`ThriftRead::decode_into`).
//!
//! A set or map of at most [`LEAF_CAPACITY`] entries (one B-tree leaf) is built by inserting
//! each entry: the leaf is its one allocation. A larger one is collected into a vector and
//! built in bulk: for entries in order, as writers emit them, that is one pass filling every
//! node, where inserting one by one searches the tree for each entry and leaves nodes half
//! full (more of them to allocate). With repeated keys the last entry wins either way.
//!
//! Read again ([`read_map_into`], [`read_set_into`]), a `BTreeMap` or `BTreeSet` whose keys
//! come as they were is read in place: values over the old ones, nothing allocated.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{BuildHasher, Hash};

use smallvec::SmallVec;

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

/// What a map's next key (or a set's next element) is, next to an old one: what `key_eq`
/// of [`read_map_into`] answers.
#[derive(Debug)]
pub enum Compared<K> {
    /// The old key, read (nothing allocated).
    Same,
    /// Another key, read.
    Other(K),
    /// Not read: another key, or one the reader does not compare before reading it.
    Unread,
}

impl<K: PartialEq> Compared<K> {
    /// `new`, a key read, next to the old one.
    #[inline(always)]
    pub fn of(new: K, old: &K) -> Self {
        if new == *old {
            Compared::Same
        } else {
            Compared::Other(new)
        }
    }
}

/// The `key_eq` of strings and binaries held in buffers of their own: compared on the
/// input's bytes ([`ProtocolReader::read_binary_if_eq`]), read only when they are the old
/// key's (nothing allocated), else left for a read over an old key.
#[inline(always)]
pub fn compare_bytes<'de, R: ProtocolReader<'de>, K: AsRef<[u8]>>(
    r: &mut R,
    old: &K,
) -> Result<Compared<K>> {
    Ok(if r.read_binary_if_eq(old.as_ref())? {
        Compared::Same
    } else {
        Compared::Unread
    })
}

/// The `key_eq` of keys not compared: left for a read over an old key.
#[inline(always)]
pub fn unread<R, K>(_: &mut R, _: &K) -> Result<Compared<K>> {
    Ok(Compared::Unread)
}

/// A map of an owned form that [`read_map_into`] reads again where it lives. The provided
/// method builds it again over its old entries ([`Rebuild`]): `HashMap`s. `BTreeMap`s first
/// meet their old keys in order (see [`read_map_into`]).
pub trait RefillMap<K, V>: Rebuild<Item = (K, V)> {
    /// Reads `len` entries into the map, replacing its contents: `key_eq` compares the next
    /// key with an old one ([`Compared`]), `key_over` and `value_over` read a key or value over an old one, `fresh`
    /// reads an entry (its value only when given its key).
    #[inline(always)]
    fn refill<R>(
        &mut self,
        r: &mut R,
        len: usize,
        key_eq: impl FnMut(&mut R, &K) -> Result<Compared<K>>,
        mut key_over: impl FnMut(&mut R, &mut K) -> Result<()>,
        mut value_over: impl FnMut(&mut R, &mut V) -> Result<()>,
        mut fresh: impl FnMut(&mut R, Option<K>) -> Result<(K, V)>,
    ) -> Result<()> {
        let _ = key_eq;
        rebuild(
            r,
            len,
            self,
            None,
            |r, (key, value): &mut (K, V)| {
                key_over(r, key)?;
                value_over(r, value)
            },
            |r| fresh(r, None),
        )
    }
}

/// A set of an owned form that [`read_set_into`] reads again where it lives: as
/// [`RefillMap`], for elements.
pub trait RefillSet<T>: Rebuild<Item = T> {
    /// Reads `len` elements into the set, replacing its contents: `elem_eq` compares the
    /// next element with an old one ([`Compared`]), `over`
    /// reads one over an old one, `fresh` reads one.
    #[inline(always)]
    fn refill<R>(
        &mut self,
        r: &mut R,
        len: usize,
        elem_eq: impl FnMut(&mut R, &T) -> Result<Compared<T>>,
        over: impl FnMut(&mut R, &mut T) -> Result<()>,
        fresh: impl FnMut(&mut R) -> Result<T>,
    ) -> Result<()> {
        let _ = elem_eq;
        rebuild(r, len, self, None, over, fresh)
    }
}

impl<K: Eq + Hash, V, S: BuildHasher + Default> RefillMap<K, V> for HashMap<K, V, S> {}

impl<T: Eq + Hash, S: BuildHasher + Default> RefillSet<T> for HashSet<T, S> {}

impl<K: Ord, V> RefillMap<K, V> for BTreeMap<K, V> {
    #[inline(always)]
    fn refill<R>(
        &mut self,
        r: &mut R,
        len: usize,
        mut key_eq: impl FnMut(&mut R, &K) -> Result<Compared<K>>,
        mut key_over: impl FnMut(&mut R, &mut K) -> Result<()>,
        mut value_over: impl FnMut(&mut R, &mut V) -> Result<()>,
        mut fresh: impl FnMut(&mut R, Option<K>) -> Result<(K, V)>,
    ) -> Result<()> {
        // The old entries in order, as long as the input's keys are theirs: values read in
        // place, nothing allocated for the map.
        let mut matched = 0;
        let mut other = None;
        for (key, value) in self.iter_mut() {
            if matched == len {
                break;
            }
            match key_eq(r, key)? {
                Compared::Same => {
                    value_over(r, value)?;
                    matched += 1;
                }
                Compared::Other(key) => {
                    other = Some(key);
                    break;
                }
                Compared::Unread => break,
            }
        }
        if matched == 0 {
            // Nothing in place: built again over the old entries (the first one's value read
            // for the key that differed), as a new map is built.
            let first = match other {
                None => None,
                Some(key) => Some(match self.pop_first() {
                    Some((_, mut value)) => {
                        value_over(r, &mut value)?;
                        (key, value)
                    }
                    None => fresh(r, Some(key))?,
                }),
            };
            return rebuild(
                r,
                len,
                self,
                first,
                |r, (key, value): &mut (K, V)| {
                    key_over(r, key)?;
                    value_over(r, value)
                },
                |r| fresh(r, None),
            );
        }
        let Some(mut spare) = keep_first(self, matched, len, other.is_some()) else {
            return Ok(());
        };
        let mut left = len - matched;
        if let Some(key) = other {
            let (key, value) = match spare.pop() {
                Some((_, mut value)) => {
                    value_over(r, &mut value)?;
                    (key, value)
                }
                None => fresh(r, Some(key))?,
            };
            self.put((key, value));
            left -= 1;
        }
        read_rest(
            self,
            r,
            left,
            spare,
            |r, (key, value): &mut (K, V)| {
                key_over(r, key)?;
                value_over(r, value)
            },
            |r| fresh(r, None),
        )
    }
}

impl<T: Ord> RefillSet<T> for BTreeSet<T> {
    #[inline(always)]
    fn refill<R>(
        &mut self,
        r: &mut R,
        len: usize,
        mut elem_eq: impl FnMut(&mut R, &T) -> Result<Compared<T>>,
        over: impl FnMut(&mut R, &mut T) -> Result<()>,
        fresh: impl FnMut(&mut R) -> Result<T>,
    ) -> Result<()> {
        // As `BTreeMap`'s: the old elements in order while the input's are the same.
        let mut matched = 0;
        let mut other = None;
        for elem in self.iter() {
            if matched == len {
                break;
            }
            match elem_eq(r, elem)? {
                Compared::Same => matched += 1,
                Compared::Other(elem) => {
                    other = Some(elem);
                    break;
                }
                Compared::Unread => break,
            }
        }
        if matched == 0 {
            return rebuild(r, len, self, other, over, fresh);
        }
        let Some(spare) = keep_first(self, matched, len, other.is_some()) else {
            return Ok(());
        };
        let mut left = len - matched;
        if let Some(elem) = other {
            self.put(elem);
            left -= 1;
        }
        read_rest(self, r, left, spare, over, fresh)
    }
}

/// The B-trees' side of [`RefillMap`] and [`RefillSet`] once their walk has ended: the old
/// entries past the ones kept taken out, and the rest of the input's entries put in.
trait Sorted: Rebuild {
    fn count(&self) -> usize;
    fn pop_last_item(&mut self) -> Option<Self::Item>;
    /// Adds an entry; a later one with an equal key replaces it, as the builders do.
    fn put(&mut self, item: Self::Item);
}

impl<K: Ord, V> Sorted for BTreeMap<K, V> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn pop_last_item(&mut self) -> Option<(K, V)> {
        self.pop_last()
    }

    #[inline(always)]
    fn put(&mut self, (key, value): (K, V)) {
        self.insert(key, value);
    }
}

impl<T: Ord> Sorted for BTreeSet<T> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }

    #[inline(always)]
    fn pop_last_item(&mut self) -> Option<T> {
        self.pop_last()
    }

    #[inline(always)]
    fn put(&mut self, item: T) {
        self.replace(item);
    }
}

/// After a walk that kept the first `matched` entries of `collection` in place, for an input
/// of `len` entries: when they are all of the input (`matched == len`, and the walk did not
/// end on another key it read, `read_other`), the old entries past them are dropped and
/// `None` says the collection is read; otherwise those old entries are taken out (a few
/// without allocating), to be read over.
#[inline(always)]
fn keep_first<C: Sorted>(
    collection: &mut C,
    matched: usize,
    len: usize,
    read_other: bool,
) -> Option<SmallVec<[C::Item; 4]>> {
    if !read_other && matched == len {
        while collection.count() > len {
            collection.pop_last_item();
        }
        return None;
    }
    let mut spare = SmallVec::new();
    while collection.count() > matched {
        spare.extend(collection.pop_last_item());
    }
    Some(spare)
}

/// The last `left` entries of the input, each read over a `spare` old one (or fresh once
/// they are used up) and put into `collection`.
#[inline(always)]
fn read_rest<C: Sorted, R>(
    collection: &mut C,
    r: &mut R,
    left: usize,
    mut spare: SmallVec<[C::Item; 4]>,
    mut over: impl FnMut(&mut R, &mut C::Item) -> Result<()>,
    mut fresh: impl FnMut(&mut R) -> Result<C::Item>,
) -> Result<()> {
    for _ in 0..left {
        let item = match spare.pop() {
            Some(mut item) => {
                over(r, &mut item)?;
                item
            }
            None => fresh(r)?,
        };
        collection.put(item);
    }
    Ok(())
}

/// Reads a whole map into `map` where it lives, reusing what it holds: the header, checked
/// against the key and value types; then the entries ([`RefillMap::refill`]); then the end.
/// A `BTreeMap` meets its old keys in order (sorted, as writers of sorted maps emit them): as
/// long as the input's keys are the old ones, each value is read over the old one
/// (`value_over` keeps its strings', vectors' and nested structs' allocations) and nothing is
/// allocated for the map, so a map decoded again with the same keys allocates nothing; from
/// the first key that differs, the rest is read over the old entries left and inserted. A
/// `HashMap` is built again over its old entries, its table allocated again. Generated code
/// calls it for the map fields of structs read in place (`ThriftRead::decode_into`). On
/// error `map` holds a partly read map.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn read_map_into<'de, C, K, V, R>(
    r: &mut R,
    key: TType,
    value: TType,
    map: &mut C,
    key_eq: impl FnMut(&mut R, &K) -> Result<Compared<K>>,
    key_over: impl FnMut(&mut R, &mut K) -> Result<()>,
    value_over: impl FnMut(&mut R, &mut V) -> Result<()>,
    fresh: impl FnMut(&mut R, Option<K>) -> Result<(K, V)>,
) -> Result<()>
where
    C: RefillMap<K, V>,
    R: ProtocolReader<'de>,
{
    let header = r.read_map_begin()?;
    check_element_type(header.key, key, header.len)?;
    check_element_type(header.value, value, header.len)?;
    map.refill(r, header.len, key_eq, key_over, value_over, fresh)?;
    r.read_map_end()
}

/// [`read_map_into`] for sets: a `BTreeSet` with the same elements allocates nothing; from
/// the first element that differs, the rest is read over the old ones left.
#[inline(always)]
pub fn read_set_into<'de, C, T, R>(
    r: &mut R,
    elem: TType,
    set: &mut C,
    elem_eq: impl FnMut(&mut R, &T) -> Result<Compared<T>>,
    over: impl FnMut(&mut R, &mut T) -> Result<()>,
    fresh: impl FnMut(&mut R) -> Result<T>,
) -> Result<()>
where
    C: RefillSet<T>,
    R: ProtocolReader<'de>,
{
    let header = r.read_set_begin()?;
    check_element_type(header.elem, elem, header.len)?;
    set.refill(r, header.len, elem_eq, over, fresh)?;
    r.read_set_end()
}

/// A set or map built again: `len` entries (`first`, when given, then the others), each
/// read over an old one of `collection` or fresh, into a new collection that replaces it
/// (also on error, with the entries read so far).
#[inline(always)]
fn rebuild<C: Rebuild, R>(
    r: &mut R,
    len: usize,
    collection: &mut C,
    first: Option<C::Item>,
    mut over: impl FnMut(&mut R, &mut C::Item) -> Result<()>,
    mut fresh: impl FnMut(&mut R) -> Result<C::Item>,
) -> Result<()> {
    let mut old = std::mem::take(collection).into_iter();
    let mut built = C::builder(len);
    let start = usize::from(first.is_some());
    if let Some(first) = first {
        C::add(&mut built, first);
    }
    for _ in start..len {
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

//! Building the `BTreeSet`s and `BTreeMap`s of decoded values.
//!
//! A set or map of at most [`LEAF_CAPACITY`] entries (one B-tree leaf) is built by inserting
//! each entry: the leaf is its one allocation. A larger one is collected into a vector and
//! built in bulk: for entries in order, as writers emit them, that is one pass filling every
//! node, where inserting one by one searches the tree for each entry and leaves nodes half
//! full (more of them to allocate). With repeated keys the last entry wins either way.

use std::collections::{BTreeMap, BTreeSet};

use crate::codec::capacity_hint;

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

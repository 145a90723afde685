//! The B-tree builders give what inserting every entry in turn gives, below and above the
//! one-leaf threshold, with repeated keys and in any order.

use std::collections::{BTreeMap, BTreeSet};

use proptest::collection::vec;
use proptest::prelude::*;

use crate::collect::{BTreeMapBuilder, BTreeSetBuilder, LEAF_CAPACITY};

proptest! {
    #[test]
    fn builders_match_inserting_in_turn(
        entries in vec((0u8..40, any::<u16>()), 0..3 * LEAF_CAPACITY),
    ) {
        let mut builder = BTreeMapBuilder::new(entries.len());
        let mut set_builder = BTreeSetBuilder::new(entries.len());
        let mut expected = BTreeMap::new();
        let mut expected_set = BTreeSet::new();
        for &(key, value) in &entries {
            builder.insert(key, value);
            set_builder.insert(key);
            expected.insert(key, value);
            expected_set.insert(key);
        }
        prop_assert_eq!(builder.finish(), expected);
        prop_assert_eq!(set_builder.finish(), expected_set);
    }
}

#[test]
fn the_last_of_repeated_keys_wins_in_both_modes() {
    for len in [2, LEAF_CAPACITY + 1] {
        let mut builder = BTreeMapBuilder::new(len);
        builder.insert("k", 1);
        for i in 2..=len {
            builder.insert("k", i);
        }
        assert_eq!(builder.finish(), BTreeMap::from([("k", len)]), "len {len}");
    }
}

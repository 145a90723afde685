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

/// `read_binary_if_eq` reads a string only when its bytes are the expected ones: then the
/// next value follows; otherwise nothing is read, whatever the prefix (shorter, longer, one
/// byte off, over the length limit, cut short), and the usual read still gives the string or
/// the error it gives today. An input that cannot look ahead (`IoInput`) answers `false`.
#[test]
fn read_binary_if_eq_reads_only_the_expected_bytes() {
    use crate::limits::ReadLimits;
    use crate::protocol::{ProtocolReader, ProtocolWriter};
    use crate::{BinaryReader, CompactReader, IoInput, SliceInput};

    fn check<'de>(mut r: impl ProtocolReader<'de>, expected: &[u8], same: bool) {
        assert_eq!(r.read_binary_if_eq(expected).unwrap(), same, "{expected:?}");
        if !same {
            assert_eq!(r.read_binary().unwrap(), b"key", "{expected:?}: not read");
        }
        assert_eq!(r.read_i32().unwrap(), 7, "{expected:?}: the next value");
    }
    let binary = super::bin(|w| {
        w.write_binary(b"key")?;
        w.write_i32(7)
    });
    let compact = super::cpt(|w| {
        w.write_binary(b"key")?;
        w.write_i32(7)
    });
    for (expected, same) in [
        (&b"key"[..], true),
        (b"ke", false),
        (b"keys", false),
        (b"kez", false),
        (b"", false),
    ] {
        check(super::bin_reader(&binary), expected, same);
        check(super::cpt_reader(&compact), expected, same);
        check(
            BinaryReader::new(IoInput::new(&binary[..])),
            expected,
            false,
        );
        check(
            CompactReader::new(IoInput::new(&compact[..])),
            expected,
            false,
        );
    }
    // Over the string length limit: not read, and the read reports the limit.
    let limits = ReadLimits {
        max_string_len: 2,
        ..ReadLimits::default()
    };
    let mut r = BinaryReader::with_limits(SliceInput::new(&binary), limits);
    assert!(!r.read_binary_if_eq(b"key").unwrap());
    assert!(r.read_binary().is_err());
    let mut r = CompactReader::with_limits(SliceInput::new(&compact), limits);
    assert!(!r.read_binary_if_eq(b"key").unwrap());
    assert!(r.read_binary().is_err());
    // Cut short, and a negative length: not read.
    assert!(
        !super::bin_reader(&binary[..5])
            .read_binary_if_eq(b"key")
            .unwrap()
    );
    assert!(
        !super::cpt_reader(&compact[..2])
            .read_binary_if_eq(b"key")
            .unwrap()
    );
    assert!(
        !super::bin_reader(&[0xff; 8])
            .read_binary_if_eq(b"")
            .unwrap()
    );
}

//! Selective decoding (`Builder::skip_fields`): Parquet footers written by pyarrow and by the
//! `parquet` crate, decoded by the code generated with the statistics (and a few more fields,
//! a required list among them) skipped, give the same value as the full decoders apart from
//! the skipped fields, owned and borrowed, in both forms of each; and a skipped field costs no
//! allocation: the skipping decoder allocates exactly as often on a footer as the full decoder
//! on the same footer with those fields emptied.

use thrift_runtime::{Compact, ThriftRead, ThriftWrite};
use thrift_tests::alloc::{Counting, allocations};

use thrift_tests::parquet_full::parquet::{FileMetaData, FileMetaDataRef};
use thrift_tests::samples::parquet_footers as footers;

#[allow(clippy::all, missing_docs)]
mod skip {
    include!(concat!(env!("OUT_DIR"), "/parquet_skip/thrift.rs"));
}

use skip::parquet::{FileMetaData as SkipFileMetaData, FileMetaDataRef as SkipFileMetaDataRef};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The full value with the skipped fields as the skipping decoder leaves them.
fn without_skipped(mut value: FileMetaData) -> FileMetaData {
    value.key_value_metadata = None;
    for group in &mut value.row_groups {
        for column in &mut group.columns {
            if let Some(meta) = &mut column.meta_data {
                meta.statistics = None;
                meta.size_statistics = None;
                meta.encoding_stats = None;
                meta.encodings = Vec::new();
            }
        }
    }
    value
}

#[test]
fn the_fields_skipped_are_the_only_difference() {
    for (name, footer) in footers() {
        let full = FileMetaData::decode::<Compact>(&footer).unwrap();
        let skipped = SkipFileMetaData::decode::<Compact>(&footer).unwrap();
        // The footers do have what is skipped: the test compares something.
        let has_statistics = full.row_groups.iter().flat_map(|g| &g.columns).any(|c| {
            c.meta_data
                .as_ref()
                .is_some_and(|m| m.statistics.is_some() && !m.encodings.is_empty())
        });
        assert!(has_statistics, "{name}: no statistics to skip");
        let expected = without_skipped(full.clone())
            .encode_to_vec::<Compact>()
            .unwrap();
        assert_ne!(expected, footer, "{name}");
        assert_eq!(
            skipped.encode_to_vec::<Compact>().unwrap(),
            expected,
            "{name}: owned"
        );

        // Borrowed, and the borrowed forms' conversion to the owned ones.
        let full_ref = FileMetaDataRef::decode::<Compact>(&footer).unwrap();
        assert_eq!(FileMetaData::from(&full_ref), full, "{name}");
        let skipped_ref = SkipFileMetaDataRef::decode::<Compact>(&footer).unwrap();
        let skipped_from_ref = SkipFileMetaData::from(&skipped_ref);
        assert_eq!(skipped_from_ref, skipped, "{name}: borrowed");
        assert_eq!(
            skipped_ref.encode_to_vec::<Compact>().unwrap(),
            expected,
            "{name}"
        );

        // Decoding into a used value (read in place) gives the same.
        let mut reused = SkipFileMetaData::decode::<Compact>(&expected).unwrap();
        reused.num_rows += 1;
        let mut reader = <Compact as thrift_runtime::Protocol>::reader(
            thrift_runtime::SliceInput::new(&footer),
            thrift_runtime::ReadLimits::default(),
        );
        SkipFileMetaData::read_into(&mut reader, &mut reused).unwrap();
        assert_eq!(reused, skipped, "{name}: read_into");
    }
}

#[test]
fn a_skipped_field_costs_no_allocation() {
    for (name, footer) in footers() {
        let emptied = without_skipped(FileMetaData::decode::<Compact>(&footer).unwrap())
            .encode_to_vec::<Compact>()
            .unwrap();
        let (_, full) = allocations(|| FileMetaData::decode::<Compact>(&emptied).unwrap());
        let (_, skipping) = allocations(|| SkipFileMetaData::decode::<Compact>(&footer).unwrap());
        assert_eq!(skipping, full, "{name}: owned");
        let (_, full) = allocations(|| FileMetaDataRef::decode::<Compact>(&emptied).map(drop));
        let (_, skipping) =
            allocations(|| SkipFileMetaDataRef::decode::<Compact>(&footer).map(drop));
        assert_eq!(skipping, full, "{name}: borrowed");
        // The borrowing form holds short lists inline: decoding the skipped fields may cost
        // nothing there. The owned form allocates for them (their binaries and lists).
        let (_, everything) = allocations(|| FileMetaDataRef::decode::<Compact>(&footer).map(drop));
        assert!(skipping <= everything, "{name}: {skipping} vs {everything}");
        let (_, skipping) = allocations(|| SkipFileMetaData::decode::<Compact>(&footer).unwrap());
        let (_, everything) = allocations(|| FileMetaData::decode::<Compact>(&footer).unwrap());
        assert!(skipping < everything, "{name}: {skipping} vs {everything}");
    }
}

//! The contenders only the Parquet footers have (decode only, compact protocol): other forms of
//! our generated parquet.thrift (boxed, arena-inline, skipping the statistics) and the `parquet`
//! crate's own footer decoder, with and without the statistics.

use super::Contender;
use crate::gen::ours::parquet::FileMetaData;

/// The footers' own contenders, in table order (each behind its feature: pushed one by one).
#[allow(unused_variables, unused_mut, clippy::vec_init_then_push)]
pub fn extra_decoders<'a>(value: &'a FileMetaData, bytes: &'a [u8]) -> Vec<Contender<'a>> {
    let mut contenders = Vec::new();
    #[cfg(all(feature = "mappings", feature = "borrowed"))]
    contenders.push(borrowed_boxed(value, bytes));
    #[cfg(feature = "arena")]
    contenders.push(arena_inline(value, bytes));
    #[cfg(feature = "skip")]
    contenders.push(skip_stats(value, bytes));
    #[cfg(all(feature = "skip", feature = "borrowed"))]
    contenders.push(skip_stats_borrowed(value, bytes));
    #[cfg(feature = "parquet")]
    contenders.extend(parquet_crate(value, bytes));
    contenders
}

/// The borrowing form with the optional structs most footers lack boxed: the same value
/// (checked by re-encoding), in less memory per column.
#[cfg(all(feature = "mappings", feature = "borrowed"))]
fn borrowed_boxed<'a>(value: &'a FileMetaData, bytes: &'a [u8]) -> Contender<'a> {
    use std::hint::black_box;

    use thrift_runtime::{Compact, ThriftRead};

    use super::{guard, reencodes_to, Proto};
    use crate::gen::ours_boxed::parquet::FileMetaDataRef as BoxedRef;
    use crate::measure::Runner;

    let check = guard(|| {
        let boxed = BoxedRef::decode::<Compact>(bytes).map_err(|e| e.to_string())?;
        reencodes_to(Proto::Compact, &boxed, value)
    });
    Contender {
        name: "ours-borrowed-boxed",
        runner: check.map(|()| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    black_box(BoxedRef::decode::<Compact>(black_box(bytes)).unwrap());
                }
            }) as Runner<'a>
        }),
    }
}

/// Arena mode with the two optional structs every writer sets held inline
/// (`Builder::arena_inline`): a new arena per decode sized from the last footer, as
/// `ours-arena`; checked to re-encode to the value.
#[cfg(feature = "arena")]
fn arena_inline<'a>(value: &'a FileMetaData, bytes: &'a [u8]) -> Contender<'a> {
    use std::hint::black_box;

    use thrift_runtime::{Arena, Compact, ThriftRead};

    use super::{guard, reencodes_to, Proto};
    use crate::gen::ours_arena_inline::parquet::FileMetaDataRef as InlineRef;
    use crate::measure::Runner;

    let check = guard(|| {
        let mut arena = Arena::new();
        let r = InlineRef::decode_in::<Compact>(bytes, &arena)
            .map_err(|e| format!("cannot decode: {e}"))?;
        reencodes_to(Proto::Compact, &r, value)?;
        arena.reset();
        let _ = InlineRef::decode_in::<Compact>(bytes, &arena).unwrap();
        Ok(arena.used_bytes())
    });
    Contender {
        name: "ours-arena-inline",
        runner: check.map(|size| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    let arena = Arena::with_capacity(size);
                    black_box(InlineRef::decode_in::<Compact>(black_box(bytes), &arena).unwrap());
                }
            }) as Runner<'a>
        }),
    }
}

/// Selective decoding: the same footer without column statistics, size statistics and
/// encoding stats; checked to agree with the full decode on everything else.
#[cfg(feature = "skip")]
fn skip_stats<'a>(value: &'a FileMetaData, bytes: &'a [u8]) -> Contender<'a> {
    use std::hint::black_box;

    use thrift_runtime::{Compact, ThriftRead};

    use super::guard;
    use crate::gen::ours_skip::parquet::FileMetaData as Skip;
    use crate::measure::Runner;

    let check = guard(|| {
        let skip = Skip::decode::<Compact>(bytes).map_err(|e| e.to_string())?;
        if skipped_equal(value, &skip) {
            Ok(())
        } else {
            Err("skipping decode disagrees with the full one".into())
        }
    });
    Contender {
        name: "ours-skip-stats",
        runner: check.map(|()| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    black_box(Skip::decode::<Compact>(black_box(bytes)).unwrap());
                }
            }) as Runner<'a>
        }),
    }
}

/// [`skip_stats`] in the borrowing form.
#[cfg(all(feature = "skip", feature = "borrowed"))]
fn skip_stats_borrowed<'a>(value: &'a FileMetaData, bytes: &'a [u8]) -> Contender<'a> {
    use std::hint::black_box;

    use thrift_runtime::{Compact, ThriftRead};

    use super::guard;
    use crate::gen::ours_skip::parquet::{FileMetaData as Skip, FileMetaDataRef as SkipRef};
    use crate::measure::Runner;

    let check = guard(|| {
        let skip = SkipRef::decode::<Compact>(bytes).map_err(|e| e.to_string())?;
        if skipped_equal(value, &Skip::from(&skip)) {
            Ok(())
        } else {
            Err("skipping decode disagrees with the full one".into())
        }
    });
    Contender {
        name: "ours-skip-stats-borrowed",
        runner: check.map(|()| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    black_box(SkipRef::decode::<Compact>(black_box(bytes)).unwrap());
                }
            }) as Runner<'a>
        }),
    }
}

/// Whether `skip` (a decode skipping the statistics) is `value` without them.
#[cfg(feature = "skip")]
fn skipped_equal(
    value: &FileMetaData,
    skip: &crate::gen::ours_skip::parquet::FileMetaData,
) -> bool {
    use thrift_runtime::{Compact, ThriftWrite};

    let mut expected = value.clone();
    for column in expected.row_groups.iter_mut().flat_map(|g| &mut g.columns) {
        if let Some(meta) = &mut column.meta_data {
            meta.statistics = None;
            meta.size_statistics = None;
            meta.encoding_stats = None;
        }
    }
    expected.encode_to_vec::<Compact>().ok() == skip.encode_to_vec::<Compact>().ok()
}

/// The parquet crate's footer decoder (`parquet-crate`), checked to agree with our
/// `FileMetaData` on rows, row groups, columns, sizes and `created_by`; and the same told to
/// skip the statistics (`parquet-crate-no-stats`).
#[cfg(feature = "parquet")]
fn parquet_crate<'a>(value: &'a FileMetaData, bytes: &'a [u8]) -> Vec<Contender<'a>> {
    use std::hint::black_box;

    use parquet::file::metadata::ParquetMetaDataReader;

    use super::guard;
    use crate::measure::Runner;

    let mut contenders = Vec::new();
    let check = guard(|| {
        let md = ParquetMetaDataReader::decode_metadata(bytes).map_err(|e| e.to_string())?;
        let f = md.file_metadata();
        let same = f.num_rows() == value.num_rows
            && md.num_row_groups() == value.row_groups.len()
            && f.created_by() == value.created_by.as_deref()
            && md.row_groups().iter().zip(&value.row_groups).all(|(a, b)| {
                a.num_columns() == b.columns.len()
                    && a.num_rows() == b.num_rows
                    && a.total_byte_size() == b.total_byte_size
            });
        if same {
            Ok(())
        } else {
            Err("ParquetMetaData disagrees with our FileMetaData".into())
        }
    });
    contenders.push(Contender {
        name: "parquet-crate",
        runner: check.clone().map(|()| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    black_box(ParquetMetaDataReader::decode_metadata(black_box(bytes)).unwrap());
                }
            }) as Runner<'a>
        }),
    });
    // The parquet crate's own selective decoding: `ParquetMetaDataOptions` skipping
    // column statistics, size statistics and encoding stats for every column.
    use parquet::file::metadata::{ParquetMetaDataOptions, ParquetStatisticsPolicy};
    let options = ParquetMetaDataOptions::new()
        .with_column_stats_policy(ParquetStatisticsPolicy::SkipAll)
        .with_size_stats_policy(ParquetStatisticsPolicy::SkipAll)
        .with_encoding_stats_policy(ParquetStatisticsPolicy::SkipAll);
    let check = check.and_then(|()| {
        guard(|| {
            ParquetMetaDataReader::decode_metadata_with_options(bytes, Some(&options))
                .map(drop)
                .map_err(|e| e.to_string())
        })
    });
    contenders.push(Contender {
        name: "parquet-crate-no-stats",
        runner: check.map(|()| {
            Box::new(move |n: u64| {
                for _ in 0..n {
                    black_box(
                        ParquetMetaDataReader::decode_metadata_with_options(
                            black_box(bytes),
                            Some(&options),
                        )
                        .unwrap(),
                    );
                }
            }) as Runner<'a>
        }),
    });
    contenders
}

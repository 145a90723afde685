//! The workloads' types in each contender's generated code.

use super::{footers, Contender, Workload};
use crate::gen;

macro_rules! bench_workload {
    ($marker:ident, $ty:ident, $reft:ident) => {
        pub struct $marker;
        impl Workload for $marker {
            type Ours = gen::ours::bench::$ty;
            #[cfg(feature = "mappings")]
            type Hash = gen::ours_hash::bench::$ty;
            #[cfg(feature = "mappings")]
            type Shared = gen::ours_bytes::bench::$ty;
            #[cfg(feature = "mappings")]
            type SharedHash = gen::ours_bytes_hash::bench::$ty;
            #[cfg(feature = "compact")]
            type CompactHash = gen::ours_compact_hash::bench::$ty;
            #[cfg(feature = "mappings")]
            const HAS_HASH: bool = true;
            #[cfg(feature = "apache")]
            type Apache = gen::apache::bench::$ty;
            #[cfg(feature = "pilota")]
            type Pilota = gen::pilota_bench::bench::$ty;
            #[cfg(feature = "json")]
            type Json = crate::data::json::$ty;
            #[cfg(feature = "json")]
            fn to_json(v: &Self::Ours) -> Option<Self::Json> {
                Some(v.into())
            }
            #[cfg(feature = "arena")]
            type ArenaRef<'a> = gen::ours_arena::bench::$reft<'a>;
            #[cfg(feature = "borrowed")]
            type Ref<'a> = gen::ours::bench::$reft<'a>;
            #[cfg(feature = "borrowed")]
            fn ref_to_owned(r: &Self::Ref<'_>) -> Self::Ours {
                r.into()
            }
        }
    };
}

bench_workload!(SmallW, Small, SmallRef);
bench_workload!(LargeW, Large, LargeRef);
bench_workload!(ScalingW, Scaling, ScalingRef);

pub struct ParquetW;

impl Workload for ParquetW {
    type Ours = gen::ours::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    type Hash = gen::ours::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    type Shared = gen::ours_bytes::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    type SharedHash = gen::ours_bytes::parquet::FileMetaData;
    #[cfg(feature = "compact")]
    type CompactHash = gen::ours_compact_hash::parquet::FileMetaData;
    #[cfg(feature = "mappings")]
    const HAS_HASH: bool = false;
    #[cfg(feature = "apache")]
    type Apache = gen::apache::parquet::FileMetaData;
    #[cfg(feature = "pilota")]
    type Pilota = gen::pilota_parquet::parquet::FileMetaData;
    #[cfg(feature = "json")]
    type Json = ();
    #[cfg(feature = "json")]
    fn to_json(_: &Self::Ours) -> Option<()> {
        None
    }
    #[cfg(feature = "arena")]
    type ArenaRef<'a> = gen::ours_arena::parquet::FileMetaDataRef<'a>;
    #[cfg(feature = "borrowed")]
    type Ref<'a> = gen::ours::parquet::FileMetaDataRef<'a>;
    #[cfg(feature = "borrowed")]
    fn ref_to_owned(r: &Self::Ref<'_>) -> Self::Ours {
        r.into()
    }

    fn extra_decoders<'a>(value: &'a Self::Ours, bytes: &'a [u8]) -> Vec<Contender<'a>> {
        footers::extra_decoders(value, bytes)
    }
}

//! The traits generated types implement ([`ThriftWrite`], [`ThriftRead`])
//! and the encode/decode entry points built on them.
//!
//! Also what generated code calls to read containers: the list readers and the vectors they
//! fill ([`read_list`], [`ListItems`], [`capacity_hint`]), and the readers of lists and sets of
//! numbers, many elements at a time ([`read_scalar_list`], [`Scalar`]).

// Lowest first, each importing only those before it: `traits` (the traits and their entry
// points), `lists` (list readers), `scalar_lists` (lists of numbers), `builtin_impls` (the
// traits for numbers, strings, boxes, `ApplicationException`).
mod builtin_impls;
mod lists;
mod scalar_lists;
mod traits;

pub use smallvec::SmallVec;

pub use lists::{
    ListItems, MAX_PREALLOCATION, NewItems, capacity_hint, push_default, read_element, read_list,
    read_list_into, read_list_refill, read_list_reusing, read_small_list, read_small_list_into,
};
// For the arena's list readers (`arena_reads`).
#[cfg(feature = "arena")]
pub(crate) use scalar_lists::read_scalars;
pub use scalar_lists::{Scalar, read_scalar_list, read_scalar_list_into, read_scalar_set};
pub use traits::{ThriftRead, ThriftReadOwned, ThriftWrite, read_into_option};

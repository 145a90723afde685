//! Read, write and size code for one value of a given type. Generated per type: no dynamic
//! dispatch, container loops written out, field headers from constants.
//!
//! [`write`] writes and sizes values, [`read`] reads them (and a struct's fields), and
//! [`read_over`] reads them over the values a place holds, keeping their allocations.

mod read;
mod read_over;
mod val;
mod write;

pub use read::{read_bytes_into, read_struct_body, read_value};
pub use read_over::{read_collection_over, read_list_over, read_small_list_into};
pub use val::Val;
pub use write::{value_len, write_field};

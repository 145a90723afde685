//! Generates Rust code from Apache Thrift IDL.
//!
//! The command-line interface lives in [`cli`] so that it can be tested without spawning the
//! binary.

pub mod cli;

//! What several test files of this directory share (each includes it with `mod support;`).

use proptest::prelude::*;
use thrift_tests::golden::fixture_base_types::base_types::BaseTypes;

/// Any `BaseTypes`: every field from `any`, but the double, the string and the binary from the
/// strategies given (each test picks its own edge cases and sizes).
pub fn base_types(
    double: impl Strategy<Value = f64>,
    string: impl Strategy<Value = String>,
    binary: impl Strategy<Value = Vec<u8>>,
) -> impl Strategy<Value = BaseTypes> {
    (
        (
            any::<bool>(),
            any::<i8>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
        ),
        (any::<i64>(), double, string, binary, any::<[u8; 16]>()),
    )
        .prop_map(
            |(
                (a_bool, a_byte, an_i8, an_i16, an_i32),
                (an_i64, a_double, a_string, a_binary, a_uuid),
            )| {
                BaseTypes {
                    a_bool,
                    a_byte,
                    an_i8,
                    an_i16,
                    an_i32,
                    an_i64,
                    a_double,
                    a_string,
                    a_binary,
                    a_uuid,
                }
            },
        )
}

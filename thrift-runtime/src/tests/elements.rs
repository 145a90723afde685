//! Numbers read many at a time (`read_i32_elements`, `read_i64_elements`,
//! `read_double_elements`, and `codec::read_scalar_list` over them) give what reading them one
//! at a time gives: the same values, the same error, and the same position after them, in both
//! protocols, from a slice (the one-loop path) and from an `io::Read` (the provided methods).

use proptest::prelude::*;

use super::{bin, cpt};
use crate::protocol::{ProtocolReader, ProtocolWriter};
use crate::{BinaryReader, CompactReader, IoInput, Result, SliceInput, SmallVec};

/// The values, or the error's kind, and then what follows the elements (the rest of the
/// input, read byte by byte until it ends), so that a reader that stopped at the wrong place
/// gives another answer.
type Outcome<T> = (std::result::Result<Vec<T>, String>, Vec<u8>);

/// An error's kind, as its `Debug` text (`ErrorKind` has no `PartialEq`).
fn kind(e: crate::Error) -> String {
    format!("{:?}", e.kind())
}

fn outcome<'de, R: ProtocolReader<'de>, T: Clone>(r: &mut R, result: Result<Vec<T>>) -> Outcome<T> {
    let result = result.map_err(kind);
    let mut rest = Vec::new();
    if result.is_ok() {
        while let Ok(b) = r.read_i8() {
            rest.push(b as u8);
        }
    }
    (result, rest)
}

fn one_by_one<'de, R: ProtocolReader<'de>, T>(
    r: &mut R,
    n: usize,
    read: impl Fn(&mut R) -> Result<T>,
) -> Result<Vec<T>> {
    (0..n).map(|_| read(r)).collect()
}

fn at_once<T: Copy + Default>(
    n: usize,
    read: impl FnOnce(&mut [T]) -> Result<()>,
) -> Result<Vec<T>> {
    let mut out = vec![T::default(); n];
    read(&mut out)?;
    Ok(out)
}

/// Checks the three element types over `bytes` with the reader `make` builds, against reads
/// one at a time by the same kind of reader.
macro_rules! same_as_one_by_one {
    ($bytes:expr, $n:expr, $make:expr) => {{
        let (bytes, n): (&[u8], usize) = ($bytes, $n);
        let make = $make;
        let mut a = make(bytes);
        let mut b = make(bytes);
        let want = one_by_one(&mut a, n, |r| r.read_i32());
        let got = at_once(n, |out| b.read_i32_elements(out));
        prop_assert_eq!(outcome(&mut a, want), outcome(&mut b, got), "i32");
        let mut a = make(bytes);
        let mut b = make(bytes);
        let want = one_by_one(&mut a, n, |r| r.read_i64());
        let got = at_once(n, |out| b.read_i64_elements(out));
        prop_assert_eq!(outcome(&mut a, want), outcome(&mut b, got), "i64");
        let mut a = make(bytes);
        let mut b = make(bytes);
        let want = one_by_one(&mut a, n, |r| r.read_double().map(f64::to_bits));
        let got = at_once(n, |out| b.read_double_elements(out))
            .map(|v| v.into_iter().map(f64::to_bits).collect::<Vec<_>>());
        prop_assert_eq!(outcome(&mut a, want), outcome(&mut b, got), "double");
    }};
}

/// Varints of every length, some of them malformed: a byte with the continuation bit set
/// most of the time, and the ninth and tenth bytes of every value.
fn varint_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => 0x80u8..=0xff,
            2 => 0u8..0x80,
            1 => Just(0x01u8),
            1 => Just(0x02u8),
            1 => Just(0x0fu8),
            1 => Just(0x10u8),
        ],
        0..120,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn compact_elements_are_read_as_one_by_one(bytes in varint_bytes(), n in 0usize..24) {
        same_as_one_by_one!(&bytes, n, |b| CompactReader::new(SliceInput::new(b)));
        same_as_one_by_one!(&bytes, n, |b| CompactReader::new(IoInput::new(b)));
    }

    #[test]
    fn binary_elements_are_read_as_one_by_one(
        bytes in prop::collection::vec(any::<u8>(), 0..120),
        n in 0usize..24,
    ) {
        same_as_one_by_one!(&bytes, n, |b| BinaryReader::new(SliceInput::new(b)));
        same_as_one_by_one!(&bytes, n, |b| BinaryReader::new(IoInput::new(b)));
    }

    /// Lists written by the writers read back through `read_scalar_list` and
    /// `read_scalar_list_into` (into a `Vec` and a `SmallVec`, over old elements).
    #[test]
    fn scalar_lists_round_trip(
        values in prop::collection::vec(any::<i64>(), 0..40),
        old in prop::collection::vec(any::<i64>(), 0..40),
    ) {
        let compact = cpt(|w| {
            w.write_list_begin(crate::wire::TType::I64, values.len())?;
            for v in &values {
                w.write_i64(*v)?;
            }
            w.write_i32(7)
        });
        let binary = bin(|w| {
            w.write_list_begin(crate::wire::TType::I64, values.len())?;
            for v in &values {
                w.write_i64(*v)?;
            }
            w.write_i32(7)
        });
        let mut r = CompactReader::new(SliceInput::new(&compact));
        let got: Vec<i64> = crate::codec::read_scalar_list(&mut r).unwrap();
        prop_assert_eq!(&got, &values);
        prop_assert_eq!(r.read_i32().unwrap(), 7);
        let mut r = BinaryReader::new(SliceInput::new(&binary));
        let mut into: SmallVec<[i64; 6]> = old.iter().copied().collect();
        crate::codec::read_scalar_list_into(&mut r, &mut into).unwrap();
        prop_assert_eq!(&into[..], &values[..]);
        prop_assert_eq!(r.read_i32().unwrap(), 7);
        let mut r = CompactReader::new(IoInput::new(&compact[..]));
        let mut into = old.clone();
        crate::codec::read_scalar_list_into(&mut r, &mut into).unwrap();
        prop_assert_eq!(&into, &values);
        prop_assert_eq!(r.read_i32().unwrap(), 7);
    }
}

/// Every length of varint at the start of a slice, with and without ten bytes in view, and the
/// varints the one-loop path must refuse as the byte-by-byte reader does.
#[test]
fn varint_edges_in_one_loop() {
    let cases: &[(&[u8], std::result::Result<i64, &str>)] = &[
        (&[0x00], Ok(0)),
        (&[0x01], Ok(-1)),
        (&[0xac, 0x02], Ok(150)),
        (
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            Ok(-(1 << 55)),
        ),
        (
            &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f],
            Ok((1 << 62) - 1),
        ),
        (
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            Ok(i64::MIN),
        ),
        (
            &[0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            Ok(i64::MAX),
        ),
        (
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02],
            Err("InvalidData"),
        ),
        (
            &[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80],
            Err("InvalidData"),
        ),
    ];
    check_edges(cases, |r, out| r.read_i64_elements(out));
    // i32: five bytes at most, and a value below 2^32.
    let cases: &[(&[u8], std::result::Result<i32, &str>)] = &[
        (&[0xff, 0xff, 0xff, 0xff, 0x0f], Ok(i32::MIN)),
        (&[0xff, 0xff, 0xff, 0xff, 0x1f], Err("InvalidData")),
        (&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00], Err("InvalidData")),
        (&[0x82, 0x00], Ok(1)),
    ];
    check_edges(cases, |r, out| r.read_i32_elements(out));
}

/// Reads one element with `read` from each case's bytes, followed by 0, 3 and 12 more bytes
/// (the varint seen through the one-loop path or not), and compares with the expected value
/// or error kind.
fn check_edges<T: Copy + Default + PartialEq + std::fmt::Debug>(
    cases: &[(&[u8], std::result::Result<T, &str>)],
    read: impl Fn(&mut CompactReader<SliceInput<'_>>, &mut [T]) -> Result<()>,
) {
    for (bytes, want) in cases {
        for pad in [0, 3, 12] {
            let mut input = bytes.to_vec();
            input.extend(std::iter::repeat_n(0x05, pad));
            let mut r = CompactReader::new(SliceInput::new(&input));
            let mut out = [T::default(); 1];
            let got = read(&mut r, &mut out).map(|()| out[0]);
            assert_eq!(
                got.map_err(kind).as_ref().map_err(|k| k.as_str()),
                want.as_ref().map_err(|k| *k),
                "{bytes:02x?} + {pad}"
            );
        }
    }
}

/// A list announcing as many `i64`s as the input has bytes, none of them ending, is an error
/// (the vector grows by at most a `capacity_hint`, 1 MiB, before the elements are read).
#[test]
fn a_hostile_count_is_an_error() {
    let mut bytes = cpt(|w| w.write_list_begin(crate::wire::TType::I64, 3_000_000));
    bytes.extend(std::iter::repeat_n(0x80, 3_000_000));
    let mut r = CompactReader::new(SliceInput::new(&bytes));
    let got: Result<Vec<i64>> = crate::codec::read_scalar_list(&mut r);
    assert!(got.is_err());
}

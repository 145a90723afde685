//! The whole-field writer methods (`write_i64_field`, `write_string_field`,
//! `write_list_field_begin`…) write exactly the bytes of the separate calls they replace, for
//! every protocol, output, field id and previous id (short and long compact headers, known and
//! unknown previous field), value and length, and leave the writer in the same state.

use proptest::prelude::*;

use crate::{BinaryWriter, CompactWriter, IoOutput, ProtocolWriter, Result, SliceOutput, TType};

#[derive(Clone, Debug)]
enum Field {
    I32(i32),
    I64(i64),
    Double(f64),
    Str(String),
    Bin(Vec<u8>),
    List(TType, usize),
    Set(TType, usize),
    Map(TType, TType, usize),
}

impl Field {
    fn ttype(&self) -> TType {
        match self {
            Field::I32(_) => TType::I32,
            Field::I64(_) => TType::I64,
            Field::Double(_) => TType::Double,
            Field::Str(_) | Field::Bin(_) => TType::String,
            Field::List(..) => TType::List,
            Field::Set(..) => TType::Set,
            Field::Map(..) => TType::Map,
        }
    }
}

/// The field with one call (the container's header only: no elements follow).
fn fused<W: ProtocolWriter>(w: &mut W, id: i16, prev: Option<i16>, f: &Field) -> Result<()> {
    match f {
        Field::I32(v) => w.write_i32_field(id, prev, *v),
        Field::I64(v) => w.write_i64_field(id, prev, *v),
        Field::Double(v) => w.write_double_field(id, prev, *v),
        Field::Str(v) => w.write_string_field(id, prev, v),
        Field::Bin(v) => w.write_binary_field(id, prev, v),
        Field::List(elem, len) => {
            w.write_list_field_begin(id, prev, *elem, *len)?;
            w.write_list_end()?;
            w.write_field_end()
        }
        Field::Set(elem, len) => {
            w.write_set_field_begin(id, prev, *elem, *len)?;
            w.write_set_end()?;
            w.write_field_end()
        }
        Field::Map(key, value, len) => {
            w.write_map_field_begin(id, prev, *key, *value, *len)?;
            w.write_map_end()?;
            w.write_field_end()
        }
    }
}

/// The same field with the separate calls.
fn separate<W: ProtocolWriter>(w: &mut W, id: i16, f: &Field) -> Result<()> {
    w.write_field_begin(f.ttype(), id)?;
    match f {
        Field::I32(v) => w.write_i32(*v)?,
        Field::I64(v) => w.write_i64(*v)?,
        Field::Double(v) => w.write_double(*v)?,
        Field::Str(v) => w.write_string(v)?,
        Field::Bin(v) => w.write_binary(v)?,
        Field::List(elem, len) => {
            w.write_list_begin(*elem, *len)?;
            w.write_list_end()?;
        }
        Field::Set(elem, len) => {
            w.write_set_begin(*elem, *len)?;
            w.write_set_end()?;
        }
        Field::Map(key, value, len) => {
            w.write_map_begin(*key, *value, *len)?;
            w.write_map_end()?;
        }
    }
    w.write_field_end()
}

#[derive(Clone, Debug)]
struct Case {
    /// The field before the tested one (an `i8` field), if any.
    before: Option<i16>,
    /// Whether the tested call is told the previous id (generated code knows it unless an
    /// optional field came before).
    prev_known: bool,
    id: i16,
    field: Field,
}

/// A struct: the field before, the tested field (`fused` or not), and a field after it whose
/// compact header depends on the writer having recorded the tested field's id.
fn write_case<W: ProtocolWriter>(w: &mut W, case: &Case, use_fused: bool) -> Result<()> {
    let token = w.write_struct_begin()?;
    if let Some(before) = case.before {
        w.write_field_begin(TType::I8, before)?;
        w.write_i8(7)?;
        w.write_field_end()?;
    }
    if use_fused {
        let prev = case.prev_known.then_some(case.before.unwrap_or(0));
        fused(w, case.id, prev, &case.field)?;
    } else {
        separate(w, case.id, &case.field)?;
    }
    w.write_field_begin(TType::I8, case.id.wrapping_add(1))?;
    w.write_i8(9)?;
    w.write_field_end()?;
    w.write_field_stop()?;
    w.write_struct_end(token)
}

/// Asserts that writer type `$writer` writes `$case` with the whole-field calls as the bytes
/// `$expected` into every kind of output: a `Vec` with no room (every write reallocates: the
/// exact-copy paths), with room to spare (the word-store paths) and with exactly enough room;
/// an `IoOutput`; a `SliceOutput`.
macro_rules! assert_fused_writes {
    ($writer:ident, $expected:expr, $case:expr) => {{
        let (expected, case): (&[u8], &Case) = ($expected, $case);
        let vecs = [
            (Vec::new(), "an empty Vec"),
            (Vec::with_capacity(4096), "a Vec with room"),
            (Vec::with_capacity(expected.len()), "a Vec with exact room"),
        ];
        for (out, what) in vecs {
            let mut w = $writer::new(out);
            write_case(&mut w, case, true).unwrap();
            assert_eq!(
                w.into_output(),
                expected,
                "{} into {what}: {case:?}",
                stringify!($writer)
            );
        }
        let mut w = $writer::new(IoOutput::new(Vec::new()));
        write_case(&mut w, case, true).unwrap();
        assert_eq!(
            w.into_output().into_inner(),
            expected,
            "into an IoOutput: {case:?}"
        );
        let mut buf = [0u8; 4096];
        let mut w = $writer::new(SliceOutput::new(&mut buf));
        write_case(&mut w, case, true).unwrap();
        assert_eq!(
            w.into_output().written(),
            expected,
            "into a SliceOutput: {case:?}"
        );
    }};
}

fn ttype() -> impl Strategy<Value = TType> {
    prop::sample::select(vec![
        TType::Bool,
        TType::I8,
        TType::I16,
        TType::I32,
        TType::I64,
        TType::Double,
        TType::String,
        TType::Struct,
        TType::Map,
        TType::Set,
        TType::List,
        TType::Uuid,
    ])
}

fn length() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..20,
        0usize..300,
        Just(0x3fff),
        Just(0x4000),
        Just(i32::MAX as usize)
    ]
}

fn field() -> impl Strategy<Value = Field> {
    let bytes = prop::collection::vec(any::<u8>(), 0..40);
    prop_oneof![
        prop_oneof![any::<i32>(), -200i32..200].prop_map(Field::I32),
        prop_oneof![any::<i64>(), -200i64..200, any::<i32>().prop_map(i64::from)]
            .prop_map(Field::I64),
        any::<u64>().prop_map(|bits| Field::Double(f64::from_bits(bits))),
        "[a-z\u{e9}\u{4e2d}]{0,30}".prop_map(Field::Str),
        bytes.prop_map(Field::Bin),
        (ttype(), length()).prop_map(|(e, n)| Field::List(e, n)),
        (ttype(), length()).prop_map(|(e, n)| Field::Set(e, n)),
        (ttype(), ttype(), length()).prop_map(|(k, v, n)| Field::Map(k, v, n)),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    let id = prop_oneof![1i16..40, any::<i16>()];
    let before = prop::option::of(prop_oneof![0i16..30, any::<i16>()]);
    (before, any::<bool>(), id, field()).prop_map(|(before, prev_known, id, field)| Case {
        before,
        prev_known,
        id,
        field,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn whole_field_methods_write_the_separate_calls_bytes(case in case()) {
        let mut binary = BinaryWriter::new(Vec::new());
        write_case(&mut binary, &case, false).unwrap();
        assert_fused_writes!(BinaryWriter, &binary.into_output(), &case);
        let mut compact = CompactWriter::new(Vec::new());
        write_case(&mut compact, &case, false).unwrap();
        assert_fused_writes!(CompactWriter, &compact.into_output(), &case);
    }
}

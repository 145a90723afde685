//! `thrift_codegen::dynamic` (`thrift-codegen decode` / `encode`), with the golden fixtures'
//! IDL and no generated code, against the generated code of the same IDL: bytes the generated
//! types write decode to the JSON their serde support gives, and that JSON encodes to bytes
//! they decode to the same value, in the binary, compact and JSON protocols; RPC messages
//! both ways; errors located by byte offset or by path.

use serde_json::json;
use thrift_codegen::dynamic::{self, Protocol};
use thrift_runtime::{Binary, Compact, Json, MessageType, ProtocolWriter, ThriftRead, ThriftWrite};
use thrift_tests::golden::fixture_serde::serde::{Defaults, Everything};
use thrift_tests::golden::fixture_services::services::{StoreGetArgs, StoreGetResult};
use thrift_tests::samples::serde_everything;

fn load(fixture: &str) -> thrift_idl_parser::Checked {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../thrift-codegen/tests/golden")
        .join(fixture);
    let checked = thrift_idl_parser::check_files(&thrift_idl_parser::Loader::new(), &[&path]);
    assert!(!checked.has_errors(), "{}", checked.render_diagnostics());
    checked
}

#[test]
fn generated_bytes_decode_to_the_serde_json_and_back_in_every_protocol() {
    let checked = load("serde.thrift");
    let program = &checked.program;
    let id = dynamic::find_type(program, "Everything").unwrap();
    assert_eq!(dynamic::find_type(program, "serde.Everything").unwrap(), id);
    let value = serde_everything();
    let serde_json = serde_json::to_value(&value).unwrap();
    let encodings = [
        (Protocol::Binary, value.encode_to_vec::<Binary>().unwrap()),
        (Protocol::Compact, value.encode_to_vec::<Compact>().unwrap()),
        (Protocol::Json, value.encode_to_vec::<Json>().unwrap()),
    ];
    for (protocol, bytes) in encodings {
        let decoded = dynamic::decode(program, id, protocol, &bytes).unwrap();
        assert_eq!(decoded, serde_json, "{protocol:?}");
        let encoded = dynamic::encode(program, id, protocol, &decoded).unwrap();
        let back = match protocol {
            Protocol::Binary => Everything::decode::<Binary>(&encoded),
            Protocol::Compact => Everything::decode::<Compact>(&encoded),
            Protocol::Json => Everything::decode::<Json>(&encoded),
        };
        assert_eq!(back.unwrap(), value, "{protocol:?}");
    }
}

#[test]
fn fields_the_idl_does_not_declare_are_shown_by_id_and_not_encoded() {
    let checked = load("serde.thrift");
    let program = &checked.program;
    let id = dynamic::find_type(program, "Defaults").unwrap();
    // `Defaults` with field 1 and an undeclared field 99 (a struct holding a string).
    let mut bytes = Vec::new();
    let mut w = thrift_runtime::BinaryWriter::new(&mut bytes);
    let token = w.write_struct_begin().unwrap();
    w.write_field_begin(thrift_runtime::TType::I32, 1).unwrap();
    w.write_i32(5).unwrap();
    w.write_field_begin(thrift_runtime::TType::Struct, 99)
        .unwrap();
    let inner = w.write_struct_begin().unwrap();
    w.write_field_begin(thrift_runtime::TType::String, 1)
        .unwrap();
    w.write_string("x").unwrap();
    w.write_field_stop().unwrap();
    w.write_struct_end(inner).unwrap();
    w.write_field_stop().unwrap();
    w.write_struct_end(token).unwrap();
    let decoded = dynamic::decode(program, id, Protocol::Binary, &bytes).unwrap();
    assert_eq!(decoded, json!({"needed": 5, "#99": {"#1": "x"}}));
    let encoded = dynamic::encode(program, id, Protocol::Binary, &decoded).unwrap();
    let back = Defaults::decode::<Binary>(&encoded).unwrap();
    assert_eq!(back.needed, 5);
    assert_eq!(
        dynamic::decode(program, id, Protocol::Binary, &encoded).unwrap(),
        json!({"needed": 5})
    );
}

#[test]
fn messages_decode_and_encode_with_the_function_they_name() {
    let checked = load("services.thrift");
    let program = &checked.program;
    let mut call = Vec::new();
    let mut w = thrift_runtime::CompactWriter::new(&mut call);
    w.write_message_begin("get", MessageType::Call, 7).unwrap();
    StoreGetArgs { name: "key".into() }.write(&mut w).unwrap();
    w.write_message_end().unwrap();
    let decoded = dynamic::decode_message(program, None, Protocol::Compact, &call).unwrap();
    assert_eq!(
        decoded,
        json!({"name": "get", "type": "call", "seq": 7, "args": {"name": "key"}})
    );
    assert_eq!(
        dynamic::encode_message(program, None, Protocol::Compact, &decoded).unwrap(),
        call
    );
    // A reply holding a declared exception, and a multiplexed name.
    let reply = json!({
        "name": "Store:get",
        "type": "reply",
        "seq": 8,
        "result": {"busy": {"retry_after_ms": 30}}
    });
    let bytes = dynamic::encode_message(program, None, Protocol::Binary, &reply).unwrap();
    let mut r = thrift_runtime::BinaryReader::new(thrift_runtime::SliceInput::new(&bytes));
    let header = thrift_runtime::ProtocolReader::read_message_begin(&mut r).unwrap();
    assert_eq!(
        (&*header.name, header.kind, header.seq),
        ("Store:get", MessageType::Reply, 8)
    );
    let result = StoreGetResult::read(&mut r).unwrap();
    assert!(format!("{result:?}").contains("30"), "{result:?}");
    assert_eq!(
        dynamic::decode_message(program, None, Protocol::Binary, &bytes).unwrap(),
        reply
    );
    // A function no service has.
    let unknown = json!({"name": "nope", "type": "call", "seq": 1, "args": {}});
    let err = dynamic::encode_message(program, None, Protocol::Binary, &unknown).unwrap_err();
    assert!(err.message.contains("nope"), "{err}");
}

#[test]
fn errors_say_where() {
    let checked = load("serde.thrift");
    let program = &checked.program;
    let id = dynamic::find_type(program, "Everything").unwrap();
    let bytes = serde_everything().encode_to_vec::<Compact>().unwrap();

    // Bytes that stop early: the offset where reading stopped.
    let short = &bytes[..bytes.len() - 3];
    let err = dynamic::decode(program, id, Protocol::Compact, short).unwrap_err();
    assert!(err.offset.is_some_and(|o| o <= short.len()), "{err}");
    assert!(err.to_string().starts_with("byte "), "{err}");
    // Bytes after the value.
    let mut long = bytes.clone();
    long.push(0);
    let err = dynamic::decode(program, id, Protocol::Compact, &long).unwrap_err();
    assert_eq!(err.offset, Some(bytes.len()), "{err}");

    // JSON that does not fit: the path of the value.
    let encode = |json: serde_json::Value| {
        dynamic::encode(program, id, Protocol::Binary, &json)
            .unwrap_err()
            .to_string()
    };
    let err = encode(json!({"aBool": 3}));
    assert!(err.starts_with("at `.aBool`: expected bool"), "{err}");
    let err = encode(json!({"nested": [{"3": {"x": "far"}}]}));
    assert!(
        err.starts_with("at `.nested[0][\"3\"].x`: expected double"),
        "{err}"
    );
    let err = encode(json!({"anI16": 40000}));
    assert!(err.contains(".anI16") && err.contains("i16"), "{err}");
    let err = encode(json!({"color": "PURPLE"}));
    assert!(err.contains("PURPLE"), "{err}");
    let err = encode(json!({"shape": {"counts": [], "radius": 1.0}}));
    assert!(err.contains("exactly one field"), "{err}");
    let err = encode(json!({"noSuchField": 1}));
    assert!(err.contains("noSuchField"), "{err}");
    let defaults = dynamic::find_type(program, "Defaults").unwrap();
    let err = dynamic::encode(program, defaults, Protocol::Binary, &json!({})).unwrap_err();
    assert!(err.message.contains("needed"), "{err}");
    assert!(dynamic::find_type(program, "Nope").is_err());
}

#[test]
fn hostile_bytes_are_errors_in_every_protocol() {
    let checked = load("serde.thrift");
    let program = &checked.program;
    let id = dynamic::find_type(program, "Everything").unwrap();
    let seeds = thrift_tests::samples::encodings();
    for seed in seeds.iter().take(12) {
        thrift_tests::fuzz::dynamic(seed);
    }
    // A list claiming 2^31 elements, nested structs beyond the depth limit: errors.
    let huge = [0x19, 0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00];
    assert!(dynamic::decode(program, id, Protocol::Compact, &huge).is_err());
    let deep = vec![0x1c; 100_000];
    assert!(dynamic::decode(program, id, Protocol::Compact, &deep).is_err());
}

#[test]
fn typedefs_and_enums_are_types_too() {
    let checked = load("serde.thrift");
    let program = &checked.program;
    // `typedef map<Point, string> Labels`: struct keys, so pairs.
    let labels = dynamic::find_type(program, "Labels").unwrap();
    let json = json!([[{"x": 1.0, "y": 2.0}, "p"]]);
    let bytes = dynamic::encode(program, labels, Protocol::Compact, &json).unwrap();
    assert_eq!(
        dynamic::decode(program, labels, Protocol::Compact, &bytes).unwrap(),
        json
    );
    // An enum is an i32 on the wire, its name in JSON.
    let color = dynamic::find_type(program, "Color").unwrap();
    let bytes = dynamic::encode(program, color, Protocol::Binary, &json!("GREEN")).unwrap();
    assert_eq!(bytes, 2_i32.to_be_bytes());
    assert_eq!(
        dynamic::decode(program, color, Protocol::Binary, &bytes).unwrap(),
        json!("GREEN")
    );
}

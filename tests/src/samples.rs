//! Sample values of the golden fixtures' types and calls of their services, encoded: the seeds
//! of the memory-bound test's mutations and of the fuzz targets (`examples/fuzz_seeds.rs`).

use crate::golden::fixture_base_types::base_types::BaseTypes;
use crate::golden::fixture_containers::containers::{Containers, KeyWithSet, UsesKeys};
use crate::golden::fixture_recursion::recursion::{Node, Tree};
use crate::golden::fixture_serde::serde::{
    Color, Everything, Point as SerdePoint, Shape as SerdeShape,
};
use crate::golden::fixture_services::services::{
    EventsEmitArgs, Item, StoreGetArgs, StorePutArgs, StoreTypeArgs,
};
use crate::golden::fixture_services_base::services_base::BaseAddArgs;
use crate::golden::fixture_unions::unions::{Expr, HasUnion, Point, Shape};
use thrift_runtime::rpc::ProtocolKind;
use thrift_runtime::rpc::frame::{self, Framing, WireFormat};
use thrift_runtime::{Binary, Compact, Json, MessageType, OrderedF64, ThriftWrite};

/// Values of every fixture, encoded in every protocol: the mutation seeds.
pub fn encodings() -> Vec<Vec<u8>> {
    let containers = Containers {
        matrix: vec![vec![1, 2, 3], vec![], vec![-7]],
        tags: ["a".to_string(), "é".to_string(), "ccc".to_string()].into(),
        nested: [
            (
                "k".to_string(),
                [(7, vec!["v".to_string(), String::new()])].into(),
            ),
            (
                "l".to_string(),
                [(8, vec![]), (9, vec!["w".to_string()])].into(),
            ),
        ]
        .into(),
        doubles: [1.5.into(), (-0.0).into()].into(),
        by_double: [(2.0.into(), 3.0)].into(),
        sets_of_doubles: vec![[1.0.into()].into(), Default::default()],
        by_bytes: [(vec![1, 2, 3], true), (vec![], false)].into(),
        flags: Some(vec![true, false, true]),
        blobs: vec![vec![0; 9], vec![]],
        nested_doubles: [vec![1.0.into(), 2.0.into()]].into(),
    };
    let uses_keys = UsesKeys {
        by_key: [(
            KeyWithSet {
                names: ["x".to_string()].into(),
                weight: 1.0.into(),
            },
            [1, 2].into(),
        )]
        .into(),
        keys: [KeyWithSet::default()].into(),
        deep: [("d".to_string(), vec![[(1, "one".to_string())].into()])].into(),
    };
    let base = BaseTypes {
        a_bool: true,
        a_byte: -1,
        an_i8: 7,
        an_i16: -300,
        an_i32: 70_000,
        an_i64: -1 << 40,
        a_double: 0.25,
        a_string: "text".to_string(),
        a_binary: vec![0, 1, 2],
        ..BaseTypes::default()
    };
    let has_union = HasUnion {
        shape: Shape::Polygon(vec![Point { x: 1, y: -1 }, Point { x: 300, y: 70000 }]),
        expr: Some(Expr::Sum(vec![
            Expr::Literal(5),
            Expr::Negate(Box::new(Expr::Literal(-9))),
        ])),
    };
    let tree = Tree {
        children: vec![
            Tree {
                children: vec![Tree::default(), Tree::default()],
            },
            Tree::default(),
        ],
    };
    let node = Node {
        value: 3,
        next: Some(Box::new(Node {
            value: 4,
            next: None,
        })),
    };
    let mut out = Vec::new();
    macro_rules! every {
        ($($value:expr),*) => {
            $(
                out.push($value.encode_to_vec::<Binary>().unwrap());
                out.push($value.encode_to_vec::<Compact>().unwrap());
                out.push($value.encode_to_vec::<Json>().unwrap());
            )*
        };
    }
    every!(containers, uses_keys, base, has_union, tree, node);
    out
}

/// One message in a frame as `framing` frames it (THeader sequence id `seq`): `write` writes
/// the message into the buffer after the frame's start.
pub fn framed(framing: WireFormat, seq: i32, write: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = Vec::new();
    let start = frame::begin_frame(&mut bytes, framing, seq, &[]);
    write(&mut bytes);
    frame::end_frame(&mut bytes, start, usize::MAX).expect("no frame size limit");
    bytes
}

/// Calls of the fixtures' services (`Store` extending `Base`, `Events`, multiplexed names
/// too) in every transport and protocol, THeader with and without zlib, one call per
/// element, as a client writes them.
pub fn calls() -> Vec<Vec<u8>> {
    let item = Item {
        name: "item".into(),
        tags: Some(vec![1, -2]),
    };
    let mut out = Vec::new();
    for transport in [Framing::Buffered, Framing::Framed, Framing::Header] {
        for protocol in ProtocolKind::ALL {
            for zlib in [false, true] {
                if zlib && transport != Framing::Header {
                    continue;
                }
                let framing = WireFormat {
                    framing: transport,
                    protocol,
                    zlib,
                };
                let mut write = |name: &str, kind: MessageType, args: &dyn ErasedWrite| {
                    out.push(framed(framing, 7, |bytes| {
                        args.write_message(protocol, bytes, name, kind);
                    }));
                };
                write("get", MessageType::Call, &StoreGetArgs { name: "x".into() });
                write(
                    "Store:get",
                    MessageType::Call,
                    &StoreGetArgs {
                        name: "busy".into(),
                    },
                );
                write(
                    "put",
                    MessageType::Call,
                    &StorePutArgs {
                        item: item.clone(),
                        overwrite: true,
                    },
                );
                write(
                    "type",
                    MessageType::Call,
                    &StoreTypeArgs {
                        self_: "me".into(),
                        handler: 1,
                        out: vec![2],
                        args: [("a".to_string(), item.clone())].into(),
                        result: ["r".to_string()].into(),
                        call: 0.5,
                        channel: vec![item.clone(), Item::default()],
                    },
                );
                write("add", MessageType::Call, &BaseAddArgs { a: 1, b: 2 });
                write(
                    "Events:emit",
                    MessageType::Oneway,
                    &EventsEmitArgs { name: "e".into() },
                );
            }
        }
    }
    // A SASL PLAIN negotiation (user `u`, password `p`, as the fuzz target's server takes),
    // then a framed call: what a SASL client sends first.
    let mut sasl = b"\x01\x00\x00\x00\x05PLAIN\x02\x00\x00\x00\x04\x00u\x00p".to_vec();
    if let Some(framed) = out.iter().find(|bytes| bytes.len() > 4 && bytes[4] == 0x80) {
        sasl.extend_from_slice(framed);
    }
    out.push(sasl);
    out
}

/// A `ThriftWrite` value behind `dyn`, written as a message.
trait ErasedWrite {
    fn write_message(
        &self,
        protocol: ProtocolKind,
        out: &mut Vec<u8>,
        name: &str,
        kind: MessageType,
    );
}

impl<T: ThriftWrite> ErasedWrite for T {
    fn write_message(
        &self,
        protocol: ProtocolKind,
        out: &mut Vec<u8>,
        name: &str,
        kind: MessageType,
    ) {
        protocol.write_message(out, name, kind, 7, self).unwrap();
    }
}

/// The Parquet footers of `data/parquet/` (the Thrift-encoded `FileMetaData`, compact
/// protocol; see its README), by name.
pub fn parquet_footers() -> Vec<(&'static str, Vec<u8>)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/parquet");
    ["narrow", "nested", "wide", "crate-doubles"]
        .into_iter()
        .map(|name| {
            let path = dir.join(format!("{name}.footer"));
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, bytes)
        })
        .collect()
}

fn serde_point(x: f64, y: f64) -> SerdePoint {
    SerdePoint {
        x: OrderedF64(x),
        y: OrderedF64(y),
    }
}

/// A value of the `serde` fixture's `Everything`: every construct of its JSON mapping.
pub fn serde_everything() -> Everything {
    Everything {
        a_bool: true,
        a_byte: -8,
        an_i16: 16,
        an_i32: -32,
        an_i64: 1 << 40,
        a_double: 2.5,
        a_string: "héllo".into(),
        a_binary: vec![0, 1, 255],
        an_uuid: [7; 16],
        color: Color::GREEN,
        colors: vec![Color::RED, Color(12345), Color::NEGATIVE],
        doubles: std::collections::BTreeSet::from([OrderedF64(-1.5), OrderedF64(0.25)]),
        by_number: std::collections::BTreeMap::from([(1, "one".into()), (-2, "minus two".into())]),
        by_name: std::collections::BTreeMap::from([("a".into(), vec![1, 2])]),
        by_color: std::collections::BTreeMap::from([(Color::RED, true), (Color(99), false)]),
        by_bool: std::collections::BTreeMap::from([(true, 1), (false, 0)]),
        by_point: std::collections::BTreeMap::from([(serde_point(1.0, 2.0), "p".into())]),
        labels: Some(std::collections::BTreeMap::from([(
            serde_point(0.0, 0.0),
            "origin".into(),
        )])),
        by_double: std::collections::BTreeMap::from([(OrderedF64(0.5), "half".into())]),
        by_binary: std::collections::BTreeMap::from([(vec![1, 2], "bytes".into())]),
        nested: vec![
            std::collections::BTreeMap::from([(3, serde_point(3.0, 4.0))]),
            std::collections::BTreeMap::new(),
        ],
        shape: SerdeShape::Counts(std::collections::BTreeMap::from([(
            serde_point(5.0, 6.0),
            2,
        )])),
        r#type: "a keyword".into(),
    }
}

//! `Builder::extern_path`: `thrift-extern-user` takes `common.thrift`'s types from
//! `thrift-extern-common`. Its values hold the other crate's types (functions of that crate
//! take them), encode to the same bytes as the code generated with everything in one crate,
//! decode (owned and borrowed), default through the other crate's constants, and its service
//! extends the other crate's, over a real connection.

use std::collections::BTreeMap;
use std::net::TcpListener;

use thrift_extern_common::common::{self, Label, LabelRef, Level, Point};
use thrift_extern_user::full;
use thrift_extern_user::user::{
    NotFound, Shape, ShapeRef, Shapes, ShapesClient, ShapesGetError, ShapesProcessor,
};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind};
use thrift_runtime::{Binary, Compact, ThriftRead, ThriftWrite};

fn shape() -> Shape {
    Shape {
        name: "square".into(),
        path: vec![Point { x: 0, y: 0 }, Point { x: 3, y: -4 }],
        label: Label {
            text: "big".into(),
            level: Level::HIGH,
        },
        by_level: BTreeMap::from([(Level::LOW, Point { x: 1, y: 1 })]),
        limit: 5,
        labels: Some(vec![Label::default()]),
    }
}

/// The same value in the types generated all in one crate.
fn full_shape() -> full::user::Shape {
    use full::common as c;
    full::user::Shape {
        name: "square".into(),
        path: vec![c::Point { x: 0, y: 0 }, c::Point { x: 3, y: -4 }],
        label: c::Label {
            text: "big".into(),
            level: c::Level::HIGH,
        },
        by_level: BTreeMap::from([(c::Level::LOW, c::Point { x: 1, y: 1 })]),
        limit: 5,
        labels: Some(vec![c::Label::default()]),
    }
}

#[test]
fn values_hold_the_other_crates_types_and_encode_alike() {
    let value = shape();
    assert_eq!(thrift_extern_common::norm(&value.path[1]), 7);
    for (bytes, full_bytes) in [
        (
            value.encode_to_vec::<Binary>().unwrap(),
            full_shape().encode_to_vec::<Binary>().unwrap(),
        ),
        (
            value.encode_to_vec::<Compact>().unwrap(),
            full_shape().encode_to_vec::<Compact>().unwrap(),
        ),
    ] {
        assert_eq!(bytes, full_bytes);
    }
    let bytes = value.encode_to_vec::<Compact>().unwrap();
    let back = Shape::decode::<Compact>(&bytes).unwrap();
    assert_eq!(back, value);
    let borrowed = ShapeRef::decode::<Compact>(&bytes).unwrap();
    let label: &LabelRef<'_> = &borrowed.label;
    assert_eq!(label.text, "big");
    assert_eq!(Shape::from(&borrowed), value);
    // A default from the other crate's constant.
    assert_eq!(Shape::default().limit, common::MAX_POINTS);
}

struct Handler;

impl common::Base for Handler {
    fn ping(&self) -> thrift_runtime::Result<i32> {
        Ok(7)
    }
}

impl Shapes for Handler {
    fn get(&self, name: String) -> Result<Shape, ShapesGetError> {
        if name == "square" {
            Ok(shape())
        } else {
            Err(ShapesGetError::Missing(NotFound {
                what: Label {
                    text: name,
                    level: Level::LOW,
                },
            }))
        }
    }
}

#[test]
fn a_service_extends_the_other_crates_service() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let server = Server::new(ServerOptions::default())
        .spawn(listener, ShapesProcessor::new(Handler))
        .unwrap();
    let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
    let mut client = ShapesClient::new(Connection::connect(server.local_addr(), options).unwrap());
    assert_eq!(client.ping().unwrap(), 7);
    assert_eq!(client.get("square".into()).unwrap(), shape());
    assert!(matches!(
        client.get("circle".into()),
        Err(ShapesGetError::Missing(NotFound { what })) if what.text == "circle"
    ));
}

//! The generated types in use: build a value, encode it with both protocols, decode it back.
//!
//! Run with `cargo run -p thrift-examples`.

use std::collections::BTreeMap;

use thrift_examples::idl::shared::Point;
use thrift_examples::idl::tutorial::{Kind, MAX_TAGS, NotFound, Place};
use thrift_runtime::{Binary, Compact, ThriftRead, ThriftWrite};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let place = Place {
        name: "Lighthouse".to_string(),
        location: Point {
            lat: 48.383,
            lon: -4.495,
        },
        kind: Kind::WORK,
        tags: Some(vec!["coast".into(), "landmark".into()]),
        attachments: BTreeMap::from([("photo.jpg".to_string(), vec![0xff, 0xd8, 0xff])]),
    };
    println!("value:   {place:?}");
    println!("default: {:?}", Place::default());

    // Encoding allocates exactly once: `encoded_len` is exact.
    let binary = place.encode_to_vec::<Binary>()?;
    let compact = place.encode_to_vec::<Compact>()?;
    println!("binary protocol:  {} bytes", binary.len());
    println!("compact protocol: {} bytes", compact.len());

    // Decoding reads straight from the byte slice.
    assert_eq!(Place::decode::<Binary>(&binary)?, place);
    assert_eq!(Place::decode::<Compact>(&compact)?, place);
    println!("both decode back to the same value");

    // Enums keep numbers they do not know (from a newer peer) and write them back unchanged.
    let from_the_future = Place {
        kind: Kind(42),
        ..place.clone()
    };
    let decoded = Place::decode::<Compact>(&from_the_future.encode_to_vec::<Compact>()?)?;
    println!(
        "unknown enum value survives: {:?} (name: {:?})",
        decoded.kind,
        decoded.kind.name()
    );

    // Hostile bytes are errors, never panics.
    let truncated = &binary[..binary.len() / 2];
    println!(
        "truncated input: {}",
        Place::decode::<Binary>(truncated).unwrap_err()
    );

    // Exceptions are errors.
    let error: Box<dyn std::error::Error> = Box::new(NotFound {
        name: "Atlantis".into(),
    });
    println!("exception as error: {error}");
    println!("const MAX_TAGS = {MAX_TAGS}");
    Ok(())
}

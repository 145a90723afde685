//! What the fuzz targets check, as plain functions: `fuzz/fuzz_targets/*.rs` call them on the
//! fuzzer's inputs, and `tests/fuzz_regressions.rs` on the inputs the fuzzer has found
//! (`fuzz/regressions/`) and on the seeds, so that every crash found stays a test of the
//! normal suite. Each panics on a failed check; none panics on any input otherwise.

use std::collections::{BTreeMap, BTreeSet};

use bytes::BytesMut;
use thrift_runtime::FrameLimits;
use thrift_runtime::rpc::MultiplexedProcessor;
use thrift_runtime::rpc::blocking::respond;
use thrift_runtime::rpc::frame;
use thrift_runtime::{
    Arena, Binary, Compact, Json, MessageType, Protocol, ReadLimits, Result, SliceInput, TType,
    ThriftRead, ThriftWrite,
};

use crate::golden::fixture_base_types::base_types::{BaseTypes, BaseTypesRef};
use crate::golden::fixture_containers::containers::{Containers, ContainersRef};
use crate::golden::fixture_containers_bytes::containers::Containers as BytesContainers;
use crate::golden::fixture_containers_hash::containers::Containers as HashContainers;
use crate::golden::fixture_recursion::recursion::{Node, Tree};
use crate::golden::fixture_services::services::{
    Busy, Clash, ClashProcessor, Events, EventsProcessor, Item, Store, StoreGetError,
    StoreProcessor,
};
use crate::golden::fixture_services::services_base::{Base, BaseAddError, Oops};
use crate::golden::fixture_unions::unions::{HasUnion, Shape};
use crate::golden::fixture_unknown_fields::unknown_fields::{Kept, KeptRef, Nothing};

/// Whether a type's encoding is canonical: the same value always gives the same bytes. Hash
/// collections iterate in an order of their own, so two equal values may encode differently.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    Canonical,
    Hashed,
}

/// Decodes as `T`; when that works, encoding gives `encoded_len` bytes that decode to the
/// same value (compared by encoding again when the value holds a NaN, which is not equal to
/// itself; by length for hash collections, whose order is their own).
fn owned<T, P>(data: &[u8], order: Order)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + Clone + std::fmt::Debug + 'static,
    P: Protocol,
{
    let decoded = T::decode::<P>(data);
    into_used::<T, P>(data, decoded.as_ref().ok(), order);
    if let Ok(value) = decoded {
        let bytes = value.encode_to_vec::<P>().expect("a decoded value encodes");
        // Exact for binary and compact; a lower bound for JSON.
        if P::EXACT {
            assert_eq!(bytes.len(), value.encoded_len::<P>());
        } else {
            assert!(bytes.len() >= value.encoded_len::<P>());
        }
        let again = T::decode::<P>(&bytes).expect("our own encoding decodes");
        // A NaN anywhere makes the value unequal to itself.
        #[allow(clippy::eq_op)]
        let comparable = value == value;
        if comparable {
            assert_eq!(again, value);
        } else if order == Order::Canonical {
            assert_eq!(again.encode_to_vec::<P>().unwrap(), bytes);
        } else if P::EXACT {
            assert_eq!(again.encoded_len::<P>(), bytes.len());
        }
    }
}

/// `decode_into` over a used value (the last `T` this thread decoded, another input's)
/// succeeds exactly when `decode` does, and gives the same value.
fn into_used<T, P>(data: &[u8], fresh: Option<&T>, order: Order)
where
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + Clone + std::fmt::Debug + 'static,
    P: Protocol,
{
    use std::any::{Any, TypeId};
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static LAST: RefCell<HashMap<TypeId, Box<dyn Any>>> = RefCell::new(HashMap::new());
    }
    let last = LAST.with(|last| {
        last.borrow()
            .get(&TypeId::of::<T>())
            .and_then(|value| value.downcast_ref::<T>())
            .cloned()
    });
    if let Some(mut used) = last {
        let result = T::decode_into::<P>(data, &mut used);
        assert_eq!(
            result.is_ok(),
            fresh.is_some(),
            "decode_into and decode: {result:?}"
        );
        if let Some(fresh) = fresh {
            #[allow(clippy::eq_op)]
            let comparable = fresh == fresh;
            if comparable {
                assert_eq!(&used, fresh, "decoded into a used value");
            } else if order == Order::Canonical {
                assert_eq!(
                    used.encode_to_vec::<P>().unwrap(),
                    fresh.encode_to_vec::<P>().unwrap()
                );
            }
        }
    }
    if let Some(fresh) = fresh {
        LAST.with(|last| {
            last.borrow_mut()
                .insert(TypeId::of::<T>(), Box::new(fresh.clone()));
        });
    }
}

fn borrowed<'a, T: ThriftRead<'a>, P: Protocol>(data: &'a [u8]) {
    let _ = T::decode::<P>(data);
}

/// Decodes the arena form `A` of the owned type `T` (`Builder::arena`) in an arena: with the
/// binary and compact protocols it succeeds exactly when the owned decode does (JSON lends
/// only strings without escapes, so a borrowing form may fail where the owned one does not),
/// and converted to `T` it is the owned decode's value (by their encodings when a NaN makes a
/// value unequal to itself).
fn arena<'a, A, T, P>(data: &'a [u8], arena: &'a Arena)
where
    A: ThriftRead<'a> + ThriftWrite + std::fmt::Debug + 'a,
    T: for<'de> ThriftRead<'de> + ThriftWrite + PartialEq + std::fmt::Debug + for<'b> From<&'b A>,
    P: Protocol,
{
    let owned = T::decode::<P>(data);
    let view = A::decode_in::<P>(data, arena);
    if P::EXACT {
        assert_eq!(
            view.is_ok(),
            owned.is_ok(),
            "arena form: {view:?}, owned: {owned:?}"
        );
    }
    if let (Ok(view), Ok(owned)) = (view, owned) {
        let converted = T::from(&view);
        #[allow(clippy::eq_op)]
        let comparable = owned == owned;
        if comparable {
            assert_eq!(
                converted, owned,
                "the arena form converted to the owned one"
            );
        } else {
            assert_eq!(
                converted.encode_to_vec::<P>().unwrap(),
                owned.encode_to_vec::<P>().unwrap()
            );
        }
        // The arena form writes what the owned one does (maps and sets in the input's order,
        // which for the canonical owned mapping of these fixtures is the sorted order only
        // when the input was; so the writes are compared by length).
        if P::EXACT {
            assert_eq!(
                view.encoded_len::<P>(),
                view.encode_to_vec::<P>().unwrap().len()
            );
        }
    }
}

fn each<P: Protocol>(data: &[u8]) {
    use Order::{Canonical, Hashed};
    owned::<BaseTypes, P>(data, Canonical);
    owned::<Containers, P>(data, Canonical);
    owned::<HashContainers, P>(data, Hashed);
    owned::<Node, P>(data, Canonical);
    owned::<Tree, P>(data, Canonical);
    owned::<Shape, P>(data, Canonical);
    owned::<HasUnion, P>(data, Canonical);
    // Unknown fields kept: everything is one in `Nothing`.
    owned::<Nothing, P>(data, Canonical);
    owned::<Kept, P>(data, Canonical);
    let _ = BytesContainers::decode::<P>(data);
    borrowed::<BaseTypesRef<'_>, P>(data);
    borrowed::<ContainersRef<'_>, P>(data);
    // Arena mode (`Builder::arena`): lists, sets, maps and optional structs in an arena.
    let mut space = Arena::new();
    {
        use crate::golden::fixture_base_types_arena::base_types as b;
        use crate::golden::fixture_containers_arena::containers as c;
        use crate::golden::fixture_recursion_arena::recursion as r;
        use crate::golden::fixture_unions_arena::unions as u;
        arena::<b::BaseTypesRef<'_>, b::BaseTypes, P>(data, &space);
        arena::<b::NestedRef<'_>, b::Nested, P>(data, &space);
        arena::<c::ContainersRef<'_>, c::Containers, P>(data, &space);
        arena::<c::UsesKeysRef<'_>, c::UsesKeys, P>(data, &space);
        arena::<r::NodeRef<'_>, r::Node, P>(data, &space);
        arena::<r::TreeRef<'_>, r::Tree, P>(data, &space);
        arena::<r::PingRef<'_>, r::Ping, P>(data, &space);
        arena::<u::ShapeRef<'_>, u::Shape, P>(data, &space);
        arena::<u::ExprRef<'_>, u::Expr, P>(data, &space);
        arena::<u::HasUnionRef<'_>, u::HasUnion, P>(data, &space);
    }
    space.reset();
    if let Ok(view) = KeptRef::decode::<P>(data) {
        // The borrowing form writes the kept fields back as the owned form does.
        let owned = Kept::from(&view);
        assert_eq!(
            view.encode_to_vec::<P>().unwrap(),
            owned.encode_to_vec::<P>().unwrap()
        );
    }
}

/// `skip` of a struct (which nests every other type) from the start of the input.
fn skip<P: Protocol>(data: &[u8]) {
    let mut reader = P::reader(SliceInput::new(data), ReadLimits::default());
    let _ = thrift_runtime::skip_value(&mut reader, TType::Struct);
}

/// The `decode` target: any bytes through the generated decoders of the golden fixtures
/// (every field kind, recursion, unions, the type-mapping options, unknown fields kept), owned
/// and borrowed,
/// binary, compact and JSON, and through `skip`; whatever decodes must encode and decode again
/// to the same value, and `decode_into` over a used value must agree with `decode`.
pub fn decode(data: &[u8]) {
    each::<Binary>(data);
    each::<Compact>(data);
    each::<Json>(data);
    skip::<Binary>(data);
    skip::<Compact>(data);
    skip::<Json>(data);
}

/// The `dynamic` target's check, also run on the `decode` seeds: any bytes through
/// `thrift_codegen::dynamic` (`thrift-codegen decode`) as each struct of the `serde` fixture
/// (every construct of the JSON mapping) and as an RPC message of the `services` fixture, in
/// the three protocols. An error or JSON, never a panic; JSON that encodes again (it may not:
/// a decoded value may lack a `required` field) decodes to the same JSON, without the fields
/// the IDL does not declare (`"#id"`, which encoding leaves out).
pub fn dynamic(data: &[u8]) {
    use std::sync::OnceLock;
    use thrift_codegen::dynamic::{self, Protocol};
    static PROGRAMS: OnceLock<(thrift_idl_parser::Checked, thrift_idl_parser::Checked)> =
        OnceLock::new();
    let (serde, services) = PROGRAMS.get_or_init(|| {
        let golden =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../thrift-codegen/tests/golden");
        let load = |name: &str| {
            thrift_idl_parser::check_files(&thrift_idl_parser::Loader::new(), &[golden.join(name)])
        };
        (load("serde.thrift"), load("services.thrift"))
    });
    fn known(json: &serde_json::Value) -> serde_json::Value {
        match json {
            serde_json::Value::Object(fields) => fields
                .iter()
                .filter(|(key, _)| !key.starts_with('#'))
                .map(|(key, value)| (key.clone(), known(value)))
                .collect(),
            serde_json::Value::Array(items) => items.iter().map(known).collect(),
            other => other.clone(),
        }
    }
    for protocol in [Protocol::Binary, Protocol::Compact, Protocol::Json] {
        for name in ["Everything", "Defaults", "Tree", "Shape", "Oops"] {
            let program = &serde.program;
            let id = dynamic::find_type(program, name).expect("a struct of the fixture");
            let Ok(json) = dynamic::decode(program, id, protocol, data) else {
                continue;
            };
            if let Ok(bytes) = dynamic::encode(program, id, protocol, &json) {
                let again = dynamic::decode(program, id, protocol, &bytes)
                    .expect("what was encoded decodes");
                assert_eq!(again, known(&json), "{name} {protocol:?}");
            }
        }
        let program = &services.program;
        if let Ok(json) = dynamic::decode_message(program, None, protocol, data) {
            if let Ok(bytes) = dynamic::encode_message(program, None, protocol, &json) {
                let again = dynamic::decode_message(program, None, protocol, &bytes)
                    .expect("what was encoded decodes");
                assert_eq!(again, known(&json), "message {protocol:?}");
            }
        }
    }
}

/// A connection in memory: reads what a client sent, keeps what the server writes.
struct Wire<'a> {
    input: &'a [u8],
    output: Vec<u8>,
}

impl std::io::Read for Wire<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.input.read(buf)
    }
}

impl std::io::Write for Wire<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.output.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Any bytes as a client's SASL negotiation and what follows it, read by a server's
/// `SaslStream` (PLAIN and nothing else offered): an error or the end, never a panic; the
/// server writes only negotiation messages (a status byte 1..=5, then a length).
fn sasl(data: &[u8]) {
    use std::io::Read;
    use std::sync::Arc;
    use thrift_runtime::rpc::blocking::SaslStream;
    use thrift_runtime::rpc::sasl::SaslServerConfig;
    thread_local! {
        static CONFIG: Arc<SaslServerConfig> =
            Arc::new(SaslServerConfig::new().plain(|c| c.user == "u" && c.password == "p"));
    }
    let config = CONFIG.with(Arc::clone);
    let mut stream = SaslStream::new(
        Wire {
            input: data,
            output: Vec::new(),
        },
        config,
    );
    let mut buf = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 {
            break;
        }
    }
    let said = &stream.get_ref().output;
    if let Some(&status) = said.first() {
        assert!((1..=5).contains(&status), "a negotiation message: {said:?}");
    }
}

/// The `frame` target: any bytes as what a server receives (framed, THeader with zlib and
/// info headers, unframed; also as a SASL negotiation), split off by `frame::decode` with the
/// default limits, then parsed as a call. Errors, never a panic, and never more than the
/// limits allow.
pub fn frame(data: &[u8]) {
    sasl(data);
    let limits = FrameLimits::default();
    let mut buf = BytesMut::from(data);
    // Every message the bytes hold, as a server's loop would take them.
    for _ in 0..64 {
        match frame::decode(&mut buf, None, &limits) {
            Ok(Some(received)) => {
                let _ = received.message.name();
                let _ = received.message.split_service();
            }
            Ok(None) | Err(_) => break,
        }
    }
}

struct Handler;

impl Base for Handler {
    fn ping(&self) -> Result<()> {
        Ok(())
    }
    fn add(&self, a: i32, b: i32) -> std::result::Result<i32, BaseAddError> {
        a.checked_add(b).ok_or_else(|| {
            BaseAddError::Oops(Oops {
                why: "overflow".into(),
            })
        })
    }
}

impl Store for Handler {
    fn get(&self, name: String) -> std::result::Result<Item, StoreGetError> {
        match name.len() % 4 {
            0 => Ok(Item {
                name,
                tags: Some(vec![1, 2]),
            }),
            1 => Err(StoreGetError::Busy(Busy { retry_after_ms: 5 })),
            2 => Err(StoreGetError::Oops(Oops { why: name })),
            _ => Err(StoreGetError::Thrift(thrift_runtime::Error::invalid_data(
                "an undeclared error",
            ))),
        }
    }
    fn put(&self, _item: Item, _overwrite: bool) -> Result<()> {
        Ok(())
    }
    fn forget(&self, _name: String) -> Result<()> {
        Ok(())
    }
    #[allow(clippy::too_many_arguments)]
    fn r#type(
        &self,
        self_: String,
        _handler: i32,
        out: Vec<u8>,
        args: BTreeMap<String, Item>,
        result: BTreeSet<String>,
        _call: f64,
        channel: Vec<Item>,
    ) -> Result<bool> {
        Ok(self_.len() + out.len() + args.len() + result.len() + channel.len() > 3)
    }
}

impl Events for Handler {
    fn emit(&self, _name: String) -> Result<()> {
        Ok(())
    }
    fn flush(&self) -> Result<()> {
        Ok(())
    }
    fn poke(&self, _foo: i32, _baz: i32) -> Result<()> {
        Ok(())
    }
}

impl Clash for Handler {
    fn get_foo(&self, a: i32) -> Result<i32> {
        Ok(a)
    }
    fn get_foo_2(&self, b: i32) -> Result<i32> {
        Ok(b.wrapping_neg())
    }
}

fn processor() -> MultiplexedProcessor {
    let mut processor = MultiplexedProcessor::new();
    processor.set_default(StoreProcessor::new(Handler));
    processor.register("Store", StoreProcessor::new(Handler));
    processor.register("Events", EventsProcessor::new(Handler));
    processor.register("Clash", ClashProcessor::new(Handler));
    processor
}

/// The `server` target: any bytes as what a client sends a server, split into messages by
/// `frame::decode` (framed, THeader with zlib and info headers, unframed; binary and compact)
/// and each answered by `blocking::respond`, the server's own handling of a message, through
/// generated processors (a multiplexed one: `Store` extending `Base`, with declared
/// exceptions and a oneway, as the default service, and `Events` and `Clash` by name).
/// Errors close the connection, never a panic; and every reply the server writes is one whole
/// frame that a client of that transport reads back, with the call's sequence id.
pub fn server(data: &[u8]) {
    thread_local! {
        static PROCESSOR: MultiplexedProcessor = processor();
    }
    let limits = FrameLimits::default();
    let mut buf = BytesMut::from(data);
    let mut out = Vec::new();
    PROCESSOR.with(|processor| {
        // Every message the bytes hold, as a connection's loop takes them.
        for _ in 0..64 {
            let Ok(Some(received)) = frame::decode(&mut buf, None, &limits) else {
                break;
            };
            if respond(processor, &received, &mut out, limits.max_frame_size).is_err() {
                break;
            }
            // No reply: a oneway function (called as a call or a oneway, as Apache's
            // processors do).
            if out.is_empty() {
                continue;
            }
            let mut reply = BytesMut::from(&out[..]);
            let back = frame::decode(&mut reply, Some(received.format.framing), &limits)
                .expect("a reply the server wrote decodes")
                .expect("a reply the server wrote is whole");
            assert!(reply.is_empty(), "one reply, one frame");
            assert_eq!(back.message.seq(), received.message.seq());
            assert!(matches!(
                back.message.kind(),
                MessageType::Reply | MessageType::Exception
            ));
        }
    });
}

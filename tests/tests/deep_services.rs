//! Apache's `RecursionDepthTest.thrift` (a chain of 65 nested optional structs, `A1` to `A65`,
//! echoed by a service) generated with services, compiled here with the default
//! `recursion_limit`, and served async end to end. Its generated code once failed to compile
//! (`overflow evaluating the requirement Option<A65>: Send`, then the layout of `A1`): the
//! generator boxes fields that would nest structs too deep inline, and neither the async
//! processor nor the async client holds the args in a future.

use std::future::Future;

use thrift_runtime::rpc::asynchronous::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, Framing, ProtocolKind, ServerOptions};
use thrift_runtime::{Compact, ErrorKind, ReadLimits, ThriftRead, ThriftWrite};

mod deep {
    include!(concat!(env!("OUT_DIR"), "/deep/thrift.rs"));
}
use deep::recursion_depth_test::*;

struct Echo;

impl DeepAsync for Echo {
    // Answers a new chain as deep as the one it got. Not an `async fn` that returns `a`: a
    // future holding the chain must be proven `Send` through all 65 levels, which overflows
    // rustc's recursion limit in any crate; this one holds a number until it builds its answer.
    fn echo(&self, a: A1) -> impl Future<Output = thrift_runtime::Result<A1>> + Send {
        let depth = depth_of(&a);
        async move { Ok(build(depth)) }
    }
}

/// A chain of `depth` structs (up to 65, past the default `max_depth`), built through
/// `A1::decode`: each level is a different type, so the value is
/// written as compact bytes (field 1, a struct, `depth` times, then `x` in the last one).
fn build(depth: usize) -> A1 {
    // Field 1 (delta 1), a struct, in each struct but the last.
    let mut bytes = vec![0x1c; depth - 1];
    if depth == 65 {
        bytes.extend([0x14, 0x54]); // field 1 (delta 1), i16: 42 zigzagged
    }
    bytes.extend(std::iter::repeat_n(0x00, depth)); // a stop per struct
    let limits = ReadLimits {
        max_depth: 65,
        ..ReadLimits::default()
    };
    A1::decode_with_limits::<Compact>(&bytes, limits).expect("the chain decodes")
}

fn send<T: Send>(future: T) -> T {
    future
}

fn encoded(a: &A1) -> Vec<u8> {
    a.encode_to_vec::<Compact>().expect("the chain encodes")
}

/// How many structs the chain holds: one stop byte each (no other byte is zero).
fn depth_of(a: &A1) -> usize {
    encoded(a).iter().filter(|&&b| b == 0x00).count()
}

#[test]
fn a_deep_chain_is_echoed_by_the_async_server_and_client() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(
            Server::new(ServerOptions::default()).serve(listener, DeepAsyncProcessor::new(Echo)),
        );
        let options = ClientOptions::new(ProtocolKind::Compact).with_framing(Framing::Framed);
        let client = DeepAsyncClient::new(Connection::connect(addr, options).await.unwrap());

        // The client's future is `Send`: it holds the encoded args, not the chain.
        let value = build(40);
        let echoed = send(client.echo(value.clone())).await.unwrap();
        // Compared as bytes: `==` and `Debug` instantiate two generic functions per level
        // (`Option`'s and `Box`'s), 130 for the whole chain, past rustc's instantiation limit
        // (128) where a generic function (`assert_eq!`'s, `unwrap_err`'s) reaches them first.
        assert_eq!(encoded(&echoed), encoded(&value));
        assert_eq!(depth_of(&echoed), 40);

        // The whole chain, 65 structs inside the args struct, is deeper than the default
        // max_depth (64): the server refuses to decode it and says so.
        let Err(error) = client.echo(build(65)).await else {
            panic!("a chain deeper than max_depth was echoed");
        };
        assert!(
            matches!(error.kind(), ErrorKind::Application(_)),
            "{error:?}"
        );
    });
}

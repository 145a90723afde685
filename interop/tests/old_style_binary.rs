//! Old-style (non-strict) binary messages: the pre-version form (the name's length, the name,
//! the type byte, the sequence id) that Apache's Java and C++ libraries read by default and
//! write with `strictWrite=false`. Both servers answer such calls, unframed and framed (in
//! strict binary, as Apache's servers do by default), and both clients read such replies.
//! (HTTP: `http.rs`; detection itself: the runtime's `tests/rpc.rs`.)

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use thrift_interop::handler::TestHandler;
use thrift_interop::types::{
    ThriftTestAsyncClient, ThriftTestAsyncProcessor, ThriftTestClient, ThriftTestProcessor,
};
use thrift_runtime::rpc::blocking::{Connection, Server};
use thrift_runtime::rpc::{ClientOptions, ServerOptions};
use thrift_runtime::rpc::{Framing, ProtocolKind, asynchronous};

mod support;

/// `testI32(5)`, old-style, sequence id 9.
const CALL: &[u8] = b"\x00\x00\x00\x07testI32\x01\x00\x00\x00\x09\x08\x00\x01\x00\x00\x00\x05\x00";
/// Its reply in strict binary.
const STRICT_REPLY: &[u8] =
    b"\x80\x01\x00\x02\x00\x00\x00\x07testI32\x00\x00\x00\x09\x08\x00\x00\x00\x00\x00\x05\x00";

fn framed(message: &[u8]) -> Vec<u8> {
    let mut out = (message.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(message);
    out
}

fn start(asynchronous: bool) -> (SocketAddr, Box<dyn std::any::Any>) {
    if asynchronous {
        let runtime = support::runtime();
        let (listener, addr) = support::tokio_listener(&runtime);
        let processor = ThriftTestAsyncProcessor::new(TestHandler);
        runtime
            .spawn(asynchronous::Server::new(ServerOptions::default()).serve(listener, processor));
        (addr, Box::new(runtime))
    } else {
        let handle = Server::new(ServerOptions::default())
            .spawn(
                TcpListener::bind("127.0.0.1:0").unwrap(),
                ThriftTestProcessor::new(TestHandler),
            )
            .unwrap();
        (handle.local_addr(), Box::new(handle))
    }
}

#[test]
fn both_servers_answer_old_style_calls_unframed_and_framed() {
    for asynchronous in [false, true] {
        let (addr, _server) = start(asynchronous);
        for (call, reply) in [
            (CALL.to_vec(), STRICT_REPLY.to_vec()),
            (framed(CALL), framed(STRICT_REPLY)),
        ] {
            let mut stream = TcpStream::connect(addr).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            // Twice on one connection: the second is read after the first.
            for _ in 0..2 {
                stream.write_all(&call).unwrap();
                let mut got = vec![0; reply.len()];
                stream.read_exact(&mut got).unwrap();
                assert_eq!(got, reply, "async: {asynchronous}");
            }
        }
    }
}

/// A server that answers every call with `reply(name, seq)`, reading each call as it comes
/// (framed or not, strict binary: the clients write strict messages).
fn old_style_server(transport: Framing) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            std::thread::spawn(move || {
                loop {
                    let mut head = [0; 4];
                    if stream.read_exact(&mut head).is_err() {
                        return;
                    }
                    if transport == Framing::Framed {
                        // The frame's length, then the version word.
                        stream.read_exact(&mut head).unwrap();
                    }
                    // The name.
                    let mut len = [0; 4];
                    stream.read_exact(&mut len).unwrap();
                    let mut name = vec![0; u32::from_be_bytes(len) as usize];
                    stream.read_exact(&mut name).unwrap();
                    let mut seq = [0; 4];
                    stream.read_exact(&mut seq).unwrap();
                    // testI32's arguments: one i32 field and the stop byte.
                    let mut args = [0; 8];
                    stream.read_exact(&mut args).unwrap();
                    let mut reply = (name.len() as u32).to_be_bytes().to_vec();
                    reply.extend_from_slice(&name);
                    reply.push(2);
                    reply.extend_from_slice(&seq);
                    // Field 0, the i32 the call sent.
                    reply.extend_from_slice(&[8, 0, 0]);
                    reply.extend_from_slice(&args[3..7]);
                    reply.push(0);
                    if transport == Framing::Framed {
                        reply = framed(&reply);
                    }
                    stream.write_all(&reply).unwrap();
                }
            });
        }
    });
    addr
}

#[test]
fn both_clients_read_old_style_replies() {
    for transport in [Framing::Buffered, Framing::Framed] {
        let addr = old_style_server(transport);
        let mut options = ClientOptions::new(ProtocolKind::Binary).with_framing(transport);
        options.timeout = Some(Duration::from_secs(5));
        let mut client = ThriftTestClient::new(Connection::connect(addr, options.clone()).unwrap());
        for n in [5, -1, i32::MAX] {
            assert_eq!(client.test_i32(n).unwrap(), n, "{transport:?}");
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let client = ThriftTestAsyncClient::new(
                asynchronous::Connection::connect(addr, options)
                    .await
                    .unwrap(),
            );
            let (a, b) = tokio::join!(client.test_i32(1), client.test_i32(2));
            assert_eq!((a.unwrap(), b.unwrap()), (1, 2), "{transport:?}");
        });
    }
}

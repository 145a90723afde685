//! Tests of the async client connection: calls from many tasks, written whole and in order.

use super::Connection;
use crate::rpc::service::{AsyncChannel, ClientRequest};
use crate::rpc::{ClientOptions, Framing, ProtocolKind};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream};

/// A peer that answers every framed binary call with its own bytes as the reply (the
/// message type changed to reply), one frame at a time, and fails on a frame that is not
/// a whole message (bytes of two calls interleaved).
async fn mirror(mut io: DuplexStream) {
    loop {
        let mut len = [0u8; 4];
        if io.read_exact(&mut len).await.is_err() {
            return;
        }
        let mut frame = vec![0u8; u32::from_be_bytes(len) as usize];
        io.read_exact(&mut frame).await.unwrap();
        assert_eq!(
            &frame[..3],
            &[0x80, 0x01, 0x00],
            "a message starts the frame"
        );
        assert!(frame[3] == 1 || frame[3] == 4, "a call or a oneway");
        frame[3] = 2;
        io.write_all(&len).await.unwrap();
        io.write_all(&frame).await.unwrap();
    }
}

/// Args `{1: string text}` in the binary protocol.
fn args(text: &[u8]) -> Vec<u8> {
    let mut body = vec![0x0B, 0x00, 0x01];
    body.extend_from_slice(&(text.len() as u32).to_be_bytes());
    body.extend_from_slice(text);
    body.push(0x00);
    body
}

/// Through a pipe that takes 64 bytes at a time, a caller's own write stops part way
/// (the rest goes to the writer task) and other callers queue behind it: every call still
/// arrives whole and in one piece, and every reply finds its caller.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_written_in_part_or_queued_arrive_whole() {
    let (client, server) = tokio::io::duplex(64);
    let peer = tokio::spawn(mirror(server));
    let connection = Connection::new(
        client,
        ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed),
    );
    let mut callers = tokio::task::JoinSet::new();
    for caller in 0..24usize {
        let connection = connection.clone();
        callers.spawn(async move {
            for call in 0..64usize {
                let text = vec![b'a' + caller as u8; 1 + (caller * 131 + call * 977) % 3000];
                let body = args(&text);
                let oneway = call % 4 == 3;
                let request = ClientRequest {
                    method: "echo",
                    oneway,
                    body: body.clone(),
                    protocol: ProtocolKind::Binary,
                };
                let reply = connection.send(request).await.unwrap();
                match reply {
                    Some(reply) => {
                        assert!(!oneway);
                        assert!(
                            reply.message.bytes().ends_with(&body),
                            "the reply to this call"
                        );
                        assert_eq!(reply.message.seq(), reply.seq, "matched by sequence id");
                    }
                    None => assert!(oneway, "only a oneway call has no reply"),
                }
            }
        });
    }
    // Interleaved bytes would leave the peer waiting for a frame that never ends.
    let all = tokio::time::timeout(Duration::from_secs(30), async {
        while let Some(caller) = callers.join_next().await {
            caller.unwrap();
        }
    });
    all.await.expect("every call answered within 30 s");
    assert!(!connection.is_closed());
    drop(connection);
    peer.abort();
}

/// A socket whose peer has left as TCP shows it: reads end (the peer's FIN), writes are
/// still taken (until the peer's reset comes back).
struct PeerLeft;

impl tokio::io::AsyncRead for PeerLeft {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        _: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

impl tokio::io::AsyncWrite for PeerLeft {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::task::Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

/// Once the peer has left, a oneway call fails as a two-way call does (`Closed`), instead
/// of being written into a socket that still takes bytes and reported sent.
#[tokio::test(flavor = "current_thread")]
async fn a_closed_connection_refuses_oneway_calls_too() {
    let connection = Connection::new(
        PeerLeft,
        ClientOptions::new(ProtocolKind::Binary).with_framing(Framing::Framed),
    );
    let closed = tokio::time::timeout(Duration::from_secs(10), async {
        while !connection.is_closed() {
            tokio::task::yield_now().await;
        }
    });
    closed.await.expect("the connection sees its peer leave");
    for oneway in [true, false] {
        let request = ClientRequest {
            method: "echo",
            oneway,
            body: args(b"x"),
            protocol: ProtocolKind::Binary,
        };
        let error = connection
            .send(request)
            .await
            .expect_err("a closed connection");
        assert!(
            matches!(error.kind(), crate::ErrorKind::Closed),
            "oneway: {oneway}: {error:?}"
        );
    }
}

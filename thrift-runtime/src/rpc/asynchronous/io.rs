//! What the async client and server share: reading a whole message off a stream, with the
//! rules of [`MessageRead`] (timeouts and a stop signal for a server), and IO deadlines.

use std::future::{Future, poll_fn};
use std::io;
use std::pin::pin;
use std::task::Poll;
use std::time::Duration;

use ::tokio::io::{AsyncRead, AsyncReadExt};
use ::tokio::sync::watch;
use bytes::BytesMut;

use crate::error::Result;
use crate::rpc::frame::{self, Received};
use crate::rpc::reading::{AfterRead, MessageRead, ReadTimeouts};

pub(super) const READ_CHUNK: usize = 16 * 1024;

/// Makes room for the next read: a new chunk only when less than a quarter of one is left.
/// Reserving a whole chunk before every read moved a client to a new 16 KiB buffer on every
/// reply (one allocation of it, and one more to share it), because the reply just split off
/// still shares the old buffer while its caller decodes it; `reserve` takes the old one back
/// only when nothing shares it.
pub(super) fn make_room(buf: &mut BytesMut) {
    if buf.capacity() - buf.len() < READ_CHUNK / 4 {
        buf.reserve(READ_CHUNK);
    }
}

/// Runs an IO future within `limit` (none: as long as it takes); running out is `TimedOut`.
pub(super) async fn within<T>(
    limit: Option<Duration>,
    io: impl Future<Output = io::Result<T>>,
) -> io::Result<T> {
    match limit {
        Some(limit) => ::tokio::time::timeout(limit, io)
            .await
            .unwrap_or_else(|_| Err(io::ErrorKind::TimedOut.into())),
        None => io.await,
    }
}

/// Reads until `buf` holds a whole message; `Ok(None)` when the peer closed between messages
/// (or `stop` fired while waiting for a new one). The rules are [`MessageRead`]'s, shared with
/// the blocking transports; a server passes its timeouts and its stop signal.
pub(super) async fn read_message<R: AsyncRead + Unpin>(
    reader: &mut R,
    buf: &mut BytesMut,
    expect: Option<frame::Framing>,
    limits: &crate::limits::FrameLimits,
    mut server: Option<(ReadTimeouts, &mut watch::Receiver<bool>)>,
) -> Result<Option<Received>> {
    let mut read = MessageRead::new(buf, expect, limits, server.as_ref().map(|(t, _)| *t));
    loop {
        if let Some(received) = read.message(buf)? {
            return Ok(Some(received));
        }
        let next = read.next_read(buf)?;
        make_room(buf);
        let n = match &mut server {
            None => reader.read_buf(buf).await?,
            Some((_, stop)) => {
                let mut reading = pin!(reader.read_buf(buf));
                let mut stopped = pin!(stop.wait_for(|stop| *stop));
                let both = poll_fn(|cx| {
                    if next.between_messages && stopped.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(None);
                    }
                    reading.as_mut().poll(cx).map(Some)
                });
                let outcome = match next.until {
                    Some(until) => match ::tokio::time::timeout_at(until.into(), both).await {
                        Ok(outcome) => outcome,
                        Err(_) => {
                            read.woke(&next);
                            continue;
                        }
                    },
                    None => both.await,
                };
                match outcome {
                    None => return Ok(None),
                    Some(n) => n?,
                }
            }
        };
        if read.read(n, buf)? == AfterRead::Closed {
            return Ok(None);
        }
    }
}

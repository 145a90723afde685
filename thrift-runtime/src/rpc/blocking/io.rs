//! What the blocking client and servers share: reading a whole message off a stream (with a
//! server's timeouts and stop flag), latency mode's polling read, and writing within a
//! deadline.

use std::cell::Cell;
use std::io::{self, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use bytes::BytesMut;

use super::listener::Stream;
use crate::error::{Error, Result};
use crate::limits::FrameLimits;
use crate::rpc::frame::{Framing, Received};
use crate::rpc::reading::{AfterRead, MessageRead, ReadTimeouts};

/// Bytes offered to one `read` call.
pub(super) const READ_CHUNK: usize = 16 * 1024;

/// What a server connection's reads need beyond a client's: timeouts, set on the stream
/// before each read, and the stop flag of a shutdown.
pub(crate) struct ServerRead<'a, S> {
    pub(super) timeouts: ReadTimeouts,
    pub(super) set_timeout: fn(&mut S, Option<Duration>) -> io::Result<()>,
    pub(super) stop: &'a AtomicBool,
    /// The read timeout the stream has (outer `None`: not known), kept across messages so
    /// that it is set only when it must change: a server waiting for each next call with
    /// the same stop-flag poll would otherwise make one `setsockopt` per call.
    pub(super) current: &'a Cell<Option<Option<Duration>>>,
}

/// Whether a stream whose read timeout is `current` may read as is when `wanted` is the
/// wait: a shorter timeout only wakes the read early (it then looks at its deadlines again),
/// so anything from half the wait up to the wait will do; a quiet window is set exactly.
fn timeout_will_do(
    current: Option<Option<Duration>>,
    wanted: Option<Duration>,
    window: bool,
) -> bool {
    match (current, wanted) {
        (Some(current), wanted) if current == wanted => true,
        (Some(Some(current)), Some(wanted)) if !window => {
            current <= wanted && current >= wanted / 2
        }
        _ => false,
    }
}

/// How often an idle server connection looks at the stop flag.
pub(crate) const STOP_POLL: Duration = Duration::from_millis(200);

/// Reads until `buf` holds a whole message and splits it off; `Ok(None)` when the peer
/// closed the connection between messages (or, on a server, shutdown began while waiting
/// for a new message). The rules are [`MessageRead`]'s, shared with the async transports.
pub(crate) fn read_message<S: Read>(
    stream: &mut S,
    buf: &mut BytesMut,
    expect: Option<Framing>,
    limits: &FrameLimits,
    server: Option<ServerRead<'_, S>>,
) -> Result<Option<Received>> {
    let mut read = MessageRead::new(buf, expect, limits, server.as_ref().map(|s| s.timeouts));
    loop {
        if let Some(received) = read.message(buf)? {
            return Ok(Some(received));
        }
        let next = read.next_read(buf)?;
        if let Some(server) = &server {
            let mut wait = next.wait();
            if next.between_messages {
                if server.stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                wait = Some(wait.map_or(STOP_POLL, |w| w.min(STOP_POLL)));
            }
            if !timeout_will_do(server.current.get(), wait, next.is_window()) {
                (server.set_timeout)(stream, wait)?;
                server.current.set(Some(wait));
            }
        }
        let len = buf.len();
        buf.resize(len + READ_CHUNK, 0);
        let n = match stream.read(&mut buf[len..]) {
            Ok(n) => n,
            Err(e) => {
                buf.truncate(len);
                match e.kind() {
                    io::ErrorKind::Interrupted => continue,
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut if server.is_some() => {
                        read.woke(&next);
                        continue;
                    }
                    _ => return Err(Error::from(e)),
                }
            }
        };
        buf.truncate(len + n);
        if read.read(n, buf)? == AfterRead::Closed {
            return Ok(None);
        }
    }
}

/// Latency mode ([`ServerOptions::busy_poll`]): reads the stream into `into` without blocking
/// until bytes come, the peer closes, or `window` passes, keeping the thread on its core (and
/// yielding it to threads with work) instead of asleep in the kernel. Returns how many bytes
/// it read: 0 when none came or the peer closed, which the blocking read that follows tells
/// apart. A stream that cannot be made non-blocking reads nothing here.
pub(crate) fn busy_poll<S: Stream>(
    stream: &mut S,
    into: &mut [u8],
    window: Duration,
) -> io::Result<usize> {
    if stream.set_nonblocking(true).is_err() {
        return Ok(0);
    }
    let deadline = Instant::now() + window;
    let read = loop {
        match stream.read(into) {
            Ok(n) => break Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    break Ok(0);
                }
                // Other threads with work (the server's other connections) run meanwhile.
                thread::yield_now();
            }
            Err(e) => break Err(e),
        }
    };
    stream.set_nonblocking(false)?;
    read
}

/// Writes all of `bytes` within `limit` in total. A socket's write timeout bounds each
/// `write` only: a client reading a large reply a little at a time would hold a worker for
/// as long as it likes. The stream's write timeout is `limit` already; it is lowered to what
/// is left only after a partial write, so a reply that fits in one write costs no extra call.
pub(crate) fn write_within<S: Stream + ?Sized>(
    stream: &mut S,
    bytes: &[u8],
    limit: Option<Duration>,
) -> io::Result<()> {
    let deadline = limit.and_then(|limit| Instant::now().checked_add(limit));
    let mut rest = bytes;
    let mut lowered = false;
    while !rest.is_empty() {
        let partly_written = rest.len() < bytes.len();
        if let Some(deadline) = deadline.filter(|_| partly_written) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the reply took longer than the write timeout to send",
                ));
            }
            stream.set_write_timeout(Some(left))?;
            lowered = true;
        }
        match stream.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if lowered {
        stream.set_write_timeout(limit)?;
    }
    Ok(())
}

#[cfg(test)]
mod timeout_tests {
    use super::timeout_will_do;
    use std::time::Duration;

    #[test]
    fn a_read_timeout_is_set_only_when_it_must_change() {
        let ms = Duration::from_millis;
        // Unknown: set. The same: kept (the stop-flag poll between calls).
        assert!(!timeout_will_do(None, Some(ms(200)), false));
        assert!(timeout_will_do(Some(Some(ms(200))), Some(ms(200)), false));
        assert!(timeout_will_do(Some(None), None, false));
        // Shorter, down to half: kept (the read wakes early and looks again); longer than
        // the wait or under half of it: set, so no deadline is overrun and no read spins.
        assert!(timeout_will_do(Some(Some(ms(200))), Some(ms(300)), false));
        assert!(!timeout_will_do(
            Some(Some(ms(200))),
            Some(ms(30_000)),
            false
        ));
        assert!(!timeout_will_do(
            Some(Some(ms(200))),
            Some(ms(100) / 2),
            false
        ));
        assert!(!timeout_will_do(Some(Some(ms(200))), None, false));
        assert!(!timeout_will_do(Some(None), Some(ms(200)), false));
        // A quiet window is waited exactly.
        assert!(!timeout_will_do(Some(Some(ms(200))), Some(ms(300)), true));
        assert!(timeout_will_do(Some(Some(ms(300))), Some(ms(300)), true));
    }
}

#[cfg(all(test, unix))]
mod busy_poll_tests {
    use super::busy_poll;
    use std::io::{ErrorKind, Read, Write};
    use std::os::unix::net::UnixStream;
    use std::time::{Duration, Instant};

    #[test]
    fn takes_bytes_that_come_within_the_window_and_leaves_the_stream_blocking() {
        let (mut server, mut client) = UnixStream::pair().unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(5));
            client.write_all(b"call").unwrap();
            client
        });
        let mut buf = [0; 16];
        let start = Instant::now();
        let n = busy_poll(&mut server, &mut buf, Duration::from_secs(5)).unwrap();
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "it returned when the bytes came"
        );
        assert_eq!(&buf[..n], b"call");
        let _client = writer.join().unwrap();
        // Blocking again: a read waits for its timeout instead of failing at once.
        server
            .set_read_timeout(Some(Duration::from_millis(50)))
            .unwrap();
        let start = Instant::now();
        let err = server.read(&mut buf).unwrap_err();
        assert!(matches!(
            err.kind(),
            ErrorKind::WouldBlock | ErrorKind::TimedOut
        ));
        assert!(
            start.elapsed() >= Duration::from_millis(40),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn gives_up_after_the_window_with_nothing_read() {
        let (mut server, _client) = UnixStream::pair().unwrap();
        let start = Instant::now();
        let n = busy_poll(&mut server, &mut [0; 16], Duration::from_millis(20)).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(20));
        assert_eq!(n, 0);
    }

    #[test]
    fn a_closed_peer_ends_the_poll_at_once() {
        let (mut server, client) = UnixStream::pair().unwrap();
        drop(client);
        let start = Instant::now();
        let n = busy_poll(&mut server, &mut [0; 16], Duration::from_secs(5)).unwrap();
        assert!(start.elapsed() < Duration::from_secs(4));
        assert_eq!(n, 0);
    }
}

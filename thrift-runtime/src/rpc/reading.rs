//! Reading until a connection holds a whole message, sans IO: when to look for the message's
//! end in what has arrived, how long the next read may wait (idle and read timeouts, the quiet
//! window of an unframed message), and what the end of the stream means. The blocking and
//! async transports drive one [`MessageRead`] with their own reads, so both follow the same
//! rules.

use std::io;
use std::time::{Duration, Instant};

use bytes::BytesMut;

use super::frame::{self, Framing, Received, UnframedProbe};
use crate::error::{Error, Result};
use crate::limits::FrameLimits;

/// How long a server's read may wait.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ReadTimeouts {
    /// For the first byte of a message.
    pub(crate) idle: Option<Duration>,
    /// For the rest of a message once its first byte is in.
    pub(crate) message: Option<Duration>,
}

/// The bounds of the next read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NextRead {
    /// When the read gives up (none: it waits as long as it takes).
    pub(crate) until: Option<Instant>,
    /// Whether the connection is between messages (a server's shutdown may end the wait).
    pub(crate) between_messages: bool,
    /// Whether `until` is the end of a quiet window rather than a timeout.
    window: bool,
    /// When these bounds were computed (none for a client, which has no timeouts here).
    #[cfg_attr(not(feature = "blocking"), allow(dead_code))]
    now: Option<Instant>,
}

impl NextRead {
    /// Whether the wait is a quiet window (an unframed message's end is looked for after
    /// it), which must be waited exactly, not a timeout.
    #[cfg(feature = "blocking")]
    pub(crate) fn is_window(&self) -> bool {
        self.window
    }

    /// The wait until `until` from when the bounds were computed, at least a millisecond (a
    /// socket refuses a zero timeout). For socket timeouts: the blocking side's.
    #[cfg(feature = "blocking")]
    pub(crate) fn wait(&self) -> Option<Duration> {
        let (until, now) = (self.until?, self.now?);
        Some(
            until
                .saturating_duration_since(now)
                .max(Duration::from_millis(1)),
        )
    }
}

/// What a read of `n` bytes means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AfterRead {
    /// Look for the message again.
    More,
    /// The peer closed the connection between messages.
    Closed,
}

/// One wait for a whole message on a connection.
#[derive(Debug)]
pub(crate) struct MessageRead<'a> {
    expect: Option<Framing>,
    limits: &'a FrameLimits,
    /// A server's timeouts; `None` for a client, which tries after every read and has no
    /// timeouts of its own here.
    timeouts: Option<ReadTimeouts>,
    idle_since: Instant,
    message_since: Option<Instant>,
    probe: UnframedProbe,
    quiet: bool,
}

impl<'a> MessageRead<'a> {
    /// Starts waiting for a message; `buf` may already hold the start of it. A client passes
    /// the transport it expects (see [`frame::decode`]).
    pub(crate) fn new(
        buf: &[u8],
        expect: Option<Framing>,
        limits: &'a FrameLimits,
        timeouts: Option<ReadTimeouts>,
    ) -> Self {
        let now = Instant::now();
        MessageRead {
            expect,
            limits,
            timeouts,
            idle_since: now,
            message_since: (!buf.is_empty()).then_some(now),
            probe: UnframedProbe::default(),
            quiet: timeouts.is_none(),
        }
    }

    /// Splits a whole message off `buf` when it holds one (and looking is due).
    pub(crate) fn message(&mut self, buf: &mut BytesMut) -> Result<Option<Received>> {
        if !buf.is_empty() && self.probe.due(buf, self.quiet) {
            match frame::decode(buf, self.expect, self.limits)? {
                Some(received) => return Ok(Some(received)),
                None => self.probe.failed(buf),
            }
        }
        self.quiet = self.timeouts.is_none();
        Ok(None)
    }

    /// The bounds of the next read; a `TimedOut` error when a timeout has passed.
    pub(crate) fn next_read(&self, buf: &[u8]) -> Result<NextRead> {
        let between_messages = self.message_since.is_none();
        let Some(timeouts) = self.timeouts else {
            return Ok(NextRead {
                until: None,
                between_messages,
                window: false,
                now: None,
            });
        };
        let (since, limit) = match self.message_since {
            Some(since) => (since, timeouts.message),
            None => (self.idle_since, timeouts.idle),
        };
        // A limit too large to add is no limit.
        let deadline = limit.and_then(|limit| since.checked_add(limit));
        let now = Instant::now();
        if deadline.is_some_and(|deadline| deadline <= now) {
            return Err(Error::from(io::Error::new(
                io::ErrorKind::TimedOut,
                if between_messages {
                    "idle connection"
                } else {
                    "a message took longer than the read timeout to arrive"
                },
            )));
        }
        // Held back from looking for an unframed message's end: wait only a quiet window.
        let window_end = self
            .probe
            .window(buf)
            .and_then(|window| now.checked_add(window));
        let window = window_end.is_some_and(|w| deadline.is_none_or(|d| w < d));
        Ok(NextRead {
            until: if window { window_end } else { deadline },
            between_messages,
            window,
            now: Some(now),
        })
    }

    /// The read bounded by `next` reached its `until` with nothing read.
    pub(crate) fn woke(&mut self, next: &NextRead) {
        // After a quiet window, look for the message's end; after a timeout, `next_read`
        // fails.
        self.quiet = next.window;
    }

    /// `n` bytes were appended to `buf` (0: the end of the stream).
    pub(crate) fn read(&mut self, n: usize, buf: &[u8]) -> Result<AfterRead> {
        if n == 0 {
            return if buf.is_empty() {
                Ok(AfterRead::Closed)
            } else {
                Err(Error::from(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the peer closed the connection inside a message",
                )))
            };
        }
        self.message_since.get_or_insert_with(Instant::now);
        Ok(AfterRead::More)
    }
}

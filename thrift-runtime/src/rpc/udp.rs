//! Thrift over UDP (feature `udp`), as Jaeger's agent takes it: each datagram is one whole
//! oneway call, unframed (compact for Jaeger, any protocol here: a server detects it), and
//! nothing is sent back. This module is the datagram codec both execution models share.
//!
//! - Clients: [`blocking::UdpClient`](crate::rpc::blocking::UdpClient) (a blocking
//!   [`Channel`](super::Channel)) and [`asynchronous::UdpClient`](crate::rpc::asynchronous::UdpClient)
//!   (an [`AsyncChannel`](super::AsyncChannel)). Only oneway calls: a call that expects a
//!   reply is an error, as is a message larger than the datagram limit (checked before sending).
//! - Servers: [`blocking::UdpServer`](crate::rpc::blocking::UdpServer) (a thread) and
//!   [`asynchronous::UdpServer`](crate::rpc::asynchronous::UdpServer) (a task per call), built
//!   and run as every server is (`new(ServerOptions)`, `serve`, `spawn`). A datagram over the
//!   limit, one that is not a whole oneway call (a call expecting a reply included: there is
//!   no one to reply to), or malformed bytes are dropped and counted in [`UdpStats`]; the
//!   server goes on.

use std::io;
use std::sync::atomic::AtomicU64;

use bytes::Bytes;

use super::message::{Message, ProtocolKind};
use crate::error::{Error, Result};
use crate::limits::ReadLimits;
use crate::wire::MessageType;

/// The largest datagram sent or received by default: Jaeger's agent's (65,000 bytes).
pub const DEFAULT_MAX_DATAGRAM: usize = 65_000;

pub(crate) fn not_oneway() -> Error {
    Error::from(io::Error::new(
        io::ErrorKind::Unsupported,
        "UDP carries oneway calls only (no reply can come back)",
    ))
}

fn too_large(len: usize, max: usize) -> Error {
    Error::from(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("a {len}-byte message does not fit in a UDP datagram of at most {max} bytes"),
    ))
}

/// A oneway call, encoded as a datagram of at most `max` bytes by `write`.
pub(crate) fn datagram(
    max: usize,
    write: impl FnOnce(&mut Vec<u8>) -> Result<()>,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write(&mut out)?;
    if out.len() > max {
        return Err(too_large(out.len(), max));
    }
    Ok(out)
}

/// What a server does with a datagram: the oneway call in it, or `None` (dropped).
pub(crate) fn oneway_call(datagram: &[u8], limits: ReadLimits) -> Option<Message> {
    let protocol = ProtocolKind::detect(datagram).ok()??;
    if protocol.message_len(datagram, limits).ok()?? != datagram.len() {
        return None;
    }
    let message = Message::parse(Bytes::copy_from_slice(datagram), protocol, limits).ok()?;
    (message.kind() == MessageType::Oneway).then_some(message)
}

/// What a UDP server counts.
#[derive(Debug, Default)]
pub struct UdpStats {
    /// Oneway calls handed to the processor.
    pub served: AtomicU64,
    /// Datagrams dropped: over the limit, malformed, or not a oneway call.
    pub dropped: AtomicU64,
}

/// A UDP server's struct and its building, the same in both execution models: its options,
/// its datagram limit and what it counts. Each module adds `serve` and `spawn`.
macro_rules! udp_server {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, Default)]
        pub struct $name {
            options: crate::rpc::ServerOptions,
            max_datagram: Option<usize>,
            stats: std::sync::Arc<crate::rpc::udp::UdpStats>,
        }

        impl $name {
            /// A server with these options.
            pub fn new(options: crate::rpc::ServerOptions) -> Self {
                $name {
                    options,
                    max_datagram: None,
                    stats: std::sync::Arc::default(),
                }
            }

            /// Datagrams of at most `max` bytes (default
            /// [`DEFAULT_MAX_DATAGRAM`](crate::rpc::udp::DEFAULT_MAX_DATAGRAM)); larger ones are
            /// dropped whole.
            pub fn max_datagram(mut self, max: usize) -> Self {
                self.max_datagram = Some(max);
                self
            }

            /// What the server has served and dropped, shared with it (read it while it runs).
            pub fn stats(&self) -> std::sync::Arc<crate::rpc::udp::UdpStats> {
                std::sync::Arc::clone(&self.stats)
            }
        }
    };
}
pub(crate) use udp_server;

//! Every limit the runtime enforces against hostile or corrupt input, in one place, with
//! Thrift's `TConfiguration` defaults (`thrift-tconfiguration.md`).
//!
//! | limit | setting | default | checked by |
//! |---|---|---|---|
//! | nesting depth | [`ReadLimits::max_depth`] | 64 | every struct/list/set/map begin, in decode and in `skip` |
//! | string / binary length | [`ReadLimits::max_string_len`] | 100 MiB | every length prefix, before allocating |
//! | container element count | [`ReadLimits::max_container_len`] | `i32::MAX` (and the remaining input) | every list/set/map header, before allocating |
//! | message size | [`ReadLimits::max_message_size`] | 100 MiB | every reader; an unframed message on a connection |
//! | frame size | [`FrameLimits::max_frame_size`] | 16,384,000 bytes | framed and THeader frames, before buffering them |
//! | decompressed size | [`FrameLimits::max_decompressed_size`] | 16,384,000 bytes | a zlib THeader payload while it inflates |
//!
//! Exceeding one of them gives [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded)
//! naming the [`Limit`]. Lengths that point past the end of the input are
//! [`ErrorKind::SizeLimit`](crate::ErrorKind::SizeLimit) (a slice) or
//! [`ErrorKind::UnexpectedEof`](crate::ErrorKind::UnexpectedEof) (a stream); neither is
//! allocated for.

use std::fmt;

/// `TConfiguration`'s `DEFAULT_MAX_MESSAGE_SIZE`: 100 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 100 * 1024 * 1024;

/// `TConfiguration`'s `DEFAULT_RECURSION_DEPTH`: 64.
pub const DEFAULT_RECURSION_DEPTH: usize = 64;

/// `TConfiguration`'s `DEFAULT_MAX_FRAME_SIZE`: 16,384,000 bytes.
pub const DEFAULT_MAX_FRAME_SIZE: usize = 16_384_000;

/// Which limit an input exceeded (in [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Limit {
    /// [`ReadLimits::max_depth`].
    Depth,
    /// [`ReadLimits::max_string_len`].
    StringLen,
    /// [`ReadLimits::max_container_len`].
    ContainerLen,
    /// [`ReadLimits::max_message_size`].
    MessageSize,
    /// [`FrameLimits::max_frame_size`].
    FrameSize,
    /// [`FrameLimits::max_decompressed_size`].
    DecompressedSize,
}

impl Limit {
    /// The setting's name, as in [`ReadLimits`] and [`FrameLimits`]: `max_depth`, ...
    pub fn setting(self) -> &'static str {
        match self {
            Limit::Depth => "max_depth",
            Limit::StringLen => "max_string_len",
            Limit::ContainerLen => "max_container_len",
            Limit::MessageSize => "max_message_size",
            Limit::FrameSize => "max_frame_size",
            Limit::DecompressedSize => "max_decompressed_size",
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.setting())
    }
}

/// Limits enforced by the protocol readers.
///
/// Exceeding one gives [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Maximum nesting of structs and containers (each `read_struct_begin`,
    /// `read_list_begin`, `read_set_begin` and `read_map_begin` counts one
    /// level, in decoding and in `skip`). Default 64.
    pub max_depth: usize,
    /// Maximum byte length of one `string`/`binary`. Default: 100 MiB.
    pub max_string_len: usize,
    /// Maximum element count of one list, set or map. Default: `i32::MAX`
    /// (the specs' "no limit"); the count is also checked against the remaining input
    /// (every element takes at least one byte).
    pub max_container_len: usize,
    /// Maximum number of bytes read by one reader. Default 100 MiB.
    pub max_message_size: usize,
}

impl ReadLimits {
    /// The defaults from `thrift-tconfiguration.md`.
    pub const DEFAULT: ReadLimits = ReadLimits {
        max_depth: DEFAULT_RECURSION_DEPTH,
        max_string_len: DEFAULT_MAX_MESSAGE_SIZE,
        max_container_len: i32::MAX as usize,
        max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
    };

    /// No size limits (still bounded by `i32::MAX` on the wire and by the
    /// input), depth 64.
    pub const UNLIMITED_SIZE: ReadLimits = ReadLimits {
        max_depth: DEFAULT_RECURSION_DEPTH,
        max_string_len: usize::MAX,
        max_container_len: usize::MAX,
        max_message_size: usize::MAX,
    };
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits::DEFAULT
    }
}

/// Limits of an RPC connection: [`ReadLimits`] for the messages plus the transport's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameLimits {
    /// Largest frame (framed and THeader), default 16,384,000 bytes. A frame's length is
    /// checked before anything is buffered for it.
    pub max_frame_size: usize,
    /// Largest THeader payload after zlib decompression, default 16,384,000 bytes (what
    /// Apache's C++ and Python libraries allow: the frame size). Inflating stops with an
    /// error as soon as the output passes it.
    pub max_decompressed_size: usize,
    /// Limits of the protocol readers; `max_message_size` also bounds an unframed message.
    pub read: ReadLimits,
}

impl FrameLimits {
    /// The defaults from `thrift-tconfiguration.md`.
    pub const DEFAULT: FrameLimits = FrameLimits {
        max_frame_size: DEFAULT_MAX_FRAME_SIZE,
        max_decompressed_size: DEFAULT_MAX_FRAME_SIZE,
        read: ReadLimits::DEFAULT,
    };
}

impl Default for FrameLimits {
    fn default() -> Self {
        FrameLimits::DEFAULT
    }
}

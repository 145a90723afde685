//! Read limits (Thrift's `TConfiguration`).

/// `TConfiguration`'s `DEFAULT_MAX_MESSAGE_SIZE`: 100 MiB.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 100 * 1024 * 1024;

/// `TConfiguration`'s `DEFAULT_RECURSION_DEPTH`: 64.
pub const DEFAULT_RECURSION_DEPTH: usize = 64;

/// Limits enforced by readers against hostile or corrupt input.
///
/// Exceeding a size limit gives [`ErrorKind::SizeLimit`](crate::ErrorKind::SizeLimit),
/// exceeding the depth gives [`ErrorKind::DepthLimit`](crate::ErrorKind::DepthLimit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadLimits {
    /// Maximum nesting of structs and containers (each `read_struct_begin`,
    /// `read_list_begin`, `read_set_begin` and `read_map_begin` counts one
    /// level). Default 64.
    pub max_depth: usize,
    /// Maximum byte length of one `string`/`binary`. Default: 100 MiB.
    pub max_string_len: usize,
    /// Maximum element count of one list, set or map. Default: `i32::MAX`
    /// (the specs' "no limit").
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

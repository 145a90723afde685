//! Why bytes or JSON could not be converted: the message, the byte offset, the value's path.

use std::fmt;

/// Why bytes or JSON could not be converted, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What is wrong.
    pub message: String,
    /// The byte offset in the input where reading stopped, for bytes that are not valid.
    pub offset: Option<usize>,
    /// The path of the value that does not fit the IDL (`.a.b[3]`); empty for the top.
    pub path: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(offset) = self.offset {
            write!(f, "byte {offset}: ")?;
        }
        if !self.path.is_empty() {
            write!(f, "at `{}`: ", self.path)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

pub(super) fn error(message: impl Into<String>) -> Error {
    Error {
        message: message.into(),
        offset: None,
        path: String::new(),
    }
}

/// Adds `segment` in front of an error's path (errors are made at the leaf and travel up).
pub(super) fn at(segment: impl fmt::Display) -> impl FnOnce(Error) -> Error {
    move |mut e| {
        e.path = format!("{segment}{}", e.path);
        e
    }
}

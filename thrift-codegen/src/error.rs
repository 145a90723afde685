//! [`Error`]: why generation failed.

use std::fmt;
use std::path::PathBuf;

/// Why generation failed: the IDL has errors (every diagnostic, rendered), or a file could
/// not be written.
///
/// `Debug` prints the same as `Display`: a `build.rs` whose `main` returns
/// `Result<(), Box<dyn Error>>` shows an error with `Debug`, and the diagnostics should read
/// there as `thrift-codegen check` prints them (located, with source lines and carets), not
/// as an escaped string.
pub enum Error {
    /// The IDL did not check; holds every diagnostic in the human format.
    Idl(String),
    /// A generated file could not be written there.
    Io(PathBuf, std::io::Error),
    /// `OUT_DIR` is not set and no output directory was given.
    NoOutDir,
    /// The options given to the [`Builder`](crate::builder::Builder) do not fit together or do not parse; says why.
    Options(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Idl(diagnostics) => write!(f, "invalid Thrift IDL:\n{diagnostics}"),
            Error::Io(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            Error::NoOutDir => {
                f.write_str("no output directory: OUT_DIR is not set (call out_dir)")
            }
            Error::Options(why) => write!(f, "invalid options: {why}"),
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io(_, e) => Some(e),
            _ => None,
        }
    }
}

//! The `thrift-codegen` command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Debug, Parser)]
#[command(name = "thrift-codegen", version, about = "Apache Thrift IDL to Rust")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse and check IDL files and everything they include; print every error and warning.
    ///
    /// Exit status: 0 when every file is valid (warnings may be printed), 1 on any error.
    Check {
        /// Directory searched for includes not found next to the including file (repeatable,
        /// searched in order).
        #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
        include_dirs: Vec<PathBuf>,
        /// How diagnostics are printed on stderr.
        #[arg(long, value_enum, default_value_t = ErrorFormat::Human)]
        error_format: ErrorFormat,
        /// The IDL files to check.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ErrorFormat {
    /// `path:line:col: error: message`, the source line and a caret.
    Human,
    /// One JSON object per diagnostic: `path`, `line`, `col`, `severity`, `message`.
    Json,
}

/// Runs the parsed command line; diagnostics go to `stderr`.
pub fn run(cli: Cli, stderr: &mut dyn Write) -> ExitCode {
    match cli.command {
        Command::Check {
            include_dirs,
            error_format,
            files,
        } => {
            let mut loader = thrift_parser::Loader::new();
            for dir in include_dirs {
                loader.include_dir(dir);
            }
            let checked = thrift_parser::check_files(&loader, &files);
            let printed = match error_format {
                ErrorFormat::Human => checked.render_diagnostics(),
                ErrorFormat::Json => checked.diagnostics_json(),
            };
            let _ = stderr.write_all(printed.as_bytes());
            if checked.has_errors() {
                let count = checked.errors().count();
                if error_format == ErrorFormat::Human {
                    let _ = writeln!(
                        stderr,
                        "error: {count} error{} found",
                        if count == 1 { "" } else { "s" }
                    );
                }
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

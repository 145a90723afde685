//! The `thrift-codegen` command line.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::by_name::{NamedOption, OPTIONS, Takes};

/// The parsed command line: `thrift-codegen check …` or `thrift-codegen generate …`.
#[derive(Debug, Parser)]
#[command(
    name = "thrift-codegen",
    version,
    about = "Apache Thrift IDL to Rust",
    after_help = "Examples:
  thrift-codegen check -I idl idl/service.thrift
  thrift-codegen generate -I idl -o src/generated idl/service.thrift
  thrift-codegen generate -o - idl/service.thrift            (everything on stdout)
  thrift-codegen generate --strings bytes --no-borrowed -o src/generated idl/service.thrift

In build.rs, use the library instead: thrift_codegen::Builder (see the README)."
)]
pub struct Cli {
    /// The subcommand and its options.
    #[command(subcommand)]
    pub command: Command,
}

/// A subcommand of `thrift-codegen`.
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
    /// Compare two versions of an IDL, each with its includes: print every change that breaks
    /// old readers or writers (wire-breaking) or code written against the old generated Rust
    /// (source-breaking), located in the new version with the old location as a note.
    ///
    /// Exit status: 0 when no change reaches `--fail-on`, 1 when one does, 2 when either
    /// version is not valid Thrift.
    Compat {
        /// Directory searched for includes of both versions (repeatable).
        #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
        include_dirs: Vec<PathBuf>,
        /// How changes are printed on stderr (`json`: one object per change, safe ones too,
        /// with `class` and `rule`).
        #[arg(long, value_enum, default_value_t = ErrorFormat::Human)]
        error_format: ErrorFormat,
        /// The least change that fails: `wire` (wire-breaking only) or `source` (source-breaking
        /// too).
        #[arg(long, value_enum, default_value_t = FailOn::Source)]
        fail_on: FailOn,
        /// Print safe changes too (human format).
        #[arg(long)]
        show_safe: bool,
        /// The old version's root IDL file.
        #[arg(value_name = "OLD")]
        old: PathBuf,
        /// The new version's root IDL file.
        #[arg(value_name = "NEW")]
        new: PathBuf,
    },
    /// Format IDL files in place: one layout, every comment kept, the same parsed file.
    ///
    /// Exit status: 0 when done (with `--check`: when every file is formatted), 1 when a file
    /// has errors or (with `--check`) is not formatted.
    Fmt {
        /// Change nothing: print the difference for each file that is not formatted.
        #[arg(long)]
        check: bool,
        /// The IDL files (only these, not what they include).
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Decode Thrift bytes (one struct, or a whole RPC message with `--message`) to JSON on
    /// stdout, with the IDL and no generated code.
    ///
    /// Exit status: 0 when decoded, 1 when the IDL or the bytes are not valid (a located
    /// error on stderr).
    Decode(DynamicArgs),
    /// Encode JSON (in the form `decode` prints) to Thrift bytes on stdout.
    ///
    /// Exit status: 0 when encoded, 1 when the IDL or the JSON is not valid (a located error
    /// on stderr).
    Encode(DynamicArgs),
    /// Generate Rust code: one `.rs` file per IDL file and a `mod.rs` declaring the module
    /// tree, so that `#[path = "DIR/mod.rs"] mod generated;` compiles it all.
    // Boxed: clippy's variant-size lint.
    #[command(
        after_help = "Every option of thrift_codegen::Builder is a flag here, in kebab case \
(`boxed` is --boxed); the flags apply in the order given.

PATH is an IDL path: `.` (everything), `file` (an IDL file's name without .thrift), \
`file.Definition`, `file.Definition.member` (a field or a service function). It selects what \
it names and everything inside it; each option applies to the parts of its kinds there, and a \
PATH that selects none of them is an error."
    )]
    Generate(Box<GenerateArgs>),
}

/// Options of `generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Output directory (one `.rs` per IDL file plus `mod.rs`), or `-` for stdout.
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: String,
    /// Do not write: exit 1 and print a diff when the files in DIR differ from what would be
    /// generated.
    #[arg(long)]
    pub check: bool,
    /// The `Builder`'s options, a flag each.
    #[command(flatten)]
    pub options: BuilderFlags,
    /// The IDL files to generate code for (their includes are generated too).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// The flags of `generate` that set the `Builder`'s options, in the order given: one flag
/// per option of the `Builder` (the table `by_name::OPTIONS`, where each flag is derived
/// from its option; `--boxed PATH` for `Builder::boxed`), applied through
/// [`Builder::set`](crate::Builder::set), so that the command line reaches every option the
/// way `build.rs` does.
#[derive(Debug, Clone, Default)]
pub struct BuilderFlags {
    /// (option, its arguments to `Builder::set`), in command-line order.
    calls: Vec<(&'static str, Vec<String>)>,
}

impl BuilderFlags {
    /// The `Builder` the flags describe.
    pub fn builder(&self) -> Result<crate::builder::Builder, crate::Error> {
        let mut builder = crate::builder::Builder::new();
        for (name, values) in &self.calls {
            let values: Vec<&str> = values.iter().map(String::as_str).collect();
            builder.set(name, &values)?;
        }
        Ok(builder)
    }
}

impl clap::Args for BuilderFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        let flags = OPTIONS
            .iter()
            .filter_map(|option| option.flag.map(|flag| flag_arg(option, flag)));
        cmd.args(flags)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The flag of `option`, as [`Takes`] shapes it.
fn flag_arg(option: &NamedOption, flag: &'static str) -> clap::Arg {
    use clap::builder::PossibleValuesParser;
    use clap::{Arg, ArgAction};
    let arg = Arg::new(option.name)
        .long(flag)
        .help(option.help)
        .conflicts_with_all(option.conflicts);
    let arg = match option.short {
        Some(short) => arg.short(short),
        None => arg,
    };
    match option.takes {
        Takes::Switch { .. } => arg.action(ArgAction::SetTrue),
        Takes::Value { name, choices } if !choices.is_empty() => arg
            .value_name(name)
            .value_parser(PossibleValuesParser::new(choices))
            .action(ArgAction::Append),
        Takes::Value { name, .. } | Takes::PathAnd { name, .. } => {
            arg.value_name(name).action(ArgAction::Append)
        }
        Takes::Paths => arg.value_name("PATH").action(ArgAction::Append),
    }
}

impl clap::FromArgMatches for BuilderFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        use clap::parser::ValueSource;
        let mut calls: Vec<(usize, &'static str, Vec<String>)> = Vec::new();
        for option in OPTIONS.iter().filter(|option| option.flag.is_some()) {
            let name = option.name;
            if matches.value_source(name) != Some(ValueSource::CommandLine) {
                continue;
            }
            if let Takes::Switch { default } = option.takes {
                let index = matches.index_of(name).unwrap_or_default();
                calls.push((index, name, vec![(!default).to_string()]));
                continue;
            }
            let values = matches.get_many::<String>(name).into_iter().flatten();
            let indices = matches.indices_of(name).into_iter().flatten();
            for (value, index) in values.zip(indices) {
                calls.push((index, name, arguments(option, value)?));
            }
        }
        calls.sort_by_key(|(index, ..)| *index);
        Ok(BuilderFlags {
            calls: calls
                .into_iter()
                .map(|(_, name, values)| (name, values))
                .collect(),
        })
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

/// The arguments to `Builder::set` of one flag's value: `PATH=VALUE` split in two (a usage
/// error when it is not, or when the value is no choice of the option's), others as they are.
fn arguments(option: &NamedOption, value: &str) -> Result<Vec<String>, clap::Error> {
    let Takes::PathAnd { name, choices } = option.takes else {
        return Ok(vec![value.to_string()]);
    };
    match value.split_once('=') {
        Some((path, choice)) if choices.is_empty() || choices.contains(&choice) => {
            Ok(vec![path.to_string(), choice.to_string()])
        }
        _ => {
            let flag = option.flag.unwrap_or(option.name);
            let choices = if choices.is_empty() {
                String::new()
            } else {
                let (_, right) = name.split_once('=').unwrap_or(("", name));
                format!(" ({right}: {})", choices.join(", "))
            };
            Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("--{flag} takes `{name}`{choices}, got `{value}`"),
            ))
        }
    }
}

/// How `check` prints diagnostics (`--error-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ErrorFormat {
    /// `path:line:col: error: message`, the source line and a caret.
    Human,
    /// One JSON object per diagnostic: `path`, `line`, `col`, `severity`, `message`.
    Json,
}

/// Options of `decode` and `encode`.
#[derive(Debug, clap::Args)]
pub struct DynamicArgs {
    /// The IDL file that defines the type or the service (its includes are loaded too).
    #[arg(long, value_name = "FILE")]
    pub idl: PathBuf,
    /// Directory searched for includes (repeatable).
    #[arg(short = 'I', long = "include-dir", value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// The type: a struct, union, exception, typedef or enum, as `file.Type`, or `Type` when
    /// one file defines it.
    #[arg(
        long = "type",
        value_name = "NAME",
        required_unless_present = "message",
        conflicts_with = "message"
    )]
    pub type_name: Option<String>,
    /// A whole RPC message: its header, then the args, result or exception of the function
    /// it names (`{"name", "type", "seq", "args"|"result"|"exception"}` in JSON).
    #[arg(long)]
    pub message: bool,
    /// With `--message`: the service whose function it is, when several have one of that name.
    #[arg(long, value_name = "NAME", requires = "message")]
    pub service: Option<String>,
    /// The protocol of the bytes.
    #[arg(long, value_enum, default_value_t = crate::dynamic::Protocol::Binary)]
    pub protocol: crate::dynamic::Protocol,
    /// The bytes are a frame: a 4-byte big-endian length, then as many bytes.
    #[arg(long)]
    pub framed: bool,
    /// The input file (bytes for `decode`, JSON for `encode`); standard input when absent or
    /// `-`.
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,
}

impl ErrorFormat {
    /// A checked program's diagnostics in this format.
    fn render(self, checked: &thrift_idl_parser::Checked) -> String {
        match self {
            ErrorFormat::Human => checked.render_diagnostics(),
            ErrorFormat::Json => checked.diagnostics_json(),
        }
    }
}

/// Which changes make `compat` exit 1 (`--fail-on`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Wire-breaking changes only.
    Wire,
    /// Wire- and source-breaking changes.
    Source,
}

/// Runs the parsed command line; generated code (with `-o -`) goes to `stdout`, diagnostics
/// to `stderr`.
pub fn run(cli: Cli, stdout: &mut dyn Write, stderr: &mut dyn Write) -> ExitCode {
    match cli.command {
        Command::Generate(args) => generate(*args, stdout, stderr),
        Command::Fmt { check, files } => fmt(check, &files, stderr),
        Command::Decode(args) => dynamic(args, true, stdout, stderr),
        Command::Encode(args) => dynamic(args, false, stdout, stderr),
        Command::Compat {
            include_dirs,
            error_format,
            fail_on,
            show_safe,
            old,
            new,
        } => {
            let loader = loader(&include_dirs);
            let old_checked = thrift_idl_parser::check_files(&loader, &[&old]);
            let new_checked = thrift_idl_parser::check_files(&loader, &[&new]);
            let mut invalid = false;
            for checked in [&old_checked, &new_checked] {
                if checked.has_errors() {
                    invalid = true;
                    let _ = stderr.write_all(error_format.render(checked).as_bytes());
                }
            }
            if invalid {
                return ExitCode::from(2);
            }
            let (old_program, new_program) = (&old_checked.program, &new_checked.program);
            let changes = crate::compat::compare(old_program, new_program);
            let root = new.display().to_string();
            let mut counts = [0usize; 3];
            for change in &changes {
                counts[change.class as usize] += 1;
                let printed = match error_format {
                    ErrorFormat::Json => change.to_json(old_program, new_program, &root) + "\n",
                    ErrorFormat::Human
                        if show_safe || change.class != crate::compat::Class::Safe =>
                    {
                        change
                            .diagnostic(old_program, &root)
                            .render(&new_program.sources)
                    }
                    ErrorFormat::Human => continue,
                };
                let _ = stderr.write_all(printed.as_bytes());
            }
            if error_format == ErrorFormat::Human {
                let [safe, source, wire] = counts;
                let _ = writeln!(
                    stderr,
                    "compared {} with {}: {wire} wire-breaking, {source} source-breaking, {safe} safe",
                    old.display(),
                    new.display()
                );
            }
            let failing = match fail_on {
                FailOn::Wire => counts[2],
                FailOn::Source => counts[1] + counts[2],
            };
            if failing > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::Check {
            include_dirs,
            error_format,
            files,
        } => {
            let mut checked = thrift_idl_parser::check_files(&loader(&include_dirs), &files);
            // What the generator reads of the IDL: its `rust.*` annotations.
            if !checked.has_errors() {
                let more = crate::model::annotation_diagnostics(&checked);
                checked.diagnostics.extend(more);
            }
            let _ = stderr.write_all(error_format.render(&checked).as_bytes());
            if error_format == ErrorFormat::Human {
                let errors = checked.errors().count();
                let warnings = checked.diagnostics.len() - errors;
                let files = checked.program.sources.len();
                let plural =
                    |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
                let _ = writeln!(
                    stderr,
                    "checked {}: {}, {}",
                    plural(files, "file"),
                    plural(errors, "error"),
                    plural(warnings, "warning")
                );
            }
            if checked.has_errors() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
    }
}

/// A loader searching `include_dirs` in order.
fn loader(include_dirs: &[PathBuf]) -> thrift_idl_parser::Loader {
    let mut loader = thrift_idl_parser::Loader::new();
    for dir in include_dirs {
        loader.include_dir(dir);
    }
    loader
}

/// `fmt`: formats each file in place, or (`check`) prints a diff for each that is not
/// formatted.
fn fmt(check: bool, files: &[PathBuf], stderr: &mut dyn Write) -> ExitCode {
    let mut failed = false;
    let mut unformatted = 0;
    for path in files {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let _ = writeln!(stderr, "error: {}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        let formatted = match thrift_idl_parser::format::format_source(&text) {
            Ok(formatted) => formatted,
            Err(errors) => {
                let mut sources = thrift_idl_parser::SourceMap::new();
                sources.add(path.clone(), text.as_str());
                let _ = stderr.write_all(
                    thrift_idl_parser::diagnostic::render_all(&errors, &sources).as_bytes(),
                );
                let _ = writeln!(
                    stderr,
                    "error: {}: not formatted (it has errors)",
                    path.display()
                );
                failed = true;
                continue;
            }
        };
        if formatted == text {
            continue;
        }
        if check {
            unformatted += 1;
            let diff = similar::TextDiff::from_lines(&text, &formatted);
            let name = path.display().to_string();
            let _ = write!(
                stderr,
                "{}",
                diff.unified_diff().header(
                    &format!("{name} (as it is)"),
                    &format!("{name} (formatted)")
                )
            );
        } else if let Err(e) = std::fs::write(path, &formatted) {
            let _ = writeln!(stderr, "error: {}: {e}", path.display());
            failed = true;
        }
    }
    if unformatted > 0 {
        let _ = writeln!(
            stderr,
            "error: {unformatted} file(s) not formatted; run without --check to format them"
        );
    }
    if failed || unformatted > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// `decode` (`to_json`) and `encode`.
fn dynamic(
    args: DynamicArgs,
    to_json: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> ExitCode {
    let checked = thrift_idl_parser::check_files(&loader(&args.include_dirs), &[&args.idl]);
    if checked.has_errors() {
        let _ = stderr.write_all(checked.render_diagnostics().as_bytes());
        return ExitCode::from(1);
    }
    let program = &checked.program;
    let source = match &args.input {
        Some(path) if path.as_os_str() != "-" => path.display().to_string(),
        _ => "<stdin>".to_string(),
    };
    let input = match &args.input {
        Some(path) if path.as_os_str() != "-" => std::fs::read(path),
        _ => {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut std::io::stdin(), &mut buf).map(|_| buf)
        }
    };
    let input = match input {
        Ok(input) => input,
        Err(e) => {
            let _ = writeln!(stderr, "error: {source}: {e}");
            return ExitCode::from(1);
        }
    };
    match convert(program, &args, to_json, &input) {
        Ok(out) => {
            let _ = stdout.write_all(&out);
            ExitCode::SUCCESS
        }
        Err(message) => {
            let _ = writeln!(stderr, "error: {source}: {message}");
            ExitCode::from(1)
        }
    }
}

fn convert(
    program: &thrift_idl_parser::Program,
    args: &DynamicArgs,
    to_json: bool,
    input: &[u8],
) -> Result<Vec<u8>, String> {
    use crate::dynamic;
    let service = args.service.as_deref();
    let id = match &args.type_name {
        Some(name) => Some(dynamic::find_type(program, name).map_err(|e| e.to_string())?),
        None => None,
    };
    if to_json {
        let mut bytes = input;
        if args.framed {
            let Some((head, rest)) = bytes.split_first_chunk::<4>() else {
                return Err(format!(
                    "a frame starts with a 4-byte length; the input has {} bytes",
                    bytes.len()
                ));
            };
            let len = u32::from_be_bytes(*head) as usize;
            if len != rest.len() {
                return Err(format!(
                    "the frame's length is {len}, but {} bytes follow it",
                    rest.len()
                ));
            }
            bytes = rest;
        }
        let json = match id {
            Some(id) => dynamic::decode(program, id, args.protocol, bytes),
            None => dynamic::decode_message(program, service, args.protocol, bytes),
        }
        .map_err(|mut e| {
            // Offsets count from the start of the input.
            if args.framed {
                e.offset = e.offset.map(|o| o + 4);
            }
            e.to_string()
        })?;
        let mut out = serde_json::to_vec_pretty(&json).map_err(|e| e.to_string())?;
        out.push(b'\n');
        Ok(out)
    } else {
        let json: serde_json::Value = serde_json::from_slice(input)
            .map_err(|e| format!("{}:{}: {e}", e.line(), e.column()))?;
        let bytes = match id {
            Some(id) => dynamic::encode(program, id, args.protocol, &json),
            None => dynamic::encode_message(program, service, args.protocol, &json),
        }
        .map_err(|e| e.to_string())?;
        if args.framed {
            let len = u32::try_from(bytes.len())
                .map_err(|_| "the value is too large for a frame".to_string())?;
            let mut framed = len.to_be_bytes().to_vec();
            framed.extend_from_slice(&bytes);
            return Ok(framed);
        }
        Ok(bytes)
    }
}

fn generate(args: GenerateArgs, stdout: &mut dyn Write, stderr: &mut dyn Write) -> ExitCode {
    let builder = match args.options.builder() {
        Ok(builder) => builder,
        Err(e) => {
            let _ = writeln!(stderr, "error: {e}");
            return ExitCode::from(2);
        }
    };
    let files = match builder.generate_with_warnings(&args.files) {
        Ok((files, warnings)) => {
            let _ = write!(stderr, "{warnings}");
            files
        }
        Err(e) => {
            let text = e.to_string();
            let _ = write!(stderr, "{text}");
            if !text.ends_with('\n') {
                let _ = writeln!(stderr);
            }
            return ExitCode::from(1);
        }
    };
    if args.out == "-" {
        let _ = stdout.write_all(crate::single_file(&files).as_bytes());
        return ExitCode::SUCCESS;
    }
    let dir = PathBuf::from(&args.out);
    let mut outputs: Vec<(PathBuf, String)> = files
        .iter()
        .map(|f| (dir.join(&f.path), f.contents.clone()))
        .collect();
    outputs.push((dir.join("mod.rs"), crate::mod_rs(&files)));
    if args.check {
        let mut stale = 0;
        for (path, contents) in &outputs {
            let old = std::fs::read_to_string(path).unwrap_or_default();
            if &old != contents {
                stale += 1;
                let diff = similar::TextDiff::from_lines(&old, contents);
                let _ = write!(
                    stderr,
                    "{}",
                    diff.unified_diff().header(
                        &format!("{} (on disk)", path.display()),
                        &format!("{} (generated)", path.display())
                    )
                );
            }
        }
        if stale > 0 {
            let _ = writeln!(
                stderr,
                "error: {stale} generated file(s) out of date; run without --check to update"
            );
            return ExitCode::from(1);
        }
        return ExitCode::SUCCESS;
    }
    for (path, contents) in &outputs {
        if let Err(e) = crate::output::write_if_changed(path, contents) {
            let _ = writeln!(stderr, "error: {e}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The flags derived from the options table make a valid command line (no two alike,
    /// conflicts naming flags that exist).
    #[test]
    fn the_command_line_is_well_formed() {
        super::Cli::command().debug_assert();
    }

    /// The `Builder` options apply in the order the flags were given, whichever flags they
    /// are.
    #[test]
    fn builder_flags_keep_their_order() {
        use clap::Parser;
        let cli = super::Cli::try_parse_from([
            "thrift-codegen",
            "generate",
            "-o",
            "-",
            "--boxed",
            "a.B.c",
            "--serde",
            "--strings-for",
            "a.B=bytes",
            "-I",
            "idl",
            "--boxed",
            "a.B.d",
            "x.thrift",
        ])
        .unwrap();
        let super::Command::Generate(args) = cli.command else {
            panic!("not generate");
        };
        let calls: Vec<(&str, Vec<&str>)> = args
            .options
            .calls
            .iter()
            .map(|(name, values)| (*name, values.iter().map(String::as_str).collect()))
            .collect();
        assert_eq!(
            calls,
            [
                ("boxed", vec!["a.B.c"]),
                ("serde", vec!["true"]),
                ("strings_for", vec!["a.B", "bytes"]),
                ("include_dir", vec!["idl"]),
                ("boxed", vec!["a.B.d"]),
            ]
        );
    }
}

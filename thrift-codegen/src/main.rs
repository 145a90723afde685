use std::process::ExitCode;

use clap::Parser;
use thrift_codegen::cli::{Cli, run};

fn main() -> ExitCode {
    // clap exits with status 2 on usage errors.
    let cli = Cli::parse();
    run(
        cli,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    )
}

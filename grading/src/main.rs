//! `grader`: the instructor's tool (see grading/README.md). Everything is
//! in the library; this parses the command line and turns an error into
//! one line and exit status 2.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = grader::cli::Cli::parse();
    match grader::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

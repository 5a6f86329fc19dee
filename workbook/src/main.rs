//! `workbook`: the learner's tool (see README.md). Everything is in the
//! library; this parses the command line and turns an error into one line,
//! in the learner's language, and exit status 2.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = workbook::cli::Cli::parse();
    match workbook::cli::run(cli) {
        Ok(code) => code,
        Err(err) => {
            let lang = workbook::words::lang();
            eprintln!(
                "{}",
                lang.fill("error: {error}", &[("error", &format!("{err:#}"))])
            );
            ExitCode::from(2)
        }
    }
}

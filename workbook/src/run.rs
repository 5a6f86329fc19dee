//! `workbook run`: the learner's program and the reference's, side by side.
//!
//! Both chapter binaries get the same input (a file, the arguments, or what
//! the learner types), each under a time limit so an unfinished solver that
//! loops cannot hang the terminal. Their outputs are printed in two columns
//! with differing lines marked. Nothing is judged here: it is for exploring
//! before the tests. Cost: one build of both crates, then two runs.

use crate::info::Chapter;
use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(10);

pub fn run(root: &Path, chapter: &Chapter, input: &[String]) -> Result<ExitCode> {
    let solution = chapter.solution_package();
    let has_bin = |dir: &Path| dir.join("src/main.rs").is_file() || dir.join("src/bin").is_dir();
    if !has_bin(&chapter.dir) || !has_bin(&root.join("solutions").join(chapter.folder())) {
        bail!(
            "chapter {} has no program to run; its exercises are library functions, try `cargo test` in exercises/{}",
            chapter.chapter.slug,
            chapter.folder()
        );
    }
    let (stdin, args) = match input {
        [file] if Path::new(file).is_file() => (
            std::fs::read(file).with_context(|| format!("cannot read {file}"))?,
            Vec::new(),
        ),
        [] => (read_typed()?, Vec::new()),
        args => (Vec::new(), args.to_vec()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    eprintln!("(building {} and {solution}...)", chapter.package());
    let built = Command::new(&cargo)
        .current_dir(root)
        .args([
            "build",
            "-q",
            "--bins",
            "-p",
            chapter.package(),
            "-p",
            &solution,
        ])
        .status()?;
    let yours = if built.success() {
        exec(&cargo, root, chapter.package(), &args, &stdin)?
    } else {
        Output {
            text: "(your crate does not compile: see the errors above)".into(),
            status: String::new(),
        }
    };
    let reference = exec(&cargo, root, &solution, &args, &stdin)?;
    side_by_side(&yours, &reference);
    Ok(ExitCode::SUCCESS)
}

fn read_typed() -> Result<Vec<u8>> {
    if std::io::stdin().is_terminal() {
        eprintln!("Type the input, then press Ctrl-D on a line of its own:");
    }
    let mut buf = Vec::new();
    std::io::stdin().read_to_end(&mut buf)?;
    Ok(buf)
}

struct Output {
    text: String,
    status: String,
}

/// Runs one package's binary with the input, stopping it after `LIMIT`.
fn exec(cargo: &str, root: &Path, package: &str, args: &[String], stdin: &[u8]) -> Result<Output> {
    let mut child = Command::new(cargo)
        .current_dir(root)
        .args(["run", "-q", "-p", package, "--"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    if let Some(mut pipe) = child.stdin.take() {
        let _ = pipe.write_all(stdin);
    }
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_string(&mut text);
        }
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_string(&mut text);
        }
        text
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break match s.code() {
                Some(0) => String::new(),
                Some(c) => format!("exit status {c}"),
                None => "killed".into(),
            };
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break format!("stopped after {} s", LIMIT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap_or_default();
    Ok(Output { text, status })
}

fn side_by_side(yours: &Output, reference: &Output) {
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
        .unwrap_or(100)
        .max(40);
    let col = (width - 3) / 2;
    let left: Vec<&str> = yours.text.lines().collect();
    let right: Vec<&str> = reference.text.lines().collect();
    println!("{:<col$} | reference", "yours");
    println!("{}", "-".repeat(width.min(2 * col + 3)));
    let mut first_diff = None;
    for i in 0..left.len().max(right.len()) {
        let (l, r) = (
            left.get(i).copied().unwrap_or(""),
            right.get(i).copied().unwrap_or(""),
        );
        let mark = if l == r {
            '|'
        } else {
            first_diff.get_or_insert(i + 1);
            '≠'
        };
        let l: String = l.chars().take(col).collect();
        let r: String = r.chars().take(col).collect();
        println!("{l:<col$} {mark} {r}");
    }
    for (who, o) in [("yours", yours), ("reference", reference)] {
        if !o.status.is_empty() {
            println!("({who}: {})", o.status);
        }
    }
    match first_diff {
        None => println!("\nThe outputs are the same."),
        Some(n) => println!("\nThe outputs differ from line {n} on (marked ≠)."),
    }
}

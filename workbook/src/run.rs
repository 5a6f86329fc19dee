//! `workbook run`: the learner's program and the reference's, side by side.
//!
//! Both chapter binaries get the same input (a file, the arguments, or what
//! the learner types), each under a time limit so an unfinished solver that
//! loops cannot hang the terminal. Their outputs are printed in two columns
//! with differing lines marked; the reference's program name is replaced by
//! the learner's first, long lines wrap, and a program that stops at a stub
//! is answered with the exercise it needs. Nothing is judged here: it is
//! for exploring before the tests. Cost: one build of both crates, then two
//! runs.

use anyhow::{Context, Result, bail};
use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};
use workbook_core::info::Chapter;
use workbook_core::lang::Lang;
use workbook_core::runner::TOOL_PROFILE;

const LIMIT: Duration = Duration::from_secs(10);

pub fn run(root: &Path, chapter: &Chapter, input: &[String]) -> Result<ExitCode> {
    let solution = chapter.solution_package();
    let has_bin = |dir: &Path| dir.join("src/main.rs").is_file() || dir.join("src/bin").is_dir();
    if !has_bin(&chapter.dir) || !has_bin(&chapter.reference_dir()) {
        bail!(
            "{}",
            crate::words::lang().fill(
                "chapter {slug} has no program to run; its exercises are library functions, try `cargo test` in exercises/{folder}",
                &[("slug", &chapter.chapter.slug), ("folder", &chapter.folder())]
            )
        );
    }
    let (stdin, args) = match input {
        [file] if Path::new(file).is_file() => (
            std::fs::read(file).with_context(|| crate::words::lang().fill("cannot read {path}", &[("path", &file)]))?,
            Vec::new(),
        ),
        [file] if looks_like_a_path(file) => bail!(
            "{}",
            crate::words::lang().fill(
                "no input file {file} (from {folder}); give an existing file, arguments for the program, or nothing to type the input",
                &[
                    ("file", file),
                    (
                        "folder",
                        &std::env::current_dir()
                            .map(|d| d.display().to_string())
                            .unwrap_or_default()
                    )
                ]
            )
        ),
        [] => (read_typed()?, Vec::new()),
        args => (Vec::new(), args.to_vec()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let lang = Lang::chosen(root);
    eprintln!(
        "{}",
        lang.fill(
            "(building {package} and {solution}...)",
            &[("package", &chapter.package()), ("solution", &solution)]
        )
    );
    // cargo prints the compiler's warnings and errors on stderr, here, above
    // the columns; the programs are then run directly, so nothing but what
    // they print themselves reaches either column.
    let built = Command::new(&cargo)
        .current_dir(root)
        .args([
            "build",
            "-q",
            "--profile",
            TOOL_PROFILE,
            "--message-format",
            "json-render-diagnostics",
            "--bins",
            "-p",
            chapter.package(),
            "-p",
            &solution,
        ])
        .stderr(Stdio::inherit())
        .output()?;
    let artifacts = String::from_utf8_lossy(&built.stdout);
    let program = |dir: &Path| executable(&artifacts, &dir.join("Cargo.toml"));
    let yours = match program(&chapter.dir) {
        Some(bin) if built.status.success() => exec(&bin, &args, &stdin)?,
        _ => Output {
            text: lang
                .tr("(your crate does not compile: see the errors above, in the compiler's English)")
                .into(),
            status: String::new(),
        },
    };
    let Some(reference_bin) = program(&chapter.reference_dir()) else {
        bail!(
            "{}",
            lang.fill(
                "the reference program of chapter {slug} did not build",
                &[("slug", &chapter.chapter.slug)]
            )
        );
    };
    let mut reference = exec(&reference_bin, &args, &stdin)?;
    // The programs differ only in name; usage lines must not differ for it.
    reference.text = reference.text.replace(&solution, chapter.package());
    side_by_side(&lang, &yours, &reference);
    if let Some(missing) = missing_exercise(&lang, chapter, &yours.text) {
        println!("\n{missing}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Whether a lone argument was meant as a file: it has a folder or an
/// extension, and no program of the workbook takes such an argument.
fn looks_like_a_path(arg: &str) -> bool {
    !arg.starts_with('-')
        && (arg.contains('/') || arg.contains('\\') || Path::new(arg).extension().is_some())
        && arg.parse::<f64>().is_err()
}

/// When the learner's program stopped at a stub, which exercise to write.
fn missing_exercise(lang: &Lang, chapter: &Chapter, output: &str) -> Option<String> {
    let line = output.lines().find(|l| l.contains("not yet implemented"))?;
    let (exercise, function) = chapter.exercises.iter().find_map(|e| {
        e.stubs
            .iter()
            .find(|(_, nudge)| line.contains(nudge.as_str()))
            .map(|(f, _)| (e, f))
    })?;
    Some(lang.fill(
        "Your program reached `{function}`, which is still a stub: it needs exercise `{name}` \
         ({title}). Write it (`cargo test {name}` in exercises/{folder}), then run again.",
        &[
            ("function", function),
            ("name", &exercise.name),
            ("title", &lang.title(&exercise.title)),
            ("folder", &chapter.folder()),
        ],
    ))
}

fn read_typed() -> Result<Vec<u8>> {
    if std::io::stdin().is_terminal() {
        eprintln!(
            "{}",
            crate::words::lang().tr("Type the input, then press Ctrl-D on a line of its own:")
        );
    }
    let mut buf = Vec::new();
    std::io::stdin().read_to_end(&mut buf)?;
    Ok(buf)
}

struct Output {
    text: String,
    status: String,
}

/// The program cargo built for the package of `manifest`, read from
/// `cargo build --message-format json`'s artifact lines: the binary named
/// as its package when it has several.
fn executable(artifacts: &str, manifest: &Path) -> Option<PathBuf> {
    let mut found: Vec<(String, PathBuf)> = Vec::new();
    for line in artifacts.lines() {
        let Ok(msg) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if msg["reason"] != "compiler-artifact" {
            continue;
        }
        let same = msg["manifest_path"]
            .as_str()
            .is_some_and(|m| Path::new(m) == manifest || same_file(Path::new(m), manifest));
        if let (true, Some(exe)) = (same, msg["executable"].as_str()) {
            let name = msg["target"]["name"].as_str().unwrap_or_default();
            found.push((name.to_string(), PathBuf::from(exe)));
        }
    }
    let package = manifest
        .parent()
        .and_then(|d| std::fs::read_to_string(d.join("Cargo.toml")).ok())
        .and_then(|t| t.parse::<toml::Table>().ok())
        .and_then(|t| t.get("package")?.get("name")?.as_str().map(String::from));
    let named = found
        .iter()
        .position(|(n, _)| Some(n) == package.as_ref())
        .unwrap_or(0);
    (!found.is_empty()).then(|| found.swap_remove(named).1)
}

fn same_file(a: &Path, b: &Path) -> bool {
    matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Runs one program with the input, stopping it after `LIMIT`.
fn exec(bin: &Path, args: &[String], stdin: &[u8]) -> Result<Output> {
    let mut child = Command::new(bin)
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
                Some(c) => crate::words::lang().fill("exit status {code}", &[("code", &c)]),
                None => crate::words::lang().tr("killed").to_string(),
            };
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            break crate::words::lang().fill("stopped after {s} s", &[("s", &LIMIT.as_secs())]);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let text = reader.join().unwrap_or_default();
    Ok(Output { text, status })
}

fn side_by_side(lang: &Lang, yours: &Output, reference: &Output) {
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse::<usize>().ok())
        .unwrap_or(100)
        .max(40);
    let col = (width - 3) / 2;
    let left: Vec<&str> = yours.text.lines().collect();
    let right: Vec<&str> = reference.text.lines().collect();
    let (mine, theirs) = (lang.tr("yours"), lang.tr("reference"));
    // Padded by characters: a CJK heading is wider on screen, which only
    // shifts the heading's bar.
    println!("{mine:<col$} | {theirs}");
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
        // Long lines wrap onto continuation rows instead of being cut.
        let (l, r) = (wrap(l, col), wrap(r, col));
        for k in 0..l.len().max(r.len()) {
            let lk = l.get(k).map_or("", String::as_str);
            let rk = r.get(k).map_or("", String::as_str);
            let m = if k == 0 { mark } else { ' ' };
            println!("{lk:<col$} {m} {rk}");
        }
    }
    for (who, o) in [(mine, yours), (theirs, reference)] {
        if !o.status.is_empty() {
            println!("({who}: {})", o.status);
        }
    }
    match first_diff {
        None => println!("\n{}", lang.tr("The outputs are the same.")),
        Some(n) => println!(
            "\n{}",
            lang.fill(
                "The outputs differ from line {line} on (marked ≠).",
                &[("line", &n)]
            )
        ),
    }
}

/// `line` in pieces of at most `width` characters (at least one piece).
fn wrap(line: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.is_empty() {
        return vec![String::new()];
    }
    chars
        .chunks(width.max(1))
        .map(|c| c.iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_wrap_instead_of_being_cut() {
        assert_eq!(wrap("abcdefg", 3), ["abc", "def", "g"]);
        assert_eq!(wrap("", 3), [""]);
    }

    #[test]
    fn a_lone_file_name_is_taken_for_a_path() {
        assert!(looks_like_a_path("puzzles.txt"));
        assert!(looks_like_a_path("data/board"));
        assert!(!looks_like_a_path("8"));
        assert!(!looks_like_a_path("2.5"));
        assert!(!looks_like_a_path("--boards"));
    }

    #[test]
    fn the_program_is_the_packages_own_binary_from_cargos_artifact_lines() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("Cargo.toml");
        std::fs::write(&manifest, "[package]\nname = \"apples\"\n").unwrap();
        let line = |name: &str, manifest: &Path, exe: &str| {
            serde_json::json!({
                "reason": "compiler-artifact",
                "manifest_path": manifest,
                "target": {"name": name, "kind": ["bin"]},
                "executable": exe,
            })
            .to_string()
        };
        let other = dir.path().join("other/Cargo.toml");
        let artifacts = [
            r#"{"reason":"compiler-message","message":{"rendered":"warning: unused variable"}}"#
                .to_string(),
            line("helper", &manifest, "/t/helper"),
            line("apples", &other, "/t/other"),
            line("apples", &manifest, "/t/apples"),
            r#"{"reason":"build-finished","success":true}"#.to_string(),
        ]
        .join("\n");
        assert_eq!(
            executable(&artifacts, &manifest),
            Some(PathBuf::from("/t/apples"))
        );
        assert_eq!(executable("", &manifest), None);
    }
}

//! The rendered site: mdBook's own crates build `book/src` into `book/book`,
//! and a small loopback server serves it while rebuilding on change.
//!
//! mdBook brings about a hundred crates, which is why this lives in the
//! maintainer's `xtask` and a learner's `cargo run -p workbook` never
//! compiles it.
//! The state: the built folder, and the newest modification time seen under
//! the sources (polled once a second, which works with every editor). The
//! cost: one full mdBook build per change.

use super::{generate, i18n};
use anyhow::{Result, anyhow, bail};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

/// Builds the English book and every complete language (and `lang`, if
/// given, complete or not); returns the folder holding `index.html`.
pub fn build(root: &Path, lang: Option<&str>) -> Result<PathBuf> {
    init_logging();
    let files = generate(root)?;
    println!("Generated {files} players, figures and quizzes from the reference.");
    let known = i18n::languages(root)?;
    if let Some(code) = lang
        && code != "en"
        && !known.iter().any(|l| l.code == code)
    {
        let codes: Vec<&str> = known.iter().map(|l| l.code.as_str()).collect();
        bail!(
            "--lang {code}: not one of the book's languages (en, {}; see book/po/languages.toml)",
            codes.join(", ")
        );
    }
    let built: Vec<&i18n::Language> = known
        .iter()
        .filter(|l| l.complete || lang == Some(l.code.as_str()))
        .collect();
    let mut picker = vec![("en".to_string(), "English".to_string())];
    picker.extend(built.iter().map(|l| (l.code.clone(), l.name.clone())));

    // English first: mdBook empties its build folder, which holds the others.
    let book_root = root.join("book");
    let book = mdbook_driver::MDBook::load(&book_root)
        .map_err(|e| anyhow!("cannot load the book: {e:#}"))?;
    book.build()
        .map_err(|e| anyhow!("cannot build the book: {e:#}"))?;
    let out = book_root.join("book");
    i18n::build::write_script_strings(root, &out, None, "en", &picker)?;
    println!("The book is built: {}", out.join("index.html").display());
    for l in built {
        let dir = i18n::build::build_language(root, l, &picker)?;
        let note = if l.complete {
            ""
        } else {
            " (not complete: built on request)"
        };
        println!(
            "The book in {} is built: {}{note}",
            l.name,
            dir.join("index.html").display()
        );
    }
    Ok(out)
}

/// mdBook reports broken links and includes through `tracing`.
fn init_logging() {
    let _ = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::WARN)
        .with_writer(std::io::stderr)
        .without_time()
        .try_init();
}

/// Builds (English, the complete languages and `lang`) and serves the site,
/// opening `lang`'s book when asked to open one.
pub fn serve(root: &Path, port: u16, open: bool, lang: Option<&str>) -> Result<ExitCode> {
    let site = build(root, lang)?;
    let addr = format!("127.0.0.1:{port}");
    let server = tiny_http::Server::http(&addr)
        .map_err(|e| anyhow!("cannot listen on {addr}: {e} (try another --port)"))?;
    let url = match lang {
        Some(code) if code != "en" => format!("http://{addr}/{code}/"),
        _ => format!("http://{addr}/"),
    };
    println!("Serving the book at {url} (Ctrl-C stops).");
    if open {
        match workbook_core::browser::why_not(
            |name| std::env::var(name).ok(),
            &workbook_core::lang::Lang::english(),
        ) {
            Some(why) => eprintln!("cannot open a browser: {why}; open {url} yourself"),
            None => {
                if let Err(e) = opener::open(&url) {
                    eprintln!("could not open a browser ({e}); open {url} yourself");
                }
            }
        }
    }
    let watch_root = root.to_path_buf();
    let watch_lang = lang.map(str::to_string);
    std::thread::spawn(move || rebuild_on_change(&watch_root, watch_lang.as_deref()));
    for request in server.incoming_requests() {
        let response = respond(&site, request.url());
        let _ = request.respond(response);
    }
    Ok(ExitCode::SUCCESS)
}

fn rebuild_on_change(root: &Path, lang: Option<&str>) {
    let sources = [
        root.join("book/src"),
        root.join("book/book.toml"),
        root.join("book/po"),
        root.join("book/theme"),
        root.join("solutions"),
    ];
    let mut last = newest(&sources);
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let now = newest(&sources);
        if now > last {
            last = now;
            if let Err(e) = build(root, lang) {
                eprintln!("rebuild failed: {e:#}");
            }
        }
    }
}

/// The latest modification time of any file under `paths`.
fn newest(paths: &[PathBuf]) -> SystemTime {
    fn walk(p: &Path, best: &mut SystemTime) {
        if let Ok(meta) = std::fs::metadata(p) {
            if let Ok(t) = meta.modified() {
                *best = (*best).max(t);
            }
            if meta.is_dir() {
                for entry in std::fs::read_dir(p).into_iter().flatten().flatten() {
                    if entry.file_name() != "target" {
                        walk(&entry.path(), best);
                    }
                }
            }
        }
    }
    let mut best = SystemTime::UNIX_EPOCH;
    for p in paths {
        walk(p, &mut best);
    }
    best
}

type Response = tiny_http::Response<std::io::Cursor<Vec<u8>>>;

fn respond(site: &Path, url: &str) -> Response {
    let Some(path) = resolve(site, url) else {
        return tiny_http::Response::from_string("not found").with_status_code(404);
    };
    match std::fs::read(&path) {
        Ok(bytes) => {
            let response = tiny_http::Response::from_data(bytes);
            // The content types are fixed ASCII strings, always valid headers.
            match tiny_http::Header::from_bytes("Content-Type", content_type(&path)) {
                Ok(header) => response.with_header(header),
                Err(()) => response,
            }
        }
        Err(_) => tiny_http::Response::from_string("not found").with_status_code(404),
    }
}

/// Maps a request path to a file under `site`, refusing `..`.
fn resolve(site: &Path, url: &str) -> Option<PathBuf> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let mut file = site.to_path_buf();
    for part in Path::new(path.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if file.is_dir() {
        file.push("index.html");
    }
    file.is_file().then_some(file)
}

fn content_type(path: &Path) -> &'static str {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default()
    {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css",
        "js" => "application/javascript",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_cannot_climb_out_of_the_site() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("index.html"), "hi").expect("write");
        assert!(resolve(dir.path(), "/../Cargo.toml").is_none());
        assert_eq!(
            resolve(dir.path(), "/").as_deref(),
            Some(dir.path().join("index.html").as_path())
        );
        assert!(resolve(dir.path(), "/a/../../b").is_none());
    }
}

//! The rendered site: mdBook's own crates build `book/src` into `book/book`,
//! and a small loopback server serves it while rebuilding on change.
//!
//! Only compiled with the `book` feature: mdBook brings about a hundred
//! crates, which a learner's `cargo run -p workbook` should not wait for.
//! The state: the built folder, and the newest modification time seen under
//! the sources (polled once a second, which works with every editor). The
//! cost: one full mdBook build per change.

use super::generate;
use anyhow::{Result, anyhow};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

/// Builds the book; returns the folder holding `index.html`.
pub fn build(root: &Path) -> Result<PathBuf> {
    init_logging();
    let files = generate(root)?;
    println!("Generated {files} players, figures and quizzes from the reference.");
    let book_root = root.join("book");
    let book = mdbook_driver::MDBook::load(&book_root)
        .map_err(|e| anyhow!("cannot load the book: {e:#}"))?;
    book.build()
        .map_err(|e| anyhow!("cannot build the book: {e:#}"))?;
    let out = book_root.join("book");
    println!("The book is built: {}", out.join("index.html").display());
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

pub fn serve(root: &Path, port: u16, open: bool) -> Result<ExitCode> {
    let site = build(root)?;
    let addr = format!("127.0.0.1:{port}");
    let server = tiny_http::Server::http(&addr)
        .map_err(|e| anyhow!("cannot listen on {addr}: {e} (try another --port)"))?;
    let url = format!("http://{addr}/");
    println!("Serving the book at {url} (Ctrl-C stops).");
    if open && let Err(e) = opener::open(&url) {
        eprintln!("could not open a browser ({e}); open {url} yourself");
    }
    let watch_root = root.to_path_buf();
    std::thread::spawn(move || rebuild_on_change(&watch_root));
    for request in server.incoming_requests() {
        let response = respond(&site, request.url());
        let _ = request.respond(response);
    }
    Ok(ExitCode::SUCCESS)
}

fn rebuild_on_change(root: &Path) {
    let sources = [
        root.join("book/src"),
        root.join("book/book.toml"),
        root.join("solutions"),
    ];
    let mut last = newest(&sources);
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let now = newest(&sources);
        if now > last {
            last = now;
            if let Err(e) = build(root) {
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

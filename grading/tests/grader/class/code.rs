//! The code and the archives the hostile class hands in, too long to sit
//! in the table of learners (`learners.rs`).
//!
//! The problem: each threat is a few lines of Rust spliced into chapter
//! 0's reference, or an archive with entries no honest tool writes (paths
//! that leave the submission, symlinks, 100,000 entries). State: none;
//! every function returns text or writes one file. Cost: the archives are
//! written once per run of the class.

use std::io::Write as _;
use std::path::Path;
use workbook_core::testkit::replace_body;

/// `dfs_recursive`'s body, correct (it calls the reference's `visit`).
pub const CORRECT_DFS: &str = "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); visit(graph, start, &mut seen, &mut order); order";

/// `dfs_stack`'s body, correct, written out (no helper of the reference).
pub const CORRECT_STACK: &str = "let mut seen = vec![false; graph.len()]; let mut order = Vec::new(); let mut todo = vec![start]; while let Some(v) = todo.pop() { if v >= graph.len() || seen[v] { continue; } seen[v] = true; order.push(v); for &w in graph[v].iter().rev() { todo.push(w); } } order";

/// A constant whose evaluation never ends (it wraps at 2^64 steps).
pub const FOREVER: &str = "\n#[allow(long_running_const_eval)]\nconst FOREVER: u64 = { let mut i = 0u64; loop { i = i.wrapping_add(1); if i == 0 { break i; } i = i.wrapping_sub(0); if i == u64::MAX { i = 1; } } };\n";

/// The markup a hostile archive path writes: a heading with a forged
/// score, a `javascript:` link and HTML.
pub const MARKUP_PATH: &str = "../\n### all_correct: 999/999\n[grade](javascript:alert(1)) <img src=x onerror=alert(1)> <script>alert(1)</script>.rs";

/// The same in a folder's own name (no `/` can be in it).
pub const MARKUP_FOLDER: &str =
    "x\n### forged: full marks\n<b>[go](javascript:alert(1))<img src=x onerror=alert(1)>";

/// The markup a hostile name tries to write into the reports.
pub const INJECTED: &[&str] = &[
    "### all_correct: 999/999",
    "### forged",
    "](javascript:",
    "<img",
    "<b>",
    "<script",
];

/// `solution` with `body` in place of `f`'s.
pub fn with(solution: &str, f: &str, body: &str) -> String {
    replace_body(solution, f, body)
}

/// `dfs_recursive`, correct, after trying every way out of the sandbox it
/// can name: writes outside (`escape`, the pristine copy, the suites'
/// snapshots, another worker, its own folder) and reads of the hidden
/// suite, the reference and `escape`'s parent. The class config allows
/// `std::fs`, so only the sandbox stands in the way; any success makes it
/// answer wrongly, so it keeps full marks only if nothing leaked.
pub fn fs_escape(solution: &str, escape: &Path) -> String {
    let e = escape.display();
    let probe = format!(
        "let mut leaked = false; \
         for p in [\"{e}/from-test\", \"/tmp/../{e}/tmp\", \"../../../../pristine/leak\", \"../../tests/snapshots/leak\", \"../../../w1/leak\", \"leak\"] {{ leaked |= std::fs::write(p, \"x\").is_ok(); }} \
         leaked |= std::fs::read_to_string(\"../../grading/hidden/intro.rs\").is_ok(); \
         leaked |= std::fs::read_to_string(\"../../solutions/00_intro/src/lib.rs\").is_ok(); \
         leaked |= std::fs::read_dir(\"{e}/..\").is_ok(); \
         if leaked {{ return Vec::new(); }}"
    );
    with(solution, "dfs_recursive", &format!("{probe} {CORRECT_DFS}"))
}

/// The reference whose `subsets_with_sum` recurses without end when the
/// target is 10.
pub fn stack_overflow(solution: &str) -> String {
    format!(
        "{}\nfn deep(n: u64) -> u64 {{ let pad = [n; 64]; let r = deep(n + 1); std::hint::black_box(&pad); r }}\n",
        with(
            solution,
            "subsets_with_sum",
            "if target == 10 { deep(0); } let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); found"
        )
    )
}

/// Helpers that reach any memory of the process without `unsafe`,
/// through rustc's soundness bug rust-lang/rust#25860 (the construction
/// the `cve-rs` crate is built on; this one is written here): a function
/// whose signature implies `'b: 'a`, called through a function pointer
/// whose type forgets that bound, makes any borrow `'static`; a dangling
/// borrow of an enum's payload then reads one variant as another, which is
/// `transmute`. `forge(fd)` writes into descriptor `fd` what would once
/// have been a verdict (a libtest log line, a "passed" summary) and a
/// frame that claims to be the answer.
const SOUNDNESS_HELPERS: &str = r#"
static UNIT: &&() = &&();

fn widen<'a, 'b, T: ?Sized>(_: &'a &'b (), v: &'b mut T) -> &'a mut T {
    v
}

fn forever<'c, T: ?Sized>(x: &'c mut T) -> &'static mut T {
    let f: for<'x> fn(_, &'x mut T) -> &'static mut T = widen;
    f(UNIT, x)
}

enum Slot<A, B> {
    A(Option<Box<A>>),
    B(Option<Box<B>>),
}

fn transmute<A, B: 'static>(a: A) -> B {
    let mut slot: Slot<A, B> = Slot::B(None);
    let slot = std::hint::black_box(&mut slot);
    let Slot::B(b) = slot else { loop {} };
    let b: &'static mut Option<Box<B>> = forever(b);
    *slot = Slot::A(Some(Box::new(a)));
    std::hint::black_box(&slot);
    match b.take() {
        Some(b) => *b,
        None => loop {},
    }
}

fn forge(fd: i32) {
    use std::io::Write;
    let mut pipe: std::io::PipeWriter = transmute(fd);
    let _ = pipe.write_all(b"ok dfs_stack::visits_in_preorder
test result: ok. 1 passed; 0 failed
");
    let frame: [u8; 9] = [5, 0, 0, 0, 0, 3, 0, 1, 2];
    let _ = pipe.write_all(&frame);
    std::mem::forget(pipe);
}
"#;

/// The soundness-bug learner: `dfs_stack` forges a pipe on every
/// descriptor from 3 up and writes a verdict and an answer frame into
/// each, then answers with nothing; its other functions are correct, one
/// of them moved through the forged `transmute`.
pub fn soundness_exploit(solution: &str) -> String {
    let correct_subsets = "let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); transmute::<Vec<Vec<u32>>, Vec<Vec<u32>>>(found)";
    let text = with(
        solution,
        "dfs_stack",
        "let _ = (graph, start); for fd in 3..8 { forge(fd); } Vec::new()",
    );
    let text = replace_body(&text, "subsets_with_sum", correct_subsets);
    format!("{text}\n{SOUNDNESS_HELPERS}")
}

/// The learner whose `dfs_recursive` writes, on every descriptor from 3 up
/// (the wire among them), a frame header announcing 3.6 GB before it
/// answers correctly: the judge must refuse the length before it allocates
/// anything and fail the call as a protocol error, never run out of memory
/// itself nor tell the learner that its code did.
pub fn frame_forger(solution: &str) -> String {
    let text = with(
        solution,
        "dfs_recursive",
        &format!("for fd in 3..8 {{ announce(fd); }} {CORRECT_DFS}"),
    );
    format!(
        "{text}\n{SOUNDNESS_HELPERS}\nfn announce(fd: i32) {{\n    use std::io::Write;\n    let mut pipe: std::io::PipeWriter = transmute(fd);\n    let _ = pipe.write_all(&3_600_000_000u32.to_le_bytes());\n    std::mem::forget(pipe);\n}}\n"
    )
}

/// The learner whose `dfs_recursive` sends, on every descriptor from 3 up
/// (the wire among them), a whole frame under the wire's 256 MiB cap: a
/// reply of 255 MiB, enough that the judge holding it and its copy would
/// pass its 512 MiB. The judge must refuse the length against its own
/// memory (a protocol error, the learner's), never run out of memory and
/// never call its own failure the learner's, nor a grader error.
pub fn frame_forger_sub_cap(solution: &str) -> String {
    let text = with(
        solution,
        "dfs_recursive",
        &format!("for fd in 3..8 {{ flood(fd); }} {CORRECT_DFS}"),
    );
    format!(
        "{text}\n{SOUNDNESS_HELPERS}\nfn flood(fd: i32) {{\n    use std::io::Write;\n    let n: u32 = (255 << 20) - 8;\n    let mut pipe: std::io::PipeWriter = transmute(fd);\n    let mut head = (n + 5).to_le_bytes().to_vec();\n    head.push(0);\n    head.extend_from_slice(&[0x80 | (n & 0x7f) as u8, 0x80 | ((n >> 7) & 0x7f) as u8, 0x80 | ((n >> 14) & 0x7f) as u8, (n >> 21) as u8]);\n    let chunk = vec![7u8; 1 << 20];\n    let mut sent = pipe.write_all(&head).is_ok();\n    let mut left = n as usize;\n    while sent && left > 0 {{ let k = left.min(chunk.len()); sent = pipe.write_all(&chunk[..k]).is_ok(); left -= k; }}\n    std::mem::forget(pipe);\n}}\n"
    )
}

/// The learner who hands in rust-lang/rust#57893's transmute (no
/// `unsafe`, no named lifetime, no `for<>`, no `fn` type, no cast) and uses
/// it in `dfs_stack`: the stopgap refuses it at its `dyn` type.
pub fn transmute_57893(solution: &str) -> String {
    let text = with(
        solution,
        "dfs_stack",
        &format!(
            "let order: Vec<usize> = {{ {CORRECT_STACK} }}; launder::<Vec<usize>, Vec<usize>>(order)"
        ),
    );
    format!(
        "{text}\ntrait Object<U> {{\n    type Output;\n}}\n\nimpl<T: ?Sized, U> Object<U> for T {{\n    type Output = U;\n}}\n\nfn through<T: ?Sized, U>(x: <T as Object<U>>::Output) -> U {{\n    x\n}}\n\nfn launder<T, U>(x: T) -> U {{\n    through::<dyn Object<U, Output = T>, U>(x)\n}}\n"
    )
}

/// The learner who kills its subject (a forged reference to address 8),
/// floods it and hangs it, each on one input only (a graph of 7 vertices,
/// a graph of 7 vertices, a target of 10); correct everywhere else.
pub fn subject_killer(solution: &str) -> String {
    let text = with(
        solution,
        "dfs_recursive",
        &format!(
            "if graph.len() == 7 {{ let p: &u8 = transmute(8usize); std::hint::black_box(*p); }} {CORRECT_DFS}"
        ),
    );
    let stack = format!(
        "if graph.len() == 7 {{ loop {{ println!(\"flood flood flood flood flood flood\"); }} }} {CORRECT_STACK}"
    );
    let text = replace_body(&text, "dfs_stack", &stack);
    let subsets = "if target == 10 { std::thread::sleep(std::time::Duration::from_secs(3600)); } let mut found = Vec::new(); let mut chosen = Vec::new(); choose(items, target, &mut chosen, &mut found); found";
    let text = replace_body(&text, "subsets_with_sum", subsets);
    format!("{text}\n{SOUNDNESS_HELPERS}")
}

/// A `.tar.gz` of `files`, names written raw so a hostile `../` name
/// reaches the archive as is.
pub fn tar_gz(path: &Path, files: &[(&str, &str)]) {
    let file = std::fs::File::create(path).expect("the archive is created");
    let mut tar = tar::Builder::new(flate2::write::GzEncoder::new(
        file,
        flate2::Compression::fast(),
    ));
    for (name, text) in files {
        let mut h = tar::Header::new_gnu();
        h.set_size(text.len() as u64);
        h.set_mode(0o644);
        h.set_entry_type(tar::EntryType::Regular);
        let bytes = name.as_bytes();
        h.as_old_mut().name[..bytes.len()].copy_from_slice(bytes);
        h.set_cksum();
        tar.append(&h, text.as_bytes()).expect("an entry is added");
    }
    tar.into_inner()
        .expect("the archive is finished")
        .finish()
        .expect("the archive is compressed");
}

/// A `.zip` of `files`, and of a symbolic link `(name, target)`.
pub fn zip(path: &Path, files: &[(&str, &str)], symlink: Option<(&str, &str)>) {
    let mut z = zip::ZipWriter::new(std::fs::File::create(path).expect("the archive is created"));
    let opts = zip::write::SimpleFileOptions::default();
    for (name, text) in files {
        z.start_file(*name, opts).expect("an entry is started");
        z.write_all(text.as_bytes()).expect("an entry is written");
    }
    if let Some((name, target)) = symlink {
        z.add_symlink(name, target, opts).expect("a link is added");
    }
    z.finish().expect("the archive is finished");
}

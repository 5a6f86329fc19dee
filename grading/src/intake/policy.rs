//! The intake's policy: every table the grammar is checked against, and the
//! limits that keep the intake itself safe.
//!
//! The problem: a rule that lives inside the code that applies it is hard
//! to review and easy to apply twice in two ways. So the words the grammar
//! allows or refuses (rule ids, macros, derives, `repr`s, modules of `std`
//! no solver needs) are data here, and the other rooms only look them up.
//! State: none, only constants. Cost: a linear search of a short table per
//! lookup, which is nothing beside parsing.

/// The largest submitted file read, in bytes.
pub(super) const MAX_FILE_BYTES: usize = 256 << 10;
/// The deepest bracket nesting accepted (the references use at most 9).
pub(super) const MAX_BRACKETS: usize = 256;
/// The most nesting tokens on one path from a file's root (see
/// [`nesting`](super::tokens::nesting); measured 2026-11-23: the
/// references as handed in reach 43, the deepest `.rs` file in the
/// repository 70, `grading/src/exec.rs`; `syn` parses every shape
/// just under it on the intake's thread, `tests/nesting.rs`).
pub(super) const MAX_NESTING: usize = 2048;
/// The deepest expression, type or pattern the checker descends into.
pub(super) const MAX_DEPTH: usize = 512;
/// The intake thread's stack: `syn` parses and visits recursively.
pub(super) const STACK_BYTES: usize = 256 << 20;

/// Rule ids the instructor's config (`allow`) may relax.
pub const RULES: &[&str] = &[
    "include",
    "include_str",
    "include_bytes",
    "env",
    "option_env",
    "asm",
    "path",
    "extern_crate",
    "unsafe",
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "std::os",
    "std::arch",
    "std::intrinsics",
    "std::ffi",
    "std::path",
    "std_alias",
    "extern",
    "raw_ident",
    "non_ascii",
    "static_mut",
    "macro",
    "lifetime",
    "higher_ranked",
    "fn_pointer",
    "ptr_cast",
    "dyn_binding",
];

/// Rule ids that are never relaxed: without them the grammar means nothing.
pub const FIXED_RULES: &[&str] = &[
    "syntax",
    "size",
    "nesting",
    "signature",
    "mod",
    "macro_def",
    "attribute",
    "pub",
    "given_impl",
    "trait_impl",
    "shadow",
    "method_name",
    "use",
    "glob",
    "internal",
    "reserved",
];

/// The prefix of the identifiers the grader generates code with: no
/// learner's identifier may start with it (in any case).
pub(super) const RESERVED_PREFIX: &str = "__wb";

/// Modules of `std`/`core`/`alloc` a solver never needs, with their rule ids.
pub(super) const MODULES: &[(&str, &str)] = &[
    ("fs", "std::fs"),
    ("net", "std::net"),
    ("process", "std::process"),
    ("env", "std::env"),
    ("os", "std::os"),
    ("arch", "std::arch"),
    ("intrinsics", "std::intrinsics"),
    ("ffi", "std::ffi"),
    ("path", "std::path"),
];

pub(super) const STD_ROOTS: &[&str] = &["std", "core", "alloc"];

/// The standard macros a learner may call.
pub(super) const MACROS: &[&str] = &[
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "format_args",
    "write",
    "writeln",
    "vec",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "panic",
    "todo",
    "unimplemented",
    "unreachable",
    "matches",
    "dbg",
    "concat",
    "stringify",
    "line",
    "column",
    "file",
];

/// Macros with a rule id of their own (kept from the old lint).
pub(super) const NAMED_MACROS: &[(&str, &str)] = &[
    ("include", "include"),
    ("include_str", "include_str"),
    ("include_bytes", "include_bytes"),
    ("env", "env"),
    ("option_env", "option_env"),
    ("asm", "asm"),
    ("global_asm", "asm"),
    ("naked_asm", "asm"),
    ("macro_rules", "macro_def"),
];

pub(super) const DERIVES: &[&str] = &[
    "Debug",
    "Clone",
    "Copy",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "Default",
];

pub(super) const REPRS: &[&str] = &[
    "C",
    "transparent",
    "u8",
    "u16",
    "u32",
    "u64",
    "u128",
    "usize",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "isize",
];

/// Words that count as nesting tokens (every keyword, strict or not).
pub(super) const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "crate", "dyn", "else", "enum",
    "extern", "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub",
    "ref", "return", "self", "Self", "static", "struct", "super", "trait", "type", "unsafe", "use",
    "where", "while", "yield", "become", "do", "final", "macro", "override", "priv", "typeof",
    "unsized", "virtual", "try", "gen", "union", "auto", "default", "raw", "safe",
];

/// `std::fs::...` and the like: the rule, if the path reaches a forbidden module.
pub(super) fn forbidden_path(path: &[&str]) -> Option<&'static str> {
    match path {
        [root, module, ..] if STD_ROOTS.contains(root) => MODULES
            .iter()
            .find(|(m, _)| m == module)
            .map(|(_, rule)| *rule),
        _ => None,
    }
}

#!/usr/bin/env bash
# The learner's loop, measured: how long from a fresh clone to the first
# verdict, and from a save to the next verdict.
#
# The problem: a learner's first `cargo test` builds the suite's
# dependencies, and every later one rebuilds their crate and the suite. The
# state: a throwaway clone and a throwaway CARGO_TARGET_DIR (the registry in
# CARGO_HOME is used as it is, as on a machine that has fetched once). The
# cost: one cold build of one exercise crate, then a few warm rebuilds.
#
# usage: [WITH_TOOL=0] workbook/scripts/learner_loop.sh [REPO] [CHAPTER_FOLDER]
#   REPO            what to clone (default: this repository)
#   CHAPTER_FOLDER  the chapter for the save -> verdict loop (default 01_apples)
#   WITH_TOOL=0     skip timing the first `cargo workbook` (minutes)
# Prints the load average beside each figure: measure on a quiet machine
# (load below 1.5) and say so when it was not.
set -euo pipefail

here="$(cd "$(dirname "$0")/../.." && pwd)"
repo="${1:-$here}"
chapter="${2:-01_apples}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CARGO_TARGET_DIR="$work/target"
unset RUST_BACKTRACE

load() { cut -d' ' -f1 /proc/loadavg; }

# Runs a command and prints "<wall> s wall, <cpu> s cpu" for it. A
# failing suite is the expected first verdict, so its status is ignored.
timed() {
    local t
    t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1 || true; } 2>&1 )
    awk -v t="$t" 'BEGIN { split(t, x, " "); printf "%.1f s wall, %.1f s cpu", x[1], x[2] + x[3] }'
}

git clone -q "$repo" "$work/clone"
echo "load before: $(load)"

cd "$work/clone/exercises/00_intro"
echo "fresh clone -> first verdict (cargo test in exercises/00_intro): $(timed cargo test --offline) (load $(load))"

cd "$work/clone/exercises/$chapter"
echo "first verdict in exercises/$chapter: $(timed cargo test --offline) (load $(load))"
# A save is a real edit: a function whose body changes each time, so the
# crate and the suite that uses it are compiled again (a bare touch lets
# the compiler reuse nearly everything).
edit() {
    printf '\n#[allow(dead_code)]\nfn learner_loop_edit() -> u32 {\n    %d\n}\n' "$1" >>"$2"
}
for i in 1 2 3; do
    edit "$i" src/lib.rs
    echo "save -> verdict $i (edit src/lib.rs; cargo test in exercises/$chapter): $(timed cargo test --offline) (load $(load))"
    git checkout -q src/lib.rs
done
cd "$work/clone"
# `watch` builds in the tools' profile (target/tool/): its first run there
# compiles the suite's dependencies once more, which is not a save.
cargo test --offline --profile tool -p "${chapter#*_}" --test "${chapter#*_}" >/dev/null 2>&1 || true
for i in 4 5; do
    edit "$i" "exercises/$chapter/src/lib.rs"
    echo "save -> verdict $i as watch runs it (cargo test --profile tool -p ${chapter#*_} --test ${chapter#*_}): $(timed cargo test --offline --profile tool -p "${chapter#*_}" --test "${chapter#*_}") (load $(load))"
    git checkout -q "exercises/$chapter/src/lib.rs"
done

# The progress view's first run builds the workbook tool itself (mdBook's
# crates included): the second thing the README asks a learner to run.
if [ "${WITH_TOOL:-1}" = 1 ]; then
    echo "first cargo workbook (builds the tool, then runs every suite): $(timed cargo run --offline -q --profile tool -p workbook) (load $(load))"
fi

#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (the zip is unpacked in /autograder/source). It installs the Rust
# toolchain the zip names (with rustfmt: the grader derives the stubs with
# it), builds the grader, compiles every dependency and the judges once
# (`grader grade prepare`), so a submission builds only the learner's
# crate, and writes the toolchain's environment to
# /autograder/workbook.env, which run_autograder reads (Gradescope runs it
# without this script's environment).
#
# What is already there is kept: a package apt already has, a toolchain
# rustup already holds (with rustfmt) is not downloaded again, which is
# how grading/platforms/check-in-docker builds this image without network
# for rustup and crates.io.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
HERE="$SRC/grading/platforms/gradescope"
TOOLCHAIN="$(cat "$HERE/toolchain" 2>/dev/null || echo stable)"
export DEBIAN_FRONTEND=noninteractive
need=()
for p in ca-certificates curl build-essential pkg-config; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
export RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo PATH="/usr/local/cargo/bin:$PATH"
export RUSTUP_AUTO_INSTALL=0
if [ -x "$CARGO_HOME/bin/rustup" ] \
    && rustup run "$TOOLCHAIN" rustc --version >/dev/null 2>&1 \
    && rustup run "$TOOLCHAIN" rustfmt --version >/dev/null 2>&1; then
    echo "setup.sh: Rust $TOOLCHAIN with rustfmt is already in $RUSTUP_HOME; not downloaded"
else
    # rustup-init straight from static.rust-lang.org, checked against its
    # published checksum (what https://sh.rustup.rs downloads too).
    INIT="https://static.rust-lang.org/rustup/dist/$(uname -m)-unknown-linux-gnu/rustup-init"
    curl --proto '=https' --tlsv1.2 -sSf -o /tmp/rustup-init "$INIT"
    echo "$(curl --proto '=https' --tlsv1.2 -sSf "$INIT.sha256" | cut -d' ' -f1)  /tmp/rustup-init" | sha256sum -c -
    chmod +x /tmp/rustup-init
    /tmp/rustup-init -y --no-modify-path --profile minimal --component rustfmt \
        --default-toolchain "$TOOLCHAIN"
    rm /tmp/rustup-init
fi
rustup default "$TOOLCHAIN"
ln -sf /usr/local/cargo/bin/* /usr/local/bin/
# The hidden suites' seed, drawn once for this image and kept outside the
# workbook (root's alone): every submission and every resubmission meets
# the same hidden inputs, which no learner's repository holds. An
# instructor who wants a seed of their own writes it there first.
[ -s "$ROOT/hidden-seed" ] || od -An -N8 -tu8 /dev/urandom | tr -d ' \n' >"$ROOT/hidden-seed"
chmod 600 "$ROOT/hidden-seed"
# run_autograder starts without this environment: rustup's proxies would
# look in ~/.rustup, find no toolchain and every grading would fail.
cat >"$ROOT/workbook.env" <<EOF
export WORKBOOK_HIDDEN_SEED_FILE=$ROOT/hidden-seed
export RUSTUP_HOME=$RUSTUP_HOME
export CARGO_HOME=$CARGO_HOME
export PATH=$CARGO_HOME/bin:\$PATH
export RUSTUP_AUTO_INSTALL=0
EOF
cd "$SRC"
cargo build --release --locked -p grader
# Readable by the tests' unprivileged uids; the reference and the hidden
# suites' sources are root's alone (the judges are compiled from them now).
chmod -R a+rX "$SRC"
# Only the chapters the zip grades (make-zip wrote them; none: every one).
chapters=()
for c in $(cat "$HERE/chapters" 2>/dev/null || true); do chapters+=(--chapter "$c"); done
./target/release/grader grade prepare "${chapters[@]}" --target-dir "$ROOT/target" \
    --sandbox container --force-container
chmod -R a+rX "$ROOT/target"
chmod -R go-rwx "$SRC/solutions" "$SRC/grading/hidden"
cp "$HERE/run_autograder" "$ROOT/run_autograder"
chmod +x "$ROOT/run_autograder"

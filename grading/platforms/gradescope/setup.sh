#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# (the zip is unpacked in /autograder/source). It installs the Rust
# toolchain the zip names, builds the grader, and compiles every
# dependency and the judges once (`grader grade prepare`), so a
# submission builds only the learner's crate.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SRC="$ROOT/source"
HERE="$SRC/grading/platforms/gradescope"
TOOLCHAIN="$(cat "$HERE/toolchain" 2>/dev/null || echo stable)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends ca-certificates curl build-essential pkg-config
export RUSTUP_HOME=/usr/local/rustup CARGO_HOME=/usr/local/cargo PATH="/usr/local/cargo/bin:$PATH"
# rustup-init straight from static.rust-lang.org, checked against its
# published checksum (what https://sh.rustup.rs downloads too).
INIT="https://static.rust-lang.org/rustup/dist/$(uname -m)-unknown-linux-gnu/rustup-init"
curl --proto '=https' --tlsv1.2 -sSf -o /tmp/rustup-init "$INIT"
echo "$(curl --proto '=https' --tlsv1.2 -sSf "$INIT.sha256" | cut -d' ' -f1)  /tmp/rustup-init" | sha256sum -c -
chmod +x /tmp/rustup-init
/tmp/rustup-init -y --no-modify-path --profile minimal --default-toolchain "$TOOLCHAIN"
rm /tmp/rustup-init
ln -sf /usr/local/cargo/bin/* /usr/local/bin/
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

#!/usr/bin/env bash
# Grading a course on a Slurm cluster: an array job, one task per shard,
# then a merge job that waits for the whole array.
#
#   cd /shared/workbook                    # the workbook, on a shared filesystem
#   cargo build --release --locked -p grader
#   target/release/grader grade prepare  # dependencies and the pristine build, once
#   sbatch --array=1-50 grading/engines/slurm.sh /shared/submissions /shared/parts
#   sbatch --dependency=afterok:<ARRAY_JOB_ID> --wrap \
#     'target/release/grader grade merge /shared/parts/part-* --out /shared/report'
#
# Each task builds in its own target directory on the node's local disk
# (learners' crates only; the dependencies are copied in from the prepared
# one), so the tasks never wait on each other's cargo lock.
#SBATCH --job-name=grade
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=04:00:00
set -euo pipefail
submissions=$1
parts=$2
count=${SLURM_ARRAY_TASK_COUNT:?run this with sbatch --array=1-N}
index=${SLURM_ARRAY_TASK_ID:?run this with sbatch --array=1-N}
local_target=${TMPDIR:-/tmp}/grade-$SLURM_JOB_ID
mkdir -p "$local_target"
cp -a target/grade/. "$local_target"/
target/release/grader grade "$submissions" \
  --out "$parts/part-$index" \
  --shard "$index/$count" \
  --target-dir "$local_target"
rm -rf "$local_target"

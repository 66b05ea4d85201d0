#!/usr/bin/env bash
# Time, A against B: one `ic` function (src/bin/ic.rs) at a base revision and
# in the work tree, run alternately in the same minutes, so that a change's
# gain in time can be set beside its gain in instructions (ic.sh). An
# instruction count does not see a longer dependency chain or a branch the
# predictor misses; this does, within the noise of a shared machine.
#
#   bash benches/ab.sh BASE FN INPUT CALLS [ROUNDS]
#   bash benches/ab.sh c42d5e8 ic_varied_decode varied 300
#   bash benches/ab.sh c42d5e8 ic_ours_rmcp dense_1m 300 3
#
# BASE is built in a git worktree (target/ab/BASE, kept for the next run).
# Each round runs both binaries with CALLS calls and with one call (the
# inputs' generation), and prints the CPU time per call in ns, the one
# call's time subtracted: for a set (`varied`, `sdk`), a call is all 512
# frames. Run from anywhere; it measures CPU time, so other processes on the
# machine inflate it less than wall time, but an idle machine is best.
set -euo pipefail
cd "$(dirname "$0")"
base=$1 fn=$2 input=$3 calls=$4 rounds=${5:-3}
rev=$(git rev-parse --short "$base")
tree=target/ab/$rev
if [ ! -d "$tree" ]; then
    git worktree add --detach "$tree" "$rev" >/dev/null 2>&1
fi
(cd "$tree/benches" && CARGO_TARGET_DIR="$PWD/../../../ab-target-$rev" cargo build --release --bin ic -q)
cargo build --release --bin ic -q
a=target/ab-target-$rev/release/ic
b=target/release/ic

# CPU seconds of one run: perf's task clock where perf runs (to the
# microsecond), else the user time of GNU time (to 10 ms).
if perf stat -x, -e task-clock true >/dev/null 2>&1; then
    cpu() { perf stat -x, -e task-clock "$@" 2>&1 >/dev/null | awk -F, '/task-clock/ { print $1 / 1000 }'; }
else
    cpu() { /usr/bin/time -f %U "$@" 2>&1 >/dev/null | tail -1; }
fi

printf '%-10s %-22s %-9s %10s %10s\n' round fn input "$rev ns" "here ns"
for r in $(seq "$rounds"); do
    row=()
    for bin in "$a" "$b"; do
        full=$(cpu "$bin" "$fn" "$input" "$calls")
        one=$(cpu "$bin" "$fn" "$input" 1)
        row+=("$(python3 -c "print(f'{($full - $one) * 1e9 / ($calls - 1):.0f}')")")
    done
    printf '%-10s %-22s %-9s %10s %10s\n' "$r" "$fn" "$input" "${row[0]}" "${row[1]}"
done

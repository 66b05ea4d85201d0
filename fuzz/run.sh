#!/usr/bin/env bash
# Run one fuzz target locally, on stable Rust.
#
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
#
# TARGET is one of `cargo fuzz list` (decode_frame, decode_request,
# differential, exchange, relay, roundtrip, serialize, spec, split, stream). SECONDS defaults to 600. New inputs go to fuzz/work/TARGET
# (not committed); the committed seeds in fuzz/corpus/TARGET are only read.
# Crashes land in fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]}
seconds=${2:-600}
shift $(( $# < 2 ? $# : 2 ))
export RUSTC_BOOTSTRAP=1 # cargo-fuzz's -Z flags and ASan on the stable toolchain
mkdir -p "fuzz/work/$target"
exec cargo fuzz run "$target" "fuzz/work/$target" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -dict=fuzz/json.dict -timeout=10 -print_final_stats=1 "$@"

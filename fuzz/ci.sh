#!/usr/bin/env bash
# CI fragment: build every fuzz target once, then run each for FUZZ_SECONDS
# (default 30) seeded read-only from the committed corpus. Any crash, panic,
# sanitizer report or timeout fails the script.
#
# First it replays the regression inputs, fuzz/regressions/TARGET/* (each
# finding of fuzz/FINDINGS.md under a name), one run of the target's binary
# per file: a finding that comes back fails CI here, by name. They live
# outside fuzz/corpus, so no minimization (fuzz/cmin.sh) can drop them.
#
# The targets come from `cargo fuzz list` (decode_frame, decode_request,
# differential, relay, roundtrip, serialize, split, stream), so a new [[bin]] in
# fuzz/Cargo.toml is fuzzed here without touching this file. `roundtrip`
# runs a few hundred inputs a second (each is encoded, decoded and
# re-encoded against serde_json), so in 30 s it mostly replays its seeds;
# `stream` (each input fed in several chunkings to the validators and the
# reader, and checked against the reference) runs about 2 500 a second.
set -euo pipefail
cd "$(dirname "$0")/.."
FUZZ_SECONDS=${FUZZ_SECONDS:-30}
export RUSTC_BOOTSTRAP=1 # cargo-fuzz's -Z flags and ASan on the stable toolchain
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2 --locked
cargo fuzz build
for dir in fuzz/regressions/*/; do
    t=$(basename "$dir")
    echo "== replay the regression inputs of $t: $(cd "$dir" && echo *)"
    cargo fuzz run "$t" "$dir"* -- -timeout=10
done
for t in $(cargo fuzz list); do
    scratch=$(mktemp -d)
    echo "== fuzz $t for ${FUZZ_SECONDS}s"
    cargo fuzz run "$t" "$scratch" "fuzz/corpus/$t" -- \
        -max_total_time="$FUZZ_SECONDS" -dict=fuzz/json.dict -timeout=10
    rm -rf "$scratch"
done

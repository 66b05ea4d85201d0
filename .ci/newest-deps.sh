#!/usr/bin/env bash
# The differential tests against the newest dependencies cargo resolves for
# our MSRV, in a scratch copy of the workspace.
#
# Cargo.toml asks for rmcp and serde_json by caret requirement from the
# versions the equivalence was proven against; Cargo.lock keeps those, and
# every other CI step runs on them: the locked versions are the gate. This
# step asks what a host that depends on us today would get: it copies the
# tracked files to a scratch directory, runs `cargo update` there (preferring
# versions whose rust-version fits ours), prints what moved against the lock,
# and runs
#
#   * the differential tests (ours beside serde_json + rmcp: the oracle table,
#     generated and mutated inputs, the golden vectors, numbers, conversions
#     to and from the rmcp types, encoders byte for byte against
#     `serde_json::to_vec`, every truncation of the vectors, the fuzzers'
#     findings) with `alloc`; `long_strings` (a minute of run time) and
#     `stream` (against `Frame::decode`, not the reference) are left out;
#   * the no-alloc library for thumbv7em-none-eabihf with every no-alloc
#     feature, and the golden vectors without `alloc`.
#
# It reports and never fails: it exits 0 whatever it finds, and prints one
# line per part starting with "newest dependencies:" (also appended to
# $NEWEST_DEPS_SUMMARY when set, for .ci/run's closing summary).
# Compiles in its own target directory inside the scratch copy, from cold:
# about 2.5 CPU-minutes in all (most of it compiling the test dependencies),
# so two to three minutes on an idle 2-core machine (5.5 measured with two
# other builds running); each cargo call is under a timeout.
#
#   bash .ci/newest-deps.sh            # from anywhere in the checkout
#   KEEP_SCRATCH=1 bash .ci/newest-deps.sh   # keep the copy to look into it
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TERM_COLOR=never

say() {
    printf '%s\n' "$*"
    if [ -n "${NEWEST_DEPS_SUMMARY:-}" ]; then printf '%s\n' "$*" >>"$NEWEST_DEPS_SUMMARY"; fi
}

# The version of a package in a Cargo.lock (the first entry of that name).
locked() { awk -v n="$2" '$0 == "name = \"" n "\"" { getline; gsub(/version = |"/, ""); print; exit }' "$1"; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/diverge-newest-deps.XXXXXX")
if [ -z "${KEEP_SCRATCH:-}" ]; then
    trap 'rm -rf "$scratch"' EXIT
else
    echo "scratch copy kept in $scratch"
fi

# The tracked files as they stand in the work tree (no target/, nothing
# untracked).
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$scratch" || {
    say "newest dependencies: not run (could not copy the workspace to $scratch)"
    exit 0
}
cd "$scratch"
export CARGO_TARGET_DIR="$scratch/target"
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)

echo "resolving the newest versions for rust-version $msrv (cargo update, MSRV-aware fallback):"
if ! CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback timeout 180 cargo update --verbose 2>&1; then
    say "newest dependencies: not run (cargo update failed; is crates.io reachable?)"
    exit 0
fi

echo
echo "what moved against Cargo.lock (name: locked -> newest):"
awk '
    FNR == 1 { file++; name = "" }
    /^\[\[package\]\]/ { name = "" }
    /^name = / { name = $3; gsub(/"/, "", name) }
    /^version = / && name != "" { v = $3; gsub(/"/, "", v); if (file == 1) old[name] = old[name] " " v; else new[name] = new[name] " " v }
    END {
        for (n in new) { o = (n in old) ? old[n] : " (new)"; if (o != new[n]) { printf "  %s:%s ->%s\n", n, o, new[n]; moved++ } }
        for (n in old) if (!(n in new)) { printf "  %s:%s -> (gone)\n", n, old[n]; moved++ }
        if (!moved) print "  nothing: the lock already holds the newest versions"
    }' "$root/Cargo.lock" Cargo.lock | sort
sj=$(locked Cargo.lock serde_json)
rm=$(locked Cargo.lock rmcp)
sjc=$(locked Cargo.lock serde-json-core)
hl=$(locked Cargo.lock heapless)
echo

# 1. The differential tests, with alloc. A quarter of the generated cases of
# the gate (every table row and vector is still run): an early warning, kept
# to a minute or so of running on the CI machine.
echo "differential tests against serde_json $sj and rmcp $rm:"
if DIVERGE_CASES="${DIVERGE_CASES:-5000}" DIVERGE_MUTATIONS="${DIVERGE_MUTATIONS:-10000}" \
    PROPTEST_CASES="${PROPTEST_CASES:-250}" timeout 900 cargo test --features alloc \
    --test reference --test vectors --test numbers --test rmcp --test one_pass --test encode \
    --test truncation --test fuzz_regressions; then
    with_alloc="PASSED"
else
    with_alloc="FAILED (see above)"
fi

# 2. The no-alloc library: the bare-metal build and the golden vectors.
echo
echo "the no-alloc library (serde-json-core $sjc, heapless $hl) for thumbv7em-none-eabihf, and the golden vectors without alloc:"
if ! rustup target list --installed 2>/dev/null | grep -qx thumbv7em-none-eabihf; then
    no_alloc="not run (rustup target add thumbv7em-none-eabihf)"
elif timeout 300 cargo build --lib --target thumbv7em-none-eabihf --features defmt,embedded-io,embedded-io-async &&
    timeout 300 cargo test --test vectors; then
    no_alloc="PASSED"
else
    no_alloc="FAILED (see above)"
fi

echo
say "newest dependencies: differential tests $with_alloc (serde_json $sj, rmcp $rm; locked: serde_json $(locked "$root/Cargo.lock" serde_json), rmcp $(locked "$root/Cargo.lock" rmcp))"
say "newest dependencies: no-alloc build and vectors $no_alloc (serde-json-core $sjc, heapless $hl)"
exit 0

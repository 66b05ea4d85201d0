#!/usr/bin/env bash
# Minimize the committed corpus, optionally with new inputs folded in.
#
#   bash fuzz/cmin.sh [TARGET...]             # default: every target of `cargo fuzz list`
#   bash fuzz/cmin.sh --with DIR TARGET...    # fold DIR/TARGET in too (campaign.sh --fold: fuzz/work)
#   MERGE_FLAGS=-merge=1 bash fuzz/cmin.sh stream   # cargo fuzz cmin's own merge instead
#
# For each target this is what `cargo fuzz cmin` does, a libFuzzer merge of
# fuzz/corpus/TARGET (and, with --with, DIR/TARGET) into an empty
# directory, but with MERGE_FLAGS (default `-set_cover_merge=1
# -use_counters=0`): a greedy set cover, the input with the most edges not
# yet covered first, over the edges the hosts' build reaches. cmin's own
# `-merge=1` (inputs smallest first, each kept when it adds an edge or a hit
# count bucket) kept 34 085 of 37 189 files over the ten targets, nine in
# ten; counting hit-count buckets too, the set cover still kept about half.
# Every edge any input reached is still reached.
#
# NAMED_FIRST=1: the named inputs (hand-written, golden vectors, findings:
# every file not named by its SHA-1) and the regression inputs are merged
# first, among themselves, and the rest against what those cover, so a named
# input is kept before an anonymous one that reaches the same edges. It
# costs files: on the corpus of 37 189 it kept 5 167 against 4 936.
#
# Then:
#
# * an empty input is kept under its name (the merge skips empty files, and
#   the empty frame is the one input that reaches `FrameError::Empty`'s text);
# * a kept input that had a name in fuzz/corpus (seed_*, vector_*, hand_*,
#   finding_*) gets it back; the merge names files by their SHA-1;
# * the regression inputs, fuzz/regressions/TARGET/*, are copied in under
#   their names: they are seeds too, and tests/fuzz_regressions.rs reads the
#   findings from fuzz/corpus. They live outside the corpus, so no
#   minimization can lose them (`fuzz/ci.sh` replays them one by one).
#
# The features are the hosts' build's (the fuzzers'). Check the line
# coverage after a minimization (`bash fuzz/coverage.sh`, which also counts
# the compact build's lines): CI fails below 95 %.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2 --locked

with=""
if [ "${1:-}" = --with ]; then
    with=$2
    shift 2
fi
targets=${*:-$(cargo fuzz list)}
count() { find "$1" -type f | wc -l; }

for t in $targets; do
    corpus=fuzz/corpus/$t
    mkdir -p "$corpus"
    inputs=("$corpus")
    [ -n "$with" ] && [ -d "$with/$t" ] && inputs+=("$with/$t")
    before=$(for d in "${inputs[@]}"; do count "$d"; done | awk '{ n += $1 } END { print n }')
    out=$(mktemp -d fuzz/.cmin-"$t".XXXXXX)
    names=$(mktemp)
    log=$(mktemp)
    # "sha1 name" of every named input (not a bare SHA-1, the merge's own name).
    for d in "${inputs[@]}"; do
        find "$d" -type f | { grep -v '/[0-9a-f]\{40\}$' || true; } | xargs -r sha1sum |
            awk '{ n = $2; sub(".*/", "", n); print $1, n }'
    done >"$names"
    named=$(mktemp -d)
    for d in "${inputs[@]}" "fuzz/regressions/$t"; do
        [ -d "$d" ] && find "$d" -type f | { grep -v '/[0-9a-f]\{40\}$' || true; } | xargs -r cp -t "$named/"
    done
    # Into $out: the named inputs first, then everything against them (the
    # files already in $out are the merge's initial corpus). An input that
    # crashes or times out is left out by the merge (and named in $log).
    passes=()
    [ "${NAMED_FIRST:-0}" = 1 ] && [ -n "$(ls -A "$named")" ] && passes+=("$named")
    passes+=("${inputs[*]}")
    for pass in "${passes[@]}"; do
        # shellcheck disable=SC2086 # MERGE_FLAGS is a list of flags; $pass one or two directories
        if ! ASAN_OPTIONS=malloc_context_size=0 cargo fuzz run "$t" "$out" $pass -- \
            -timeout=10 -rss_limit_mb=4096 ${MERGE_FLAGS:--set_cover_merge=1 -use_counters=0} >>"$log" 2>&1; then
            tail -n 20 "$log" >&2
            echo "cmin: the merge of $t failed; corpus left as it was" >&2
            rm -rf "$out" "$names" "$log" "$named"
            exit 1
        fi
    done
    rm -rf "$named"
    if [ "$(count "$out")" -eq 0 ]; then
        echo "cmin: the merge of $t kept nothing; corpus left as it was" >&2
        rm -rf "$out" "$names" "$log"
        exit 1
    fi
    grep -E '^MERGE-OUTER: [0-9]+ new files' "$log" || true
    # The merge skips empty files: keep them (once, under a name).
    for d in "${inputs[@]}"; do
        find "$d" -type f -empty | head -n 1 | xargs -r cp -t "$out/"
    done
    # Give the kept inputs their names back.
    while read -r h name; do
        [ -f "$out/$h" ] && [ ! -e "$out/$name" ] && mv "$out/$h" "$out/$name"
    done <"$names"
    # The regression inputs, under their names, once.
    if [ -d "fuzz/regressions/$t" ]; then
        for f in "fuzz/regressions/$t"/*; do
            h=$(sha1sum "$f" | cut -d' ' -f1)
            rm -f "$out/$h"
            cp "$f" "$out/"
        done
    fi
    rm -rf "$corpus" "$names" "$log"
    mv "$out" "$corpus"
    echo "$t: $before -> $(count "$corpus") files, $(du -sk "$corpus" | cut -f1) KiB"
done

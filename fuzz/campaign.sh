#!/usr/bin/env bash
# The long fuzz campaign: every target (or the ones named) for 10^7
# executions or 2 hours of one core, whichever comes first, two targets at
# a time; then a table row per target for fuzz/FINDINGS.md.
#
#   bash fuzz/campaign.sh                    # every target of `cargo fuzz list`
#   bash fuzz/campaign.sh roundtrip stream   # some of them
#   RUNS=1000000 SECONDS_MAX=600 JOBS=1 bash fuzz/campaign.sh split   # shorter
#
# The time bound is CPU time, not wall clock: a watcher reads the fuzzer's
# CPU seconds from /proc every 20 s and interrupts it (SIGINT: libFuzzer
# prints its final stats and exits) once it has had SECONDS_MAX of one
# core, so a run that shares the machine still gets its 2 hours. A wall
# clock bound of 3 x SECONDS_MAX stays as a backstop. Never SIGSTOP a
# running target: -timeout is wall clock, and the unit it was running reads
# as a timeout when it resumes.
#
# Each target starts from its committed corpus (fuzz/corpus/TARGET, read
# only) and writes new inputs to fuzz/work/TARGET and its log to
# fuzz/campaign/TARGET.log (neither committed). A crash stops that target;
# its input is in fuzz/artifacts/TARGET/. ASan keeps no allocation stacks
# (`malloc_context_size=0`): `roundtrip` otherwise grows to gigabytes in an
# hour (ASan's stack depot, not a leak).
#
# Fold the result back in with `bash fuzz/campaign.sh --fold TARGET...`:
# the committed corpus and the run's new inputs (fuzz/work/TARGET) are
# minimized together into fuzz/corpus/TARGET by `fuzz/cmin.sh --with
# fuzz/work` (a merge into an empty directory, as `cargo fuzz cmin` does),
# so the corpus keeps every feature of both and stays small; named seeds
# keep their names and the regression inputs (fuzz/regressions/) stay in.
# Then run `bash fuzz/coverage.sh` (CI's floor is 95 %): the merge counts
# the hosts' build's features, the coverage also the compact build's lines.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2 --locked

fold=false
table_only=false
case "${1:-}" in
--fold) fold=true; shift ;;
--table) table_only=true; shift ;; # the rows of the targets that ended, from their logs
esac
targets=${*:-$(cargo fuzz list)}
runs=${RUNS:-10000000}
max=${SECONDS_MAX:-7200}

# | target | executions | time | bound | cov | ft | corpus | end |
table() {
    for t in $targets; do
        log=fuzz/campaign/$t.log
        [ -f "fuzz/campaign/$t.end" ] || continue
        read -r _ status secs cpu <"fuzz/campaign/$t.end"
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        last=$(grep -E '^#[0-9]+' "$log" | tail -1)
        cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
        ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
        corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
        bound=$([ "${execs:-0}" -ge "$runs" ] && echo "$runs runs" || echo "${max} s of CPU")
        echo "| \`$t\` | ${execs:-?} | $((secs / 60)) min ($((${cpu:-0} / 60)) min of CPU) | $bound | ${cov:-?} | ${ft:-?} | ${corp:-?} | $status |"
    done
}
if $table_only; then
    table
    exit 0
fi

if $fold; then
    # shellcheck disable=SC2086 # one word per target
    exec bash fuzz/cmin.sh --with fuzz/work $targets
fi

mkdir -p fuzz/campaign
for t in $targets; do cargo fuzz build "$t"; done

one() {
    local t=$1
    mkdir -p "fuzz/work/$t"
    local start=$SECONDS log="fuzz/campaign/$t.log" pat="release/$t "
    ASAN_OPTIONS=malloc_context_size=0 cargo fuzz run "$t" "fuzz/work/$t" "fuzz/corpus/$t" -- \
        -runs="$runs" -max_total_time=$((3 * max)) -dict=fuzz/json.dict -timeout=10 \
        -rss_limit_mb=4096 -print_final_stats=1 >"$log" 2>&1 &
    local cargo=$! pid="" cpu=0 tick
    tick=$(getconf CLK_TCK)
    while kill -0 "$cargo" 2>/dev/null; do
        sleep 20
        [ -n "$pid" ] || pid=$(pgrep -f -n "$pat" || true)
        [ -n "$pid" ] && [ -r "/proc/$pid/stat" ] || continue
        # utime + stime, fields 14 and 15 (the name, field 2, has no spaces)
        cpu=$(awk -v t="$tick" '{ print int(($14 + $15) / t) }' "/proc/$pid/stat" 2>/dev/null || echo "$cpu")
        if [ "$cpu" -ge "$max" ]; then kill -INT "$pid" 2>/dev/null || true; fi
    done
    local status=CRASH
    if wait "$cargo"; then
        status=clean
    elif [ "$cpu" -ge "$max" ] && grep -q 'libFuzzer: run interrupted' "$log"; then
        status=clean
    fi
    echo "$t $status $((SECONDS - start)) $cpu" >"fuzz/campaign/$t.end"
}
export -f one
export runs max
printf '%s\n' $targets | xargs -P "${JOBS:-2}" -I{} bash -c 'one {}'

table

#!/usr/bin/env bash
# Line coverage of the library (src/, src/defmt.rs out) by the fuzz corpus.
#
#   fuzz/coverage.sh [TARGET...]        # default: every target of `cargo fuzz list`
#   CORPUS=work fuzz/coverage.sh        # the local corpus (fuzz/work/TARGET) too
#   BUILDS=host fuzz/coverage.sh        # the hosts' build only (faster)
#   MIN_COVERAGE=95 fuzz/coverage.sh    # fail (exit 1) below 95 % merged (CI)
#
# Builds each target with coverage instrumentation (`cargo fuzz coverage`,
# on stable with RUSTC_BOOTSTRAP) and replays the committed corpus
# (fuzz/corpus/TARGET) through it, twice:
#
# * the hosts' build (x86-64, the features the targets use), as the fuzzers
#   run it;
# * the compact build (`RUSTFLAGS=--cfg diverge_compact`, its own target
#   directory): the code that only microcontrollers take (behind
#   `find::HOST` false: the byte loops, the compact number and key lanes,
#   the whole-buffer lanes with their own state) is the code that runs. On
#   the hosts' build it is compiled as branches a host never takes.
#
# A line counts as reached when either build reaches it (the union of the
# two builds' per-line counts, each exported by llvm-cov from one binary, so
# no profile of one build is read against the other's code). Prints one
# line per target and one merged line:
#
#   fuzz coverage of src/: 96.1 % of lines (4 810 of 5 005)
#
# and writes the lines no input reached, by file, to fuzz/COVERAGE.md,
# followed by fuzz/coverage-why.md (written by hand: why no input reaches
# each of them).
# llvm-profdata and llvm-cov come from rustup's llvm-tools component, which
# matches rustc's LLVM (the distribution's may not read its profiles).
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC_BOOTSTRAP=1
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --version 0.13.2 --locked
rustup component add llvm-tools >/dev/null 2>&1
host=$(rustc -vV | sed -n 's/^host: //p')
tools="$(rustc --print sysroot)/lib/rustlib/$host/bin"
targets=${*:-$(cargo fuzz list)}
builds=${BUILDS:-host compact}
root=$(pwd)
ignore='(/\.cargo/|/rustc/|/\.rustup/|/fuzz/|/tests/|/benches/|/examples/|src/defmt\.rs)'
lcov=fuzz/coverage/lcov
rm -rf "$lcov"
mkdir -p "$lcov"

for build in $builds; do
    flags=""
    dir="target/$host/coverage" # cargo fuzz coverage's own default
    if [ "$build" = compact ]; then
        flags="--cfg diverge_compact"
        dir=target/fuzz-coverage-compact
    fi
    for t in $targets; do
        corpora=("fuzz/corpus/$t")
        [ "${CORPUS:-}" = work ] && [ -d "fuzz/work/$t" ] && corpora+=("fuzz/work/$t")
        rm -rf "fuzz/coverage/$t" # its raw profiles would add up across runs
        log="fuzz/coverage/$t.$build.log" # fuzz/coverage exists: $lcov is in it
        RUSTFLAGS="$flags" cargo fuzz coverage --target-dir "$dir" "$t" "${corpora[@]}" >"$log" 2>&1 || {
            echo "coverage: cargo fuzz coverage $t ($build build) failed; the end of its output ($log):" >&2
            tail -n 40 "$log" >&2
            df -h . >&2
            exit 1
        }
        "$tools/llvm-cov" export "$dir/$host/release/$t" \
            -instr-profile="fuzz/coverage/$t/coverage.profdata" \
            -format=lcov -ignore-filename-regex="$ignore" >"$lcov/$t.$build.lcov"
    done
done

# Per line, the most hits in any build: "file line hits" rows.
union() {
    awk -v root="$root/" '
        /^SF:/ { file = substr($0, 4); sub(root, "", file); next }
        /^DA:/ { split(substr($0, 4), a, ","); k = file " " a[1]; if (!(k in h) || a[2] > h[k]) h[k] = a[2] }
        END { for (k in h) print k, h[k] }' "$@"
}
fmt() { # "covered total" -> "96.1 % of lines (4 810 of 5 005)"
    awk -v c="$1" -v t="$2" '
        function g(n,  s, r) { s = sprintf("%d", n); r = ""
            while (length(s) > 3) { r = " " substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
            return s r }
        BEGIN { printf "%.1f %% of lines (%s of %s)\n", t ? 100 * c / t : 0, g(c), g(t) }'
}
count() { awk '{ n++; if ($3 > 0) c++ } END { print c + 0, n + 0 }'; }

for t in $targets; do
    read -r c n < <(union "$lcov/$t".*.lcov | count)
    echo "fuzz coverage of src/ by $t: $(fmt "$c" "$n")"
done
union "$lcov"/*.lcov >"$lcov/merged"
read -r c n < <(count <"$lcov/merged")
echo "fuzz coverage of src/: $(fmt "$c" "$n")"

# The lines no input reached, by file.
{
    echo "# Lines of src/ the fuzz corpus does not reach"
    echo
    echo "Written by \`fuzz/coverage.sh\` (targets: $(echo $targets); builds: $builds): the merged"
    echo "figure, then per file the lines with a count of 0 in every build, as ranges."
    echo
    echo "fuzz coverage of src/: $(fmt "$c" "$n")"
    echo
    awk '$3 == 0 { print $1, $2 }' "$lcov/merged" | sort -k1,1 -k2,2n |
        awk '
            function flush() { if (f != "") { out = out (out ? ", " : "") (start == prev ? start : start "-" prev); printf "- `%s` (%d lines): %s\n", f, n, out } }
            $1 != f { flush(); f = $1; n = 0; out = ""; start = $2; prev = $2; n++; next }
            { n++; if ($2 == prev + 1) { prev = $2; next } out = out (out ? ", " : "") (start == prev ? start : start "-" prev); start = $2; prev = $2 }
            END { flush() }'
    if [ -f fuzz/coverage-why.md ]; then
        echo
        cat fuzz/coverage-why.md
    fi
} > fuzz/COVERAGE.md
echo "uncovered lines by file: fuzz/COVERAGE.md"
if [ -n "${MIN_COVERAGE:-}" ] && [ "$(awk -v c="$c" -v n="$n" -v m="$MIN_COVERAGE" 'BEGIN { print (n && 1000 * c >= 10 * m * n) ? 1 : 0 }')" != 1 ]; then
    echo "coverage: below the ${MIN_COVERAGE} % floor" >&2
    exit 1
fi

#!/usr/bin/env bash
# Line coverage of the library (src/, src/defmt.rs out) by the fuzz corpus.
#
#   fuzz/coverage.sh [TARGET...]        # default: every target of `cargo fuzz list`
#   CORPUS=work fuzz/coverage.sh        # the local corpus (fuzz/work/TARGET) too
#
# Builds each target with coverage instrumentation (`cargo fuzz coverage`,
# on stable with RUSTC_BOOTSTRAP), replays the committed corpus
# (fuzz/corpus/TARGET) through it, merges the profiles, and prints one line
# per target and one merged line:
#
#   fuzz coverage of src/: 96.1 % of lines (4 810 of 5 005)
#
# It writes the lines no input reached, by file, to fuzz/COVERAGE.md. The
# figures are of the host (x86-64) build with the features the targets use:
# code behind `find::HOST` false (the microcontrollers' compact lanes) is
# compiled as branches a host never takes and counts as not reached.
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
root=$(pwd)
ignore='(/\.cargo/|/rustc/|/\.rustup/|/fuzz/|/tests/|/benches/|/examples/|src/defmt\.rs)'
objects=()
profiles=()

# "covered total" of the library's lines in a report's TOTAL row.
lines_of() {
    "$tools/llvm-cov" report "$@" -ignore-filename-regex="$ignore" \
        | awk '/^TOTAL/ { print $8 - $9, $8 }'
}
fmt() { # "covered total" -> "96.1 % of lines (4 810 of 5 005)"
    awk -v c="$1" -v t="$2" '
        function g(n,  s, r) { s = sprintf("%d", n); r = ""
            while (length(s) > 3) { r = " " substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
            return s r }
        BEGIN { printf "%.1f %% of lines (%s of %s)\n", t ? 100 * c / t : 0, g(c), g(t) }'
}

for t in $targets; do
    corpora=("fuzz/corpus/$t")
    [ "${CORPUS:-}" = work ] && [ -d "fuzz/work/$t" ] && corpora+=("fuzz/work/$t")
    rm -rf "fuzz/coverage/$t" # its raw profiles would add up across runs
    cargo fuzz coverage "$t" "${corpora[@]}" >/dev/null 2>&1 \
        || { echo "coverage: cargo fuzz coverage $t failed" >&2; exit 1; }
    exe="target/$host/coverage/$host/release/$t"
    prof="fuzz/coverage/$t/coverage.profdata"
    objects+=("-object=$exe")
    profiles+=("$prof")
    read -r c n < <(lines_of "$exe" -instr-profile="$prof")
    echo "fuzz coverage of src/ by $t: $(fmt "$c" "$n")"
done

"$tools/llvm-profdata" merge -sparse "${profiles[@]}" -o fuzz/coverage/merged.profdata
first=${objects[0]#-object=}
read -r c n < <(lines_of "$first" "${objects[@]:1}" -instr-profile=fuzz/coverage/merged.profdata)
echo "fuzz coverage of src/: $(fmt "$c" "$n")"

# The lines no input reached, by file.
{
    echo "# Lines of src/ the fuzz corpus does not reach"
    echo
    echo "Written by \`fuzz/coverage.sh\` (targets: $(echo $targets)): the merged"
    echo "figure, then per file the lines with a count of 0, as ranges."
    echo
    echo "fuzz coverage of src/: $(fmt "$c" "$n")"
    echo
    "$tools/llvm-cov" export "$first" "${objects[@]:1}" -instr-profile=fuzz/coverage/merged.profdata \
        -format=lcov -ignore-filename-regex="$ignore" |
        awk -v root="$root/" '
            /^SF:/ { file = substr($0, 4); sub(root, "", file); next }
            /^DA:/ { split(substr($0, 4), a, ","); if (a[2] == 0) miss[file] = miss[file] " " a[1]; next }
            END {
                for (f in miss) {
                    n = split(miss[f], l, " "); out = ""; start = l[1]; prev = l[1]
                    for (i = 2; i <= n + 1; i++) {
                        if (i <= n && l[i] == prev + 1) { prev = l[i]; continue }
                        out = out (out ? ", " : "") (start == prev ? start : start "-" prev)
                        if (i <= n) { start = l[i]; prev = l[i] }
                    }
                    printf "- `%s` (%d lines): %s\n", f, n, out
                }
            }' | sort
} > fuzz/COVERAGE.md
echo "uncovered lines by file: fuzz/COVERAGE.md"

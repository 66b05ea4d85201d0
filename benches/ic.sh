#!/usr/bin/env bash
# Instruction counts per decode, ours against the reference, under callgrind.
# Deterministic (no timing), so it runs anywhere, loaded machines included.
#
#   benches/ic.sh            # build (release, LTO) and print the table
#
# Each `ic_*` function in src/bin/ic.rs decodes one input N=1000 times;
# callgrind collects only inside it (--toggle-collect), and Ir/N is printed.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "ic.sh: valgrind not installed (apt-get install valgrind)" >&2; exit 1; }
cargo build --release --quiet --bin ic
BIN=target/release/ic
N=1000
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ir() { # function input -> Ir per call of the decoder
    valgrind --tool=callgrind --toggle-collect="$1" --callgrind-out-file="$out/cg" "$BIN" "$1" "$2" 2>/dev/null
    awk -v n="$N" '/^(summary|totals):/ { print int($2 / n + 0.5); exit }' "$out/cg"
}

printf '%-8s %8s %12s %12s %10s %12s\n' input bytes decode decode+walk reference "ref/ours"
for input in small medium error; do
    bytes=$("$BIN" size "$input")
    d=$(ir ic_ours_decode "$input")
    w=$(ir ic_ours_walk "$input")
    r=$(ir ic_reference "$input")
    printf '%-8s %8s %12s %12s %10s %11.1fx\n' "$input" "$bytes" "$d" "$w" "$r" "$(echo "$r / $w" | bc -l)"
done
bytes=$("$BIN" size request)
d=$(ir ic_ours_request_decode request)
w=$(ir ic_ours_request request)
r=$(ir ic_reference_request request)
printf '%-8s %8s %12s %12s %10s %11.1fx\n' request "$bytes" "$d" "$w" "$r" "$(echo "$r / $w" | bc -l)"
echo "(Ir per decode; decode+walk reads every value through the views; reference = serde_json into rmcp types)"

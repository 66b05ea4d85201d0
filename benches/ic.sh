#!/usr/bin/env bash
# Instruction counts per decode, ours against the reference, under callgrind.
# Deterministic (no timing), so it runs anywhere, loaded machines included.
#
#   benches/ic.sh
#
# src/bin/ic.rs has one #[no_mangle] #[inline(never)] function per decoder
# that decodes an input N = 1000 times; callgrind collects only inside it
# (--toggle-collect=<function>), and the script prints Ir / N. For the sets
# (varied, sdk: 512 frames each) one call is one pass over all the frames; the
# script makes SET_CALLS of them and prints Ir / (SET_CALLS x 512). The last
# table is the rmcp path's floor (ic_floor: the reference's value cloned and
# dropped) beside it.
set -euo pipefail
cd "$(dirname "$0")"
command -v valgrind >/dev/null || { echo "ic.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
cargo build --release --quiet --locked --bin ic
BIN="${CARGO_TARGET_DIR:-target}/release/ic"
N=1000
SET_CALLS=2
SET_FRAMES=512
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

ir() { # <function> <input> [<calls> <decodes per call>]: Ir per decode
    local calls=${3:-$N} per=${4:-1}
    # Each run's profile is kept ($out/<function>.<input>): the floor table
    # reads the rmcp path's parts from it instead of running it again.
    valgrind --tool=callgrind --toggle-collect="$1" --callgrind-out-file="$out/$1.$2" "$BIN" "$1" "$2" "$calls" 2>/dev/null
    awk -v n="$((calls * per))" '/^(summary|totals):/ { printf "%d\n", $2 / n + 0.5; exit }' "$out/$1.$2"
}

# input -> Ir of Frame::decode, of the rmcp path and of the reference, reused
# by the streaming and floor tables
declare -A DECODE_IR RMCP_IR REF_IR

row() { # <input> <decode fn> <walk fn> <to-rmcp fn> <reference fn>
    local bytes d w o r
    bytes=$("$BIN" size "$1")
    d=$(ir "$2" "$1")
    DECODE_IR[$1]=$d
    w=$(ir "$3" "$1")
    o=$(ir "$4" "$1")
    r=$(ir "$5" "$1")
    RMCP_IR[$1]=$o
    REF_IR[$1]=$r
    awk -v i="$1" -v b="$bytes" -v d="$d" -v w="$w" -v o="$o" -v r="$r" \
        'BEGIN { printf "| %-7s | %5d | %7d | %11d | %7d | %9d | %4.2f× | %4.2f× | %4.2f× |\n", i, b, d, w, o, r, r / d, r / w, r / o }'
}

echo "| input   | bytes |  decode | decode+walk | to rmcp | reference | ref/decode | ref/(decode+walk) | ref/(to rmcp) |"
echo "| ---     |   --- |     --- |         --- |     --- |       --- |    --- |    --- |    --- |"
for input in small medium error; do
    row "$input" ic_ours_decode ic_ours_walk ic_ours_rmcp ic_reference
done
row request ic_ours_request_decode ic_ours_request ic_ours_rmcp_request ic_reference_request
echo
echo "Ir per decode (callgrind, N=$N calls each). decode = Frame::decode (RequestView::decode for the"
echo "request); decode+walk also reads every value through the views; to rmcp = the same bytes to the"
echo "rmcp types through diverge_frame::rmcp (feature alloc); reference = serde_json + rmcp."

# Streaming (diverge_frame::stream) on the same frames: FrameValidator fed in
# chunks of 64 B and 4 KiB, Reader::<256> in chunks of 64 B and 4 KiB (events
# summed), against Frame::decode above. Ratio = decode Ir / streaming Ir.
srow() { # <input>
    local bytes d v64 v4k r64 r4k
    bytes=$("$BIN" size "$1")
    d=${DECODE_IR[$1]}
    v64=$(ir ic_validator_64 "$1")
    v4k=$(ir ic_validator_4k "$1")
    r64=$(ir ic_reader_64 "$1")
    r4k=$(ir ic_reader_4k "$1")
    awk -v i="$1" -v b="$bytes" -v d="$d" -v v64="$v64" -v v4k="$v4k" -v r64="$r64" -v r4k="$r4k" \
        'BEGIN { printf "| %-7s | %5d | %7d | %12d | %12d | %9d | %9d | %4.2f× | %4.2f× | %4.2f× | %4.2f× |\n", i, b, d, v64, v4k, r64, r4k, d / v64, d / v4k, d / r64, d / r4k }'
}

echo
echo "| input   | bytes |  decode | validator@64 | validator@4K | reader@64 | reader@4K | decode/(v@64) | decode/(v@4K) | decode/(r@64) | decode/(r@4K) |"
echo "| ---     |   --- |     --- |          --- |          --- |       --- |       --- |    --- |    --- |    --- |    --- |"
for input in small medium; do
    srow "$input"
done
echo
echo "Streaming, Ir per frame (callgrind, N=$N calls each): validator = diverge_frame::stream::FrameValidator,"
echo "reader = Reader::<256> with a callback summing piece lengths, each fed the frame in chunks of 64 B or"
echo "4 KiB (bytes.chunks(n), then finish); decode = Frame::decode from the table above."

# The sets, 512 distinct frames each (src/inputs.rs): varied (medium-like
# results) and sdk (frames as the Python and TypeScript MCP SDKs write them).
# Ir per frame = collected Ir / (SET_CALLS x 512); one call is one pass.
setrow() { # <set>
    local bytes d w o r
    bytes=$("$BIN" size "$1")
    d=$(ir "ic_$1_decode" "$1" "$SET_CALLS" "$SET_FRAMES")
    w=$(ir "ic_$1_walk" "$1" "$SET_CALLS" "$SET_FRAMES")
    o=$(ir "ic_$1_rmcp" "$1" "$SET_CALLS" "$SET_FRAMES")
    r=$(ir "ic_$1_reference" "$1" "$SET_CALLS" "$SET_FRAMES")
    DECODE_IR[$1]=$d
    RMCP_IR[$1]=$o
    REF_IR[$1]=$r
    awk -v i="$1" -v f="$SET_FRAMES" -v b="$bytes" -v d="$d" -v w="$w" -v o="$o" -v r="$r" \
        'BEGIN { printf "| %-6s | %6d | %8d | %7d | %11d | %7d | %9d | %4.2f× | %4.2f× | %4.2f× |\n", i, f, b, d, w, o, r, r / d, r / w, r / o }'
}

echo
echo "| set    | frames |    bytes |  decode | decode+walk | to rmcp | reference | ref/decode | ref/(decode+walk) | ref/(to rmcp) |"
echo "| ---    |    --- |      --- |     --- |         --- |     --- |       --- |    --- |    --- |    --- |"
for set in varied sdk; do
    setrow "$set"
done
echo
echo "Sets, Ir per frame (callgrind, SET_CALLS=$SET_CALLS passes over the $SET_FRAMES frames each; bytes = all"
echo "frames together): columns as in the first table (ic_<set>_decode, _walk, _rmcp, _reference)."

# The floor: what any decoder into the rmcp types spends on the value alone,
# its allocations, copies and frees without reading a byte of JSON (the
# reference's value of each frame, made before the measured call, cloned and
# dropped: ic_floor, ic_<set>_floor). ref/(decode + floor) is the two-pass
# bound: validation at Frame::decode's cost, then the floor. Beside it, the
# path's UTF-8 checks, which safe code needs to make a String (a body once,
# and each escaped kept string once more, by simdutf8; core's check on the
# general path): inclusive Ir of core::str::from_utf8 and simdutf8's
# validator inside the path's own run (callgrind_annotate). The path's
# one-pass string lexeme is inlined into its builder, so it has no column.
utf8() { # <function> <input> <calls> <decodes per call>: UTF-8 Ir per decode, from ir's profile
    callgrind_annotate --inclusive=yes "$out/$1.$2" 2>/dev/null | awk -v n="$(($3 * $4))" '
        { gsub(",", "", $1) }
        /converts\.rs:core::str::converts::from_utf8 \[/ { f += $1 }
        /algorithm\.rs:simdutf8::implementation::.*::validate_utf8_basic \[/ { f += $1 }
        END { printf "%d\n", f / n + 0.5 }'
}

frow() { # <input> <floor fn> <rmcp fn> [<calls> <decodes per call>]
    local d=${DECODE_IR[$1]} o=${RMCP_IR[$1]} r=${REF_IR[$1]} f t
    f=$(ir "$2" "$1" "${4:-$N}" "${5:-1}")
    t=$(utf8 "$3" "$1" "${4:-$N}" "${5:-1}")
    awk -v i="$1" -v d="$d" -v f="$f" -v t="$t" -v o="$o" -v r="$r" \
        'BEGIN { printf "| %-7s | %7d | %6d | %6d | %7d | %9d | %4.2f× | %4.2f× | %4.2f× |\n", i, d, f, t, o, r, r / f, r / (d + f), r / o }'
}

echo
echo "| input   |  decode |  floor |  UTF-8 | to rmcp | reference | ref/floor | ref/(decode+floor) | ref/(to rmcp) |"
echo "| ---     |     --- |    --- |    --- |     --- |       --- |    --- |    --- |    --- |"
frow small ic_floor ic_ours_rmcp
frow medium ic_floor ic_ours_rmcp
frow error ic_floor ic_ours_rmcp
frow request ic_floor ic_ours_rmcp_request
for set in varied sdk; do
    frow "$set" "ic_${set}_floor" "ic_${set}_rmcp" "$SET_CALLS" "$SET_FRAMES"
done
echo
echo "The floor, Ir per frame: the reference's value cloned and dropped (allocations, copies, frees; no"
echo "JSON read). UTF-8: the rmcp path's own checks (core::str::from_utf8 and simdutf8's validator),"
echo "inclusive Ir inside its run. ref/floor bounds every decoder into the rmcp types; ref/(decode+floor)"
echo "is the two-pass bound (validate at Frame::decode's cost, then build at the floor's), which the path"
echo "is held to; ref/(to rmcp) is where it stands."

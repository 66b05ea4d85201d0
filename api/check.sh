#!/usr/bin/env bash
# The crate's public API, listed by cargo-public-api from the pinned nightly's
# rustdoc JSON, compared with the listings committed in api/.
#
#   bash api/check.sh           regenerate into a temporary directory and diff;
#                               exit 1 if the public API differs from the listings
#   bash api/check.sh --bless   rewrite the committed listings
#
# Needs the nightly below (rustup toolchain install nightly-2026-05-20 --profile minimal);
# installs cargo-public-api at the version below when `cargo public-api` is missing or another version.
set -euo pipefail
cd "$(dirname "$0")/.."

NIGHTLY=nightly-2026-05-20   # its rustdoc JSON has format_version 57
TOOL_VERSION=0.52.0          # cargo-public-api 0.52.x reads format_version 57 (rustdoc-types 0.57)

# listing file : features. Default features are on (there are none today).
LISTINGS=(
    "public-api.txt:embedded-io,embedded-io-async,defmt"   # everything a microcontroller can use (no heap)
    "public-api-alloc.txt:alloc,embedded-io,embedded-io-async"   # the host's set: with the rmcp conversions
)

# Auto traits only a nightly compiler can name (core::marker::Freeze, UnsafeUnpin): no part of the
# API on stable, and they would come and go with the nightly's version.
UNSTABLE_AUTO_TRAITS='^impl(<.*>)? core::marker::(Freeze|UnsafeUnpin) for '

bless=false
case "${1-}" in
    --bless) bless=true ;;
    "") ;;
    *) echo "usage: bash api/check.sh [--bless]" >&2; exit 2 ;;
esac

if ! rustup run "$NIGHTLY" rustc --version >/dev/null 2>&1; then
    echo "api/check.sh: the $NIGHTLY toolchain is missing: rustup toolchain install $NIGHTLY --profile minimal" >&2
    exit 2
fi
if [ "$(cargo public-api --version 2>/dev/null)" != "cargo-public-api $TOOL_VERSION" ]; then
    echo "api/check.sh: installing cargo-public-api $TOOL_VERSION (a debug build, 1 to 2 minutes; it lists the same as a release build)" >&2
    cargo install --locked --debug "cargo-public-api@$TOOL_VERSION"
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

for entry in "${LISTINGS[@]}"; do
    file=${entry%%:*}
    features=${entry#*:}
    {
        echo "# cargo public-api $TOOL_VERSION --omit blanket-impls --features $features"
        echo "# (rustdoc JSON of $NIGHTLY; Freeze and UnsafeUnpin impls left out). Update: bash api/check.sh --bless"
        cargo +"$NIGHTLY" public-api --color never --omit blanket-impls --features "$features" |
            grep -v -E "$UNSTABLE_AUTO_TRAITS"
    } >"$out/$file"
done

if $bless; then
    for entry in "${LISTINGS[@]}"; do
        cp "$out/${entry%%:*}" "api/${entry%%:*}"
    done
    echo "api/check.sh: listings rewritten; review them with git diff api/"
    exit 0
fi

status=0
for entry in "${LISTINGS[@]}"; do
    file=${entry%%:*}
    diff -u --label "api/$file (committed)" --label "api/$file (now)" "api/$file" "$out/$file" || status=1
done

if [ "$status" -ne 0 ]; then
    echo
    echo "The public API differs from the listings in api/ (above). If the change is meant, update them: bash api/check.sh --bless"
    exit 1
fi
echo "api/check.sh: the public API matches ${LISTINGS[*]%%:*} in api/"

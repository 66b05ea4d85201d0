#!/usr/bin/env bash
# CI fragment for the benches package: build every bench (no timing, so no
# gating on absolute times), then the instruction counts, which are
# deterministic and take well under 2 minutes including the build.
#
#   bash benches/ci.sh
set -euo pipefail
cd "$(dirname "$0")"
cargo bench --no-run --locked
cargo bench --bench decode --locked -- --test >/dev/null   # smoke: every decoder runs once, no timing
if command -v valgrind >/dev/null; then
    timeout 300 ./ic.sh   # ~40 s unloaded (valgrind, four tables); headroom for a loaded machine
else
    echo "ci.sh: valgrind missing, instruction counts skipped" >&2
fi

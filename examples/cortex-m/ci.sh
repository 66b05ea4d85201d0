#!/usr/bin/env bash
# CI fragment for bare metal: `bash examples/cortex-m/ci.sh` from anywhere.
#
# 1. Builds the library for thumbv6m-none-eabi (no atomic CAS) and thumbv7em-none-eabihf with every
#    combination of the no-alloc features.
# 2. Builds the firmware example and runs it under QEMU (lm3s6965evb); a non-zero exit fails.
# 3. Prints `size` of the firmware, of its decode-only build (no encoders, no streaming step) and
#    of its baseline (codec calls replaced by trivial ones), and the differences: firmware -
#    baseline is the codec with the streaming path (decode, views, encoders, FrameValidator and
#    Reader), decode-only - baseline the codec's decode and views alone; then `size` of its
#    no-stream build (no streaming step) and the streaming path's flash and RAM by difference.
#    Each difference also holds the firmware's own checks of what those calls return (the
#    baseline has neither); RAM is data + bss (statics), never the stack.
# 4. The same-job comparison (src/bin/same-job/, README.md): the same job done by diverge-frame, by
#    serde-json-core and by neither (the baseline), at opt-level s and z with panic-halt; runs the
#    two decoders' builds under QEMU, prints the per-file breakdown of diverge-frame's build at s
#    and, for each opt-level, one line `same job, opt-level s: diverge-frame N B, serde-json-core
#    M B, ratio R` (flash of each minus the baseline's; R = N / M). Then runs the sjc-claims
#    firmware, which holds the README's claims about what each decoder checks.
# 5. Builds the UART relay firmware (src/bin/uart-relay/; `cargo run --release --example gateway
#    -- --mcu` runs it) and prints its flash and RAM in one line.
# 6. Builds the network gateway firmware (src/bin/net-gateway/; `cargo run --release --example
#    gateway -- --mcu-net` runs it) and its net-baseline (the codec's calls replaced by copies)
#    and prints their flash and RAM in one line: the whole firmware, the codec's share by
#    difference, data + bss with the socket buffers named.
set -euo pipefail
export CARGO_TERM_COLOR=never

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

THUMBS=(thumbv6m-none-eabi thumbv7em-none-eabihf)
# Features that build without a heap (every combination is built) and features that are host-only.
# A feature in Cargo.toml that is in neither list fails the script: classify it here.
NO_ALLOC_FEATURES=(defmt embedded-io embedded-io-async)
HOST_ONLY_FEATURES=(alloc std)

step() { printf '\n=== %s\n' "$*"; }

step "tools"
if ! command -v qemu-system-arm >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends qemu-system-arm
fi
rustup target add thumbv7m-none-eabi "${THUMBS[@]}"
qemu-system-arm --version | head -n 1

step "every feature of Cargo.toml is classified"
features=$(awk '/^\[features\]/ { on = 1; next } /^\[/ { on = 0 } on && /^[A-Za-z0-9_-]+[ \t]*=/ { print $1 }' \
  "$root/Cargo.toml" | sed 's/=.*//')
for f in $features; do
  [ "$f" = default ] && continue
  case " ${NO_ALLOC_FEATURES[*]} ${HOST_ONLY_FEATURES[*]} " in
    *" $f "*) ;;
    *) echo "feature '$f' is neither in NO_ALLOC_FEATURES nor in HOST_ONLY_FEATURES of $0" >&2; exit 1 ;;
  esac
done

step "library on bare metal: ${THUMBS[*]} x every no-alloc feature combination"
n=${#NO_ALLOC_FEATURES[@]}
for t in "${THUMBS[@]}"; do
  for ((mask = 0; mask < (1 << n); mask++)); do
    set_=()
    for ((i = 0; i < n; i++)); do
      if ((mask & (1 << i))); then set_+=("${NO_ALLOC_FEATURES[i]}"); fi
    done
    list=$(IFS=,; echo "${set_[*]}")
    echo "--- $t features=[${list}]"
    (cd "$root" && cargo build --lib --release --no-default-features --features "$list" --target "$t")
  done
done

step "firmware: baseline (codec calls replaced by trivial ones) and decode-only (no encoders) builds"
cd "$here"
elf=target/thumbv7m-none-eabi/release/cortex-m-gateway
for variant in baseline decode-only; do
  cargo build --release --locked --features "$variant"
  cp "$elf" "target/cortex-m-gateway-$variant.elf"
done

step "firmware: no-stream build (the streaming step's chunks handed to a trivial call)"
cargo build --release --locked --features no-stream
cp "$elf" target/cortex-m-gateway-no-stream.elf

step "firmware: build and run under QEMU"
cargo build --release --locked
# The runner in .cargo/config.toml is qemu-system-arm; QEMU exits with the firmware's semihosting status.
timeout 120 cargo run --release --locked

step "size (text = flash, data + bss = RAM)"
size "$elf" target/cortex-m-gateway-decode-only.elf target/cortex-m-gateway-baseline.elf
size "$elf" target/cortex-m-gateway-decode-only.elf target/cortex-m-gateway-baseline.elf | awk '
  NR > 1 { t[NR] = $1; r[NR] = $2 + $3 }
  END {
    printf "codec with stream: decode + views + encoders + validator + reader (firmware - baseline):    flash %6d B, RAM %d B\n", t[2] - t[4], r[2] - r[4]
    printf "codec: decode + views                                              (decode-only - baseline): flash %6d B, RAM %d B\n", t[3] - t[4], r[3] - r[4]
  }'
# The streaming step (FrameValidator, Reader and the firmware's checks of their output): the same
# firmware with its chunks generated but handed to a trivial call instead.
size target/cortex-m-gateway-no-stream.elf
size "$elf" target/cortex-m-gateway-no-stream.elf | awk '
  NR > 1 { t[NR] = $1; r[NR] = $2 + $3 }
  END { printf "stream: validator + reader                                         (firmware - no-stream):   flash %6d B, RAM %d B\n", t[2] - t[3], r[2] - r[3]
        # The streaming path flash again, alone on its line (its goal: 4 096 B or less).
        printf "stream path flash: %d B (firmware - no-stream)\n", t[2] - t[3] }'

step "same job: diverge-frame and serde-json-core against the baseline, opt-level s and z, panic-halt"
# Every build goes to the same target directory (the artifacts of s and z live side by side); each
# ELF is copied out before the next build replaces it.
job_elf=target/thumbv7m-none-eabi/release/same-job
# The runner of .cargo/config.toml, on an ELF that was copied out.
qemu=(qemu-system-arm -cpu cortex-m3 -machine lm3s6965evb -nographic -semihosting-config enable=on,target=native -kernel)
for opt in s z; do
  for job in baseline anchor ours; do
    echo "--- opt-level $opt: job-$job"
    CARGO_PROFILE_RELEASE_OPT_LEVEL=$opt cargo build --release --locked --bin same-job --features "job-$job,panic-halt"
    cp "$job_elf" "target/same-job-$job-$opt.elf"
  done
  for job in anchor ours; do
    echo "--- opt-level $opt: run job-$job under QEMU"
    # The firmware's exit status; a panic hangs under panic-halt, and the timeout fails the run.
    timeout 60 "${qemu[@]}" "target/same-job-$job-$opt.elf"
  done
done
size target/same-job-*-s.elf target/same-job-*-z.elf

step "same job: where diverge-frame's flash goes (opt-level s, per source file, .text)"
if command -v llvm-objdump >/dev/null && command -v llvm-addr2line >/dev/null; then
  python3 attribute.py --by-file target/same-job-ours-s.elf
else
  echo "skipped: needs llvm-objdump and llvm-addr2line (Debian: apt-get install llvm)"
fi

step "serde-json-core's checks beside diverge-frame's (the README's claims), under QEMU"
cargo build --release --locked --bin sjc-claims --features claims
timeout 60 "${qemu[@]}" target/thumbv7m-none-eabi/release/sjc-claims

step "same job: flash by difference from the baseline (text), ratio = diverge-frame / serde-json-core"
for opt in s z; do
  size "target/same-job-baseline-$opt.elf" "target/same-job-ours-$opt.elf" "target/same-job-anchor-$opt.elf" |
    awk -v opt="$opt" '
      NR > 1 { t[NR] = $1 }
      END {
        ours = t[3] - t[2]; anchor = t[4] - t[2]
        printf "same job, opt-level %s: diverge-frame %d B, serde-json-core %d B, ratio %.2f\n", opt, ours, anchor, ours / anchor
      }'
done

step "uart-relay firmware (run by \`cargo run --release --example gateway -- --mcu\`): flash and RAM"
cargo build --release --locked --features uart-relay --bin uart-relay
size target/thumbv7m-none-eabi/release/uart-relay | awk '
  NR > 1 { printf "uart-relay: flash %d B, RAM %d B (data + bss, without the stack)\n", $1, $2 + $3 }'

step "net-gateway firmware (run by \`cargo run --release --example gateway -- --mcu-net\`): flash and RAM"
net_elf=target/thumbv7m-none-eabi/release/net-gateway
cargo build --release --locked --features net-baseline --bin net-gateway
cp "$net_elf" target/net-gateway-baseline.elf
cargo build --release --locked --features net-gateway --bin net-gateway
size "$net_elf" target/net-gateway-baseline.elf
# The socket buffers (their statics, each with the one-byte flag of its ConstStaticCell): the
# path's receive window (8 KiB), two downstream transmit buffers (8 KiB each), and the small
# directions (README.md, "The network gateway").
sockets=0
while read -r _ hex _ name; do
  case "$name" in *RELAY_BUF*) ;; *_BUF*) sockets=$((sockets + 16#$hex)) ;; esac
done < <(nm -S "$net_elf")
size "$net_elf" target/net-gateway-baseline.elf | awk -v sockets="$sockets" '
  NR > 1 { t[NR] = $1; r[NR] = $2 + $3 }
  END { printf "net-gateway: flash %d B (codec %d B by difference from net-baseline), RAM %d B (data + bss, of which socket buffers %d B; without the stack)\n", t[2], t[2] - t[3], r[2], sockets }'

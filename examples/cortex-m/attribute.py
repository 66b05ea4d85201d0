#!/usr/bin/env python3
"""Attributes the .text bytes of an ELF to crates through the DWARF inlining chains.

Each instruction counts for the innermost frame of its inlining chain that is not in `core`,
so `core` code inlined into the codec counts as the codec's. Needs llvm-objdump and
llvm-addr2line (Debian's `llvm`) and a build with debug info (the release profile has it).

    python3 attribute.py target/thumbv7m-none-eabi/release/cortex-m-gateway
"""
import collections
import json
import re
import subprocess
import sys


def crate(path):
    if "examples/cortex-m/" in path:
        return "firmware (gateway checks, gauge)"
    m = re.search(r"registry/src/[^/]+/([A-Za-z0-9_\-]+?)-\d+\.\d+", path)
    if m:
        return m.group(1)
    if "compiler_builtins" in path or "compiler-builtins" in path:
        return "compiler_builtins"
    if "/library/" in path:
        return "core"
    if "/src/" in path:
        return "diverge-frame"
    return "unknown"


def main(elf):
    dis = subprocess.run(["llvm-objdump", "-d", "--no-show-raw-insn", "--section=.text", elf],
                         capture_output=True, text=True, check=True).stdout
    addrs = [int(m.group(1), 16) for m in re.finditer(r"(?m)^\s+([0-9a-f]+):\s", dis)]
    out = subprocess.run(["llvm-addr2line", "-i", "-e", elf, "--output-style=JSON"],
                         input="\n".join(hex(a) for a in addrs) + "\n",
                         capture_output=True, text=True, check=True).stdout
    chains = [json.loads(line) for line in out.splitlines() if line.strip()]
    sizes = collections.Counter()
    for i, chain in enumerate(chains[:-1]):
        size = min(addrs[i + 1] - addrs[i], 4)
        frames = [crate(f.get("FileName", "")) for f in chain.get("Symbol", [])]
        owner = next((f for f in frames if f not in ("core", "unknown")), frames[0] if frames else "unknown")
        sizes[owner] += size
    for name, size in sizes.most_common():
        print(f"{size:7d}  {name}")
    print(f"{sum(sizes.values()):7d}  .text")


if __name__ == "__main__":
    main(sys.argv[1])

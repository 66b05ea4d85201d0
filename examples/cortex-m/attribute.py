#!/usr/bin/env python3
"""Attributes the .text bytes of an ELF to crates through the DWARF inlining chains.

Each instruction counts for the innermost frame of its inlining chain that is not in `core`,
so `core` code inlined into the codec counts as the codec's. Needs llvm-objdump and
llvm-addr2line (Debian's `llvm`) and a build with debug info (the release profile has it).

    python3 attribute.py target/thumbv7m-none-eabi/release/cortex-m-gateway
    python3 attribute.py --by-file ELF   # per source file instead (paths from the repository's root)
"""
import collections
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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


def source(path):
    """The file, for --by-file: relative to the repository, or `crate/path` for a registry crate."""
    if path.startswith(ROOT + "/"):
        return path[len(ROOT) + 1:]
    m = re.search(r"registry/src/[^/]+/([A-Za-z0-9_\-]+?)-\d+\.\d+[^/]*/(.*)", path)
    if m:
        return f"{m.group(1)}/{m.group(2)}"
    return crate(path)


def main(elf, by_file=False):
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
        files = [f.get("FileName", "") for f in chain.get("Symbol", [])]
        frames = [crate(f) for f in files]
        at = next((i for i, f in enumerate(frames) if f not in ("core", "unknown")), 0 if frames else None)
        owner = "unknown" if at is None else frames[at]
        if by_file and at is not None:
            owner = source(files[at])
        sizes[owner] += size
    for name, size in sizes.most_common():
        print(f"{size:7d}  {name}")
    print(f"{sum(sizes.values()):7d}  .text")


if __name__ == "__main__":
    args = sys.argv[1:]
    by_file = "--by-file" in args
    args = [a for a in args if a != "--by-file"]
    main(args[0], by_file)

#!/usr/bin/env python3
"""Table and chart from criterion's results (no third-party modules).

    python3 benches/report.py [criterion_dir] [--svg out.svg] [--stream]

Reads <criterion_dir>/<group>/<decoder>/new/{estimates,benchmark}.json
(default: benches/target/criterion), prints a Markdown table of MB/s
(10^6 bytes per second, from the median time) and the ratio to the reference
of the same run, and with --svg writes a bar chart of those ratios.

After it, the rmcp path's table: per input, `Frame::decode`, the floor
(`clone()` of the reference's values), the two-pass bound (decode, then the
floor: 1 / (1/decode + 1/floor) in ratios, the sum of their times),
`to_rmcp`, sonic-rs and simd-json into the same types, each × the reference,
and whether `to_rmcp` is at or under the bound (`met`). --rmcp prints only
that table.

Then, if the `stream_<input>` groups ran, a second table: MB/s of
`Frame::decode`, the reference, the streaming validator at each chunk size
and the reader, each with its ratio to `Frame::decode` in the same group.
--stream prints only that table.
"""

import json
import os
import sys

GROUPS = ["small", "medium", "dense_1m", "plain_1m", "blob_64k", "error", "request", "varied", "sdk"]
DECODERS = [
    "split",
    "decode",
    "decode_walk",
    "to_rmcp",
    "floor",
    "reference",
    "sonic_rs_rmcp",
    "simd_json_rmcp",
    "serde_json_borrowed",
    "sonic_rs_borrowed",
    "simd_json_borrowed",
]
CHART = [
    "decode_walk",
    "to_rmcp",
    "sonic_rs_rmcp",
    "simd_json_rmcp",
    "serde_json_borrowed",
    "sonic_rs_borrowed",
    "simd_json_borrowed",
]
# The `stream_<input>` groups (benches/decode.rs, `streaming`).
STREAM_GROUPS = ["small", "medium", "dense_1m", "plain_1m", "blob_64k", "error", "request"]
STREAM_DECODERS = [
    "decode",
    "reference",
    "validator_64",
    "validator_1k",
    "validator_4k",
    "validator_64k",
    "reader_64",
    "reader_1k",
    "reader_4k",
    "reader_64k",
]
STREAM_LABELS = {
    "validator_64": "validator@64",
    "validator_1k": "validator@1K",
    "validator_4k": "validator@4K",
    "validator_64k": "validator@64K",
    "reader_64": "reader@64",
    "reader_1k": "reader@1K",
    "reader_4k": "reader@4K",
    "reader_64k": "reader@64K",
}
COLORS = {
    "decode_walk": "#1b7837",
    "to_rmcp": "#7fbf7b",
    "sonic_rs_rmcp": "#fdb863",
    "simd_json_rmcp": "#92c5de",
    "serde_json_borrowed": "#9970ab",
    "sonic_rs_borrowed": "#e08214",
    "simd_json_borrowed": "#2166ac",
}
LEGEND_ROWS = [
    ["decode_walk", "to_rmcp"],
    ["sonic_rs_rmcp", "simd_json_rmcp"],
    ["serde_json_borrowed", "sonic_rs_borrowed", "simd_json_borrowed"],
]
LABELS = {
    "decode_walk": "diverge-frame decode + walk",
    "to_rmcp": "diverge-frame to rmcp types",
    "sonic_rs_rmcp": "sonic-rs to rmcp types",
    "simd_json_rmcp": "simd-json to rmcp types",
    "serde_json_borrowed": "serde_json (borrowed structs)",
    "sonic_rs_borrowed": "sonic-rs (borrowed structs)",
    "simd_json_borrowed": "simd-json (borrowed structs)",
}


def load(root, groups=GROUPS, decoders=DECODERS, prefix=""):
    results = {}
    for g in groups:
        for d in decoders:
            base = os.path.join(root, prefix + g, d, "new")
            try:
                with open(os.path.join(base, "estimates.json")) as f:
                    est = json.load(f)
                with open(os.path.join(base, "benchmark.json")) as f:
                    bench = json.load(f)
            except FileNotFoundError:
                continue
            ns = est["median"]["point_estimate"]
            nbytes = bench["throughput"]["Bytes"]
            results[(g, d)] = (ns, nbytes)
    return results


def fmt_rate(mbs):
    return f"{mbs:,.0f}" if mbs >= 100 else f"{mbs:,.1f}"


def table(results):
    head = "| input | bytes | " + " | ".join(f"`{d}`" for d in DECODERS) + " |"
    rows = [head, "|" + " --- |" * (len(DECODERS) + 2)]
    for g in GROUPS:
        ref = results.get((g, "reference"))
        if not ref:
            continue
        cells = []
        for d in DECODERS:
            r = results.get((g, d))
            if not r:
                cells.append("–")
                continue
            ns, nbytes = r
            mbs = nbytes / ns * 1e3
            ratio = ref[0] / ns
            if d == "split":
                cells.append(f"{ns:.1f} ns")
            elif d == "reference":
                cells.append(f"{fmt_rate(mbs)} (1×)")
            else:
                cells.append(f"{fmt_rate(mbs)} ({ratio:.1f}×)")
        rows.append(f"| {g} | {ref[1]:,} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def rmcp_table(results):
    """Rows = inputs: the rmcp path beside decode, the floor and the two-pass bound."""
    cols = ["decode", "floor", "bound", "to_rmcp", "sonic_rs_rmcp", "simd_json_rmcp"]
    head = "| input | " + " | ".join(f"`{c}`" for c in cols) + " | `to_rmcp` ≤ bound |"
    rows = [head, "|" + " --- |" * (len(cols) + 2)]
    for g in GROUPS:
        ref = results.get((g, "reference"))
        need = [results.get((g, d)) for d in ("decode", "floor", "to_rmcp")]
        if not ref or not all(need):
            continue
        times = {d: results[(g, d)][0] for d in ("decode", "floor", "to_rmcp", "sonic_rs_rmcp", "simd_json_rmcp") if (g, d) in results}
        times["bound"] = times["decode"] + times["floor"]
        cells = [f"{ref[0] / times[c]:.2f}×" if c in times else "–" for c in cols]
        verdict = "met" if times["to_rmcp"] <= times["bound"] else f"missed (+{100 * (times['to_rmcp'] / times['bound'] - 1):.0f} %)"
        rows.append(f"| {g} | " + " | ".join(cells) + f" | {verdict} |")
    return "\n".join(rows)


def stream_table(results):
    """Rows = inputs, columns = decoders, MB/s (× `Frame::decode` of the group)."""
    head = "| input | bytes | " + " | ".join(f"`{STREAM_LABELS.get(d, d)}`" for d in STREAM_DECODERS) + " |"
    rows = [head, "|" + " --- |" * (len(STREAM_DECODERS) + 2)]
    for g in STREAM_GROUPS:
        base = results.get((g, "decode"))
        if not base:
            continue
        cells = []
        for d in STREAM_DECODERS:
            r = results.get((g, d))
            if not r:
                cells.append("–")
                continue
            ns, nbytes = r
            mbs = nbytes / ns * 1e3
            if d == "decode":
                cells.append(f"{fmt_rate(mbs)} (1×)")
            else:
                cells.append(f"{fmt_rate(mbs)} ({base[0] / ns:.2f}×)")
        rows.append(f"| {g} | {base[1]:,} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def svg(results, path):
    groups = [g for g in GROUPS if (g, "reference") in results]
    bar_h, gap, left, width = 11, 10, 90, 560
    top = 40
    ratios = {
        (g, d): results[(g, "reference")][0] / results[(g, d)][0]
        for g in groups
        for d in CHART
        if (g, d) in results
    }
    vmax = max(ratios.values()) * 1.12
    scale = width / vmax
    # The legend: one row each for this crate, the rmcp-type competitors and
    # the borrowed structs.
    legend = []
    for row, names in enumerate(LEGEND_ROWS):
        lx = left
        for d in names:
            legend.append((d, lx, row))
            lx += 14 + 6.2 * len(LABELS[d]) + 16
    bars = top + len(groups) * (len(CHART) * bar_h + gap)
    height = bars + 16 * len(LEGEND_ROWS) + 16
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 30}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="{left}" y="18" font-size="13" font-weight="bold">'
        "Decode speed relative to the reference (serde_json + rmcp), higher is better</text>",
    ]
    y = top
    for g in groups:
        out.append(f'<text x="{left - 6}" y="{y + len(CHART) * bar_h / 2 + 4}" text-anchor="end">{g}</text>')
        for d in CHART:
            r = ratios.get((g, d))
            if r is not None:
                w = r * scale
                out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h - 2}" fill="{COLORS[d]}"/>')
                out.append(f'<text x="{left + w + 3:.1f}" y="{y + bar_h - 3}" font-size="9">{r:.1f}×</text>')
            y += bar_h
        y += gap
    x1 = left + scale
    out.append(f'<line x1="{x1:.1f}" y1="{top - 4}" x2="{x1:.1f}" y2="{y - gap + 4}" stroke="black" stroke-dasharray="3,3"/>')
    out.append(f'<text x="{x1 + 3:.1f}" y="{top - 6}" font-size="9">1× = reference</text>')
    for d, lx, row in legend:
        ly = y + 16 * row
        out.append(f'<rect x="{lx:.1f}" y="{ly + 8}" width="10" height="10" fill="{COLORS[d]}"/>')
        out.append(f'<text x="{lx + 14:.1f}" y="{ly + 17}">{LABELS[d]}</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    args = sys.argv[1:]
    out_svg = None
    if "--svg" in args:
        i = args.index("--svg")
        out_svg = args[i + 1]
        del args[i : i + 2]
    only_stream = "--stream" in args
    if only_stream:
        args.remove("--stream")
    only_rmcp = "--rmcp" in args
    if only_rmcp:
        args.remove("--rmcp")
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "target", "criterion")
    results = {} if only_stream else load(root)
    if only_rmcp:
        print(rmcp_table(results))
        return
    streamed = load(root, STREAM_GROUPS, STREAM_DECODERS, "stream_")
    if not results and not streamed:
        sys.exit(f"no criterion results under {root}")
    if results:
        print(table(results))
        print()
        print(rmcp_table(results))
        if out_svg:
            svg(results, out_svg)
    if streamed:
        if results:
            print()
        print(stream_table(streamed))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Charts from a `throng bench --json` report (Debian: python3-matplotlib).

  tools/plot_bench.py REPORT.json OUT_PREFIX

writes OUT_PREFIX-frame.png (frame time against crowd size per technique, log-log) and
OUT_PREFIX-speedup.png (each technique's speedup over `cpu` at each crowd size). The device,
driver and CPU of the report are in every title: a chart without its machine means nothing.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def save(fig, path):
    # Atomic like every other throng output: a temporary file, then a rename.
    tmp = f"{path}.tmp-{os.getpid()}.png"
    fig.savefig(tmp, dpi=120, bbox_inches="tight")
    os.replace(tmp, path)
    plt.close(fig)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_bench.py REPORT.json OUT_PREFIX")
    with open(sys.argv[1]) as f:
        report = json.load(f)
    prefix = sys.argv[2]
    machine = f"{report['device']} | {report['cpu']} ({report['cores']} cores)"
    series = {}
    for r in report["results"]:
        if "error" in r:
            continue
        series.setdefault(r["technique"], []).append((r["instances"], r["frame_ms"]))
    if not series:
        sys.exit("plot_bench.py: the report has no successful results")

    fig, ax = plt.subplots(figsize=(8, 5))
    for name, points in sorted(series.items()):
        points.sort()
        ax.plot([p[0] for p in points], [p[1] for p in points], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("instances")
    ax.set_ylabel("frame time, ms (max of GPU frame and CPU stages; median)")
    ax.set_title(f"{report['model']}: frame time by technique\n{machine}", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    save(fig, f"{prefix}-frame.png")

    if "cpu" in series:
        cpu = dict(series["cpu"])
        fig, ax = plt.subplots(figsize=(8, 5))
        counts = sorted(cpu)
        names = [n for n in sorted(series) if n != "cpu"]
        width = 0.8 / max(len(names), 1)
        for k, name in enumerate(names):
            mine = dict(series[name])
            xs = [i + k * width for i, n in enumerate(counts) if n in mine]
            ys = [cpu[n] / mine[n] for n in counts if n in mine]
            ax.bar(xs, ys, width=width, label=name)
        ax.set_xticks([i + 0.4 - width / 2 for i in range(len(counts))])
        ax.set_xticklabels([str(n) for n in counts])
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xlabel("instances")
        ax.set_ylabel("speedup over cpu (x)")
        ax.set_title(f"{report['model']}: speedup over CPU skinning\n{machine}", fontsize=9)
        ax.legend()
        save(fig, f"{prefix}-speedup.png")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Draws the memory curve of a long run: tools/plot_soak.py soak-memory.csv OUT.png

The CSV comes from tools/device_soak.sh (seconds, rss_mib, gpu_used_mib, stage)."""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: plot_soak.py soak-memory.csv OUT.png", file=sys.stderr)
        return 2
    rows = list(csv.DictReader(open(sys.argv[1])))
    if not rows:
        print("plot_soak.py: no samples", file=sys.stderr)
        return 1
    t = [float(r["seconds"]) for r in rows]
    rss = [float(r["rss_mib"]) for r in rows]
    gpu = [float(r["gpu_used_mib"]) for r in rows]
    fig, ax = plt.subplots(figsize=(9, 4.5))
    ax.plot(t, rss, label="throng resident set (MiB)")
    ax.plot(t, gpu, label="GPU memory used (MiB, nvidia-smi)")
    last = None
    for x, r in zip(t, rows):  # mark where each technique starts
        stage = r["stage"].split("] ")[-1]
        if stage != last:
            ax.axvline(x, color="grey", lw=0.5)
            ax.text(x, ax.get_ylim()[1] * 0.98, stage, rotation=90, va="top", fontsize=7)
            last = stage
    ax.set_xlabel("seconds")
    ax.set_ylabel("MiB")
    ax.set_title("throng bench, 10,000 walkers per technique, 850 frames each")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())

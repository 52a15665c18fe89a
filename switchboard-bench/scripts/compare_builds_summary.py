#!/usr/bin/env python3
"""The summary of compare-builds.sh: reads the harness's JSON reports of every round of two builds and prints, per
benchmark, the median over the rounds of the per-round ratio HEAD / BASE of Switchboard's median time, with the
range of those ratios.

Reads the reports of any harness version: the hand-written JSON of the old harness and the Jackson-written one of
the new have the same keys where this looks (results[].name, .verified, .switchboard_ms.median; machine).

With --one-jvm it reads instead what BuildsInOneJvm printed in each JVM (both builds in one JVM, taking turns):
the ratio per benchmark is HEAD / BASE of the two builds' medians in that JVM, whichever build the JVM loaded first.

usage: compare_builds_summary.py RESULTS_DIR ROUNDS BASE_LABEL HEAD_LABEL COLLECTOR
       compare_builds_summary.py --one-jvm RESULTS_DIR JVMS BASE_LABEL HEAD_LABEL COLLECTOR
  RESULTS_DIR holds round-<n>-base.json and round-<n>-head.json (a run that wrote none is left out), or, with
  --one-jvm, jvm-<n>-base-first.txt or jvm-<n>-head-first.txt (a JVM that failed is left out)
"""
import json
import math
import os
import statistics
import sys


def medians(path):
    """Switchboard's median time in ms per verified benchmark of one report, and the report's machine section."""
    if not os.path.exists(path):
        return {}, {}
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out = {}
    for r in report.get("results", []):
        sb = r.get("switchboard_ms") or {}
        median = sb.get("median")
        if r.get("verified") and isinstance(median, (int, float)) and median > 0 and not math.isnan(median):
            out[r["name"]] = float(median)
    return out, report.get("machine") or {}


def reported_collector(machines):
    """What the reports say ran (newer harnesses name the collector in use), or None."""
    names = sorted({str(m["collector"]) for m in machines if m.get("collector")})
    return ", ".join(names) if names else None


def one_jvm_ratios(path, head_first):
    """HEAD / BASE per benchmark from one JVM's BuildsInOneJvm table (its columns: benchmark, first, second)."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if len(cols) != 4 or cols[0] == "benchmark":
                continue
            first, second = float(cols[1]), float(cols[2])
            if first > 0 and second > 0:
                out[cols[0]] = first / second if head_first else second / first
    return out


def print_table(order, ratios, unit):
    print(f"ratio = HEAD / BASE of Switchboard's median time per {unit[:-1]}: below 1 = HEAD faster, above 1 = HEAD"
          " slower")
    print()
    print(f"{'benchmark':<28} {'median':>8} {'min':>8} {'max':>8} {unit:>7}  verdict")
    for name in order:
        rs = ratios.get(name, [])
        if not rs:
            print(f"{name:<28} {'-':>8} {'-':>8} {'-':>8} {0:>7}  no {unit[:-1]} with a verified result on both builds")
            continue
        m = statistics.median(rs)
        if m < 1:
            verdict = f"HEAD {100 * (1 - m):.1f}% faster"
        elif m > 1:
            verdict = f"HEAD {100 * (m - 1):.1f}% slower"
        else:
            verdict = "the same"
        if min(rs) < 1 < max(rs):
            verdict += f" (the {unit} disagree)"
        print(f"{name:<28} {m:>8.3f} {min(rs):>8.3f} {max(rs):>8.3f} {len(rs):>7}  {verdict}")


def main_one_jvm(argv):
    if len(argv) != 7:
        sys.exit(__doc__)
    results_dir, jvms, base_label, head_label, collector = argv[2], int(argv[3]), argv[4], argv[5], argv[6]
    ratios = {}
    order = []
    for n in range(1, jvms + 1):
        for head_first in (False, True):
            path = os.path.join(results_dir, f"jvm-{n}-{'head' if head_first else 'base'}-first.txt")
            if os.path.exists(path):
                for name, r in one_jvm_ratios(path, head_first).items():
                    if name not in order:
                        order.append(name)
                    ratios.setdefault(name, []).append(r)
    print()
    print(f"BASE {base_label}  vs  HEAD {head_label}: {jvms} JVMs, both builds in each, taking turns; the build"
          " loaded first swapped every JVM")
    print(f"collector: {collector}")
    print_table(order, ratios, "JVMs")
    return 0


def main(argv):
    if len(argv) > 1 and argv[1] == "--one-jvm":
        return main_one_jvm(argv)
    if len(argv) != 6:
        sys.exit(__doc__)
    results_dir, rounds, base_label, head_label, collector = argv[1], int(argv[2]), argv[3], argv[4], argv[5]
    ratios = {}
    order = []
    machines = {"base": [], "head": []}
    for n in range(1, rounds + 1):
        base, base_machine = medians(os.path.join(results_dir, f"round-{n}-base.json"))
        head, head_machine = medians(os.path.join(results_dir, f"round-{n}-head.json"))
        machines["base"].append(base_machine)
        machines["head"].append(head_machine)
        for name in list(base) + list(head):
            if name not in order:
                order.append(name)
        for name in base.keys() & head.keys():
            ratios.setdefault(name, []).append(head[name] / base[name])

    print()
    print(f"BASE {base_label}  vs  HEAD {head_label}: {rounds} rounds, each build in its own JVM, order flipped"
          " every round")
    print(f"collector: {collector}")
    for side in ("base", "head"):
        said = reported_collector(machines[side])
        print(f"  {side.upper()}'s reports: {said if said else 'do not name the collector (an older harness)'}")
    print_table(order, ratios, "rounds")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""The 2D median's speed under each forced GPU policy (bench/gpu/run_policies.sh), side by side:
Gpix/s per policy and its ratio to the device's own, and the own policy's ratio to a baseline
run of the same benchmark (bench/results/, same machine kind), which says what the policies'
checks cost.

    python3 bench/gpu/report_policies.py policy-own.json policy-sm_86.json ... [--baseline B.json]
"""
import json
import os
import sys


def load(path):
    return {(r["type"], r.get("data", "images"), r["k"]): r["gpix_per_s"]
            for r in json.load(open(path)) if r["method"] == "fastmedian"}


def main() -> None:
    args = sys.argv[1:]
    baseline = None
    if "--baseline" in args:
        i = args.index("--baseline")
        baseline = load(args[i + 1])
        del args[i:i + 2]
    runs = {os.path.basename(p)[len("policy-"):-len(".json")]: load(p) for p in args}
    names = ["own"] + sorted(n for n in runs if n != "own")
    own = runs["own"]
    head = "| type | data | k | own | " + (" own / baseline |" if baseline else "") + \
        "".join(f" {n} | {n} / own |" for n in names[1:])
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    worst = 1e9
    for key in sorted(own, key=lambda t: (t[0], t[1], t[2])):
        row = f"| {key[0]} | {key[1]} | {key[2]} | {own[key]:.4g} |"
        if baseline:
            b = baseline.get(key)
            row += f" {own[key] / b:.3f} |" if b else " - |"
            if b:
                worst = min(worst, own[key] / b)
        for n in names[1:]:
            v = runs[n].get(key)
            row += f" {v:.4g} | {v / own[key]:.2f} |" if v else " - | - |"
        print(row)
    if baseline:
        print(f"\nOwn policy against the baseline, lowest ratio: {worst:.3f}")


if __name__ == "__main__":
    main()

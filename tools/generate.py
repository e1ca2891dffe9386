#!/usr/bin/env python3
"""Runs the code generators (tools/generators/): each writes its checked-in files, or with
--check fails unless they hold what it writes today (CTest's generated.* tests).

    python3 tools/generate.py all [--check]
    python3 tools/generate.py NAME [--check] [NAME's own options]
"""
import importlib
import sys

from generators import GENERATORS


def main(argv):
    if not argv or argv[0] not in GENERATORS + ["all"]:
        sys.exit(f"usage: python3 tools/generate.py {{all|{'|'.join(GENERATORS)}}} [--check] [options]")
    name, args = argv[0], [a for a in argv[1:] if a != "--check"]
    check = "--check" in argv[1:]
    if name == "all" and args:
        sys.exit("generate.py all takes only --check")
    for generator in GENERATORS if name == "all" else [name]:
        importlib.import_module(f"generators.{generator}").main(args, check)


if __name__ == "__main__":
    main(sys.argv[1:])

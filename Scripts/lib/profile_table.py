#!/usr/bin/env python3
"""Print Scripts/profile-convert.sh's tables: the top functions of one profile, demangled, optionally beside an
earlier profile's figures.

usage: profile_table.py callgrind CALLGRIND_OUT [--before TSV] [--save TSV] [--top N]
       profile_table.py perf PERF_DATA [--save TSV] [--top N]

callgrind: reads `callgrind_annotate --inclusive=yes|no` of CALLGRIND_OUT; costs are instructions executed (Ir),
  which do not depend on the machine's load, so two profiles of the same input compare exactly.
perf: reads `perf report --children|--no-children` of PERF_DATA; costs are shares of the wall-clock samples.
--save writes every function's self and inclusive cost as TSV (function, object, self, inclusive, total);
--before reads such a TSV from an earlier run and adds before -> after columns. Names are demangled with
`swift demangle --simplified`. Start-up frames every program has (_start, __libc_start_main, main, vcf_main,
runVCF) are left out of the inclusive table, as they always hold 100%.
"""
import argparse
import re
import subprocess
import sys

STARTUP = re.compile(r"^(0x[0-9a-f]+|\(below main\)|_start|__libc_start_main.*|__libc_start_call_main|main|vcf_main"
                     r"|runVCF\(\)|(specialized )?static VCF\.run\(_:io:\))$")
CALLGRIND_LINE = re.compile(r"^\s*([0-9,]+)\s+\(\s*([0-9.]+)%\)\s+(.*?)(?:\s+\[(.*)\])?\s*$")


def demangle(names):
    """Demangled, simplified names, in order (the names unchanged if swift demangle is not there)."""
    if not names:
        return []
    try:
        done = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names) + "\n",
                              capture_output=True, text=True, check=True).stdout.split("\n")
        return done[:len(names)] if len(done) >= len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names


def callgrind(path, inclusive):
    """{(function, object): Ir} and the total, from callgrind_annotate."""
    text = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100",
                           path], capture_output=True, text=True, check=True).stdout
    costs, total = {}, 0
    for line in text.splitlines():
        found = CALLGRIND_LINE.match(line)
        if not found:
            continue
        cost, _, name, obj = found.groups()
        cost = int(cost.replace(",", ""))
        if name == "PROGRAM TOTALS":
            total = cost
            continue
        name = name.split(":", 1)[1] if ":" in name else name  # drop "file:" (or "???:")
        costs[(name, (obj or "?").rsplit("/", 1)[-1])] = cost
    return costs, total


def perf(path, inclusive):
    """{(function, object): per mille of samples}, from perf report."""
    mode = "--children" if inclusive else "--no-children"
    text = subprocess.run(["perf", "report", "-i", path, "--stdio", mode, "--sort", "dso,symbol", "-g", "none",
                           "--percent-limit", "0.05"], capture_output=True, text=True).stdout
    costs = {}
    for line in text.splitlines():
        found = re.match(r"^\s*([0-9.]+)%\s+(?:([0-9.]+)%\s+)?(\S+)\s+\[[.k]\]\s+(.*?)\s*(?:-\s+-\s*)?$", line)
        if found:
            first, _, obj, name = found.groups()
            costs[(name, obj)] = float(first) * 10
    return costs, 1000


def load_before(path):
    before, total = {}, 0
    with open(path, encoding="utf-8") as f:
        for line in f:
            name, obj, self_cost, incl, whole = line.rstrip("\n").split("\t")
            before[(name, obj)] = (float(self_cost), float(incl))
            total = float(whole)
    return before, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", choices=["callgrind", "perf"])
    ap.add_argument("path")
    ap.add_argument("--before", default="")
    ap.add_argument("--save", default="")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()

    read = callgrind if args.kind == "callgrind" else perf
    self_costs, total = read(args.path, False)
    incl_costs, incl_total = read(args.path, True)
    total = total or incl_total
    keys = sorted(set(self_costs) | set(incl_costs))
    names = dict(zip(keys, demangle([k[0] for k in keys])))
    before, before_total = load_before(args.before) if args.before else ({}, 0)

    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            for key in keys:
                f.write(f"{key[0]}\t{key[1]}\t{self_costs.get(key, 0)}\t{incl_costs.get(key, 0)}\t{total}\n")

    unit = "instructions executed (Ir)" if args.kind == "callgrind" else "share of the wall-clock samples"
    if args.kind == "callgrind":
        line = f"Total: **{total:,} instructions** (Ir)"
        if before_total:
            line += f"; before: {before_total:,.0f} ({(total - before_total) / before_total * 100:+.1f}%)"
        print(line + ".")
        print()

    for title, costs, column in (("inclusive cost (the function and everything it calls)", incl_costs, 1),
                                 ("self cost (the function's own code)", self_costs, 0)):
        ranked = [k for k in sorted(costs, key=lambda k: -costs[k])
                  if not (column == 1 and STARTUP.match(names[k]))][:args.top]
        print(f"Top {len(ranked)} by {title}, {unit}:")
        print()
        cost_column = " Ir |" if args.kind == "callgrind" else ""
        print("| # | function | object |" + cost_column + " share |" + (" before | change |" if before else ""))
        print("| ---: | --- | --- |" + (" ---: |" if cost_column else "") + " ---: |"
              + (" ---: | ---: |" if before else ""))
        for i, key in enumerate(ranked, 1):
            name = names[key].replace("|", "\\|")
            if len(name) > 140:
                name = name[:137] + "..."
            cost = costs[key]
            share = cost / total * 100 if total else 0
            shown = f" {cost:,.0f} |" if args.kind == "callgrind" else ""
            row = f"| {i} | `{name}` | {key[1]} |{shown} {share:.1f}% |"
            if before:
                old = before.get(key, (None, None))[column]
                row += (f" {old:,.0f} | {(cost - old) / old * 100:+.1f}% |" if old else " — | new |")
            print(row)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

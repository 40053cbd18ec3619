#!/usr/bin/env bash
# Measures `vcf merge` of 10,000 incoming cards into a 100,000-card book beside the time to parse and write
# the same two files.
#
# usage: Scripts/merge-bench.sh
#
# Builds vcf and vcf-bench in release mode, makes .bench/book-100k.vcf with the shared generator and
# .bench/incoming-10k-for-100k.vcf with Scripts/make-merge-bench.py (2,000 re-exported duplicates of existing
# cards, 8,000 new people), once each, then runs RUNS interleaved rounds of
#   vcf merge incoming-10k-for-100k.vcf --into COPY-OF-book-100k.vcf --country-code 1   (a process, wall time)
#   vcf-bench parse-write book-100k.vcf + vcf-bench parse-write incoming (in-process work, summed)
# each under /usr/bin/time for peak RSS, and prints a Markdown table of medians with the ratio
# merge / (parse + write). The copy is made before the clock starts. Raw runs go to .bench/merge-last-run.tsv
# (columns: Scripts/lib/bench-common.sh).
#
# Environment:
#   RUNS=5              rounds (medians are taken over them)
#   VCF_BIN_DIR=DIR     use DIR's vcf and vcf-bench and skip the build
#   VCF_SHARED=DIR      the shared folder (default: ../shared beside the repository)
#   PYTHON=python3
# Exit status: 0 done; 1 a run failed; 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

BENCH_NAME=merge-bench
# shellcheck source=Scripts/lib/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench-common.sh"
bench_args "$0" "$@"
RUNS=${RUNS:-5}
BOOK=$BENCH_DIR/book-100k.vcf
INCOMING=$BENCH_DIR/incoming-10k-for-100k.vcf
RAW=$BENCH_DIR/merge-last-run.tsv

bench_need time corpus
bench_require
bench_build vcf vcf-bench
bench_make_book "$BOOK" 100000
bench_make_incoming "$BOOK" "$INCOMING" 10000 2000

bench_tmpdir
trap 'rm -rf "$BENCH_TMP"' EXIT
: > "$BENCH_TMP/runs.tsv"
for round in $(seq 1 "$RUNS"); do
  BENCH_ROUND=$round
  say "merge-bench: round $round/$RUNS"
  bench_merge_round "$BENCH_TMP/runs.tsv" "$BOOK" "$INCOMING"
done
cp "$BENCH_TMP/runs.tsv" "$RAW"
grep -E "[0-9]+ added, " "$BENCH_TMP/merge.err" | tail -n 1 | sed "s/^/last merge: /" >&2

"$PYTHON" - "$RAW" "$RUNS" <<'PY'
import json, statistics, sys
merge, pw = {}, {}
for line in open(sys.argv[1], encoding="utf-8"):
    round_, tool, mode, _, rss_kib, wall, payload = line.rstrip("\n").split("\t", 6)
    if tool != "merge":
        continue
    if mode == "merge":
        merge[round_] = (float(wall), int(rss_kib))
    else:  # parse-write of the book and of the incoming file: summed seconds, the larger peak
        seconds, rss = pw.get(round_, (0.0, 0))
        pw[round_] = (seconds + json.loads(payload)["seconds"], max(rss, int(rss_kib)))
def med(rows, i):
    return statistics.median(r[i] for r in rows.values())
m, p = med(merge, 0), med(pw, 0)
print(f"| step (medians of {sys.argv[2]} runs) | seconds | peak RSS MB |")
print("|---|---|---|")
print(f"| vcf merge 10,000 into 100,000 (process, wall) | {m:.2f} | {med(merge, 1) / 1024:.0f} |")
print(f"| parse + write both files (vcf-bench, all processors) | {p:.2f} | {med(pw, 1) / 1024:.0f} |")
print(f"\nmerge / (parse + write) = {m / p:.2f}")
PY

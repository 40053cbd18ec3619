#!/usr/bin/env bash
# Measures `vcf merge` of 10,000 incoming cards into a 100,000-card book beside the time to parse and write
# the same two files.
#
# usage: Scripts/merge-bench.sh
#
# Builds vcf and vcf-bench in release mode, makes .bench/book-100k.vcf with the shared generator and
# .bench/incoming-10k.vcf with Scripts/make-merge-bench.py (2,000 re-exported duplicates of existing cards,
# 8,000 new people), once each, then runs RUNS interleaved rounds of
#   vcf merge incoming-10k.vcf --into COPY-OF-book-100k.vcf --country-code 1   (a process, wall time)
#   vcf-bench parse-write book-100k.vcf + vcf-bench parse-write incoming-10k.vcf (in-process work, summed)
# each under /usr/bin/time for peak RSS, and prints a Markdown table of medians with the ratio
# merge / (parse + write). The copy is made before the clock starts. Raw runs go to .bench/merge-last-run.tsv.
#
# Environment:
#   RUNS=5              rounds (medians are taken over them)
#   VCF_SHARED=DIR      the shared folder (default: ../shared beside the repository)
#   PYTHON=python3
# Exit status: 0 done; 1 a run failed; 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${VCF_SHARED:-$ROOT/../shared}
RUNS=${RUNS:-5}
PYTHON=${PYTHON:-python3}
BENCH_DIR=$ROOT/.bench
BOOK=$BENCH_DIR/book-100k.vcf
INCOMING=$BENCH_DIR/incoming-10k.vcf
RAW=$BENCH_DIR/merge-last-run.tsv

case ${1:-} in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "merge-bench: no arguments expected (see --help)" >&2; exit 64 ;;
esac
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "merge-bench: RUNS must be a positive integer" >&2; exit 64; }
say() { printf '%s\n' "$*" >&2; }
die() { local code=$1; shift; say "merge-bench: $*"; exit "$code"; }

[ -x /usr/bin/time ] || die 2 "/usr/bin/time is missing: apt-get update && apt-get install -y time"
[ -f "$SHARED/bench/gen_corpus.py" ] || die 2 "no $SHARED/bench/gen_corpus.py (set VCF_SHARED)"

say "building release..."
(cd "$ROOT" && swift build -c release --product vcf >&2 && swift build -c release --product vcf-bench >&2)
BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)
mkdir -p "$BENCH_DIR"
[ -f "$BOOK" ] || "$PYTHON" "$SHARED/bench/gen_corpus.py" "$BOOK" 100000 >&2
[ -f "$INCOMING" ] || "$PYTHON" "$ROOT/Scripts/make-merge-bench.py" "$BOOK" "$SHARED/bench/gen_corpus.py" "$INCOMING" >&2

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
printf 'round\ttool\tseconds\tpeak_kb\n' > "$RAW"
for round in $(seq 1 "$RUNS"); do
  cp "$BOOK" "$WORK/contacts.vcf"
  /usr/bin/time -f '%e %M' -o "$WORK/time" "$BIN/vcf" merge "$INCOMING" --into "$WORK/contacts.vcf" \
    --country-code 1 2> "$WORK/merge.err" || { cat "$WORK/merge.err" >&2; die 1 "vcf merge failed"; }
  read -r seconds kb < "$WORK/time"
  printf '%s\tmerge\t%s\t%s\n' "$round" "$seconds" "$kb" >> "$RAW"
  total=0; peak=0
  for file in "$BOOK" "$INCOMING"; do
    json=$(/usr/bin/time -f '%M' -o "$WORK/time" "$BIN/vcf-bench" parse-write "$file") || die 1 "vcf-bench failed"
    s=$("$PYTHON" -c 'import json,sys; print(json.loads(sys.argv[1])["seconds"])' "$json")
    total=$("$PYTHON" -c "print($total + $s)")
    kb=$(cat "$WORK/time"); [ "$kb" -gt "$peak" ] && peak=$kb
  done
  printf '%s\tparse+write\t%s\t%s\n' "$round" "$total" "$peak" >> "$RAW"
  say "round $round: merge ${seconds}s, parse+write ${total}s"
done
tail -1 "$WORK/merge.err" | sed 's/^/last merge: /' >&2

"$PYTHON" - "$RAW" "$RUNS" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
def med(tool, field):
    return statistics.median(float(r[field]) for r in rows if r["tool"] == tool)
merge, pw = med("merge", "seconds"), med("parse+write", "seconds")
print(f"| step (medians of {sys.argv[2]} runs) | seconds | peak RSS MB |")
print("|---|---|---|")
print(f"| vcf merge 10,000 into 100,000 (process, wall) | {merge:.2f} | {med('merge', 'peak_kb') / 1024:.0f} |")
print(f"| parse + write both files (vcf-bench, 2 threads) | {pw:.2f} | {med('parse+write', 'peak_kb') / 1024:.0f} |")
print(f"\nmerge / (parse + write) = {merge / pw:.2f}")
EOF

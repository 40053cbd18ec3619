#!/usr/bin/env bash
# Measures vCard parse and parse+write throughput of vcf-bench against sabre/vobject.
#
# usage: Scripts/bench.sh
#
# Builds vcf-bench in release mode, makes .bench/book-100k.vcf with the shared generator (once),
# then runs RUNS interleaved rounds of
#   vcf-bench parse|parse-write FILE            (ParallelCardReader, one worker per processor)
#   vcf-bench parse|parse-write FILE --jobs 1   (the same work on one thread: "vcf-1-thread")
#   php Scripts/peers/sabre_bench.php FILE parse|parse-write
# each under /usr/bin/time for peak RSS, and prints a Markdown table of medians. Then the
# streaming check: vcf-bench parse over a >= 1 GB file (the book repeated), once.
# The report goes to stdout; progress and build output to stderr. Raw runs are kept in
# .bench/last-run.tsv (columns: Scripts/lib/bench-common.sh). .bench/ holds generated data only: keep it
# out of git.
#
# Environment:
#   RUNS=5              rounds per tool and mode (medians are taken over them)
#   BIG=1               run the 1 GB streaming check (BIG=0 skips it)
#   KEEP=0              keep .bench/book-1g.vcf afterwards (KEEP=1)
#   PYVOBJECT=0         also time Python vobject on a 5,000-card book (PYVOBJECT=1)
#   VCF_BENCH_BIN=PATH  use this vcf-bench and skip the build
#   VCF_BIN_DIR=DIR     use DIR/vcf-bench and skip the build
#   VCF_SHARED=DIR      the shared folder (default: ../shared beside the repository)
#   PHP=php PYTHON=python3
# Exit status: 0 done; 1 a run failed; 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

BENCH_NAME=bench
# shellcheck source=Scripts/lib/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench-common.sh"
bench_args "$0" "$@"
RUNS=${RUNS:-5}
BIG=${BIG:-1}
KEEP=${KEEP:-0}
PYVOBJECT=${PYVOBJECT:-0}
BOOK=$BENCH_DIR/book-100k.vcf
BIG_BOOK=$BENCH_DIR/book-1g.vcf
SMALL_BOOK=$BENCH_DIR/book-5k.vcf
BIG_BYTES=1000000000

# --- tools -----------------------------------------------------------------------------------
bench_need time sabre corpus
[ "$PYVOBJECT" = 1 ] && bench_need vobject
bench_require

if [ -n "${VCF_BENCH_BIN:-}" ]; then
  BIN=$VCF_BENCH_BIN
  say "bench: using VCF_BENCH_BIN=$BIN (no build)"
  [ -x "$BIN" ] || die 2 "no executable vcf-bench at $BIN"
else
  bench_build vcf-bench
  BIN=$BIN_DIR/vcf-bench
fi

# --- inputs ----------------------------------------------------------------------------------
bench_make_book "$BOOK" 100000
[ "$PYVOBJECT" = 1 ] && bench_make_book "$SMALL_BOOK" 5000

bench_tmpdir
# shellcheck disable=SC2317 # called by the trap
cleanup() {
  rm -rf "$BENCH_TMP"
  if [ "$KEEP" != 1 ]; then rm -f "$BIG_BOOK" "$BIG_BOOK.part"; fi
}
trap cleanup EXIT
results=$BENCH_TMP/runs.tsv
: > "$results"

# --- report header ---------------------------------------------------------------------------
bench_header "vCard parse benchmark"
echo "- peers: $(bench_version sabre)$([ "$PYVOBJECT" = 1 ] && echo ", $(bench_version vobject)")"
echo "- input: $(basename "$BOOK"), $(stat -c %s "$BOOK") bytes; $RUNS interleaved rounds"
echo

# --- rounds ----------------------------------------------------------------------------------
for round in $(seq 1 "$RUNS"); do
  BENCH_ROUND=$round
  say "bench: round $round/$RUNS"
  for mode in parse parse-write; do
    bench_timed "$results" vcf "$mode" "$BOOK" "$BIN" "$mode" "$BOOK"
    bench_timed "$results" vcf-1-thread "$mode" "$BOOK" "$BIN" "$mode" "$BOOK" --jobs 1
    bench_timed "$results" sabre "$mode" "$BOOK" "$PHP" "$ROOT/Scripts/peers/sabre_bench.php" "$BOOK" "$mode"
  done
  if [ "$PYVOBJECT" = 1 ]; then
    for mode in parse parse-write; do
      bench_timed "$results" vobject "$mode" "$SMALL_BOOK" "$PYTHON" "$ROOT/Scripts/peers/vobject_bench.py" "$SMALL_BOOK" "$mode"
    done
  fi
done
cp "$results" "$BENCH_DIR/last-run.tsv"

# --- table -----------------------------------------------------------------------------------
"$PYTHON" - "$results" <<'PY'
import json
import statistics
import sys

runs = {}
for line in open(sys.argv[1], encoding="utf-8"):
    _, tool, mode, file, rss_kib, _, payload = line.rstrip("\n").split("\t", 6)
    data = json.loads(payload)
    runs.setdefault((tool, mode, file), []).append((float(data["seconds"]), int(data["bytes"]),
                                                     int(data["cards"]), int(rss_kib)))

rows = {}
for key, samples in runs.items():
    seconds = statistics.median(s for s, _, _, _ in samples)
    size = samples[0][1]
    rows[key] = {
        "seconds": seconds,
        "mbps": size / 1e6 / seconds if seconds > 0 else float("inf"),
        "rss_mb": statistics.median(r for _, _, _, r in samples) * 1024 / 1e6,
        "cards": {c for _, _, c, _ in samples},
        "spread": (min(s for s, *_ in samples), max(s for s, *_ in samples)),
    }

sabre = {mode: row["mbps"] for (tool, mode, _), row in rows.items() if tool == "sabre"}
order = {"vcf": 0, "vcf-1-thread": 1, "sabre": 2, "vobject": 3}
print("| tool | mode | median s | MB/s | peak RSS MB | ratio to sabre |")
print("| --- | --- | ---: | ---: | ---: | ---: |")
for (tool, mode, file), row in sorted(rows.items(), key=lambda kv: (order.get(kv[0][0], 9), kv[0][1])):
    ratio = row["mbps"] / sabre[mode] if mode in sabre else float("nan")
    label = tool if file.startswith("book-100k") else f"{tool} ({file})"
    print(f"| {label} | {mode} | {row['seconds']:.3f} | {row['mbps']:.1f} | {row['rss_mb']:.1f} | {ratio:.2f} |")
print()
print("MB = 10^6 bytes. ratio to sabre = the tool's MB/s over sabre's MB/s in the same mode "
      "(above 1: faster than sabre). Medians over all rounds; min-max seconds:")
for (tool, mode, file), row in sorted(rows.items()):
    low, high = row["spread"]
    print(f"- {tool} {mode} {file}: {low:.3f}-{high:.3f} s")

# Every tool should see the same number of cards in the same file.
problems = []
by_file = {}
for (tool, mode, file), row in rows.items():
    if len(row["cards"]) != 1:
        problems.append(f"{tool} {mode} {file}: card count changed between rounds {sorted(row['cards'])}")
    by_file.setdefault(file, {})[f"{tool} {mode}"] = min(row["cards"])
for file, counts in by_file.items():
    if len(set(counts.values())) > 1:
        problems.append(f"{file}: card counts differ: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
if problems:
    print()
    for problem in problems:
        print(f"**warning**: {problem}")
PY

# --- streaming check -------------------------------------------------------------------------
if [ "$BIG" != 0 ]; then
  echo
  echo "## Streaming check"
  echo
  if [ ! -f "$BIG_BOOK" ] || [ "$(stat -c %s "$BIG_BOOK")" -lt $BIG_BYTES ]; then
    book_bytes=$(stat -c %s "$BOOK")
    free=$(( $(df -P -k "$BENCH_DIR" | awk 'NR == 2 {print $4}') * 1024 ))
    [ "$free" -gt $(( BIG_BYTES + 2 * book_bytes )) ] || die 2 "not enough disk for $BIG_BOOK (BIG=0 skips it)"
    say "bench: building $BIG_BOOK"
    # The book ends with CRLF, so copies concatenate into a valid multi-card file.
    : > "$BIG_BOOK.part"
    while [ "$(stat -c %s "$BIG_BOOK.part")" -lt $BIG_BYTES ]; do cat "$BOOK" >> "$BIG_BOOK.part"; done
    mv "$BIG_BOOK.part" "$BIG_BOOK"
  fi
  : > "$results"
  bench_timed "$results" vcf parse "$BIG_BOOK" "$BIN" parse "$BIG_BOOK"
  "$PYTHON" - "$results" "$BENCH_DIR/last-run.tsv" <<'PY'
import json
import statistics
import sys

_, tool, mode, file, rss_kib, _, payload = open(sys.argv[1]).read().rstrip("\n").split("\t", 6)
data = json.loads(payload)
rss_mb = int(rss_kib) * 1024 / 1e6
mbps = data["bytes"] / 1e6 / data["seconds"]
small = [int(fields[4]) for fields in (line.split("\t") for line in open(sys.argv[2]))
         if fields[1:3] == ["vcf", "parse"]]
print(f"vcf parse {file}: {data['bytes']} bytes, {data['cards']} cards, {data['seconds']:.3f} s, "
      f"**{mbps:.1f} MB/s**, peak RSS **{rss_mb:.1f} MB**")
if small:
    small_mb = statistics.median(small) * 1024 / 1e6
    print(f"(peak RSS on the 100k book: {small_mb:.1f} MB; ratio {rss_mb / small_mb:.2f}: "
          "near 1 means memory does not grow with the input)")
PY
  [ "$KEEP" = 1 ] && echo "(kept $BIG_BOOK)"
fi
exit 0

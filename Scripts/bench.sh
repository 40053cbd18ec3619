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
# .bench/last-run.tsv. .bench/ holds generated data only: keep it out of git.
#
# Environment:
#   RUNS=5              rounds per tool and mode (medians are taken over them)
#   BIG=1               run the 1 GB streaming check (BIG=0 skips it)
#   KEEP=0              keep .bench/book-1g.vcf afterwards (KEEP=1)
#   PYVOBJECT=0         also time Python vobject on a 5,000-card book (PYVOBJECT=1)
#   VCF_BENCH_BIN=PATH  use this vcf-bench and skip the build
#   VCF_SHARED=DIR      the shared folder (default: ../shared beside the repository)
#   PHP=php PYTHON=python3
# Exit status: 0 done; 1 a run failed; 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SHARED=${VCF_SHARED:-$ROOT/../shared}
RUNS=${RUNS:-5}
BIG=${BIG:-1}
KEEP=${KEEP:-0}
PYVOBJECT=${PYVOBJECT:-0}
PHP=${PHP:-php}
PYTHON=${PYTHON:-python3}
BENCH_DIR=$ROOT/.bench
BOOK=$BENCH_DIR/book-100k.vcf
BIG_BOOK=$BENCH_DIR/book-1g.vcf
SMALL_BOOK=$BENCH_DIR/book-5k.vcf
BIG_BYTES=1000000000

case ${1:-} in
  -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
  "") ;;
  *) echo "bench: no arguments expected (see --help)" >&2; exit 64 ;;
esac
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "bench: RUNS must be a positive integer" >&2; exit 64; }

say() { printf '%s\n' "$*" >&2; }
die() { local code=$1; shift; say "bench: $*"; exit "$code"; }

# --- tools -----------------------------------------------------------------------------------
[ -x /usr/bin/time ] || die 2 "/usr/bin/time is missing: apt-get update && apt-get install -y time"
# shellcheck disable=SC2016 # $argv is PHP's
if ! command -v "$PHP" >/dev/null 2>&1 ||
   ! "$PHP" -r 'require $argv[1]; sabre_load();' "$ROOT/Scripts/peers/sabre_load.php" >/dev/null 2>&1; then
  die 2 "PHP with sabre/vobject is missing: apt-get update && apt-get install -y php-cli php-sabre-vobject"
fi
[ -f "$SHARED/bench/gen_corpus.py" ] || die 2 "no $SHARED/bench/gen_corpus.py (set VCF_SHARED)"
if [ "$PYVOBJECT" = 1 ] && ! "$PYTHON" -c 'import vobject' 2>/dev/null; then
  die 2 "Python vobject is missing: $PYTHON -m pip install vobject"
fi

if [ -n "${VCF_BENCH_BIN:-}" ]; then
  BIN=$VCF_BENCH_BIN
  say "bench: using VCF_BENCH_BIN=$BIN (no build)"
else
  say "bench: swift build -c release --product vcf-bench"
  (cd "$ROOT" && swift build -c release --product vcf-bench) >&2
  BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/vcf-bench
fi
[ -x "$BIN" ] || die 2 "no executable vcf-bench at $BIN"

# --- inputs ----------------------------------------------------------------------------------
mkdir -p "$BENCH_DIR"
make_book() { # make_book FILE COUNT: the generator's default seed; written aside, then renamed
  [ -s "$1" ] && return
  say "bench: generating $1 ($2 cards)"
  "$PYTHON" "$SHARED/bench/gen_corpus.py" "$1.part" "$2" >&2
  mv "$1.part" "$1"
}
make_book "$BOOK" 100000
[ "$PYVOBJECT" = 1 ] && make_book "$SMALL_BOOK" 5000

tmp=$(mktemp -d)
# shellcheck disable=SC2317 # called by the trap
cleanup() {
  rm -rf "$tmp"
  if [ "$KEEP" != 1 ]; then rm -f "$BIG_BOOK" "$BIG_BOOK.part"; fi
}
trap cleanup EXIT
results=$tmp/runs.tsv
: > "$results"

# run TOOL MODE FILE COMMAND...: one timed run, appended to $results as
# tool, mode, file, peak RSS KiB, the tool's JSON line.
run() {
  local tool=$1 mode=$2 file=$3; shift 3
  if ! /usr/bin/time -f '%M' -o "$tmp/rss" "$@" > "$tmp/out" 2> "$tmp/err"; then
    say "bench: failed: $*"
    sed 's/^/  /' "$tmp/err" "$tmp/rss" >&2
    exit 1
  fi
  local json rss
  json=$(grep '^{' "$tmp/out" | tail -n 1 || true)
  rss=$(tail -n 1 "$tmp/rss")
  if [ -z "$json" ] || ! [[ $rss =~ ^[0-9]+$ ]]; then
    say "bench: no JSON line or RSS from: $*"
    sed 's/^/  /' "$tmp/out" "$tmp/err" >&2
    exit 1
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$mode" "$(basename "$file")" "$rss" "$json" >> "$results"
  say "  $tool $mode $(basename "$file"): $json rss=${rss}KiB"
}

# --- report header ---------------------------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
echo "# vCard parse benchmark"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "- machine: $(nproc) cores, ${cpu:-unknown CPU}, $(awk '/MemTotal/ {printf "%.1f GB RAM", $2/1048576}' /proc/meminfo), Linux $(uname -r)"
if commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null); then
  git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit (with local changes)"
else
  commit="none yet"
fi
echo "- commit: $commit"
echo "- swift: $(swift --version 2>/dev/null | head -n 1 || echo unknown)"
# shellcheck disable=SC2016 # $argv is PHP's
echo "- peers: sabre/vobject $("$PHP" -r 'require $argv[1]; sabre_load(); echo sabre_version();' "$ROOT/Scripts/peers/sabre_load.php") on PHP $("$PHP" -r 'echo PHP_VERSION;')$(
  [ "$PYVOBJECT" = 1 ] && echo ", Python vobject $("$PYTHON" -c 'import importlib.metadata as m; print(m.version("vobject"))' 2>/dev/null || echo '?')")"
echo "- input: $(basename "$BOOK"), $(stat -c %s "$BOOK") bytes; $RUNS interleaved rounds"
echo

# --- rounds ----------------------------------------------------------------------------------
for round in $(seq 1 "$RUNS"); do
  say "bench: round $round/$RUNS"
  for mode in parse parse-write; do
    run vcf "$mode" "$BOOK" "$BIN" "$mode" "$BOOK"
    run vcf-1-thread "$mode" "$BOOK" "$BIN" "$mode" "$BOOK" --jobs 1
    run sabre "$mode" "$BOOK" "$PHP" "$ROOT/Scripts/peers/sabre_bench.php" "$BOOK" "$mode"
  done
  if [ "$PYVOBJECT" = 1 ]; then
    for mode in parse parse-write; do
      run vobject "$mode" "$SMALL_BOOK" "$PYTHON" "$ROOT/Scripts/peers/vobject_bench.py" "$SMALL_BOOK" "$mode"
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
    tool, mode, file, rss_kib, payload = line.rstrip("\n").split("\t", 4)
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
  run vcf parse "$BIG_BOOK" "$BIN" parse "$BIG_BOOK"
  "$PYTHON" - "$results" "$BENCH_DIR/last-run.tsv" <<'PY'
import json
import statistics
import sys

tool, mode, file, rss_kib, payload = open(sys.argv[1]).read().rstrip("\n").split("\t", 4)
data = json.loads(payload)
rss_mb = int(rss_kib) * 1024 / 1e6
mbps = data["bytes"] / 1e6 / data["seconds"]
small = [int(line.split("\t")[3]) for line in open(sys.argv[2])
         if line.startswith("vcf\tparse\t")]
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

#!/usr/bin/env bash
# A repeatable profile of `vcf convert BOOK -o OUT` (or of `vcf dedupe` and `vcf merge`): where the instructions
# go, so speed work can be measured before and after each change.
#
# usage: Scripts/profile-convert.sh > profile.md                   (callgrind on 10,000 cards, about a minute)
#        PROFILE_BEFORE=.bench/profile/callgrind-abc1234.tsv Scripts/profile-convert.sh   (with before -> after)
#        PROFILER=perf Scripts/profile-convert.sh                  (sampling, on the full 100,000-card book)
#        VCF_ARGS="--to json" Scripts/profile-convert.sh           (another output format of convert)
#        VCF_COMMAND=dedupe Scripts/profile-convert.sh             (vcf dedupe of a copy of the book)
#        VCF_COMMAND=merge Scripts/profile-convert.sh              (vcf merge of a tenth as many cards into a copy)
#
# VCF_COMMAND=merge merges the merge benchmark's incoming cards (Scripts/make-merge-bench.py: a tenth of the
# book's count, a fifth of them re-exported duplicates) with --country-code 1, as bench-suite.sh does. Merge and
# dedupe spend much of their time waiting on memory, which instructions do not show: their callgrind profile says
# where the work is, and PROFILER=perf or VCF_PHASES=1 where the time goes.
#
# PROFILER=callgrind (default): runs `valgrind --tool=callgrind vcf convert BOOK -o OUT` on a book of
#   PROFILE_CARDS cards (default 10,000, 11 MB: callgrind runs about 50 times slower than the machine). It counts
#   instructions executed (Ir), which do not change with the machine's load: the same commit and input give the
#   same figures within a fraction of a percent, so a change's effect shows even on a busy shared machine.
#   Valgrind 3.19 cannot read the DWARF 5 debug information Swift 6.3 writes, so the profiled binary is a copy
#   with its debug sections stripped (objcopy --strip-debug); the ELF symbol table still names every function.
# PROFILER=perf: `perf record -F 999 -g` of the same command on BOOK_CARDS cards (default 100,000): shares of
#   wall-clock samples, including the kernel's (page faults, writes). This VM has no hardware counters (`perf
#   stat -e instructions` says "not supported"), so perf samples a timer: good for where time goes at full size,
#   noisy for before/after.
#
# Prints Markdown to stdout: a header (date, commit, command, input), the total instructions (callgrind), and the
# top TOP functions by inclusive cost and by self cost, demangled. Keeps in .bench/profile/: the raw profile
# (callgrind.out-COMMIT, open with callgrind_annotate or kcachegrind; perf.data-COMMIT for perf report) and
# PROFILER-COMMIT.tsv (every function's self and inclusive cost), which PROFILE_BEFORE reads to add before and
# change columns (COMMIT gets "-dirty" with local changes).
#
# Environment:
#   PROFILER=callgrind|perf   PROFILE_CARDS=10000 (callgrind)   BOOK_CARDS=100000 (perf)   TOP=15
#   VCF_COMMAND=convert|dedupe|merge (default convert)
#   VCF_ARGS="..."            extra arguments for the command (default none: for convert, vCard 3.0)
#   PROFILE_BEFORE=TSV        an earlier run's PROFILER-COMMIT.tsv
#   VCF_BIN_DIR=DIR           use DIR's vcf and skip the build     VCF_SHARED=DIR   PYTHON=python3
# Exit status: 0 done; 1 the build or the profiled run failed; 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

BENCH_NAME=profile-convert
# shellcheck source=Scripts/lib/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench-common.sh"
bench_args "$0" "$@"
PROFILER=${PROFILER:-callgrind}
TOP=${TOP:-15}
VCF_ARGS=${VCF_ARGS:-}
VCF_COMMAND=${VCF_COMMAND:-convert}
PROFILE_BEFORE=${PROFILE_BEFORE:-}
case $VCF_COMMAND in
  convert | dedupe | merge) ;;
  *) die 64 "VCF_COMMAND must be convert, dedupe or merge" ;;
esac
case $PROFILER in
  callgrind) CARDS=${PROFILE_CARDS:-10000} ;;
  perf) CARDS=${BOOK_CARDS:-100000} ;;
  *) die 64 "PROFILER must be callgrind or perf" ;;
esac
[[ $CARDS =~ ^[1-9][0-9]*$ ]] || die 64 "the card count must be a positive integer"
[[ $TOP =~ ^[1-9][0-9]*$ ]] || die 64 "TOP must be a positive integer"
[ -z "$PROFILE_BEFORE" ] || [ -f "$PROFILE_BEFORE" ] || die 2 "no $PROFILE_BEFORE"
BOOK=$BENCH_DIR/book-$(bench_count_name "$CARDS").vcf

bench_need corpus "$PROFILER"
bench_require
bench_build vcf
bench_tmpdir
trap 'rm -rf "$BENCH_TMP"' EXIT
bench_make_book "$BOOK" "$CARDS"
if [ "$VCF_COMMAND" = merge ]; then
  INCOMING_CARDS=$(( CARDS / 10 > 0 ? CARDS / 10 : 1 ))
  INCOMING=$BENCH_DIR/incoming-$(bench_count_name "$INCOMING_CARDS")-for-$(bench_count_name "$CARDS").vcf
  bench_make_incoming "$BOOK" "$INCOMING" "$INCOMING_CARDS" $(( INCOMING_CARDS / 5 ))
fi

commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo none)
git -C "$ROOT" diff --quiet HEAD 2>/dev/null || commit="$commit-dirty"
mkdir -p "$BENCH_DIR/profile"
# Convert keeps its old names, so earlier tables still serve as PROFILE_BEFORE.
suffix=$([ "$VCF_COMMAND" = convert ] && echo "$commit" || echo "$VCF_COMMAND-$commit")
raw=$BENCH_DIR/profile/$([ "$PROFILER" = callgrind ] && echo callgrind.out || echo perf.data)-$suffix
table=$BENCH_DIR/profile/$PROFILER-$suffix.tsv
# Merge and dedupe change their file: each works on a copy made for the run.
cp "$BOOK" "$BENCH_TMP/contacts.vcf"
# shellcheck disable=SC2206 # VCF_ARGS holds arguments
case $VCF_COMMAND in
  convert) command=("$BENCH_TMP/vcf" convert "$BOOK" $VCF_ARGS -o "$BENCH_TMP/out")
    shown="vcf convert $(basename "$BOOK") ${VCF_ARGS:+$VCF_ARGS }-o OUT" ;;
  dedupe) command=("$BENCH_TMP/vcf" dedupe "$BENCH_TMP/contacts.vcf" $VCF_ARGS)
    shown="vcf dedupe COPY-OF-$(basename "$BOOK")${VCF_ARGS:+ $VCF_ARGS}" ;;
  merge) command=("$BENCH_TMP/vcf" merge "$INCOMING" --into "$BENCH_TMP/contacts.vcf" --country-code 1 $VCF_ARGS)
    shown="vcf merge $(basename "$INCOMING") --into COPY-OF-$(basename "$BOOK") --country-code 1${VCF_ARGS:+ $VCF_ARGS}" ;;
esac

if [ "$PROFILER" = callgrind ]; then
  objcopy --strip-debug "$BIN_DIR/vcf" "$BENCH_TMP/vcf" || die 1 "objcopy --strip-debug failed"
  say "$BENCH_NAME: valgrind --tool=callgrind $shown"
  valgrind --tool=callgrind --callgrind-out-file="$raw" "${command[@]}" > "$BENCH_TMP/stdout" 2> "$BENCH_TMP/valgrind.err" ||
    { sed 's/^/  /' "$BENCH_TMP/valgrind.err" >&2; die 1 "the profiled run failed"; }
else
  cp "$BIN_DIR/vcf" "$BENCH_TMP/vcf"
  say "$BENCH_NAME: perf record -F 999 -g $shown"
  perf record -F 999 -g -o "$raw" -- "${command[@]}" > "$BENCH_TMP/stdout" 2> "$BENCH_TMP/perf.err" ||
    { sed 's/^/  /' "$BENCH_TMP/perf.err" >&2; die 1 "the profiled run failed"; }
fi

echo "# Profile of vcf $VCF_COMMAND ($PROFILER)"
echo
echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); commit $commit; $(swift --version 2>/dev/null | head -n 1 || echo 'swift ?')"
echo "- command: \`$shown\` ($CARDS cards, $(stat -c %s "$BOOK") bytes), release build"
echo "- raw profile: .bench/profile/$(basename "$raw"); table: .bench/profile/$(basename "$table")${PROFILE_BEFORE:+; before: $PROFILE_BEFORE}"
echo
args=("$PROFILER" "$raw" --save "$table" --top "$TOP")
[ -z "$PROFILE_BEFORE" ] || args+=(--before "$PROFILE_BEFORE")
"$PYTHON" "$ROOT/Scripts/lib/profile_table.py" "${args[@]}"

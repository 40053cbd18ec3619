#!/usr/bin/env bash
# Converts every file of the real-world corpus to vCard 3.0 with our CLI, then asks the peers
# (Scripts/validate-peers.sh: Python vobject and sabre/vobject) whether they accept OUR output.
#
# usage: Scripts/validate-corpus-output.sh [VCF_BIN] [CORPUS_DIR] [OUT_DIR]
#
#   VCF_BIN     the vcf CLI to run            (default: .build/debug/vcf under the repo root)
#   CORPUS_DIR  the corpus, with MANIFEST.tsv (default: <repo root>/../shared/corpus)
#   OUT_DIR     where the 3.0 files go        (default: a new mktemp -d directory, kept)
#
# For each MANIFEST.tsv row (column 3, stored_name, is the path under CORPUS_DIR) this runs
#   VCF_BIN convert CORPUS_DIR/stored_name -o OUT_DIR/<stored_name, / replaced by __>.vcf
# Broken-on-purpose inputs are converted too: vcf exits 1 for them and still writes what it
# recovered. An output with no card is removed and counted as skipped. vcf's stderr goes to
# OUT_DIR/convert.log. Then validate-peers.sh runs over OUT_DIR; its per-file lines and summary
# are printed, followed by
#   ours: files=N cards=N
# (files written and BEGIN:VCARD lines in them). Environment: VALIDATE_PEERS_OPTS, e.g. -v, is
# passed to validate-peers.sh; VCF_TIMEOUT (seconds, default 60) bounds each conversion.
# Exit status: validate-peers.sh's (0 clean, 1 a peer rejected our output, 2 a peer is missing);
# 2 also when VCF_BIN or the manifest is missing; 64 on bad usage.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 64; }
case ${1:-} in -h|--help) usage ;; esac
[ $# -le 3 ] || usage

vcf_bin=${1:-$ROOT/.build/debug/vcf}
corpus=${2:-$ROOT/../shared/corpus}
out=${3:-}
if [ -z "$out" ]; then
  out=$(mktemp -d "${TMPDIR:-/tmp}/vcf-corpus-output.XXXXXX")
fi

if [ ! -x "$vcf_bin" ]; then
  echo "validate-corpus-output: no executable vcf at $vcf_bin (build it with: swift build)" >&2
  exit 2
fi
manifest=$corpus/MANIFEST.tsv
if [ ! -f "$manifest" ]; then
  echo "validate-corpus-output: no MANIFEST.tsv in $corpus" >&2
  exit 2
fi
mkdir -p "$out"
if find "$out" -maxdepth 1 -type f -iname '*.vcf' -print -quit | grep -q .; then
  echo "validate-corpus-output: $out already holds .vcf files; give an empty OUT_DIR" >&2
  exit 64
fi

timeout_cmd=()
if command -v timeout >/dev/null 2>&1; then timeout_cmd=(timeout "${VCF_TIMEOUT:-60}"); fi

log=$out/convert.log
: > "$log"
files=0 cards=0 listed=0 skipped=0 had_errors=0 failed=0
# Column 3 of every row after the header; rows are tab-separated.
while IFS= read -r stored; do
  [ -n "$stored" ] || continue
  listed=$((listed + 1))
  input=$corpus/$stored
  output=$out/${stored//\//__}.vcf
  if [ ! -f "$input" ]; then
    echo "validate-corpus-output: listed but missing: $stored" >&2
    failed=$((failed + 1))
    continue
  fi
  status=0
  echo "== $stored" >> "$log"
  ${timeout_cmd[@]+"${timeout_cmd[@]}"} "$vcf_bin" convert "$input" -o "$output" \
    < /dev/null >> "$log" 2>&1 || status=$?
  case $status in
    0) ;;
    1) had_errors=$((had_errors + 1)) ;;
    *) echo "validate-corpus-output: vcf exited $status on $stored (see $log)" >&2
       failed=$((failed + 1)) ;;
  esac
  n=0
  if [ -f "$output" ]; then
    n=$(grep -c -i -E '^BEGIN:VCARD'$'\r''?$' "$output" || true)
  fi
  if [ "$n" -eq 0 ]; then
    rm -f "$output"
    skipped=$((skipped + 1))
    continue
  fi
  files=$((files + 1))
  cards=$((cards + n))
done < <(tail -n +2 "$manifest" | cut -f3)

echo "validate-corpus-output: $listed listed, $files written to $out, $skipped skipped (no cards)," \
     "vcf exit 1 (input errors) on $had_errors, failed on $failed" >&2

peers_status=0
if [ "$files" -gt 0 ]; then
  # shellcheck disable=SC2086 # options are meant to split
  "$ROOT/Scripts/validate-peers.sh" ${VALIDATE_PEERS_OPTS:-} "$out" || peers_status=$?
else
  echo "validate-corpus-output: nothing to validate" >&2
  peers_status=2
fi
echo "ours: files=$files cards=$cards"
exit $peers_status

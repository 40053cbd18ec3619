#!/usr/bin/env bash
# Reads vCard files with two independent implementations and reports what they reject.
#
# usage: Scripts/validate-peers.sh [-v] PATH...
#
# PATH is a .vcf file or a directory (searched recursively for *.vcf). Each file goes through
#   - Python vobject (Scripts/peers/vobject_read.py): readComponents over the whole file, every
#     property value read; a file fails on any exception.
#   - sabre/vobject (Scripts/peers/sabre_validate.php): Splitter\VCard, then validate() on each
#     card; messages counted by level (1 notice, 2 warning, 3 error; a card that does not parse
#     is a level-3 error).
# Failures and level-3 messages are listed, then one summary line per peer.
#   -v        also list sabre's level-1/2 messages
# Environment:
#   PYTHON=python3           the interpreter that has vobject
#   PHP=php                  the PHP CLI
#   VOBJECT_VALIDATE=1       also run vobject's own validation (required properties and counts)
#   SABRE_AUTOLOAD=FILE      a sabre/vobject autoloader to use instead of the Debian one
# Exit status: 0 clean; 1 a vobject failure or a sabre level-3 error; 2 a peer is missing;
# 64 bad usage.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${PYTHON:-python3}
php=${PHP:-php}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 64; }

verbose=0
args=()
for arg in "$@"; do
  case $arg in
    -v|--verbose) verbose=1 ;;
    -h|--help) usage ;;
    -*) echo "validate-peers: unknown option $arg" >&2; usage ;;
    *) args+=("$arg") ;;
  esac
done
[ ${#args[@]} -gt 0 ] || usage

missing=0
if ! "$python" -c 'import vobject' 2>/dev/null; then
  echo "validate-peers: Python vobject is missing for $python. Install it with:" >&2
  echo "  $python -m pip install vobject" >&2
  echo "  (or, for the system /usr/bin/python3: apt-get update && apt-get install -y python3-vobject)" >&2
  missing=1
fi
# shellcheck disable=SC2016 # $argv is PHP's
if ! command -v "$php" >/dev/null 2>&1 ||
   ! "$php" -r 'require $argv[1]; sabre_load();' "$here/peers/sabre_load.php" >/dev/null 2>&1; then
  echo "validate-peers: PHP with sabre/vobject is missing. Install it with:" >&2
  echo "  apt-get update && apt-get install -y php-cli php-sabre-vobject" >&2
  missing=1
fi
[ $missing -eq 0 ] || exit 2

files=()
for path in "${args[@]}"; do
  if [ -d "$path" ]; then
    while IFS= read -r -d '' file; do files+=("$file"); done \
      < <(find "$path" -type f -iname '*.vcf' -print0 | sort -z)
  elif [ -f "$path" ]; then
    files+=("$path")
  else
    echo "validate-peers: no such file or directory: $path" >&2
    exit 2
  fi
done
if [ ${#files[@]} -eq 0 ]; then
  echo "validate-peers: no .vcf files under ${args[*]}" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

vobject_opts=()
[ "${VOBJECT_VALIDATE:-0}" = 1 ] && vobject_opts+=(--validate)
sabre_opts=()
[ $verbose -eq 1 ] && sabre_opts+=(--all)

# The helpers exit 1 on findings; that is data here, not a failure of this script.
# xargs splits long lists; each helper still handles many files per process.
printf '%s\0' "${files[@]}" |
  xargs -0 "$python" "$here/peers/vobject_read.py" ${vobject_opts[@]+"${vobject_opts[@]}"} \
  > "$tmp/vobject.tsv" 2> "$tmp/vobject.err" || true
printf '%s\0' "${files[@]}" |
  xargs -0 "$php" "$here/peers/sabre_validate.php" ${sabre_opts[@]+"${sabre_opts[@]}"} \
  > "$tmp/sabre.tsv" 2> "$tmp/sabre.err" || true

# A helper that crashed leaves fewer result lines than files: that must not read as clean.
status=0
vobject_seen=$(grep -c -E '^(OK|FAIL)	' "$tmp/vobject.tsv" || true)
sabre_seen=$(grep -c '^FILE	' "$tmp/sabre.tsv" || true)
if [ "$vobject_seen" -ne ${#files[@]} ] || [ -s "$tmp/vobject.err" ]; then
  echo "validate-peers: vobject helper reported $vobject_seen of ${#files[@]} files; its stderr:" >&2
  sed 's/^/  /' "$tmp/vobject.err" >&2
  status=2
fi
if [ "$sabre_seen" -ne ${#files[@]} ] || [ -s "$tmp/sabre.err" ]; then
  echo "validate-peers: sabre helper reported $sabre_seen of ${#files[@]} files; its stderr:" >&2
  sed 's/^/  /' "$tmp/sabre.err" >&2
  status=2
fi

# Details: file: peer: message, one line each.
awk -F'\t' '$1 == "FAIL" { printf "%s: vobject: %s (after %s)\n", $3, $4, $2 }' "$tmp/vobject.tsv"
awk -F'\t' '
  $1 == "ERROR" { printf "%s: sabre: error: %s: %s\n", $2, $3, $4 }
  $1 == "NOTE"  { printf "%s: sabre: level %s: %s: %s\n", $2, substr($4, 7), $3, $5 }
' "$tmp/sabre.tsv"

vobject_summary=$(awk -F'\t' '
  $1 == "OK" || $1 == "FAIL" { files++; split($2, c, "="); cards += c[2]; if ($1 == "FAIL") failed++ }
  END { printf "vobject: files=%d cards=%d failed=%d", files, cards, failed }
' "$tmp/vobject.tsv")
sabre_summary=$(awk -F'\t' '
  function n(field) { split(field, kv, "="); return kv[2] }
  $1 == "FILE" { files++; cards += n($2); notices += n($3); warnings += n($4); errors += n($5)
                 if (n($5) > 0) bad++ }
  END { printf "sabre: files=%d cards=%d errors=%d warnings=%d notices=%d files-with-errors=%d",
               files, cards, errors, warnings, notices, bad }
' "$tmp/sabre.tsv")
echo
echo "$vobject_summary"
echo "$sabre_summary"

if [ $status -ne 0 ]; then exit $status; fi
if grep -q '^FAIL	' "$tmp/vobject.tsv" || grep -q '^ERROR	' "$tmp/sabre.tsv"; then exit 1; fi
exit 0

#!/usr/bin/env bash
# The consumer-view check: do the programs that read vCard see in our output what they saw in the input?
#
# usage: Scripts/consumer-view.sh [-o OUT_DIR] [--vcf VCF_BIN] [--corpus CORPUS_DIR] [--details]
#
# For every file of the corpus (MANIFEST.tsv, column 3), converts it with `vcf convert` to vCard 3.0 and to
# vCard 4.0, then has four real consumers read the original and our output:
#   ez-vcard        (Java: consumer-view/EzVcardView.java, /usr/share/java jars)   original, 3.0 and 4.0
#   sabre/vobject   (PHP: consumer-view/sabre_view.php, Debian's 2.1)               original and 3.0
#   Python vobject  (consumer-view/vobject_view.py, the python3 on PATH)            original and 3.0
#   Evolution EVCard (consumer-view/evcard_view.py, /usr/bin/python3 + gi)          original and 3.0
# Each prints what it understood, card by card, as entries {"n": name, "g": group, "v": value, "p": params}
# (values in the consumer's own terms: decoded text, structured parts, binary as size and hash). Then
# consumer-view/compare.py pairs the cards and their entries and prints a Markdown table: per consumer and
# output, the values kept, changed for an accepted reason (each reason is named and justified in compare.py),
# changed for the worse, lost, invented, and recovered (readable only after conversion). --details lists every
# value in the last three bad columns, and every accepted change with its reason, on stderr.
#
#   -o OUT_DIR   keep the conversions and views there (default: a new mktemp -d directory, kept)
#   --vcf BIN    the vcf to test (default: .build/debug/vcf; build it first with `swift build`)
#   --corpus DIR the corpus (default: <repo>/../shared/corpus, or $VCF_CORPUS)
# Environment: PYTHON (python3 with vobject), EVCARD_PYTHON (/usr/bin/python3 with gi), PHP, JAVA, JAVAC,
# EZVCARD_JARS. It takes about 15 seconds on the shared corpus (491 files) on two cores.
# Exit status: 0 no value changed for the worse, lost or invented; 1 some were; 2 a tool or input is missing;
# 64 bad usage.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HERE=$ROOT/Scripts/consumer-view
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 64; }

out="" vcf_bin=$ROOT/.build/debug/vcf corpus=${VCF_CORPUS:-$ROOT/../shared/corpus} details=()
while [ $# -gt 0 ]; do
  case $1 in
    -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --vcf) [ $# -ge 2 ] || usage; vcf_bin=$2; shift 2 ;;
    --corpus) [ $# -ge 2 ] || usage; corpus=$2; shift 2 ;;
    --details) details=(--details); shift ;;
    -h|--help) usage ;;
    *) echo "consumer-view: unknown argument $1" >&2; usage ;;
  esac
done
python=${PYTHON:-python3}
evcard_python=${EVCARD_PYTHON:-/usr/bin/python3}
php=${PHP:-php}
java=${JAVA:-java}
javac=${JAVAC:-javac}
jars=${EZVCARD_JARS:-/usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar}

missing=0
need() { echo "consumer-view: $1 is missing; $2" >&2; missing=1; }
[ -x "$vcf_bin" ] || need "vcf ($vcf_bin)" "build it with: swift build"
[ -f "$corpus/MANIFEST.tsv" ] || need "the corpus ($corpus/MANIFEST.tsv)" "give --corpus DIR"
"$python" -c 'import vobject' 2>/dev/null || need "Python vobject" "install it with: $python -m pip install vobject"
"$evcard_python" -c 'import gi; gi.require_version("EBookContacts", "1.2")' 2>/dev/null ||
  need "Evolution's EBookContacts for $evcard_python" "apt-get install -y python3-gi gir1.2-ebookcontacts-1.2"
command -v "$php" >/dev/null 2>&1 || need "PHP" "apt-get install -y php-cli php-sabre-vobject"
command -v "$javac" >/dev/null 2>&1 || need "javac" "apt-get install -y default-jdk-headless"
for jar in ${jars//:/ }; do [ -f "$jar" ] || need "$jar" "apt-get install -y libez-vcard-java libvinnie-java"; done
[ $missing -eq 0 ] || exit 2

[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/vcf-consumer-view.XXXXXX")
mkdir -p "$out/v3" "$out/v4" "$out/classes" "$out/views"
echo "consumer-view: working in $out" >&2

# 1. Our conversions. A file with no card in our output has no output file (the comparison counts what the
#    consumers saw in the original as lost).
: > "$out/convert.log"
originals=()
while IFS= read -r stored; do
  [ -n "$stored" ] || continue
  input=$corpus/$stored
  [ -f "$input" ] || continue
  originals+=("$input")
  name=${stored//\//__}
  for version in 3 4; do
    to=vcard3; [ $version = 4 ] && to=vcard4
    echo "== $stored ($to)" >> "$out/convert.log"
    "$vcf_bin" convert "$input" --to "$to" -o "$out/v$version/$name" < /dev/null >> "$out/convert.log" 2>&1 || true
    if [ -f "$out/v$version/$name" ] && ! grep -q -i '^BEGIN:VCARD' "$out/v$version/$name"; then
      rm -f "$out/v$version/$name"
    fi
  done
done < <(tail -n +2 "$corpus/MANIFEST.tsv" | cut -f3)
printf '%s\n' "${originals[@]}" > "$out/originals.txt"
echo "consumer-view: converted ${#originals[@]} files" >&2

# 2. The consumers' views, one JSON line per file.
"$javac" -nowarn -d "$out/classes" -cp "$jars" "$HERE/EzVcardView.java"
views() { # NAME DIR...: every consumer that reads NAME's files
  local kind=$1; shift
  local files=()
  while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$@" -maxdepth 1 -type f -print0 | sort -z)
  if [ ${#files[@]} -eq 0 ]; then echo "consumer-view: vcf wrote no $kind output at all (see $out/convert.log)" >&2; exit 2; fi
  printf '%s\0' "${files[@]}" | xargs -0 "$java" -cp "$out/classes:$jars" EzVcardView > "$out/views/ez-$kind.jsonl"
  if [ "$kind" != v4 ]; then
    printf '%s\0' "${files[@]}" | xargs -0 "$php" "$HERE/sabre_view.php" > "$out/views/sabre-$kind.jsonl"
    printf '%s\0' "${files[@]}" | xargs -0 "$python" "$HERE/vobject_view.py" > "$out/views/vobject-$kind.jsonl"
    printf '%s\0' "${files[@]}" | xargs -0 "$evcard_python" "$HERE/evcard_view.py" > "$out/views/evcard-$kind.jsonl" 2>> "$out/evcard.log"
  fi
}
tr '\n' '\0' < "$out/originals.txt" | xargs -0 "$java" -cp "$out/classes:$jars" EzVcardView > "$out/views/ez-original.jsonl"
tr '\n' '\0' < "$out/originals.txt" | xargs -0 "$php" "$HERE/sabre_view.php" > "$out/views/sabre-original.jsonl"
tr '\n' '\0' < "$out/originals.txt" | xargs -0 "$python" "$HERE/vobject_view.py" > "$out/views/vobject-original.jsonl"
tr '\n' '\0' < "$out/originals.txt" | xargs -0 "$evcard_python" "$HERE/evcard_view.py" > "$out/views/evcard-original.jsonl" 2>> "$out/evcard.log"
views v3 "$out/v3"
views v4 "$out/v4"
echo "consumer-view: consumers done" >&2

# 3. The comparison.
"$python" "$HERE/compare.py" ${details[@]+"${details[@]}"} "$out" "$corpus"

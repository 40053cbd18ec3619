#!/usr/bin/env bash
# The benchmark of the tool as users run it: whole `vcf` processes on real files, beside Evolution's EVCard,
# sabre/vobject, ez-vcard and Python vobject in the same rounds, with time, MB/s and peak RSS per command and
# the ratio to the best peer; then the engine (in process) as a second, labelled table, and the photo fit.
#
# usage: Scripts/bench-suite.sh > report.md                      (the full suite: RUNS=3, 100,000 cards, 1.1 GB)
#        RUNS=1 BOOK_CARDS=2000 SKIP_PHOTO=1 Scripts/bench-suite.sh (a quick check of the script itself)
#
# 1. Checks the tools, and for whatever is missing prints the exact line that installs it; all of them:
#      apt-get install -y time gcc pkg-config libebook-contacts1.2-dev php-cli php-sabre-vobject python3-vobject \
#        default-jre-headless libez-vcard-java libvinnie-java imagemagick python3-pil python3-numpy python3-skimage
#    Debian's python3-* packages serve Debian's python3 only; any other python3 (pyenv's) needs
#      python3 -m pip install vobject pillow numpy scikit-image
# 2. Builds vcf and vcf-bench in release mode as the README's Install section does (swift build -c release, on
#    Linux with --static-swift-stdlib; VCF_DYNAMIC_STDLIB=1 links the Swift runtime dynamically), compiles Scripts/peers/EzVcardBench.java
#    (with the JRE's own javac module), Scripts/peers/evcard_bench.c (against libebook-contacts-1.2) and
#    Scripts/lib/count_cards.c.
# 3. Makes the inputs in .bench/, once each: book-100k.vcf (BOOK_CARDS cards from ../shared/bench/gen_corpus.py,
#    109 MB), book-5k.vcf for Python vobject (the first VOBJECT_CARDS cards: a prefix of the book),
#    incoming-10k-for-100k.vcf (Scripts/make-merge-bench.py: a tenth of the book, a fifth of those re-exported
#    duplicates), book-100k-x10.vcf (the book BIG_COPIES times over: 1.1 GB, 1,000,000 cards) and photos/.
# 4. Runs RUNS interleaved rounds (the order rotates each round). Every run is a whole process under
#    /usr/bin/time, writing a real file in a scratch folder (TMPDIR), counted and removed afterwards. A round:
#      on the book  vcf convert BOOK -o OUT; vcf convert BOOK > OUT; cat BOOK | vcf convert - > OUT;
#                   vcf convert BOOK --to json -o OUT;
#                   vcf preview BOOK --format json -o OUT; vcf lint BOOK; vcf convert BOOK --to jcard -o OUT;
#                   vcf preview BOOK --format html -o OUT; vcf convert BOOK --to csv -o OUT; vcf dedupe COPY (in place);
#                   vcf dedupe BOOK -n --json > OUT; vcf lint BOOK --fix -o OUT; vcf lint COPY --fix -o COPY;
#                   vcf convert BOOK --ensure-uid -o OUT; vcf convert BOOK.jcard -o OUT; vcf convert BOOK.json -o OUT
#                   (the book as jCard and Contact JSON, written by this vcf before the rounds);
#                   vcf merge INCOMING --into COPY --country-code 1; vcf convert INCOMING -o OUT;
#                   vcf merge BOOK --into NEW (an import into a new file);
#                   and each peer parsing the book and writing every card as vCard 3.0 to a file: EVCard,
#                   sabre/vobject, ez-vcard (cold JVM), Python vobject (on its small book)
#      on the big book  vcf convert -o, vcf convert --to json -o, vcf preview --format json -o, vcf lint, EVCard
#      in process   vcf-bench parse|parse-write (all processors and --jobs 1), and the peers' parse|parse-write
#                   modes (ez-vcard with a warm JIT)
#    Then the photo fit: Scripts/photo-bench.py with FIT_ONLY=1 (vcf photo fit and ImageMagick as processes).
# 5. Prints the report (Markdown) to stdout and to .bench/suite-last-run.md: a header (date, machine, commit, tool
#    versions, inputs, the load before and after), the process table, issue 20's bars, the engine table, the
#    photo table, legends, spreads, the load other processes put on the machine during the runs, and the card
#    counts. Progress and build output go to stderr. Raw rows: .bench/suite-processes.tsv (bench_process in
#    Scripts/lib/bench-common.sh), .bench/suite-engine.tsv (bench_timed), .bench/suite-photo.tsv.
#
# Environment:
#   RUNS=3                  rounds (medians are taken over them); fewer than 3 makes a quick check, marked so
#   BOOK_CARDS=100000       cards in the book
#   VOBJECT_CARDS=5000      cards in Python vobject's book (at most BOOK_CARDS; vobject reads about 2 MB/s)
#   BIG_COPIES=10           the big book is the book this many times over
#   SKIP_BIG=1              leave out the big book (its rows take most of the time: about 5 min a round on main)
#   SKIP_ENGINE=1           leave out the in-process table (and vcf-bench)
#   SKIP_MERGE=1 SKIP_DEDUPE=1 SKIP_PHOTO=1   leave out the merge (and the incoming file), dedupe, the photo fit
#   PHOTOS="p01 p02 p03 p04"  photos to fit: make_photos.py names or their prefixes (the 12 MP baseline photos)
#   VCF_BIN_DIR=DIR         use DIR's vcf and vcf-bench and skip the build
#   VCF_DYNAMIC_STDLIB=1    build without --static-swift-stdlib (Linux; the runtime linked dynamically)
#   VCF_SHARED=DIR          the shared folder (default: ../shared beside the repository)
#   TMPDIR=DIR              where outputs are written (up to 2.5 GB at once with the big book), default /tmp
#   JAVA_OPTS="..."         options for ez-vcard's JVM (default none: the JVM sizes its own heap)
#   EZVCARD_WARMUP_BYTES=4000000  ez-vcard's warm-up in the engine table (0: a cold JIT)
#   PYTHON=python3 PHP=php JAVA=java CC=cc CONVERT=/usr/bin/convert
#   EZVCARD_JARS=/usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar
# Exit status: 0 done; 1 a run failed, or a card count is not the expected one (the report says which; a failed
# process does not stop the rounds); 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

BENCH_NAME=bench-suite
# shellcheck source=Scripts/lib/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench-common.sh"
RUNS=${RUNS:-3}
bench_args "$0" "$@"
BOOK_CARDS=${BOOK_CARDS:-100000}
VOBJECT_CARDS=${VOBJECT_CARDS:-5000}
BIG_COPIES=${BIG_COPIES:-10}
PHOTOS=${PHOTOS:-p01 p02 p03 p04}
SKIP_BIG=${SKIP_BIG:-0}
SKIP_ENGINE=${SKIP_ENGINE:-0}
SKIP_MERGE=${SKIP_MERGE:-0}
SKIP_DEDUPE=${SKIP_DEDUPE:-0}
SKIP_PHOTO=${SKIP_PHOTO:-0}
for knob in BOOK_CARDS VOBJECT_CARDS BIG_COPIES; do
  [[ ${!knob} =~ ^[1-9][0-9]*$ ]] || die 64 "$knob must be a positive integer"
done
[ "$VOBJECT_CARDS" -le "$BOOK_CARDS" ] || VOBJECT_CARDS=$BOOK_CARDS
[ "$RUNS" -ge 3 ] || say "$BENCH_NAME: RUNS=$RUNS is a quick check; the report says so (medians need at least 3)"
INCOMING_CARDS=$(( BOOK_CARDS / 10 > 0 ? BOOK_CARDS / 10 : 1 ))
DUPLICATES=$(( INCOMING_CARDS / 5 ))
BOOK=$BENCH_DIR/book-$(bench_count_name "$BOOK_CARDS").vcf
SMALL_BOOK=$BENCH_DIR/book-$(bench_count_name "$VOBJECT_CARDS").vcf
INCOMING=$BENCH_DIR/incoming-$(bench_count_name "$INCOMING_CARDS")-for-$(bench_count_name "$BOOK_CARDS").vcf
BIG_BOOK=$BENCH_DIR/book-$(bench_count_name "$BOOK_CARDS")-x$BIG_COPIES.vcf
# A book a sync loop filled: the book's first tenth, ten times over, as many cards as the book.
# The book as jCard and as Contact JSON, written by the vcf measured (no peer reads either; see the report).
JCARD_BOOK=$BENCH_DIR/book-$(bench_count_name "$BOOK_CARDS").jcard
JSON_BOOK=$BENCH_DIR/book-$(bench_count_name "$BOOK_CARDS").json
TENTH_CARDS=$(( BOOK_CARDS / 10 > 0 ? BOOK_CARDS / 10 : 1 ))
TENTH_BOOK=$BENCH_DIR/book-$(bench_count_name "$TENTH_CARDS").vcf
COPIES_BOOK=$BENCH_DIR/book-$(bench_count_name "$TENTH_CARDS")-x10.vcf

# --- tools -----------------------------------------------------------------------------------
bench_need time corpus cc evcard sabre vobject ezvcard
[ "$SKIP_PHOTO" = 1 ] || bench_need photo-inputs photo-python imagemagick
bench_require

if [ "$SKIP_ENGINE" = 1 ] && [ "$SKIP_PHOTO" = 1 ]; then
  bench_build vcf
else
  bench_build vcf vcf-bench
fi
VCF=$BIN_DIR/vcf
bench_tmpdir
trap 'rm -rf "$BENCH_TMP"' EXIT
bench_compile_ezvcard
bench_compile_c

# --- inputs ----------------------------------------------------------------------------------
bench_make_book "$BOOK" "$BOOK_CARDS"
bench_make_book "$SMALL_BOOK" "$VOBJECT_CARDS"
[ "$SKIP_MERGE" = 1 ] || bench_make_incoming "$BOOK" "$INCOMING" "$INCOMING_CARDS" "$DUPLICATES"
[ "$SKIP_BIG" = 1 ] || bench_make_repeated "$BIG_BOOK" "$BOOK" "$BIG_COPIES"
if [ "$SKIP_DEDUPE" != 1 ]; then
  bench_make_book "$TENTH_BOOK" "$TENTH_CARDS"
  bench_make_repeated "$COPIES_BOOK" "$TENTH_BOOK" 10
fi
[ "$SKIP_PHOTO" = 1 ] || bench_make_photos "$BENCH_DIR/photos"
"$VCF" convert "$BOOK" --to jcard -o "$JCARD_BOOK"
"$VCF" convert "$BOOK" --to json -o "$JSON_BOOK"

# --- one run of each command -----------------------------------------------------------------
procs=$BENCH_TMP/processes.tsv
engine=$BENCH_TMP/engine.tsv
photo_runs=$BENCH_TMP/photo.tsv
: > "$procs"
: > "$engine"
OUT=$BENCH_TMP/output

# run_case ID FILE: one whole process of command ID on FILE (the book or the big book); its row goes to $procs.
# A failed run is recorded and reported by bench_process; the rounds go on.
run_case() {
  local id=$1 file=$2
  case $id in
    vcf.convert)
      bench_process "$procs" "$id" "vcf convert BOOK -o OUT" vcard "$OUT.vcf" "$file" -- \
        "$VCF" convert "$file" -o "$OUT.vcf" ;;
    vcf.convert-stdout)
      bench_process "$procs" "$id" "vcf convert BOOK > OUT" vcard - "$file" -- "$VCF" convert "$file" ;;
    vcf.convert-pipe)
      # As a shell pipeline runs it: cat's time and memory are counted too.
      bench_process "$procs" "$id" "cat BOOK | vcf convert - > OUT" vcard - "$file" -- \
        sh -c 'cat "$1" | exec "$2" convert -' sh "$file" "$VCF" ;;
    vcf.convert-json)
      bench_process "$procs" "$id" "vcf convert BOOK --to json -o OUT" json "$OUT.json" "$file" -- \
        "$VCF" convert "$file" --to json -o "$OUT.json" ;;
    vcf.preview-json)
      bench_process "$procs" "$id" "vcf preview BOOK --format json -o OUT" json "$OUT.json" "$file" -- \
        "$VCF" preview "$file" --format json -o "$OUT.json" ;;
    vcf.convert-jcard)
      bench_process "$procs" "$id" "vcf convert BOOK --to jcard -o OUT" none "$OUT.jcard" "$file" -- \
        "$VCF" convert "$file" --to jcard -o "$OUT.jcard" ;;
    vcf.convert-csv)
      bench_process "$procs" "$id" "vcf convert BOOK --to csv -o OUT" none "$OUT.csv" "$file" -- \
        "$VCF" convert "$file" --to csv -o "$OUT.csv" ;;
    vcf.from-jcard)
      bench_process "$procs" "$id" "vcf convert BOOK.jcard -o OUT" vcard "$OUT.vcf" "$JCARD_BOOK" -- \
        "$VCF" convert "$JCARD_BOOK" -o "$OUT.vcf" ;;
    vcf.from-json)
      bench_process "$procs" "$id" "vcf convert BOOK.json -o OUT" vcard "$OUT.vcf" "$JSON_BOOK" -- \
        "$VCF" convert "$JSON_BOOK" -o "$OUT.vcf" ;;
    vcf.preview-html)
      bench_process "$procs" "$id" "vcf preview BOOK --format html -o OUT" none "$OUT.html" "$file" -- \
        "$VCF" preview "$file" --format html -o "$OUT.html" ;;
    vcf.lint)
      # exit 1 means findings, which a lint run may have
      BENCH_OK_CODES="0 1" bench_process "$procs" "$id" "vcf lint BOOK" none - "$file" -- "$VCF" lint "$file" ;;
    vcf.lint-fix)
      bench_process "$procs" "$id" "vcf lint BOOK --fix -o OUT" vcard "$OUT.vcf" "$file" -- \
        "$VCF" lint "$file" --fix -o "$OUT.vcf" ;;
    vcf.lint-fix-in-place)
      cp "$file" "$BENCH_TMP/fixed.vcf"
      bench_process "$procs" "$id" "vcf lint COPY --fix -o COPY" vcard "$BENCH_TMP/fixed.vcf" "$file" -- \
        "$VCF" lint "$BENCH_TMP/fixed.vcf" --fix -o "$BENCH_TMP/fixed.vcf" ;;
    vcf.convert-ensure-uid)
      bench_process "$procs" "$id" "vcf convert BOOK --ensure-uid -o OUT" vcard "$OUT.vcf" "$file" -- \
        "$VCF" convert "$file" --ensure-uid -o "$OUT.vcf" ;;
    vcf.dedupe)
      cp "$file" "$BENCH_TMP/dedupe.vcf"
      bench_process "$procs" "$id" "vcf dedupe COPY" vcard "$BENCH_TMP/dedupe.vcf" "$file" -- \
        "$VCF" dedupe "$BENCH_TMP/dedupe.vcf" ;;
    vcf.dedupe-copies)
      cp "$COPIES_BOOK" "$BENCH_TMP/dedupe.vcf"
      bench_process "$procs" "$id" "vcf dedupe COPIES" vcard "$BENCH_TMP/dedupe.vcf" "$COPIES_BOOK" -- \
        "$VCF" dedupe "$BENCH_TMP/dedupe.vcf" ;;
    vcf.dedupe-json)
      # The report a program reads: every card's outcome and every possible duplicate, explained, to a file.
      bench_process "$procs" "$id" "vcf dedupe BOOK -n --json > OUT" none "$OUT.json" "$file" -- \
        sh -c 'exec "$1" dedupe "$2" -n --json > "$3"' sh "$VCF" "$file" "$OUT.json" ;;
    vcf.merge)
      cp "$file" "$BENCH_TMP/contacts.vcf"
      bench_process "$procs" "$id" "vcf merge INCOMING --into COPY --country-code 1" vcard "$BENCH_TMP/contacts.vcf" \
        "$INCOMING:$file" -- "$VCF" merge "$INCOMING" --into "$BENCH_TMP/contacts.vcf" --country-code 1 ;;
    vcf.merge-new)
      rm -f "$BENCH_TMP/new.vcf"
      bench_process "$procs" "$id" "vcf merge BOOK --into NEW" vcard "$BENCH_TMP/new.vcf" "$file" -- \
        "$VCF" merge "$file" --into "$BENCH_TMP/new.vcf" ;;
    vcf.convert-incoming)
      bench_process "$procs" "$id" "vcf convert INCOMING -o OUT" vcard "$OUT.vcf" "$INCOMING" -- \
        "$VCF" convert "$INCOMING" -o "$OUT.vcf" ;;
    peer.evcard)
      bench_process "$procs" "$id" "evcard_bench BOOK write OUT" vcard "$OUT.vcf" "$file" -- \
        "$EVCARD_BENCH" "$file" write "$OUT.vcf" ;;
    peer.sabre)
      bench_process "$procs" "$id" "php sabre_bench.php BOOK write OUT" vcard "$OUT.vcf" "$file" -- \
        "$PHP" "$ROOT/Scripts/peers/sabre_bench.php" "$file" write "$OUT.vcf" ;;
    peer.ezvcard)
      # shellcheck disable=SC2086 # JAVA_OPTS holds options
      bench_process "$procs" "$id" "java EzVcardBench BOOK write OUT" vcard "$OUT.vcf" "$file" -- \
        "$JAVA" $JAVA_OPTS -cp "$EZVCARD_CLASSPATH" EzVcardBench "$file" write "$OUT.vcf" ;;
    peer.vobject)
      bench_process "$procs" "$id" "python3 vobject_bench.py BOOK write OUT" vcard "$OUT.vcf" "$file" -- \
        "$PYTHON" "$ROOT/Scripts/peers/vobject_bench.py" "$file" write "$OUT.vcf" ;;
    *) die 64 "run_case: unknown case $id" ;;
  esac || true # recorded as failed; the report marks it and the suite exits 1
  rm -f "$BENCH_TMP/dedupe.vcf"* "$BENCH_TMP/contacts.vcf"* "$BENCH_TMP/new.vcf"* "$BENCH_TMP/fixed.vcf"*
}

# rotated N WORD...: the words, starting at the Nth (round r starts at word r, so no command is always first).
rotated() {
  local n=$1; shift
  local count=$#
  local words=("$@") i
  for (( i = 0; i < count; i++ )); do echo "${words[$(( (i + n) % count ))]}"; done
}

# Ours and the peers alternate, so a slow minute on the shared machine does not fall on one side only.
book_cases=(peer.evcard vcf.convert peer.sabre vcf.convert-stdout peer.ezvcard vcf.convert-json peer.vobject
  vcf.preview-json vcf.lint vcf.convert-jcard vcf.preview-html vcf.convert-csv vcf.convert-pipe vcf.lint-fix
  vcf.lint-fix-in-place vcf.convert-ensure-uid vcf.from-jcard vcf.from-json)
[ "$SKIP_DEDUPE" = 1 ] || book_cases+=(vcf.dedupe vcf.dedupe-json vcf.dedupe-copies)
[ "$SKIP_MERGE" = 1 ] || book_cases+=(vcf.merge vcf.convert-incoming vcf.merge-new)
big_cases=(peer.evcard vcf.convert vcf.convert-json vcf.preview-json vcf.lint)

# --- rounds ----------------------------------------------------------------------------------
LOAD_BEFORE=$(uptime)
for round in $(seq 1 "$RUNS"); do
  BENCH_ROUND=$round
  say "$BENCH_NAME: round $round/$RUNS, load average $(cut -d' ' -f1-3 /proc/loadavg)"
  while read -r id; do
    if [ "$id" = peer.vobject ]; then run_case "$id" "$SMALL_BOOK"; else run_case "$id" "$BOOK"; fi
  done < <(rotated $(( round - 1 )) "${book_cases[@]}")
  if [ "$SKIP_BIG" != 1 ]; then
    while read -r id; do run_case "$id" "$BIG_BOOK"; done < <(rotated $(( round - 1 )) "${big_cases[@]}")
  fi
  if [ "$SKIP_ENGINE" != 1 ]; then
    for mode in parse parse-write; do
      bench_timed "$engine" vcf "$mode" "$BOOK" "$BIN_DIR/vcf-bench" "$mode" "$BOOK"
      bench_timed "$engine" vcf-1-thread "$mode" "$BOOK" "$BIN_DIR/vcf-bench" "$mode" "$BOOK" --jobs 1
      bench_timed "$engine" evcard "$mode" "$BOOK" "$EVCARD_BENCH" "$BOOK" "$mode"
      # shellcheck disable=SC2086 # JAVA_OPTS holds options
      bench_timed "$engine" ez-vcard "$mode" "$BOOK" "$JAVA" $JAVA_OPTS -cp "$EZVCARD_CLASSPATH" EzVcardBench \
        "$BOOK" "$mode"
      bench_timed "$engine" sabre "$mode" "$BOOK" "$PHP" "$ROOT/Scripts/peers/sabre_bench.php" "$BOOK" "$mode"
      bench_timed "$engine" vobject "$mode" "$SMALL_BOOK" "$PYTHON" "$ROOT/Scripts/peers/vobject_bench.py" \
        "$SMALL_BOOK" "$mode"
    done
  fi
done
cp "$procs" "$BENCH_DIR/suite-processes.tsv"
[ "$SKIP_ENGINE" = 1 ] || cp "$engine" "$BENCH_DIR/suite-engine.tsv"
if [ "$SKIP_PHOTO" != 1 ]; then
  say "$BENCH_NAME: photo fit ($PHOTOS), $RUNS runs per photo and budget"
  RUNS=$RUNS PHOTOS=$PHOTOS FIT_ONLY=1 PHOTO_RAW=$photo_runs VCF_BIN_DIR=$BIN_DIR CONVERT=$CONVERT \
    VCF_SHARED=$SHARED "$PYTHON" "$ROOT/Scripts/photo-bench.py" > "$BENCH_TMP/photo.out" ||
    { status=$?; cat "$BENCH_TMP/photo.out" >&2; exit "$status"; }
  cp "$photo_runs" "$BENCH_DIR/suite-photo.tsv"
fi
LOAD_AFTER=$(uptime)

# --- report ----------------------------------------------------------------------------------
report() {
  bench_header "vcf benchmark suite: the tool as users run it"
  echo "- vcf: release build${BUILD_FLAGS[*]:+ (${BUILD_FLAGS[*]})}, $VCF"
  echo "- peers: $(bench_version evcard); $(bench_version sabre); $(bench_version ezvcard); $(bench_version vobject)$(
    [ "$SKIP_PHOTO" = 1 ] || echo "; $(bench_version imagemagick)")"
  echo "- C compiler for the EVCard harness: $("$CC" --version | head -n 1)"
  local inputs
  inputs="$(basename "$BOOK") ($BOOK_CARDS cards, $(stat -c %s "$BOOK") bytes)"
  [ "$SMALL_BOOK" = "$BOOK" ] ||
    inputs+="; $(basename "$SMALL_BOOK") for Python vobject ($VOBJECT_CARDS cards, $(stat -c %s "$SMALL_BOOK") bytes)"
  inputs+="; $(basename "$JCARD_BOOK") and $(basename "$JSON_BOOK") (the book as jCard and as Contact JSON, written by this vcf: $(stat -c %s "$JCARD_BOOK") and $(stat -c %s "$JSON_BOOK") bytes)"
  [ "$SKIP_MERGE" = 1 ] ||
    inputs+="; $(basename "$INCOMING") ($INCOMING_CARDS cards, $DUPLICATES duplicates, $(stat -c %s "$INCOMING") bytes)"
  [ "$SKIP_BIG" = 1 ] ||
    inputs+="; $(basename "$BIG_BOOK") (the book $BIG_COPIES times, $(( BOOK_CARDS * BIG_COPIES )) cards, $(stat -c %s "$BIG_BOOK") bytes)"
  [ "$SKIP_DEDUPE" = 1 ] ||
    inputs+="; $(basename "$COPIES_BOOK") (the book's first $TENTH_CARDS cards 10 times, $(( TENTH_CARDS * 10 )) cards, $(stat -c %s "$COPIES_BOOK") bytes)"
  echo "- inputs: $inputs; outputs written to $(df --output=fstype "$BENCH_TMP" | tail -n 1) in ${TMPDIR:-/tmp}"
  if [ "$RUNS" -ge 3 ]; then
    echo "- rounds: $RUNS, interleaved (the order rotates each round); every figure is a median"
  else
    echo "- rounds: $RUNS: **a quick check of the script, not a result** (medians need at least 3 rounds)"
  fi
  echo "- uptime before: $LOAD_BEFORE"
  echo "- uptime after: $LOAD_AFTER"
  echo
  local args=(--procs "$procs" --runs "$RUNS" --jobs "$(nproc)" --book "$(basename "$BOOK")"
    --small-book "$(basename "$SMALL_BOOK")" --ok-codes vcf.lint=0,1
    --warmup-bytes "${EZVCARD_WARMUP_BYTES:-4000000}" --photo-names "$PHOTOS"
    --cards "$(basename "$BOOK")=$BOOK_CARDS" --cards "$(basename "$SMALL_BOOK")=$VOBJECT_CARDS"
    --cards "$(basename "$JCARD_BOOK")=$BOOK_CARDS" --cards "$(basename "$JSON_BOOK")=$BOOK_CARDS")
  [ "$SKIP_ENGINE" = 1 ] || args+=(--engine "$engine")
  [ "$SKIP_PHOTO" = 1 ] || args+=(--photos "$photo_runs")
  [ "$SKIP_MERGE" = 1 ] || args+=(--incoming "$(basename "$INCOMING")" --cards "$(basename "$INCOMING")=$INCOMING_CARDS")
  [ "$SKIP_BIG" = 1 ] ||
    args+=(--big-book "$(basename "$BIG_BOOK")" --cards "$(basename "$BIG_BOOK")=$(( BOOK_CARDS * BIG_COPIES ))")
  [ "$SKIP_DEDUPE" = 1 ] || args+=(--cards "$(basename "$COPIES_BOOK")=$(( TENTH_CARDS * 10 ))")
  "$PYTHON" "$ROOT/Scripts/lib/bench_suite_table.py" "${args[@]}"
}
status=0
report > "$BENCH_DIR/suite-last-run.md" || status=$?
cat "$BENCH_DIR/suite-last-run.md"
exit "$status"

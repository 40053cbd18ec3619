#!/usr/bin/env bash
# The whole benchmark in one command: vcf beside ez-vcard, sabre/vobject, Python vobject and ImageMagick, in
# one Markdown table with the ratio to the best peer.
#
# usage: Scripts/bench-suite.sh
#        RUNS=1 BOOK_CARDS=2000 PHOTOS=p09_avatar_400 Scripts/bench-suite.sh     (a quick check of the script)
#
# 1. Checks the tools, and for whatever is missing prints the exact line that installs it; all of them:
#      apt-get install -y time php-cli php-sabre-vobject python3-vobject default-jre-headless \
#        libez-vcard-java libvinnie-java imagemagick python3-pil python3-numpy python3-skimage
#    Debian's python3-* packages serve Debian's python3 only; any other python3 (pyenv's) needs
#      python3 -m pip install vobject pillow numpy scikit-image
# 2. Builds vcf and vcf-bench in release mode and compiles Scripts/peers/EzVcardBench.java (with the JRE's own
#    javac module; no JDK needed).
# 3. Makes the inputs in .bench/, once each: book-100k.vcf (BOOK_CARDS cards from ../shared/bench/gen_corpus.py),
#    book-5k.vcf for Python vobject (the same generator's first VOBJECT_CARDS cards), incoming-10k-for-100k.vcf
#    (Scripts/make-merge-bench.py: a tenth of the book, a fifth of those re-exported duplicates) and photos/
#    (../shared/bench/photo/make_photos.py).
# 4. Runs RUNS interleaved rounds, every run under /usr/bin/time for its peak RSS. A round is, for parse and then
#    parse-write: vcf-bench (all processors), vcf-bench --jobs 1, ez-vcard, sabre/vobject, Python vobject (on
#    its small book); then the merge: `vcf merge INCOMING --into COPY-OF-BOOK --country-code 1`, and vcf-bench
#    parse-write of the book and of the incoming file. Then the photo fit: Scripts/photo-bench.py with
#    FIT_ONLY=1 (per photo and budget, RUNS runs of `vcf photo fit` and of ImageMagick interleaved, both outputs
#    scored by photo_quality.py).
# 5. Prints the report to stdout: a header (date, machine, commit, versions, inputs), one Markdown table, and a
#    legend saying what every number includes. Progress and build output go to stderr. Raw rows stay in
#    .bench/suite-last-run.tsv (columns: Scripts/lib/bench-common.sh) and .bench/suite-photo-last-run.tsv.
#
# Environment:
#   RUNS=5                  rounds (medians are taken over them)
#   BOOK_CARDS=100000       cards in the book
#   VOBJECT_CARDS=5000      cards in Python vobject's book (at most BOOK_CARDS; vobject reads about 2 MB/s)
#   PHOTOS="p01 p02 p03 p04"  photos to fit: make_photos.py names or their prefixes (default: the 12 MP baseline
#                           photos)
#   SKIP_PHOTO=1            leave out the photo fit (and ImageMagick, Pillow, NumPy, scikit-image)
#   SKIP_MERGE=1            leave out the merge
#   VCF_BIN_DIR=DIR         use DIR's vcf and vcf-bench and skip the build
#   VCF_SHARED=DIR          the shared folder (default: ../shared beside the repository)
#   JAVA_OPTS="..."         options for ez-vcard's JVM (default none: the JVM sizes its own heap)
#   EZVCARD_WARMUP_BYTES=4000000  ez-vcard's untimed JIT warm-up over the start of the book (0: a cold JIT)
#   PYTHON=python3 PHP=php JAVA=java CONVERT=/usr/bin/convert
#   EZVCARD_JARS=/usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar
# Exit status: 0 done; 1 a run failed, or the tools disagree on how many cards a file holds; 2 a tool or input
# is missing; 64 bad usage.
set -euo pipefail

BENCH_NAME=bench-suite
# shellcheck source=Scripts/lib/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench-common.sh"
bench_args "$0" "$@"
RUNS=${RUNS:-5}
BOOK_CARDS=${BOOK_CARDS:-100000}
VOBJECT_CARDS=${VOBJECT_CARDS:-5000}
PHOTOS=${PHOTOS:-p01 p02 p03 p04}
SKIP_PHOTO=${SKIP_PHOTO:-0}
SKIP_MERGE=${SKIP_MERGE:-0}
for knob in BOOK_CARDS VOBJECT_CARDS; do
  [[ ${!knob} =~ ^[1-9][0-9]*$ ]] || die 64 "$knob must be a positive integer"
done
[ "$VOBJECT_CARDS" -le "$BOOK_CARDS" ] || VOBJECT_CARDS=$BOOK_CARDS
INCOMING_CARDS=$(( BOOK_CARDS / 10 > 0 ? BOOK_CARDS / 10 : 1 ))
DUPLICATES=$(( INCOMING_CARDS / 5 ))
BOOK=$BENCH_DIR/book-$(bench_count_name "$BOOK_CARDS").vcf
SMALL_BOOK=$BENCH_DIR/book-$(bench_count_name "$VOBJECT_CARDS").vcf
INCOMING=$BENCH_DIR/incoming-$(bench_count_name "$INCOMING_CARDS")-for-$(bench_count_name "$BOOK_CARDS").vcf

# --- tools -----------------------------------------------------------------------------------
bench_need time corpus sabre vobject ezvcard
[ "$SKIP_PHOTO" = 1 ] || bench_need photo-inputs photo-python imagemagick
bench_require

if [ "$SKIP_PHOTO" = 1 ] && [ "$SKIP_MERGE" = 1 ]; then
  bench_build vcf-bench
else
  bench_build vcf vcf-bench
fi
bench_tmpdir
trap 'rm -rf "$BENCH_TMP"' EXIT
bench_compile_ezvcard

# --- inputs ----------------------------------------------------------------------------------
bench_make_book "$BOOK" "$BOOK_CARDS"
bench_make_book "$SMALL_BOOK" "$VOBJECT_CARDS"
[ "$SKIP_MERGE" = 1 ] || bench_make_incoming "$BOOK" "$INCOMING" "$INCOMING_CARDS" "$DUPLICATES"
[ "$SKIP_PHOTO" = 1 ] || bench_make_photos "$BENCH_DIR/photos"

# --- rounds ----------------------------------------------------------------------------------
runs=$BENCH_TMP/runs.tsv
photo_runs=$BENCH_TMP/photo.tsv
: > "$runs"
for round in $(seq 1 "$RUNS"); do
  BENCH_ROUND=$round
  say "$BENCH_NAME: round $round/$RUNS"
  for mode in parse parse-write; do
    bench_timed "$runs" vcf "$mode" "$BOOK" "$BIN_DIR/vcf-bench" "$mode" "$BOOK"
    bench_timed "$runs" vcf-1-thread "$mode" "$BOOK" "$BIN_DIR/vcf-bench" "$mode" "$BOOK" --jobs 1
    # shellcheck disable=SC2086 # JAVA_OPTS holds options
    bench_timed "$runs" ez-vcard "$mode" "$BOOK" "$JAVA" $JAVA_OPTS -cp "$EZVCARD_CLASSPATH" EzVcardBench "$BOOK" "$mode"
    bench_timed "$runs" sabre "$mode" "$BOOK" "$PHP" "$ROOT/Scripts/peers/sabre_bench.php" "$BOOK" "$mode"
    bench_timed "$runs" vobject "$mode" "$SMALL_BOOK" \
      "$PYTHON" "$ROOT/Scripts/peers/vobject_bench.py" "$SMALL_BOOK" "$mode"
  done
  [ "$SKIP_MERGE" = 1 ] || bench_merge_round "$runs" "$BOOK" "$INCOMING"
done
cp "$runs" "$BENCH_DIR/suite-last-run.tsv"
if [ "$SKIP_PHOTO" != 1 ]; then
  say "$BENCH_NAME: photo fit ($PHOTOS), $RUNS runs per photo and budget"
  RUNS=$RUNS PHOTOS=$PHOTOS FIT_ONLY=1 PHOTO_RAW=$photo_runs VCF_BIN_DIR=$BIN_DIR CONVERT=$CONVERT \
    VCF_SHARED=$SHARED "$PYTHON" "$ROOT/Scripts/photo-bench.py" > "$BENCH_TMP/photo.out" ||
    { status=$?; cat "$BENCH_TMP/photo.out" >&2; exit "$status"; }
  cp "$photo_runs" "$BENCH_DIR/suite-photo-last-run.tsv"
fi

# --- report ----------------------------------------------------------------------------------
bench_header "vcf benchmark suite"
echo "- peers: $(bench_version ezvcard); $(bench_version sabre); $(bench_version vobject)$(
  [ "$SKIP_PHOTO" = 1 ] || echo "; $(bench_version imagemagick)")"
inputs="$(basename "$BOOK") ($BOOK_CARDS cards, $(stat -c %s "$BOOK") bytes)"
[ "$SMALL_BOOK" = "$BOOK" ] ||
  inputs+="; $(basename "$SMALL_BOOK") for Python vobject ($VOBJECT_CARDS cards, $(stat -c %s "$SMALL_BOOK") bytes)"
[ "$SKIP_MERGE" = 1 ] ||
  inputs+="; $(basename "$INCOMING") ($INCOMING_CARDS cards, $DUPLICATES duplicates, $(stat -c %s "$INCOMING") bytes)"
[ "$SKIP_PHOTO" = 1 ] || inputs+="; photos $PHOTOS (make_photos.py)"
echo "- inputs: $inputs"
echo "- rounds: $RUNS, interleaved; every figure is a median"
echo
"$PYTHON" "$ROOT/Scripts/lib/bench_suite_table.py" "$runs" "$([ "$SKIP_PHOTO" = 1 ] || echo "$photo_runs")" \
  --book "$(basename "$BOOK")" --book-cards "$BOOK_CARDS" \
  --small-book "$(basename "$SMALL_BOOK")" --small-cards "$VOBJECT_CARDS" \
  --incoming "$(basename "$INCOMING")" --incoming-cards "$INCOMING_CARDS" --photos "$PHOTOS" \
  --warmup-bytes "${EZVCARD_WARMUP_BYTES:-4000000}" --jobs "$(nproc)"

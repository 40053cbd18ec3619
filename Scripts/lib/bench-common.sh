# shellcheck shell=bash disable=SC2034 # the variables set here are for the scripts that source it
# Shell pieces shared by Scripts/bench.sh, Scripts/merge-bench.sh, Scripts/photo-bench.sh, Scripts/bench-suite.sh
# and Scripts/profile-convert.sh.
#
# Source it after `set -euo pipefail` and after setting BENCH_NAME (the prefix of every message). It sets
# ROOT, SHARED, BENCH_DIR, PYTHON, PHP, JAVA, JAVA_OPTS, CONVERT and EZVCARD_JARS (each from the environment
# when set) and defines functions; it runs nothing by itself. Messages go to stderr, reports to stdout.
#
# One timed run is one row of a tab-separated file:
#   round  tool  mode  file  peak_rss_kib  wall_seconds  json
# where json is the last line of the tool's stdout that starts with "{" ({"bytes":N,"cards":N,"seconds":S,...}
# for vcf-bench and the peers; vcf merge's is made from its summary). BENCH_ROUND names the round.
# bench_process (whole processes with real files, for bench-suite.sh) writes rows of its own; see there.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SHARED=${VCF_SHARED:-$ROOT/../shared}
BENCH_DIR=$ROOT/.bench
PYTHON=${PYTHON:-python3}
PHP=${PHP:-php}
JAVA=${JAVA:-java}
JAVA_OPTS=${JAVA_OPTS:-}
CONVERT=${CONVERT:-/usr/bin/convert}
CC=${CC:-cc}
EZVCARD_JARS=${EZVCARD_JARS:-/usr/share/java/ez-vcard.jar:/usr/share/java/vinnie.jar}
BENCH_ROUND=${BENCH_ROUND:-1}

say() { printf '%s\n' "$*" >&2; }
die() { local code=$1; shift; say "$BENCH_NAME: $*"; exit "$code"; }

# bench_args SCRIPT ARG...: --help prints SCRIPT's header comment (line 2 up to `set -euo`); any other argument
# is a usage error (64), and so is a RUNS that is not a positive integer.
bench_args() {
  local script=$1; shift
  case ${1:-} in
    -h|--help) sed -n '2,/^set -euo/p' "$script" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) die 64 "no arguments expected (see --help)" ;;
  esac
  [[ ${RUNS:-5} =~ ^[1-9][0-9]*$ ]] || die 64 "RUNS must be a positive integer"
}

# --- tools -----------------------------------------------------------------------------------
BENCH_MISSING=()
BENCH_APT=()
BENCH_PIP=()

# _bench_missing WHAT apt|pip PACKAGE...: remember a missing tool and what installs it.
_bench_missing() {
  local what=$1 kind=$2; shift 2
  BENCH_MISSING+=("$what")
  local package
  for package; do
    if [ "$kind" = apt ]; then
      [[ " ${BENCH_APT[*]} " == *" $package "* ]] || BENCH_APT+=("$package")
    else
      [[ " ${BENCH_PIP[*]} " == *" $package "* ]] || BENCH_PIP+=("$package")
    fi
  done
}

# _bench_python_missing WHAT "DEBIAN PACKAGES" "PIP PACKAGES": Debian's packages serve Debian's python3 only
# (sys.prefix /usr); any other python3 (pyenv's, a venv's) needs pip's.
_bench_python_missing() {
  # shellcheck disable=SC2086 # the package lists are meant to split
  if "$PYTHON" -c 'import sys; sys.exit(sys.prefix != "/usr")' 2>/dev/null; then
    _bench_missing "$1" apt $2
  else
    _bench_missing "$1" pip $3
  fi
}

# bench_need TOOL...: check tools, remembering what is missing; bench_require then reports it all at once.
# A missing shared input (gen_corpus.py, the photo scripts) cannot be installed, so it stops at once (exit 2).
bench_need() {
  local tool
  for tool; do
    case $tool in
      time) [ -x /usr/bin/time ] || _bench_missing "GNU time (/usr/bin/time)" apt time ;;
      corpus)
        [ -f "$SHARED/bench/gen_corpus.py" ] || die 2 "no $SHARED/bench/gen_corpus.py (set VCF_SHARED)" ;;
      photo-inputs)
        local script
        for script in make_photos.py photo_quality.py; do
          [ -f "$SHARED/bench/photo/$script" ] || die 2 "no $SHARED/bench/photo/$script (set VCF_SHARED)"
        done ;;
      sabre)
        # shellcheck disable=SC2016 # $argv is PHP's
        if ! command -v "$PHP" >/dev/null 2>&1 ||
           ! "$PHP" -r 'require $argv[1]; sabre_load();' "$ROOT/Scripts/peers/sabre_load.php" >/dev/null 2>&1; then
          _bench_missing "PHP with sabre/vobject" apt php-cli php-sabre-vobject
        fi ;;
      vobject)
        "$PYTHON" -c 'import vobject' 2>/dev/null ||
          _bench_python_missing "Python vobject for $PYTHON" python3-vobject vobject ;;
      photo-python)
        "$PYTHON" -c 'import PIL, numpy, skimage' 2>/dev/null ||
          _bench_python_missing "Pillow, NumPy and scikit-image for $PYTHON" \
            "python3-pil python3-numpy python3-skimage" "pillow numpy scikit-image" ;;
      ezvcard)
        local jar missing_jar=0
        for jar in ${EZVCARD_JARS//:/ }; do [ -f "$jar" ] || missing_jar=1; done
        [ $missing_jar = 0 ] || _bench_missing "ez-vcard and vinnie ($EZVCARD_JARS)" apt libez-vcard-java libvinnie-java
        if ! command -v "$JAVA" >/dev/null 2>&1; then
          _bench_missing "Java ($JAVA)" apt default-jre-headless
        elif ! "$JAVA" --list-modules 2>/dev/null | grep -q '^jdk\.compiler@'; then
          # The peer is compiled with the runtime's own javac module, which Debian's JRE has; a trimmed one may not.
          _bench_missing "a Java with the jdk.compiler module ($JAVA)" apt default-jdk-headless
        fi ;;
      imagemagick)
        "$CONVERT" -version 2>/dev/null | grep -q ImageMagick ||
          _bench_missing "ImageMagick ($CONVERT; /usr/local/bin/convert is not it)" apt imagemagick ;;
      cc) command -v "$CC" >/dev/null 2>&1 || _bench_missing "a C compiler ($CC)" apt gcc libc6-dev ;;
      evcard)
        if ! command -v pkg-config >/dev/null 2>&1; then
          _bench_missing "pkg-config" apt pkg-config
        elif ! pkg-config --exists libebook-contacts-1.2; then
          _bench_missing "Evolution's EVCard headers (pkg-config libebook-contacts-1.2)" apt libebook-contacts1.2-dev
        fi ;;
      callgrind)
        command -v valgrind >/dev/null 2>&1 && command -v callgrind_annotate >/dev/null 2>&1 ||
          _bench_missing "valgrind with callgrind_annotate" apt valgrind ;;
      perf) command -v perf >/dev/null 2>&1 || _bench_missing "perf" apt linux-perf ;;
      *) die 64 "bench_need: unknown tool $tool" ;;
    esac
  done
}

# bench_require: if bench_need found anything missing, say what and the exact lines that install it; exit 2.
bench_require() {
  [ ${#BENCH_MISSING[@]} -eq 0 ] && return 0
  local what
  say "$BENCH_NAME: missing:"
  for what in "${BENCH_MISSING[@]}"; do say "  - $what"; done
  say "install with:"
  [ ${#BENCH_APT[@]} -eq 0 ] || say "  apt-get update && apt-get install -y ${BENCH_APT[*]}"
  [ ${#BENCH_PIP[@]} -eq 0 ] || say "  $PYTHON -m pip install ${BENCH_PIP[*]}"
  exit 2
}

# --- build and inputs ------------------------------------------------------------------------

# bench_build PRODUCT...: swift build -c release each product, as the README's Install section builds the tool
# (on Linux with --static-swift-stdlib; VCF_DYNAMIC_STDLIB=1 links the Swift runtime dynamically); sets BIN_DIR
# and BUILD_FLAGS. VCF_BIN_DIR=DIR skips the build and uses the executables in DIR.
bench_build() {
  local product
  BUILD_FLAGS=()
  if [ -n "${VCF_BIN_DIR:-}" ]; then
    BIN_DIR=$VCF_BIN_DIR
    say "$BENCH_NAME: using VCF_BIN_DIR=$BIN_DIR (no build)"
  else
    command -v swift >/dev/null 2>&1 || die 2 "no swift on PATH (or set VCF_BIN_DIR to a folder of built executables)"
    if [ "$(uname -s)" = Linux ] && [ "${VCF_DYNAMIC_STDLIB:-0}" != 1 ]; then BUILD_FLAGS=(--static-swift-stdlib); fi
    # vcf-bench lives in the Benchmarks package (beside Fuzz/), which builds vcf too from the same sources: build
    # everything there when it is asked for, so BIN_DIR holds both.
    local package=$ROOT
    case " $* " in *" vcf-bench "*) package=$ROOT/Benchmarks ;; esac
    for product; do
      say "$BENCH_NAME: swift build -c release ${BUILD_FLAGS[*]} --product $product (in ${package#"$ROOT"/})"
      (cd "$package" && swift build -c release "${BUILD_FLAGS[@]}" --product "$product") >&2 ||
        die 1 "swift build failed (--static-swift-stdlib needs libcurl4-openssl-dev and libxml2-dev; or set VCF_DYNAMIC_STDLIB=1)"
    done
    BIN_DIR=$(cd "$package" && swift build -c release --show-bin-path)
  fi
  for product; do [ -x "$BIN_DIR/$product" ] || die 2 "no executable $product in $BIN_DIR"; done
}

# bench_count_name COUNT: 100000 -> 100k, 5000 -> 5k, 1500 -> 1500 (for file names).
bench_count_name() {
  if [ $(( $1 % 1000 )) -eq 0 ] && [ "$1" -gt 0 ]; then echo "$(( $1 / 1000 ))k"; else echo "$1"; fi
}

# bench_make_book FILE COUNT: the shared generator's book with its default seed, made once (written aside,
# then renamed). A smaller COUNT gives a prefix of a larger book.
bench_make_book() {
  [ -s "$1" ] && return 0
  mkdir -p "$(dirname "$1")"
  say "$BENCH_NAME: generating $1 ($2 cards)"
  "$PYTHON" "$SHARED/bench/gen_corpus.py" "$1.part" "$2" >&2 || die 1 "gen_corpus.py failed"
  mv "$1.part" "$1"
}

# bench_make_incoming BOOK FILE COUNT DUPLICATES: the merge benchmark's incoming cards for BOOK
# (Scripts/make-merge-bench.py), made once.
bench_make_incoming() {
  [ -s "$2" ] && return 0
  say "$BENCH_NAME: generating $2 ($3 cards, $4 of them duplicates of cards in $(basename "$1"))"
  "$PYTHON" "$ROOT/Scripts/make-merge-bench.py" "$1" "$SHARED/bench/gen_corpus.py" "$2.part" \
    --count "$3" --duplicates "$4" >&2 || die 1 "make-merge-bench.py failed"
  mv "$2.part" "$2"
}

# bench_make_photos DIR: the shared photo set (make_photos.py), made once (written aside, then renamed).
# Scripts/photo-bench.py makes the same folder the same way when run by itself.
bench_make_photos() {
  [ -d "$1" ] && return 0
  say "$BENCH_NAME: generating $1"
  rm -rf "$1.part"
  "$PYTHON" "$SHARED/bench/photo/make_photos.py" "$1.part" >&2 || die 1 "make_photos.py failed"
  mv "$1.part" "$1"
}

# bench_tmpdir: make BENCH_TMP, a scratch folder the caller removes in its EXIT trap.
bench_tmpdir() {
  BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/vcf-bench.XXXXXX")
}

# bench_compile_ezvcard: compile Scripts/peers/EzVcardBench.java once into BENCH_TMP with the runtime's own
# javac module (Debian's JRE has it; no JDK needed); sets EZVCARD_CLASSPATH.
bench_compile_ezvcard() {
  mkdir -p "$BENCH_TMP/java"
  if ! "$JAVA" -m jdk.compiler/com.sun.tools.javac.Main -nowarn -d "$BENCH_TMP/java" -cp "$EZVCARD_JARS" \
       "$ROOT/Scripts/peers/EzVcardBench.java" >&2; then
    die 1 "could not compile Scripts/peers/EzVcardBench.java"
  fi
  EZVCARD_CLASSPATH=$EZVCARD_JARS:$BENCH_TMP/java
}

# bench_compile_c: compile the C helpers once into BENCH_TMP: Scripts/peers/evcard_bench.c (Evolution's EVCard,
# needs `bench_need cc evcard`) and Scripts/lib/count_cards.c; sets EVCARD_BENCH and COUNT_CARDS.
bench_compile_c() {
  mkdir -p "$BENCH_TMP/bin"
  COUNT_CARDS=$BENCH_TMP/bin/count_cards
  "$CC" -O2 -o "$COUNT_CARDS" "$ROOT/Scripts/lib/count_cards.c" >&2 || die 1 "could not compile Scripts/lib/count_cards.c"
  EVCARD_BENCH=$BENCH_TMP/bin/evcard_bench
  # shellcheck disable=SC2046 # pkg-config's flags are meant to split
  "$CC" -O2 -Wno-deprecated-declarations -o "$EVCARD_BENCH" "$ROOT/Scripts/peers/evcard_bench.c" \
    $(pkg-config --cflags --libs libebook-contacts-1.2) >&2 || die 1 "could not compile Scripts/peers/evcard_bench.c"
}

# bench_make_repeated FILE SOURCE COPIES: FILE is SOURCE COPIES times over (the 1.1 GB book is the 109 MB book ten
# times), made once, written aside and renamed.
bench_make_repeated() {
  [ -s "$1" ] && return 0
  say "$BENCH_NAME: making $1 ($(basename "$2") $3 times)"
  local i
  : > "$1.part"
  for i in $(seq 1 "$3"); do cat "$2" >> "$1.part" || die 1 "could not write $1.part"; done
  mv "$1.part" "$1"
}

# --- timed runs ------------------------------------------------------------------------------

# _bench_run COMMAND...: run COMMAND once under /usr/bin/time; sets BENCH_WALL (seconds) and BENCH_RSS (KiB)
# and leaves its stdout and stderr in $BENCH_TMP/out and $BENCH_TMP/err. A failed run stops the script (1).
_bench_run() {
  if ! /usr/bin/time -f '%e %M' -o "$BENCH_TMP/time" "$@" > "$BENCH_TMP/out" 2> "$BENCH_TMP/err"; then
    say "$BENCH_NAME: failed: $*"
    sed 's/^/  /' "$BENCH_TMP/err" "$BENCH_TMP/time" >&2
    exit 1
  fi
  read -r BENCH_WALL BENCH_RSS < <(tail -n 1 "$BENCH_TMP/time")
  if ! [[ ${BENCH_RSS:-} =~ ^[0-9]+$ ]] || ! [[ ${BENCH_WALL:-} =~ ^[0-9.]+$ ]]; then
    say "$BENCH_NAME: no time or peak RSS for: $*"
    sed 's/^/  /' "$BENCH_TMP/time" >&2
    exit 1
  fi
}

# _bench_row TSV TOOL MODE FILE JSON: append the last run's row to TSV and show it on stderr.
_bench_row() {
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$BENCH_ROUND" "$2" "$3" "$(basename "$4")" "$BENCH_RSS" "$BENCH_WALL" \
    "$5" >> "$1"
  say "  $2 $3 $(basename "$4"): ${BENCH_WALL}s wall, peak RSS ${BENCH_RSS} KiB, $5"
}

# bench_timed TSV TOOL MODE FILE COMMAND...: run COMMAND once under /usr/bin/time and append its row to TSV
# (see the top of this file). COMMAND must print a JSON line.
bench_timed() {
  local tsv=$1 tool=$2 mode=$3 file=$4; shift 4
  _bench_run "$@"
  local json
  json=$(grep '^{' "$BENCH_TMP/out" | tail -n 1 || true)
  if [ -z "$json" ]; then
    say "$BENCH_NAME: no JSON line from: $*"
    sed 's/^/  /' "$BENCH_TMP/out" "$BENCH_TMP/err" >&2
    exit 1
  fi
  _bench_row "$tsv" "$tool" "$mode" "$file" "$json"
}

# bench_merge_round TSV BOOK INCOMING: one round of the merge benchmark (needs BIN_DIR with vcf and vcf-bench):
#   tool merge, mode merge:        vcf merge INCOMING --into COPY-OF-BOOK --country-code 1, a process, wall clock
#                                  (the copy is made before the clock starts); its JSON is made from the summary
#                                  line the merge prints: {"cards":N,"added":N,"merged":N,"unchanged":N}
#   tool merge, mode parse-write:  vcf-bench parse-write BOOK, then INCOMING (in-process seconds; summed later)
# The merge's stderr is kept in $BENCH_TMP/merge.err.
bench_merge_round() {
  local tsv=$1 book=$2 incoming=$3 json
  cp "$book" "$BENCH_TMP/contacts.vcf"
  _bench_run "$BIN_DIR/vcf" merge "$incoming" --into "$BENCH_TMP/contacts.vcf" --country-code 1
  cp "$BENCH_TMP/err" "$BENCH_TMP/merge.err"
  rm -f "$BENCH_TMP/contacts.vcf"
  # "CONTACTS: 6712 added, 2905 merged, 383 unchanged, ..."
  json=$(sed -n 's/^.*: \([0-9]*\) added, \([0-9]*\) merged, \([0-9]*\) unchanged.*$/\1 \2 \3/p' "$BENCH_TMP/merge.err" |
    tail -n 1 | awk '{printf "{\"cards\":%d,\"added\":%d,\"merged\":%d,\"unchanged\":%d}", $1 + $2 + $3, $1, $2, $3}')
  [ -n "$json" ] || { say "$BENCH_NAME: no summary line from vcf merge"; json='{}'; }
  _bench_row "$tsv" merge merge "$incoming" "$json"
  bench_timed "$tsv" merge parse-write "$book" "$BIN_DIR/vcf-bench" parse-write "$book"
  bench_timed "$tsv" merge parse-write "$incoming" "$BIN_DIR/vcf-bench" parse-write "$incoming"
}

# --- report ----------------------------------------------------------------------------------

# bench_header TITLE: the report's title and the date, machine, commit and Swift lines.
bench_header() {
  local cpu commit
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
  echo "# $1"
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
}

# bench_version TOOL: one line naming the version of a peer (sabre, vobject, ezvcard, evcard, imagemagick).
bench_version() {
  case $1 in
    sabre)
      # shellcheck disable=SC2016 # $argv is PHP's
      echo "sabre/vobject $("$PHP" -r 'require $argv[1]; sabre_load(); echo sabre_version();' \
        "$ROOT/Scripts/peers/sabre_load.php") on PHP $("$PHP" -r 'echo PHP_VERSION;')" ;;
    vobject) "$PYTHON" -c 'import importlib.metadata as m, platform
print("Python vobject", m.version("vobject"), "on Python", platform.python_version())' 2>/dev/null ||
      echo "Python vobject ?" ;;
    ezvcard)
      # shellcheck disable=SC2086 # JAVA_OPTS holds options
      echo "$("$JAVA" $JAVA_OPTS -cp "$EZVCARD_CLASSPATH" EzVcardBench --version)${JAVA_OPTS:+ ($JAVA_OPTS)}" ;;
    evcard) "$EVCARD_BENCH" --version ;;
    imagemagick) "$CONVERT" -version | sed -n '1s/^Version: \(ImageMagick [^ ]* [^ ]*\).*/\1/p' ;;
  esac
}

# --- whole processes ---------------------------------------------------------------------------
# bench_process writes one row per run of a whole process with real files (Scripts/bench-suite.sh):
#   round  id  shown  files  input_bytes  peak_rss_kib  wall_seconds  cpu_seconds  others_cpu_seconds  exit
#   out_cards  stdout_lines  stderr_lines  json  summary
# files: the inputs' names joined by "+"; wall_seconds: the parent's clock around the process (EPOCHREALTIME,
# microseconds; /usr/bin/time's own %e has 10 ms steps); cpu_seconds: the process's user + system time;
# others_cpu_seconds: the CPU time every other process on the machine used meanwhile (busy jiffies in /proc/stat
# over the run, minus the process's own): the load other people put on the machine; out_cards: cards in the
# output file (count_cards), empty when the command writes no cards; json: the last stdout line starting with
# "{" (the peers print one), else {}; summary: the command's stderr summary line (the first one that says
# "added" or "merged", else the last line), for vcf merge and vcf dedupe.

# _bench_busy_jiffies: the machine's busy CPU time so far, in clock ticks (everything in /proc/stat's cpu line but
# idle and iowait).
_bench_busy_jiffies() {
  awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

# _bench_micros: EPOCHREALTIME as whole microseconds (whatever the locale's decimal mark).
_bench_micros() {
  local now=$EPOCHREALTIME
  echo "${now//[!0-9]/}"
}

# bench_process TSV ID SHOWN KIND OUTPUT INPUTS -- COMMAND...: run COMMAND once as a whole process under
# /usr/bin/time and append its row to TSV (see above). KIND is vcard, json or none (how to count the cards in
# OUTPUT); OUTPUT is the file COMMAND writes, or - for its stdout (which always goes to a scratch file); INPUTS
# is a :-separated list of the files it reads (for the row's bytes). OUTPUT is removed after it is counted, so
# it must never be an input. An exit status outside BENCH_OK_CODES (default "0") is recorded, reported and kept
# in .bench/suite-failed-ID-rROUND.err; the caller goes on (the report marks the row). Returns 1 then.
bench_process() {
  local tsv=$1 id=$2 shown=$3 kind=$4 output=$5 inputs=$6
  shift 6
  [ "${1:-}" = -- ] && shift
  local stdout=$BENCH_TMP/proc.out err=$BENCH_TMP/proc.err names=() bytes=0 path
  local -a paths
  IFS=: read -r -a paths <<< "$inputs"
  for path in "${paths[@]}"; do
    [ "$(realpath -m "$path")" != "$(realpath -m "$output")" ] || die 64 "bench_process: $output is an input"
    bytes=$(( bytes + $(stat -c %s "$path") ))
    names+=("$(basename "$path")")
  done
  [ "$output" = - ] && output=$stdout
  local busy0 busy1 start end rc=0
  busy0=$(_bench_busy_jiffies)
  start=$(_bench_micros)
  /usr/bin/time -f '%M %U %S' -o "$BENCH_TMP/time" "$@" > "$stdout" 2> "$err" || rc=$?
  end=$(_bench_micros)
  busy1=$(_bench_busy_jiffies)
  local rss user system
  read -r rss user system < <(tail -n 1 "$BENCH_TMP/time")
  [[ ${rss:-} =~ ^[0-9]+$ ]] || { rss=0; user=0; system=0; }
  local wall cpu others
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f", (b - a) / 1e6 }')
  cpu=$(awk -v u="$user" -v s="$system" 'BEGIN { printf "%.2f", u + s }')
  others=$(awk -v a="$busy0" -v b="$busy1" -v hz="$(getconf CLK_TCK)" -v own="$cpu" \
    'BEGIN { o = (b - a) / hz - own; printf "%.2f", o < 0 ? 0 : o }')
  local cards="" json="{}" summary
  if [ "$kind" != none ] && [ -f "$output" ]; then
    cards=$("$COUNT_CARDS" "$kind" "$output" 2>/dev/null) || cards=unreadable
  fi
  [ "$output" = "$stdout" ] || json=$(grep '^{' "$stdout" | tail -n 1 || true)
  [ -n "$json" ] || json="{}"
  summary=$(grep -m 1 -E '(added|merged)' "$err" || tail -n 1 "$err" || true)
  summary=${summary//$'\t'/ }
  local ok=1 code
  for code in ${BENCH_OK_CODES:-0}; do [ "$rc" = "$code" ] && ok=0; done
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$BENCH_ROUND" "$id" "$shown" \
    "$(IFS=+; echo "${names[*]}")" "$bytes" "$rss" "$wall" "$cpu" "$others" "$rc" "$cards" \
    "$(wc -l < "$stdout")" "$(wc -l < "$err")" "$json" "${summary:0:300}" >> "$tsv"
  [ "$output" = "$stdout" ] || rm -f "$output"
  if [ $ok = 1 ]; then
    cp "$err" "$BENCH_DIR/suite-failed-$id-r$BENCH_ROUND.err"
    say "  FAILED (exit $rc): $shown; stderr kept in .bench/suite-failed-$id-r$BENCH_ROUND.err:"
    tail -n 5 "$err" | sed 's/^/    /' >&2
    : > "$stdout"
    return 1
  fi
  say "  $shown: ${wall}s, peak RSS $(( rss * 1024 / 1000000 )) MB, cpu ${cpu}s, others ${others}s${cards:+, $cards cards}"
  : > "$stdout"
}

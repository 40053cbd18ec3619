#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (release, AddressSanitizer) and runs each for a given time.
# Besides crashes and hangs, a run fails on a single allocation over 512 MB or 2 GB of memory in all.
#
# usage: Scripts/fuzz.sh [SECONDS] [TARGET...]
#
#   SECONDS  how long each target runs, in seconds (default 600)
#   TARGET   any of FuzzLexer FuzzVCardReader FuzzJCard FuzzCSV FuzzJPEG FuzzPNG FuzzRoundTrip (default: all)
#
# Each target's corpus lives in .build/fuzz/corpus/<target>/: it is seeded from Fixtures/ (the regression
# inputs of Fixtures/fuzz/<target>/ included) before every run and keeps what earlier runs found. Findings
# (crash-*, leak-*, timeout-*, oom-* files) go to .build/fuzz/artifacts/<target>/, each run's output to
# .build/fuzz/logs/<target>.log. At most JOBS targets run at once. The summary table goes to stdout and to
# .build/fuzz/summary.md; build output and progress go to stderr.
#
# Reproduce a finding:  .build/fuzz/build/release/<target> <file>
# Minimise it:          .build/fuzz/build/release/<target> -minimize_crash=1 -runs=20000 \
#                           -exact_artifact_path=min.bin <file>
#
# Environment:
#   JOBS=2          targets run at once (the machine has two cores)
#   FUZZ_NO_BUILD=1 use the binaries already in .build/fuzz/build/release
#   FUZZ_FLAGS=...  extra libFuzzer flags for every run (e.g. -use_value_profile=1)
# Exit status: 0 no finding; 1 a finding (or a run that ended abnormally); 2 the build failed; 64 bad usage.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ALL=(FuzzLexer FuzzVCardReader FuzzJCard FuzzCSV FuzzJPEG FuzzPNG FuzzRoundTrip)
JOBS=${JOBS:-2}
WORK=$ROOT/.build/fuzz
BIN=$WORK/build/release

usage() { echo "usage: Scripts/fuzz.sh [SECONDS] [TARGET...]   (targets: ${ALL[*]})" >&2; exit 64; }

SECONDS_EACH=600
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then SECONDS_EACH=$1; shift; fi
[ $# -gt 0 ] && [[ $1 == -h || $1 == --help ]] && usage
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL[@]}")
for target in "${TARGETS[@]}"; do
    [[ " ${ALL[*]} " == *" $target "* ]] || { echo "fuzz.sh: unknown target $target" >&2; usage; }
done

if [ "${FUZZ_NO_BUILD:-0}" != 1 ]; then
    # The whole Fuzz package: after the first build, the targets not asked for cost nothing.
    # `--sanitize=fuzzer` tells SwiftPM to link with libFuzzer's main rather than the module's own entry point;
    # `-Xswiftc -sanitize=fuzzer,address` comes after it on each swiftc command and so wins (swiftc keeps only
    # the last -sanitize= option, so `--sanitize=fuzzer --sanitize=address` would leave the Swift code without
    # coverage). The C glue gets AddressSanitizer too; the system's libjpeg and libpng are not instrumented.
    echo "fuzz.sh: building Fuzz/ (release, -sanitize=fuzzer,address)" >&2
    swift build --package-path "$ROOT/Fuzz" --scratch-path "$WORK/build" -c release --sanitize=fuzzer \
        -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=address 2>&1 \
        | grep -v "Cannot export local symbol" >&2
    [ "${PIPESTATUS[0]}" = 0 ] || { echo "fuzz.sh: the build failed" >&2; exit 2; }
fi

# The Fixtures/ files each target starts from, relative to Fixtures/.
seeds() {
    cd "$ROOT/Fixtures" || return
    case $1 in
        FuzzLexer | FuzzVCardReader | FuzzRoundTrip)
            ls vcard/*.vcf vcard4/*.vcf convert/*.vcf lint/*.vcf preview/*.vcf merge/*/*.vcf ;;
        FuzzJCard) ls jcard/*.json ;;
        FuzzCSV) ls csv/*.csv csv/expected/*.csv ;;
        # The small photos only: each exec of a 640x480 one takes some 200 ms under AddressSanitizer.
        FuzzJPEG) find photos -name '*.jpg' -size -16k | sort ;;
        FuzzPNG) ls photos/*.png ;;
    esac 2>/dev/null
    [ -d "fuzz/$1" ] && find "fuzz/$1" -type f | sort
}

dictionary() {
    case $1 in
        FuzzLexer | FuzzVCardReader | FuzzRoundTrip) echo vcard ;;
        FuzzJCard) echo json ;;
        FuzzCSV) echo csv ;;
        FuzzJPEG) echo jpeg ;;
        FuzzPNG) echo png ;;
    esac
}

# Longest input tried: room for the largest text fixture (12 KiB) and PNG fixture kept whole (2 KiB; the
# 400 KiB star field is cut to its first 64 KiB).
max_len() {
    case $1 in
        FuzzPNG) echo 65536 ;;
        *) echo 16384 ;;
    esac
}

run() {
    local target=$1
    local corpus=$WORK/corpus/$target artifacts=$WORK/artifacts/$target log=$WORK/logs/$target.log
    mkdir -p "$corpus" "$artifacts" "$WORK/logs"
    while IFS= read -r seed; do
        local name="seed-${seed//\//_}"
        [ -e "$corpus/$name" ] || cp "$ROOT/Fixtures/$seed" "$corpus/$name"
    done < <(seeds "$target")
    touch "$WORK/logs/$target.start"
    local start=$SECONDS
    echo "fuzz.sh: $target for ${SECONDS_EACH}s" >&2
    # libFuzzer has been seen to ignore SIGTERM: a hard kill a minute after its own limit. Swift's own crash
    # backtracer is off: under AddressSanitizer it reports a bogus overflow of its own after the real failure.
    # shellcheck disable=SC2086
    SWIFT_BACKTRACE=enable=no timeout -s KILL $((SECONDS_EACH + 60)) "$BIN/$target" "$corpus" -max_total_time="$SECONDS_EACH" \
        -rss_limit_mb=2048 -malloc_limit_mb=512 -timeout=10 -print_final_stats=1 -max_len="$(max_len "$target")" \
        -dict="$ROOT/Fuzz/Dictionaries/$(dictionary "$target").dict" -artifact_prefix="$artifacts/" \
        ${FUZZ_FLAGS:-} >"$log" 2>&1
    echo $? >"$WORK/logs/$target.rc"
    echo $((SECONDS - start)) >"$WORK/logs/$target.seconds"
    echo "fuzz.sh: $target done (exit $(cat "$WORK/logs/$target.rc"))" >&2
}

for target in "${TARGETS[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
    run "$target" &
done
wait

summary() {
    echo "| target | seconds | executions | exec/s | cov | ft | corpus | peak RSS MB | findings |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    local found=0
    for target in "${TARGETS[@]}"; do
        local log=$WORK/logs/$target.log rc seconds execs rate rss status cov ft corp findings
        rc=$(cat "$WORK/logs/$target.rc")
        seconds=$(cat "$WORK/logs/$target.seconds")
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
        rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
        status=$(grep -E '^#[0-9]+.*cov: [0-9]+' "$log" | tail -1)
        cov=$(sed -n 's/.*cov: \([0-9]*\).*/\1/p' <<<"$status")
        ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$status")
        corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$status")
        findings=$(find "$WORK/artifacts/$target" -maxdepth 1 -type f -newer "$WORK/logs/$target.start" \
            \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) -printf '%f ' | sed 's/ $//')
        if [ -z "$findings" ] && [ "$rc" != 0 ]; then findings="exit $rc, see $log"; fi
        if grep -q "Is the code instrumented for coverage" "$log"; then findings="no coverage: not instrumented?"; fi
        [ -n "$findings" ] && found=1
        echo "| $target | $seconds | ${execs:-?} | ${rate:-?} | ${cov:-?} | ${ft:-?} | ${corp:-?} | ${rss:-?} | ${findings:-none} |"
    done
    return $found
}

summary | tee "$WORK/summary.md"
exit "${PIPESTATUS[0]}"

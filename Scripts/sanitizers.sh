#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (every test but the suites that drive the built binary) and
# ThreadSanitizer (the concurrent paths: the parallel reader, the photo fitter's shared Lanczos pass, merging on
# several threads, linting and repairing parts of a file on several, convert --ensure-uid's cards written on the
# reading threads, a folder's files read and written several at once), each in its own build folder so the normal
# debug build is left alone. .ci/run calls it; VCF_CI_SANITIZERS=0 skips it there.
#
# usage: Scripts/sanitizers.sh [--all] [address|thread]...   (default: both)
#
# Without --all, the tests that take longest under each sanitizer are left to the plain run (see `heavy_address`
# and `heavy_thread` below), so CI stays under its 30 minutes: each repeats on a large generated input, or
# against a server, code that lighter tests run under the same sanitizer. --all runs every one of them too
# (about 17 minutes of tests on 2 cores; Docs/Hardening.md has the figures).
# LeakSanitizer's suppressions (Scripts/lsan-suppressions.txt) name only toolchain code, so a leak in our
# modules still fails the run. Exit status: non-zero when a sanitizer reports a problem or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
kinds=()
for arg in "$@"; do
    if [ "$arg" = --all ]; then all=1; else kinds+=("$arg"); fi
done
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)

# Seconds are each test's alone on one core under the sanitizer (serial runs at 81e01fc), and what runs the same
# code under it in the default run.
heavy_address=(
    # 149 s and 78 s: dedupes and merges of crowded and generated books of thousands of cards, each decided twice;
    # the engine's merge and dedupe cases (mergeCase, 78 cases) and the other planning tests settle smaller books.
    settlingLooksAgainOnlyWhereSomethingChanged
    settlingWithRememberedPairsDecidesAsDecidingAgain
    # 95 s and 53 s: a book sent to a Radicale server and read back; the suites' other tests talk to the same
    # server, and MultistatusTests parse its replies.
    mergeGivesTheCardsAFileGetsAndASecondRunSendsNothing
    writeListReadAndConflict
    # 77 s: 240 broken and clean cards repaired part by part; the other StreamFixerTests cross parts too.
    aLargeBrokenFileIsRepairedAsWhole
)
heavy_thread=(
    # 100 s and 26 s: files of many parts repaired on several threads; filesWithoutCutsOrCardsAreRepairedAsWhole and
    # theCorpusIsRepairedAsWhole repair parts on several threads too.
    aLargeBrokenFileIsRepairedAsWhole
    junkBeforeEveryCardIsRepairedAsWhole
    # 69, 64, 46 and 44 s: streamed linting of files of many parts; cardsInsideCardsAcrossPartsGiveTheWholeFilesFindings
    # and stretchesWithNoCutGiveTheWholeFilesFindingsAsTheyCome lint parts on several threads too.
    duplicateUIDsAcrossPartsAreTheWholeFilesFindings
    aUTF16FileStreamedGivesTheWholeFilesFindings
    aLargeCardThatEndsIsCutAfterLikeAnyOther
    findingsHandedOnAsTheyComeAreTheWholeFilesInOrder
    # 79 s under AddressSanitizer, which runs it: five files with a card over 32 MiB, each linted whole and
    # streamed. What it adds is read on one thread; stretchesWithNoCutGiveTheWholeFilesFindingsAsTheyCome reads such
    # stretches under ThreadSanitizer.
    aCardLargerThanACardMayBeGivesTheWholeFilesFindings
    # 32 s and 27 s: sweeps of budgets over 12 MP photos; aFittedCardMeetsItsRecordLimitWhenReadBack and
    # photoBoundsOfPresetsAreMet fit photos through the shared Lanczos pass.
    belowTheFloorTheFitLooksAtLeastAsGoodAsShrinkingAlone
    everyBudgetIsMetWithABaselineFrameAndNoMetadata
)

# A --skip pattern for the named tests (Swift Testing names a test `Module.Suite/name(...)`), or nothing with --all.
skipping() {
    [ "$all" = 0 ] || return 0
    local IFS='|'
    echo "sanitizers: $1 leaves to the plain run: ${*:2}" >&2
    printf '%s\n' --skip "/(${*:2})\\("
}
for kind in "${kinds[@]}"; do
    case $kind in
    address)
        export LSAN_OPTIONS="suppressions=$PWD/Scripts/lsan-suppressions.txt"
        swift build --build-tests --sanitize=address --scratch-path .build/asan
        # The suites that drive the built `vcf` binary (declared enabled only when it exists) are skipped: their
        # work happens in child processes, which run the plain debug binary, so under ASan they checked only the
        # test harness, at about half of the run's time (341 s for the other 560 tests). Every other suite runs.
        binary_suites=$(grep -rl 'builtBinary != nil' Tests | xargs awk '
            /@Suite\(.*builtBinary != nil/ {
                getline
                if (match($0, /struct [A-Za-z0-9_]+/)) print substr($0, RSTART + 7, RLENGTH - 7)
            }' | sort | paste -sd'|')
        [ -n "$binary_suites" ] || { echo "sanitizers: found no binary suites to skip" >&2; exit 1; }
        echo "sanitizers: AddressSanitizer skips the binary suites: $binary_suites" >&2
        mapfile -t heavy < <(skipping AddressSanitizer "${heavy_address[@]}")
        swift test --skip-build --sanitize=address --scratch-path .build/asan --skip "\\.($binary_suites)/" \
            "${heavy[@]}"
        ;;
    thread)
        mapfile -t heavy < <(skipping ThreadSanitizer "${heavy_thread[@]}")
        swift build --build-tests --sanitize=thread --scratch-path .build/tsan
        TSAN_OPTIONS=halt_on_error=1 swift test --skip-build --sanitize=thread --scratch-path .build/tsan \
            --filter \
            'PhotoProcessingTests|CardPhotoTests|ParallelReading|MergeInvariant|StreamLinter|StreamFixer|EnsureUID|FolderReading|VdirUpload|JCardStream|ContactJSONStream|ContactsFileRendering|LargeReplacement' \
            "${heavy[@]}"
        ;;
    *)
        echo "sanitizers: expected address or thread, not $kind" >&2
        exit 64
        ;;
    esac
done

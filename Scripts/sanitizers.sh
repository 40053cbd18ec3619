#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (every test but the suites that drive the built binary) and
# ThreadSanitizer (the concurrent paths: the parallel reader, the photo fitter's shared Lanczos pass, merging on
# several threads, linting and repairing parts of a file on several, convert --ensure-uid's cards written on the
# reading threads, a folder's files read several at once), each in its own build folder so the normal debug build
# is left alone. .ci/run calls it; VCF_CI_SANITIZERS=0 skips it there.
#
# usage: Scripts/sanitizers.sh [address|thread]...   (default: both)
# LeakSanitizer's suppressions (Scripts/lsan-suppressions.txt) name only toolchain code, so a leak in our
# modules still fails the run. Exit status: non-zero when a sanitizer reports a problem or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(address thread)
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
        swift test --skip-build --sanitize=address --scratch-path .build/asan --skip "\\.($binary_suites)/"
        ;;
    thread)
        swift build --build-tests --sanitize=thread --scratch-path .build/tsan
        TSAN_OPTIONS=halt_on_error=1 swift test --skip-build --sanitize=thread --scratch-path .build/tsan \
            --filter \
            'PhotoProcessingTests|CardPhotoTests|ParallelReading|MergeInvariant|StreamLinter|StreamFixer|EnsureUID|FolderReading'
        ;;
    *)
        echo "sanitizers: expected address or thread, not $kind" >&2
        exit 64
        ;;
    esac
done

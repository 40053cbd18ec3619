#!/usr/bin/env bash
# Checks the public API of every library module against the baseline recorded in API/, with the toolchain's
# swift-api-digester, so that an accidental break (a public declaration removed, renamed or retyped, a
# conformance dropped, a protocol requirement added) fails CI.
#
# usage: Scripts/api-check.sh            check (.ci/run runs this after `swift build`)
#        Scripts/api-check.sh --update   record the current API as the baseline, after a deliberate change
#
# The modules are the ones the umbrella re-exports (the `@_exported import` lines of Sources/VCF/VCF.swift); the
# script first checks that every library product in Package.swift is one of them. For each module it dumps the
# API of the debug build (`swift-api-digester -dump-sdk`), keeps only public declarations (Scripts/lib/
# api_dump.py: `package` ones are the package's own business) and compares that with API/<Module>.json using
# `-diagnose-sdk`. API/<Module>.txt is the same API as one readable line per declaration; review its diff.
#
# The baseline is a committed file, not a tag or a commit to rebuild: CI runs on a fresh clone that may have no
# tags, and comparing two dumps takes seconds where building an old commit takes minutes.
#
# Exit status: 0 the API is the recorded one (or --update recorded it); 1 a break, or a change not recorded;
# 2 the build or a dump failed; 64 bad usage. The baseline is made on Linux with the toolchain CI uses: a dump
# from another platform or compiler version differs in details, so record and check on the same one.
set -euo pipefail
cd "$(dirname "$0")/.."

update=0
case "${1:-}" in
"") ;;
--update) update=1 ;;
-h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
*)
    echo "api-check: unknown argument $1 (expected --update)" >&2
    exit 64
    ;;
esac

mapfile -t modules < <(sed -n 's/^@_exported import \([A-Za-z0-9_]*\)$/\1/p' Sources/VCF/VCF.swift | sort)
mapfile -t products < <(swift package dump-package |
    python3 -c 'import json, sys; print("\n".join(p["name"] for p in json.load(sys.stdin)["products"] if "library" in p["type"]))' |
    grep -vx VCF | sort)
missing=$(comm -13 <(printf '%s\n' "${modules[@]}") <(printf '%s\n' "${products[@]}"))
if [ -n "$missing" ]; then
    echo "api-check: library products the VCF umbrella does not re-export:" $missing >&2
    echo "  add them to Sources/VCF/VCF.swift and to the VCF target in Package.swift" >&2
    exit 1
fi

swift build >&2 || exit 2
bin=$(swift build --show-bin-path)
# Modules that import C targets need those targets' module maps to load (SwiftPM writes them into the build).
flags=(-I "$bin/Modules" -swift-only -abort-on-module-fail)
for map in "$bin"/*.build/module.modulemap; do flags+=(-Xcc "-fmodule-map-file=$map"); done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p API
status=0
for module in "${modules[@]}"; do
    if ! swift-api-digester -dump-sdk -module "$module" "${flags[@]}" -avoid-location -avoid-tool-args \
        -o "$work/$module.raw.json" 2>"$work/$module.err"; then
        cat "$work/$module.err" >&2
        echo "api-check: could not dump the API of $module" >&2
        exit 2
    fi
    python3 Scripts/lib/api_dump.py public "$work/$module.raw.json" "$work/$module.json"
    python3 Scripts/lib/api_dump.py list "$work/$module.json" "$work/$module.txt"
    if [ $update = 1 ]; then
        cp "$work/$module.json" "$work/$module.txt" API/
        continue
    fi
    if [ ! -f "API/$module.json" ]; then
        echo "api-check: $module has no baseline in API/ (a new library module?)" >&2
        status=1
        continue
    fi
    # The report has a /* heading */ per kind of break; every other non-empty line is a break.
    swift-api-digester -diagnose-sdk -input-paths "API/$module.json" -input-paths "$work/$module.json" \
        -o "$work/$module.diff" 2>/dev/null || true
    grep -v -e '^/\*' -e '^[[:space:]]*$' "$work/$module.diff" >"$work/$module.breaks" || true
    if [ -s "$work/$module.breaks" ]; then
        echo "api-check: $module: the public API breaks compared with API/$module.json:" >&2
        sed 's/^/  /' "$work/$module.breaks" >&2
        status=1
    elif ! cmp -s "API/$module.json" "$work/$module.json"; then
        echo "api-check: $module: the public API changed (nothing breaks) and API/$module.json does not record it:" >&2
        diff "API/$module.txt" "$work/$module.txt" | grep '^[<>]' | sed 's/^/  /' >&2 || true
        status=1
    fi
done
if [ $update = 1 ]; then
    # A module no longer re-exported leaves no stale baseline behind.
    for file in API/*.json; do
        name=$(basename "$file" .json)
        printf '%s\n' "${modules[@]}" | grep -qx "$name" || rm -f "API/$name.json" "API/$name.txt"
    done
    echo "api-check: recorded the API of ${#modules[@]} modules in API/; commit API/ with the change" >&2
elif [ $status != 0 ]; then
    echo "If the change is deliberate, record it with Scripts/api-check.sh --update and commit API/ with it" >&2
    echo "(say in the commit message what changed for an app, and why)." >&2
else
    echo "api-check: the public API of ${#modules[@]} modules is the one recorded in API/" >&2
fi
exit $status

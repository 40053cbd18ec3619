#!/usr/bin/env bash
# Builds the API documentation (the DocC catalog Sources/VCF/VCF.docc) with the toolchain's docc, from symbol
# graphs, with no plugin, and fails on any warning. .ci/run calls it.
#
# usage: Scripts/docs.sh [OUTPUT]    (default .build/docs/VCF.doccarchive)
#        preview: python3 -m http.server -d .build/docs/VCF.doccarchive, then /documentation/vcf
#
# The umbrella module VCF declares nothing itself: its symbol graph is extracted with the modules it re-exports
# folded in (swift-symbolgraph-extract's -experimental-allowed-reexported-modules), so the documentation shows
# every symbol as an app sees it after `import VCF`, and links to them resolve. docc runs with
# --warnings-as-errors; an unresolved link, an unknown parameter or a bad article reference fails the build.
# The Swift code blocks of GettingStarted.md must also be lines of the example programs (Examples/), so the
# article cannot drift from the code CI runs.
# Exit status: 0 built without warnings; 1 docc or the article check failed; 2 the build failed.
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs/VCF.doccarchive}

swift build >&2 || exit 2
bin=$(swift build --show-bin-path)
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT
flags=(-I "$bin/Modules")
for map in "$bin"/*.build/module.modulemap; do flags+=(-Xcc "-fmodule-map-file=$map"); done
modules=$(sed -n 's/^@_exported import \([A-Za-z0-9_]*\)$/\1/p' Sources/VCF/VCF.swift | paste -sd, -)
target=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
swift-symbolgraph-extract -module-name VCF -target "$target" "${flags[@]}" -output-dir "$graphs" \
    -minimum-access-level public -skip-inherited-docs -experimental-allowed-reexported-modules="$modules" || exit 2

# Every line of a ```swift block in the getting-started article appears in an example program.
missing=$(python3 - <<'EOF'
import glob, re
article = open("Sources/VCF/VCF.docc/GettingStarted.md").read()
sources = "\n".join(open(p).read() for p in glob.glob("Examples/**/*.swift", recursive=True))
lines = {line.strip() for line in sources.splitlines()}
for block in re.findall(r"```swift\n(.*?)```", article, re.S):
    for line in block.splitlines():
        if line.strip() and line.strip() not in lines:
            print("  " + line.strip())
EOF
)
if [ -n "$missing" ]; then
    echo "docs: GettingStarted.md shows code that is not in Examples/ (update one or the other):" >&2
    echo "$missing" >&2
    exit 1
fi

rm -rf "$output"
mkdir -p "$(dirname "$output")"
docc convert Sources/VCF/VCF.docc --additional-symbol-graph-dir "$graphs" --output-dir "$output" \
    --fallback-display-name VCF --fallback-bundle-identifier vcf.VCF --warnings-as-errors \
    2>"$graphs/docc.log" || {
    cat "$graphs/docc.log" >&2
    echo "docs: docc failed (warnings count as errors)" >&2
    exit 1
}
# docc prints nothing else on success; anything it printed is a finding worth failing on.
if grep -q . "$graphs/docc.log"; then
    cat "$graphs/docc.log" >&2
    echo "docs: docc printed diagnostics" >&2
    exit 1
fi
pages=$(find "$output/data/documentation" -name '*.json' | wc -l)
echo "docs: built $output ($pages pages) without warnings" >&2

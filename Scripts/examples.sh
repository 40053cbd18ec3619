#!/usr/bin/env bash
# Builds the example programs in Examples/ (a package of their own that depends on this one by path, with the
# umbrella product `VCF` only, as an app would) and runs them on Examples/Fixtures/, checking what they print
# and write. .ci/run calls it. The package is built from a copy outside the repository whose dependency path
# names this checkout, so what is checked is exactly a new package elsewhere adopting this one; the build
# folder stays in .build/examples so a second run is incremental.
#
# usage: Scripts/examples.sh
#
# What is checked, end to end through the public API:
#   share-card   a phone photo (EXIF orientation 6, GPS position) fitted into a card for CloudKit: the record
#                is vCard 3.0, at most 1,000,000 bytes, its photo an upright 480x640 baseline JPEG without
#                EXIF; fitted for Exchange, the photo's base64 is at most 48,000 bytes
#   receive-card the card shown (name, role, company, photo), merged into a contacts file that already has
#                the person (same three cards after, the person's card gains the photo and title); run again,
#                nothing changes; an invalid card is refused with its file, line and problem, exit 1, and
#                the contacts file is left as it was
# Exit status: 0 all checks pass; 1 a check failed; 2 the build failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

package="$work/vcf-examples"
mkdir -p "$package"
cp -R "$root/Examples/Sources" "$root/Examples/Fixtures" "$package/"
sed "s|path: \"..\")|path: \"$root\")|" "$root/Examples/Package.swift" >"$package/Package.swift"
grep -qF "path: \"$root\")" "$package/Package.swift" || {
    echo "examples: Examples/Package.swift no longer depends on the repository by path (..)" >&2
    exit 2
}
cd "$package"
build=(--scratch-path "$root/.build/examples")
swift build "${build[@]}" >&2 || exit 2
bin=$(swift build "${build[@]}" --show-bin-path)
failures=0
check() { # check DESCRIPTION COMMAND...: runs the command, reports a failure without stopping
    if "${@:2}"; then echo "ok: $1" >&2; else
        echo "FAILED: $1" >&2
        failures=$((failures + 1))
    fi
}
contains() { grep -qF -- "$2" "$1"; }

# The sharing side.
"$bin/share-card" Fixtures/phone-photo.jpg -o "$work/ada.vcf" >"$work/share.out"
"$bin/share-card" Fixtures/phone-photo.jpg --limit exchange -o "$work/ada-exchange.vcf" >"$work/share-exchange.out"
cat "$work/share.out" "$work/share-exchange.out" >&2
check "the CloudKit card is at most 1,000,000 bytes" test "$(wc -c <"$work/ada.vcf")" -le 1000000
check "the summary names the upright photo and the limit" contains "$work/share.out" "-> 480x640"
check "the summary says the record's size against the limit" contains "$work/share.out" "of 1,000,000 bytes"
check "the card is vCard 3.0" test "$(sed -n 2p "$work/ada.vcf")" = $'VERSION:3.0\r'
# Unfold the card, decode its photo and read the JPEG's markers.
photo_facts() {
    python3 - "$1" <<'EOF'
import base64, re, sys
text = open(sys.argv[1], "rb").read().decode().replace("\r\n ", "")
line = next(l for l in text.split("\r\n") if l.startswith("PHOTO;"))
params, value = line.split(":", 1)
data = base64.b64decode(value)
markers, i, size = [], 2, None
while i + 4 <= len(data) and data[i] == 0xFF:
    marker, length = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
    markers.append(marker)
    if marker == 0xC0:
        size = (int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big"))
    if marker == 0xDA:
        break
    i += 2 + length
print(params, len(value), "x".join(map(str, size or ())), "exif" if 0xE1 in markers else "no-exif",
      "baseline" if 0xC0 in markers else "not-baseline")
EOF
}
read -r params base64_length size exif frame < <(photo_facts "$work/ada.vcf")
check "the photo is embedded as vCard 3.0 base64 JPEG" test "$params" = "PHOTO;ENCODING=b;TYPE=JPEG"
check "the photo is upright (480x640 stored, no orientation left to apply)" test "$size" = 480x640
check "the photo carries no EXIF (no GPS position)" test "$exif" = no-exif
check "the photo is a baseline JPEG" test "$frame" = baseline
read -r _ exchange_base64 _ _ _ < <(photo_facts "$work/ada-exchange.vcf")
check "fitted for Exchange, the photo's base64 is at most 48,000 bytes" test "$exchange_base64" -le 48000

# The receiving side.
cp Fixtures/contacts.vcf "$work/contacts.vcf"
"$bin/receive-card" "$work/ada.vcf" --into "$work/contacts.vcf" >"$work/receive.out"
cat "$work/receive.out" >&2
check "the preview shows the name" contains "$work/receive.out" "Name: Ada Lovelace"
check "the preview shows the role" contains "$work/receive.out" "Role: Mathematician"
check "the preview shows the company" contains "$work/receive.out" "Company: Analytical Engines Ltd"
check "the preview shows the photo" contains "$work/receive.out" "Photo: JPEG 480x640"
check "the card merges into the existing Ada Lovelace" contains "$work/receive.out" "Merged into “Ada Lovelace”"
check "the contacts file still holds three cards" test "$(grep -c '^BEGIN:VCARD' "$work/contacts.vcf")" = 3
check "the merged card gained the photo" contains "$work/contacts.vcf" "PHOTO;ENCODING=b;TYPE=JPEG:"
check "the merged card gained the title" contains "$work/contacts.vcf" "TITLE:Mathematician"
check "the merged card kept its note" contains "$work/contacts.vcf" "NOTE:Met at the Analytical Society"
cp "$work/contacts.vcf" "$work/contacts-after-first.vcf"
"$bin/receive-card" "$work/ada.vcf" --into "$work/contacts.vcf" >"$work/receive-again.out"
check "receiving the card again changes nothing" contains "$work/receive-again.out" "nothing to change"
check "receiving the card again leaves the file byte for byte" cmp -s "$work/contacts.vcf" "$work/contacts-after-first.vcf"

status=0
"$bin/receive-card" Fixtures/invalid.vcf --into "$work/contacts.vcf" >"$work/invalid.out" 2>"$work/invalid.err" ||
    status=$?
cat "$work/invalid.err" >&2
check "an invalid card exits 1" test "$status" = 1
check "an invalid card is called invalid" contains "$work/invalid.err" "this card data is invalid"
check "the problem names file, line and column and says what was expected" \
    contains "$work/invalid.err" 'Fixtures/invalid.vcf:6:15: error: expected `NAME:value`'
check "an invalid card leaves the contacts file as it was" cmp -s "$work/contacts.vcf" "$work/contacts-after-first.vcf"

if [ $failures -gt 0 ]; then
    echo "examples: $failures checks failed" >&2
    exit 1
fi
echo "examples: both programs built on the VCF product and every check passed" >&2

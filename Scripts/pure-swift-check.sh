#!/usr/bin/env bash
# Shows that the pure-Swift layers build and link with no C library: a scratch package outside the repository
# depends on this one by path and on the products VCardSyntax, ContactModel, VCardFormat, ContactCSV,
# ContactFormats, ContactMatching, ContactMerge, ContactPresentation and VCardLint only, and builds a program that uses each.
# .ci/run calls it.
#
# usage: Scripts/pure-swift-check.sh
#
# Checked: pkg-config is blinded for the build (PKG_CONFIG_LIBDIR points at an empty directory), none of the C
# targets (CJPEG, CPNG, CQRencode) nor the photo and QR modules is compiled, the program's dynamic section needs
# no libjpeg, libpng or libqrencode, and the program reads, writes, lints, matches and merges a card correctly.
# These are the layers an iOS app can use today (see the documentation's "Platforms" article).
# Exit status: 0 all checks pass; 1 a check failed; 2 the build failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pure/Sources/pure" "$work/no-pkg-config"

cat >"$work/pure/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let products = [
    "VCardSyntax", "ContactModel", "VCardFormat", "ContactCSV", "ContactFormats", "ContactMatching",
    "ContactMerge", "ContactPresentation", "VCardLint",
]
let package = Package(
    name: "pure",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "vcf", path: "$root")],
    targets: [.executableTarget(name: "pure", dependencies: products.map { .product(name: \$0, package: "vcf") })]
)
EOF

cat >"$work/pure/Sources/pure/main.swift" <<'EOF'
import ContactCSV
import ContactMatching
import ContactMerge
import ContactModel
import ContactPresentation
import VCardFormat
import VCardLint
import VCardSyntax

let card = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\nEMAIL:ada@example.org\r\nEND:VCARD\r\n".utf8)
let (cards, diagnostics) = VCardDocument.read(card, name: "ada.vcf")
let contact = cards[0].contact
let written = VCardWriter(version: .v4_0).bytes([contact])
let again = VCardDocument.read(written).cards[0].contact
let csv = ContactCSV.read(ContactCSV.write([contact])).contacts
let lint = Linter.lint(card, file: "ada.vcf").filter { $0.severity == .error }
var incoming = contact
incoming.title = "Mathematician"
let merged = AddressBookMerge().merge([IncomingCard(contact: incoming, file: "ada.vcf", line: 1)], into: [contact])
let preview = TextPreview.render(CardView(contact))
print("diagnostics=\(diagnostics.count)")
print("roundtrip=\(again.formattedName ?? "-")|\(again.emails.first?.value ?? "-")")
print("csv=\(csv.first?.emails.first?.value ?? "-")")
print("lint-errors=\(lint.count)")
print("merge=\(merged.entries[0].outcome.rawValue)")
print("preview=\(preview.split(separator: "\n").first ?? "")")
EOF

cd "$work/pure"
if ! PKG_CONFIG_LIBDIR="$work/no-pkg-config" PKG_CONFIG_PATH="" swift build >"$work/build.log" 2>&1; then
    cat "$work/build.log" >&2
    exit 2
fi
bin=$(swift build --show-bin-path)
failures=0
check() {
    if "${@:2}"; then echo "ok: $1" >&2; else
        echo "FAILED: $1" >&2
        failures=$((failures + 1))
    fi
}
# SwiftPM makes a folder for every target of the graph; a compiled one holds object files.
for target in CJPEG CPNG CQRencode PhotoProcessing CardPhoto QRCode CardQR; do
    check "$target is not compiled" test -z "$(find "$bin/$target.build" -name '*.o' 2>/dev/null)"
done
for module in VCardSyntax ContactModel VCardFormat ContactCSV ContactFormats ContactMatching ContactMerge ContactPresentation VCardLint; do
    check "$module is compiled" test -n "$(find "$bin/$module.build" -name '*.o')"
done
readelf -d "$bin/pure" | grep NEEDED >"$work/needed.txt" || true
sed 's/^/  /' "$work/needed.txt" >&2
check "the program needs no libjpeg, libpng or libqrencode" \
    bash -c "! grep -Eiq 'jpeg|png|qrencode' '$work/needed.txt'"
"$bin/pure" >"$work/out.txt"
cat >"$work/expected.txt" <<'EOF'
diagnostics=0
roundtrip=Ada Lovelace|ada@example.org
csv=ada@example.org
lint-errors=0
merge=merged
preview=Ada Lovelace
EOF
check "the program reads, writes, lints, matches and merges" diff "$work/expected.txt" "$work/out.txt"
if [ $failures -gt 0 ]; then
    echo "pure-swift-check: $failures checks failed" >&2
    exit 1
fi
echo "pure-swift-check: the pure-Swift layers build and run with no C library" >&2

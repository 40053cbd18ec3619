#!/usr/bin/env bash
# Renders the HTML preview of the preview fixtures in headless Chromium (Debian `chromium`) to PNG, so a
# person can look at them: a card with a photo, without, a long name, right-to-left text, a hostile card,
# and all five as a list. Usage: Scripts/preview-screenshots.sh [OUT_DIR]   (default: .build/screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-.build/screenshots}"
mkdir -p "$out"
browser="$(command -v chromium || command -v chromium-browser || true)"
if [ -z "$browser" ]; then
    echo "chromium is not installed: apt-get install -y chromium" >&2
    exit 2
fi
swift build --product vcf >/dev/null
vcf="$(swift build --show-bin-path)/vcf"
for card in with-photo without-photo long-name rtl hostile all; do
    html="$out/$card.html"
    "$vcf" preview "Fixtures/preview/$card.vcf" --format html -o "$html"
    height=700
    [ "$card" = all ] && height=1900
    # --no-sandbox: CI containers run as root; the page itself allows no scripts (CSP default-src 'none').
    "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
        --window-size=640,$height --screenshot="$out/$card.png" "file://$(realpath "$html")" 2>/dev/null
    echo "$out/$card.png"
done

#!/usr/bin/env bash
# Builds release and runs the photo benchmark (Scripts/photo-bench.py: vcf beside ImageMagick, SSIM, record check).
# usage: Scripts/photo-bench.sh    environment: RUNS=5 CONVERT=/usr/bin/convert VCF_SHARED=../shared
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product vcf >&2
swift build -c release --product vcf-bench >&2
exec python3 Scripts/photo-bench.py

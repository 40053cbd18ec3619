#!/usr/bin/env bash
# Builds release and runs the photo benchmark (Scripts/photo-bench.py: vcf beside ImageMagick, SSIM, record check).
#
# usage: Scripts/photo-bench.sh
#
# Environment: as Scripts/photo-bench.py (RUNS=5, PHOTOS, FIT_ONLY, PHOTO_RAW, CONVERT=/usr/bin/convert,
# VCF_SHARED=../shared); VCF_BIN_DIR=DIR uses DIR's vcf and vcf-bench and skips the build.
# Exit status: 0 done; 1 a run or record failed; 2 a tool or input is missing; 64 bad usage.
set -euo pipefail

BENCH_NAME=photo-bench
# shellcheck source=Scripts/lib/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/bench-common.sh"
bench_args "$0" "$@"
bench_need photo-inputs photo-python imagemagick
bench_require
bench_build vcf vcf-bench
VCF_BIN_DIR=$BIN_DIR exec "$PYTHON" "$ROOT/Scripts/photo-bench.py"

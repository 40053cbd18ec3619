#!/usr/bin/env bash
# Baseline for the contact-photo recompression benchmark: ImageMagick.
#
# usage: Scripts/photo-bench-imagemagick.sh [PHOTO_DIR [OUT_DIR]]
#   PHOTO_DIR  default .bench/photos (made by shared/bench/photo/make_photos.py)
#   OUT_DIR    default .bench/photo-out/imagemagick
#
# For every photo (*.jpg, *.jpeg, *.png) and every JPEG byte budget B it runs RUNS times
#   convert IN -define jpeg:size=1024x1024 -auto-orient -strip -colorspace sRGB \
#              -resize '512x512>' -define jpeg:extent=B OUT/<stem>-B.jpg
# and measures the wall-clock time of each whole process (decode + orient + resize +
# the quality search jpeg:extent does + encode). It prints one TSV row per photo and
# budget: photo, budget, median ms, output bytes. Then, per photo, the rows of
# shared/bench/photo/photo_quality.py for its outputs (frame type, orientation, SSIM, PSNR).
#
# Environment: RUNS=5  CONVERT=/usr/bin/convert (the real ImageMagick, not the
# /usr/local/bin/convert stand-in)  PHOTO_SHARED=DIR (default ../shared/bench/photo)  PYTHON=python3
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PHOTOS=${1:-$ROOT/.bench/photos}
OUT=${2:-$ROOT/.bench/photo-out/imagemagick}
RUNS=${RUNS:-5}
CONVERT=${CONVERT:-/usr/bin/convert}
QUALITY=${PHOTO_SHARED:-$ROOT/../shared/bench/photo}/photo_quality.py
PYTHON=${PYTHON:-python3}
BUDGETS=(1000000 224000 48000 16000 8000)

"$CONVERT" -version 2>/dev/null | grep -q ImageMagick || { echo "not ImageMagick: $CONVERT (apt-get install imagemagick)" >&2; exit 2; }
[[ -f $QUALITY ]] || { echo "missing $QUALITY" >&2; exit 2; }
mkdir -p "$OUT"
shopt -s nullglob
photos=()
for f in "$PHOTOS"/*; do
  case ${f,,} in *.jpg | *.jpeg | *.png) photos+=("$f") ;; esac
done
(( ${#photos[@]} )) || { echo "no photos in $PHOTOS" >&2; exit 2; }

now_us() { local t=$EPOCHREALTIME; echo "${t/./}"; }   # wall clock, microseconds, no fork

printf 'photo\tbudget\tmedian_ms\tbytes\n'
for in in "${photos[@]}"; do
  stem=$(basename "${in%.*}")
  for b in "${BUDGETS[@]}"; do
    out=$OUT/$stem-$b.jpg
    times=()
    for ((r = 0; r < RUNS; r++)); do
      t0=$(now_us)
      "$CONVERT" "$in" -define jpeg:size=1024x1024 -auto-orient -strip -colorspace sRGB \
        -resize '512x512>' -define jpeg:extent="$b" "$out"
      t1=$(now_us)
      times+=($((t1 - t0)))
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
    printf '%s\t%s\t%d.%d\t%s\n' "$stem" "$b" $((median / 1000)) $((median % 1000 / 100)) "$(stat -c %s "$out")"
  done
done

for in in "${photos[@]}"; do
  stem=$(basename "${in%.*}")
  outs=()
  for b in "${BUDGETS[@]}"; do outs+=("$OUT/$stem-$b.jpg"); done
  echo
  echo "# quality: $(basename "$in")"
  "$PYTHON" "$QUALITY" "$in" "${outs[@]}"
done

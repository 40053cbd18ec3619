#!/usr/bin/env python3
"""Photo benchmark: vcf's photo fit beside ImageMagick, same photos, same longest edge, same budgets, one run.

usage: Scripts/photo-bench.py            (after `swift build -c release`; Scripts/photo-bench.sh does both)

For every photo made by ../shared/bench/photo/make_photos.py (12 MP baseline, EXIF-rotated, progressive,
grayscale, CMYK, PNG, avatar) and every JPEG budget in BUDGETS, interleaved per photo and budget:
  ours (in process)  vcf-bench photo-fit IMAGE B 512 RUNS OUT   median of RUNS fits, decode to encode
  ours (process)     vcf photo fit IMAGE --max-bytes B --max-edge 512 -o OUT, wall clock, median of RUNS
  ImageMagick        convert IN -define jpeg:size=1024x1024 -auto-orient -strip -colorspace sRGB
                       -resize '512x512>' -define jpeg:extent=B OUT, wall clock, median of RUNS
Both outputs are scored by ../shared/bench/photo/photo_quality.py (frame type, orientation, SSIM at 512 px).
Then our default mode (1024 px) in process, and the record check: for every preset plus 16,000 and 8,000,
`vcf convert card.json --photo IMAGE --max-bytes X` must give a card at or under its limit whose photo,
extracted again, is baseline and displays upright.
Prints Markdown tables; raw rows go to .bench/photo-last-run.tsv.
Environment: RUNS=5, CONVERT=/usr/bin/convert (ImageMagick; /usr/local/bin/convert is not), VCF_SHARED=../shared.
Needs: python3 with pillow, numpy, scikit-image; imagemagick.
"""
import json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("VCF_SHARED", os.path.join(ROOT, "..", "shared"))
RUNS = int(os.environ.get("RUNS", "5"))
CONVERT = os.environ.get("CONVERT", "/usr/bin/convert")
BUDGETS = [1_000_000, 224_000, 48_000, 16_000, 8_000]
PRESETS = [("cloudkit", 1_000_000, None), ("icloud", 256_000, 224_000), ("exchange", None, 36_000),
           ("nextcloud", 5_242_880, None), ("baikal", 1_000_000, None), ("16000", 16_000, None), ("8000", 8_000, None)]
BENCH = os.path.join(ROOT, ".build", "release", "vcf-bench")
VCF = os.path.join(ROOT, ".build", "release", "vcf")
PHOTOS = os.path.join(ROOT, ".bench", "photos")
QUALITY = os.path.join(SHARED, "bench", "photo", "photo_quality.py")


def wall(cmd):
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def quality(source, outputs):
    lines = subprocess.run([sys.executable, QUALITY, source] + outputs, check=True, capture_output=True,
                           text=True).stdout.splitlines()[1:]
    return [dict(zip(["output", "bytes", "frame", "stored", "mode", "exif", "upright", "ssim", "psnr"],
                     line.split("\t"))) for line in lines]


def main():
    for tool in (BENCH, VCF):
        if not os.path.exists(tool):
            sys.exit(f"missing {tool}: run swift build -c release first")
    if b"ImageMagick" not in subprocess.run([CONVERT, "-version"], capture_output=True).stdout:
        sys.exit(f"not ImageMagick: {CONVERT} (apt-get install imagemagick)")
    if not os.path.isdir(PHOTOS):
        subprocess.run([sys.executable, os.path.join(SHARED, "bench", "photo", "make_photos.py"), PHOTOS], check=True)
    photos = sorted(f for f in os.listdir(PHOTOS) if f.lower().endswith((".jpg", ".jpeg", ".png")))
    work = tempfile.mkdtemp(prefix="vcf-photo-bench-")
    rows = []
    for photo in photos:
        source = os.path.join(PHOTOS, photo)
        stem = photo.rsplit(".", 1)[0]
        for budget in BUDGETS:
            ours, cli, im = (os.path.join(work, f"{stem}-{budget}-{k}.jpg") for k in ("ours", "cli", "im"))
            fit = json.loads(subprocess.run([BENCH, "photo-fit", source, str(budget), "512", str(RUNS), ours],
                                            check=True, capture_output=True, text=True).stdout)
            cli_ms, im_ms = [], []
            for _ in range(RUNS):  # interleaved, so both see the same machine load
                cli_ms.append(wall([VCF, "photo", "fit", source, "--max-bytes", str(budget), "--max-edge", "512",
                                    "-o", cli]))
                im_ms.append(wall([CONVERT, source, "-define", "jpeg:size=1024x1024", "-auto-orient", "-strip",
                                   "-colorspace", "sRGB", "-resize", "512x512>", "-define", f"jpeg:extent={budget}", im]))
            ours_q, im_q = quality(source, [ours, im])
            rows.append(dict(photo=stem, budget=budget, ours_ms=fit["median_ms"], cli_ms=statistics.median(cli_ms),
                             im_ms=statistics.median(im_ms), ours=ours_q, im=im_q, fit=fit))
            print(f"{stem} {budget}: ours {fit['median_ms']:.1f} ms, process {statistics.median(cli_ms):.1f} ms, "
                  f"ImageMagick {statistics.median(im_ms):.1f} ms; SSIM {ours_q['ssim']} vs {im_q['ssim']}",
                  file=sys.stderr)
    defaults = []
    for photo in photos:
        source = os.path.join(PHOTOS, photo)
        for budget in (1_000_000, 224_000, 48_000):
            fit = json.loads(subprocess.run([BENCH, "photo-fit", source, str(budget), "1024", str(RUNS),
                                             os.path.join(work, "default.jpg")],
                                            check=True, capture_output=True, text=True).stdout)
            defaults.append((photo.rsplit(".", 1)[0], budget, fit))
    records = check_records(photos, work)

    with open(os.path.join(ROOT, ".bench", "photo-last-run.tsv"), "w") as raw:
        for r in rows:
            raw.write("\t".join(map(str, [r["photo"], r["budget"], r["ours_ms"], r["cli_ms"], r["im_ms"],
                                          r["ours"]["bytes"], r["ours"]["ssim"], r["im"]["bytes"], r["im"]["ssim"]]))
                      + "\n")
    print(f"RUNS={RUNS}, longest edge 512, medians in ms; ratio = ImageMagick ms / ours (process) ms.\n")
    print("| photo | budget | ours ms (in process) | ours ms (process) | ImageMagick ms | ratio | ours bytes | ours "
          "out | ours SSIM | IM bytes | IM SSIM | ours frame, upright |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |")
    worse = 0
    for r in rows:
        o, m = r["ours"], r["im"]
        mark = "" if float(o["ssim"]) >= float(m["ssim"]) else " (lower)"
        worse += bool(mark)
        out = f"{o['stored']} q{r['fit']['quality']} {r['fit']['chroma']}" if r["fit"]["chroma"] != "kept" else "kept"
        print(f"| {r['photo']} | {r['budget']:,} | {r['ours_ms']:.1f} | {r['cli_ms']:.1f} | {r['im_ms']:.1f} | "
              f"{r['im_ms'] / r['cli_ms']:.1f}x | {int(o['bytes']):,} | {out} | {o['ssim']}{mark} | {int(m['bytes']):,} | "
              f"{m['ssim']} | {o['frame']}, {'yes' if o['upright'] == '1' else 'NO'} |")
    twelve = [r for r in rows if r["photo"].startswith(("p01", "p02", "p03", "p04"))]
    progressive = [r for r in rows if "progressive" in r["photo"]]
    print(f"\n12 MP baseline photos (p01-p04): ours median {statistics.median(r['ours_ms'] for r in twelve):.1f} ms "
          f"in process, {statistics.median(r['cli_ms'] for r in twelve):.1f} ms as a process; ImageMagick "
          f"{statistics.median(r['im_ms'] for r in twelve):.1f} ms. Progressive (p05): ours "
          f"{statistics.median(r['ours_ms'] for r in progressive):.1f} ms in process, ImageMagick "
          f"{statistics.median(r['im_ms'] for r in progressive):.1f} ms. SSIM lower than ImageMagick's in {worse} of "
          f"{len(rows)} cells.")
    print("\nDefault mode (longest edge 1024), in process:\n")
    print("| photo | budget | ms | bytes | output |")
    print("| --- | ---: | ---: | ---: | --- |")
    for stem, budget, fit in defaults:
        out = "kept" if fit["chroma"] == "kept" else f"{fit['width']}x{fit['height']} q{fit['quality']} {fit['chroma']}"
        print(f"| {stem} | {budget:,} | {fit['median_ms']:.1f} | {fit['bytes']:,} | {out} |")
    print(f"\nRecord check ({len(records)} cards): every preset plus 16,000 and 8,000, per photo.\n")
    failures = [r for r in records if not r[-1]]
    print(f"{len(records) - len(failures)} of {len(records)} cards at or under their limit with a baseline, upright photo.")
    for r in failures:
        print("FAILED:", r)
    return 1 if failures else 0


def check_records(photos, work):
    card = os.path.join(work, "card.json")
    with open(card, "w") as f:
        json.dump({"formattedName": "Ada Lovelace", "title": "Analyst", "organization": {"name": "Engines Ltd"},
                   "emails": [{"value": "ada@example.org", "types": ["WORK"]}],
                   "phones": [{"value": "+44 20 7946 0000", "types": ["CELL"]}]}, f)
    results = []
    for photo in photos:
        source = os.path.join(PHOTOS, photo)
        for name, record, photo_bound in PRESETS:
            out = os.path.join(work, f"record-{name}.vcf")
            subprocess.run([VCF, "convert", card, "--photo", source, "--max-bytes", name, "-o", out], check=True,
                           capture_output=True)
            size = os.path.getsize(out)
            extracted = os.path.join(work, f"extract-{name}")
            subprocess.run(["rm", "-rf", extracted])
            subprocess.run([VCF, "photo", "extract", out, "-o", extracted], check=True, capture_output=True)
            jpeg = os.path.join(extracted, os.listdir(extracted)[0])
            q = quality(source, [jpeg])[0]
            ok = (record is None or size <= record) and (photo_bound is None or os.path.getsize(jpeg) <= photo_bound) \
                and q["frame"] == "SOF0" and q["upright"] == "1"
            results.append((photo, name, size, os.path.getsize(jpeg), q["frame"], q["upright"], ok))
    return results


if __name__ == "__main__":
    sys.exit(main())

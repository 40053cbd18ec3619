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
Prints Markdown tables; raw rows go to .bench/photo-last-run.tsv (photo, budget, ours ms in process, ours ms as a
process, ImageMagick ms, ours bytes, ours SSIM, IM bytes, IM SSIM, ours peak RSS KiB, IM peak RSS KiB as processes).
Environment: RUNS=5, CONVERT=/usr/bin/convert (ImageMagick; /usr/local/bin/convert is not), VCF_SHARED=../shared,
  PHOTOS="p01 p09_avatar_400"  only these photos (a name, or the prefix before its first "_"; default all),
  FIT_ONLY=1                   only the fit table (no default-mode table, no record check),
  PHOTO_RAW=FILE               raw rows here instead of .bench/photo-last-run.tsv,
  VCF_BIN_DIR=DIR              vcf and vcf-bench from DIR (default Benchmarks/.build/release).
Exit status: 0 done; 1 a run or record failed; 2 a tool or input is missing.
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
BIN_DIR = os.environ.get("VCF_BIN_DIR") or os.path.join(ROOT, "Benchmarks", ".build", "release")
BENCH = os.path.join(BIN_DIR, "vcf-bench")
VCF = os.path.join(BIN_DIR, "vcf")
PHOTOS = os.path.join(ROOT, ".bench", "photos")
SELECTED = os.environ.get("PHOTOS", "").replace(",", " ").split()
FIT_ONLY = os.environ.get("FIT_ONLY", "0") == "1"
RAW = os.environ.get("PHOTO_RAW") or os.path.join(ROOT, ".bench", "photo-last-run.tsv")
QUALITY = os.path.join(SHARED, "bench", "photo", "photo_quality.py")


def wall(cmd):
    """Runs cmd; returns its wall-clock ms and its peak RSS in KiB (from wait4, so nothing else is timed)."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    ms = (time.perf_counter() - start) * 1000
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise subprocess.CalledProcessError(child.returncode, cmd)
    return ms, usage.ru_maxrss


def selected(name):
    stem = name.rsplit(".", 1)[0]
    return not SELECTED or any(stem == s or stem.split("_", 1)[0] == s for s in SELECTED)


def quality(source, outputs):
    lines = subprocess.run([sys.executable, QUALITY, source] + outputs, check=True, capture_output=True,
                           text=True).stdout.splitlines()[1:]
    return [dict(zip(["output", "bytes", "frame", "stored", "mode", "exif", "upright", "ssim", "psnr"],
                     line.split("\t"))) for line in lines]


def main():
    for tool in (BENCH, VCF):
        if not os.path.exists(tool):
            fail(f"missing {tool}: run swift build -c release first")
    try:
        is_magick = b"ImageMagick" in subprocess.run([CONVERT, "-version"], capture_output=True).stdout
    except OSError:
        is_magick = False
    if not is_magick:
        fail(f"not ImageMagick: {CONVERT} (apt-get install imagemagick)")
    if not os.path.isdir(PHOTOS):  # made aside and renamed, so an interrupted run leaves no partial set
        subprocess.run(["rm", "-rf", PHOTOS + ".part"], check=True)
        subprocess.run([sys.executable, os.path.join(SHARED, "bench", "photo", "make_photos.py"), PHOTOS + ".part"],
                       check=True)
        os.rename(PHOTOS + ".part", PHOTOS)
    photos = sorted(f for f in os.listdir(PHOTOS) if f.lower().endswith((".jpg", ".jpeg", ".png")) and selected(f))
    if not photos:
        fail(f"no photo in {PHOTOS} matches PHOTOS={' '.join(SELECTED)}")
    work = tempfile.mkdtemp(prefix="vcf-photo-bench-")
    rows = []
    for photo in photos:
        source = os.path.join(PHOTOS, photo)
        stem = photo.rsplit(".", 1)[0]
        for budget in BUDGETS:
            ours, cli, im = (os.path.join(work, f"{stem}-{budget}-{k}.jpg") for k in ("ours", "cli", "im"))
            fit = json.loads(subprocess.run([BENCH, "photo-fit", source, str(budget), "512", str(RUNS), ours],
                                            check=True, capture_output=True, text=True).stdout)
            cli_ms, im_ms, cli_rss, im_rss = [], [], [], []
            for _ in range(RUNS):  # interleaved, so both see the same machine load
                ms, rss = wall([VCF, "photo", "fit", source, "--max-bytes", str(budget), "--max-edge", "512",
                                "-o", cli])
                cli_ms.append(ms)
                cli_rss.append(rss)
                ms, rss = wall([CONVERT, source, "-define", "jpeg:size=1024x1024", "-auto-orient", "-strip",
                                "-colorspace", "sRGB", "-resize", "512x512>", "-define", f"jpeg:extent={budget}", im])
                im_ms.append(ms)
                im_rss.append(rss)
            ours_q, im_q = quality(source, [ours, im])
            rows.append(dict(photo=stem, budget=budget, ours_ms=fit["median_ms"], cli_ms=statistics.median(cli_ms),
                             im_ms=statistics.median(im_ms), ours=ours_q, im=im_q, fit=fit,
                             cli_rss=statistics.median(cli_rss), im_rss=statistics.median(im_rss)))
            print(f"{stem} {budget}: ours {fit['median_ms']:.1f} ms, process {statistics.median(cli_ms):.1f} ms, "
                  f"ImageMagick {statistics.median(im_ms):.1f} ms; SSIM {ours_q['ssim']} vs {im_q['ssim']}",
                  file=sys.stderr)
    defaults = []
    for photo in [] if FIT_ONLY else photos:
        source = os.path.join(PHOTOS, photo)
        for budget in (1_000_000, 224_000, 48_000):
            fit = json.loads(subprocess.run([BENCH, "photo-fit", source, str(budget), "1024", str(RUNS),
                                             os.path.join(work, "default.jpg")],
                                            check=True, capture_output=True, text=True).stdout)
            defaults.append((photo.rsplit(".", 1)[0], budget, fit))
    records = [] if FIT_ONLY else check_records(photos, work)

    with open(RAW, "w") as raw:
        for r in rows:
            raw.write("\t".join(map(str, [r["photo"], r["budget"], r["ours_ms"], r["cli_ms"], r["im_ms"],
                                          r["ours"]["bytes"], r["ours"]["ssim"], r["im"]["bytes"], r["im"]["ssim"],
                                          r["cli_rss"], r["im_rss"]]))
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
    print()
    if twelve:
        print(f"12 MP baseline photos (p01-p04): ours median {statistics.median(r['ours_ms'] for r in twelve):.1f} ms "
              f"in process, {statistics.median(r['cli_ms'] for r in twelve):.1f} ms as a process; ImageMagick "
              f"{statistics.median(r['im_ms'] for r in twelve):.1f} ms.", end=" ")
    if progressive:
        print(f"Progressive (p05): ours {statistics.median(r['ours_ms'] for r in progressive):.1f} ms in process, "
              f"ImageMagick {statistics.median(r['im_ms'] for r in progressive):.1f} ms.", end=" ")
    print(f"SSIM lower than ImageMagick's in {worse} of {len(rows)} cells.")
    if FIT_ONLY:
        return 0
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


def fail(message):
    print(f"photo-bench: {message}", file=sys.stderr)
    sys.exit(2)


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

#!/usr/bin/env python3
"""Print Scripts/bench-suite.sh's table from its raw rows.

usage: bench_suite_table.py RUNS_TSV [PHOTO_TSV] --book NAME --book-cards N --small-book NAME --small-cards N
                            --incoming NAME --incoming-cards N --photos LIST --warmup-bytes N --jobs N

RUNS_TSV holds one row per timed run (round, tool, mode, file, peak RSS KiB, wall seconds, JSON; see
Scripts/lib/bench-common.sh); PHOTO_TSV is Scripts/photo-bench.py's raw file (empty argument: no photo rows).
Prints one Markdown table, its legend and the card-count check to stdout. Exit status 1 when tools disagree on
how many cards a file holds (or a count is not the one the file was made with), else 0.
"""
import argparse
import json
import statistics
import sys
from collections import defaultdict

BUDGETS = [1_000_000, 224_000, 48_000, 16_000, 8_000]
PEERS = [("ez-vcard", "ez-vcard"), ("sabre", "sabre/vobject"), ("vobject", "Python vobject †")]
COLUMNS = ["vcf"] + [label for _, label in PEERS] + ["ImageMagick"]


def load_runs(path):
    runs = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            round_, tool, mode, file, rss_kib, wall, payload = line.rstrip("\n").split("\t", 6)
            runs.append(dict(round=round_, tool=tool, mode=mode, file=file, rss_kib=int(rss_kib),
                             wall=float(wall), data=json.loads(payload)))
    return runs


def load_photos(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            (photo, budget, ours_ms, cli_ms, im_ms, ours_bytes, ours_ssim, im_bytes, im_ssim, cli_rss,
             im_rss) = line.rstrip("\n").split("\t")
            rows.append(dict(photo=photo, budget=int(budget), ours_ms=float(ours_ms), cli_ms=float(cli_ms),
                             im_ms=float(im_ms), ours_ssim=float(ours_ssim), im_ssim=float(im_ssim),
                             cli_rss=float(cli_rss), im_rss=float(im_rss)))
    return rows


def mb(kib):
    return kib * 1024 / 1e6


def throughput(runs, tool, mode):
    """Median seconds, MB/s from it, median peak RSS in MB and the min-max seconds of one tool and mode."""
    samples = [r for r in runs if r["tool"] == tool and r["mode"] == mode]
    if not samples:
        return None
    seconds = statistics.median(r["data"]["seconds"] for r in samples)
    size = samples[0]["data"]["bytes"]
    return dict(seconds=seconds, mbps=size / 1e6 / seconds if seconds > 0 else float("inf"),
                rss=mb(statistics.median(r["rss_kib"] for r in samples)),
                spread=(min(r["data"]["seconds"] for r in samples), max(r["data"]["seconds"] for r in samples)),
                file=samples[0]["file"])


def row(measure, cells, best, ratio):
    values = [cells.get(c, "") for c in COLUMNS]
    return f"| {measure} | " + " | ".join(values) + f" | {best} | {ratio} |"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("runs")
    ap.add_argument("photos", nargs="?", default="")
    ap.add_argument("--book", required=True)
    ap.add_argument("--book-cards", type=int, required=True)
    ap.add_argument("--small-book", required=True)
    ap.add_argument("--small-cards", type=int, required=True)
    ap.add_argument("--incoming", required=True)
    ap.add_argument("--incoming-cards", type=int, required=True)
    ap.add_argument("--photos", dest="photo_names", required=True)
    ap.add_argument("--warmup-bytes", type=int, required=True)
    ap.add_argument("--jobs", type=int, required=True)
    args = ap.parse_args()

    runs = load_runs(args.runs)
    photos = load_photos(args.photos) if args.photos else []
    print("| measure | " + " | ".join(COLUMNS) + " | best peer | ratio |")
    print("| --- | " + " | ".join("---:" for _ in COLUMNS) + " | --- | ---: |")

    # Parse and parse + write: MB/s (more is better) and peak RSS (less is better).
    for mode, label in (("parse", "parse"), ("parse-write", "parse + write")):
        peers = {tool: throughput(runs, tool, mode) for tool, _ in PEERS}
        peers = {tool: stats for tool, stats in peers.items() if stats}
        names = dict(PEERS)
        plain = {tool: label.rstrip(" †") for tool, label in PEERS}
        for ours, suffix in (("vcf", ""), ("vcf-1-thread", ", vcf on 1 thread")):
            stats = throughput(runs, ours, mode)
            if not stats or not peers:
                continue
            best = max(peers, key=lambda t: peers[t]["mbps"])
            cells = {names[t]: f"{s['mbps']:.1f}" for t, s in peers.items()}
            cells["vcf"] = f"**{stats['mbps']:.1f}**"
            print(row(f"{label}, MB/s{suffix}", cells, plain[best],
                      f"{stats['mbps'] / peers[best]['mbps']:.2f}"))
        for ours, suffix in (("vcf", ""), ("vcf-1-thread", ", vcf on 1 thread")):
            stats = throughput(runs, ours, mode)
            comparable = {t: s for t, s in peers.items() if s["file"] == stats["file"]} if stats else {}
            if not stats or not comparable:
                continue
            best = min(comparable, key=lambda t: comparable[t]["rss"])
            cells = {names[t]: f"{s['rss']:.1f}" if t in comparable else f"({s['rss']:.1f})"
                     for t, s in peers.items()}
            cells["vcf"] = f"**{stats['rss']:.1f}**"
            print(row(f"{label}, peak RSS MB{suffix}", cells, plain[best],
                      f"{comparable[best]['rss'] / stats['rss']:.2f}"))

    # Photo fit: per budget, medians over the photos of each photo's median.
    if photos:
        for budget in BUDGETS:
            cells = [p for p in photos if p["budget"] == budget]
            if not cells:
                continue
            ours_ms = statistics.median(p["cli_ms"] for p in cells)
            im_ms = statistics.median(p["im_ms"] for p in cells)
            ours_ssim = statistics.median(p["ours_ssim"] for p in cells)
            im_ssim = statistics.median(p["im_ssim"] for p in cells)
            print(row(f"photo fit {budget:,} B, ms", {"vcf": f"**{ours_ms:.1f}**", "ImageMagick": f"{im_ms:.1f}"},
                      "ImageMagick", f"{im_ms / ours_ms:.2f}"))
            print(row(f"photo fit {budget:,} B, SSIM", {"vcf": f"**{ours_ssim:.4f}**", "ImageMagick": f"{im_ssim:.4f}"},
                      "ImageMagick", f"{ours_ssim - im_ssim:+.4f} (diff.)"))
        ours_rss = mb(max(p["cli_rss"] for p in photos))
        im_rss = mb(max(p["im_rss"] for p in photos))
        print(row("photo fit, peak RSS MB", {"vcf": f"**{ours_rss:.1f}**", "ImageMagick": f"{im_rss:.1f}"},
                  "ImageMagick", f"{im_rss / ours_rss:.2f}"))

    # Merge: against our own parse + write of the same two files (no peer merges).
    merge, reference = {}, defaultdict(lambda: [0.0, 0])
    for r in runs:
        if r["tool"] != "merge":
            continue
        if r["mode"] == "merge":
            merge[r["round"]] = (r["wall"], r["rss_kib"])
        else:
            reference[r["round"]][0] += r["data"]["seconds"]
            reference[r["round"]][1] = max(reference[r["round"]][1], r["rss_kib"])
    if merge:
        m_s = statistics.median(s for s, _ in merge.values())
        m_rss = mb(statistics.median(k for _, k in merge.values()))
        p_s = statistics.median(s for s, _ in reference.values())
        p_rss = mb(statistics.median(k for _, k in reference.values()))
        what = f"merge {args.incoming_cards:,} into {args.book_cards:,}"
        print(row(f"{what}, s", {"vcf": f"**{m_s:.2f}**"}, f"our parse + write: {p_s:.2f}", f"{p_s / m_s:.2f}"))
        print(row(f"{what}, peak RSS MB", {"vcf": f"**{m_rss:.1f}**"}, f"our parse + write: {p_rss:.1f}",
                  f"{p_rss / m_rss:.2f}"))

    decisions = [r["data"] for r in runs if r["tool"] == "merge" and r["mode"] == "merge" and "added" in r["data"]]
    print()
    print(legend(args, bool(photos), decisions[-1] if decisions else None if merge else False))

    # Spreads, so a noisy machine shows.
    print()
    spreads = []
    for tool in ("vcf", "vcf-1-thread", "ez-vcard", "sabre", "vobject"):
        for mode in ("parse", "parse-write"):
            stats = throughput(runs, tool, mode)
            if stats:
                spreads.append(f"{tool} {mode} {stats['spread'][0]:.3f}-{stats['spread'][1]:.3f}")
    if merge:
        spreads.append(f"merge {min(s for s, _ in merge.values()):.2f}-{max(s for s, _ in merge.values()):.2f}")
    print("Min-max seconds over the rounds: " + "; ".join(spreads) + ".")
    if photos:
        in_process = []
        for budget in BUDGETS:
            cells = [p["ours_ms"] for p in photos if p["budget"] == budget]
            if cells:
                in_process.append(f"{budget:,} B {statistics.median(cells):.1f} ms")
        print("Photo fit in process (vcf-bench photo-fit, decode to encode, no process start): "
              + "; ".join(in_process) + ".")

    return check_cards(runs, args)


def legend(args, photos, merge):
    """What every number includes. merge: the last merge's decisions, None if unknown, False if no merge ran."""
    text = [
        "Ratio: how many times better ours is than the best peer in that row (above 1: ours is better). "
        "MB/s: ours / the best peer's; ms: the best peer's / ours; peak RSS: the lowest peer's / ours. "
        "SSIM rows give the difference ours - ImageMagick instead (above 0: ours is closer to the source). "
        "Merge rows compare with our own parse + write of the same two files, as no peer merges: "
        "parse + write / merge (0.50: the merge takes twice as long).",
        "",
        f"- **vcf**: `vcf-bench parse|parse-write` on all {args.jobs} processors (ParallelCardReader); "
        "\"vcf on 1 thread\" is `--jobs 1`. Seconds are measured inside the process from opening the file to "
        "the last card (parse-write: every card written as vCard 3.0 into memory); process start is not counted.",
        "- **ez-vcard**: `Scripts/peers/EzVcardBench.java`, `VCardReader.readNext()` card by card, then "
        "`VCardWriter` (3.0) into a counting stream. Seconds exclude JVM start-up and an untimed warm-up pass "
        f"over the first {args.warmup_bytes:,} bytes (EZVCARD_WARMUP_BYTES) that lets the JIT compile the hot "
        "paths first (the other peers have no JIT to warm); the JVM sizes its own heap unless JAVA_OPTS says "
        "otherwise, and its peak RSS includes that heap.",
        "- **sabre/vobject**: `Scripts/peers/sabre_bench.php`, `Splitter\\VCard` card by card, `serialize()`; "
        "seconds exclude PHP start-up and loading the library.",
        f"- **Python vobject †**: `Scripts/peers/vobject_bench.py`, "
        + (f"on {args.small_book} (the first {args.small_cards:,} cards of the same generator), because it reads "
           "about 2 MB/s. Its MB/s compares; its peak RSS does not (it reads the whole, smaller file into "
           "memory), so it is shown in parentheses and never counted as the best peer for memory."
           if args.small_book != args.book else f"on the same {args.book} (it reads about 2 MB/s).")
        + " Seconds cover reading and decoding the file through the last card; start-up and imports excluded.",
        "- **peak RSS**: the process's maximum resident set (GNU time `%M`), runtime included, median over "
        "the rounds. MB = 10^6 bytes throughout.",
    ]
    if photos:
        text.append(
            f"- **photo fit** (photos: {args.photo_names}; longest edge 512; budget = JPEG bytes): both sides "
            "are whole processes timed by wall clock, `vcf photo fit IMAGE --max-bytes B --max-edge 512 -o OUT` "
            "and `/usr/bin/convert IMAGE -define jpeg:size=1024x1024 -auto-orient -strip -colorspace sRGB "
            "-resize '512x512>' -define jpeg:extent=B OUT`, run alternately RUNS times per photo and budget; "
            "ms is the median over the photos of each photo's median. SSIM is photo_quality.py's, against the "
            "source at 512 px, median over the photos. Peak RSS is the largest per-photo-and-budget median.")
    if merge is not False:
        decided = (f" Its decisions: {merge['added']:,} added, {merge['merged']:,} merged, "
                   f"{merge['unchanged']:,} unchanged." if merge else "")
        text.append(
            f"- **merge**: `vcf merge {args.incoming} --into COPY --country-code 1` as a process, wall clock "
            f"(reading both files, matching, merging, writing and syncing the book; the copy of {args.book} is "
            "made before the clock starts). \"our parse + write\" is `vcf-bench parse-write` of the book plus of "
            "the incoming file (in-process seconds summed; the larger peak RSS)." + decided)
    return "\n".join(text)


def check_cards(runs, args):
    """Every tool must read the same number of cards in a file, in every round, and the number it was made with."""
    expected = {args.book: args.book_cards, args.small_book: args.small_cards, args.incoming: args.incoming_cards}
    seen = defaultdict(lambda: defaultdict(set))
    for r in runs:
        if r["tool"] == "merge":
            label = "vcf merge" if r["mode"] == "merge" else "vcf-bench (merge reference)"
        else:
            label = r["tool"]
        seen[r["file"]][(label, r["mode"])].add(r["data"].get("cards"))
    problems, summary = [], []
    for file, counts in sorted(seen.items()):
        values = {c for cs in counts.values() for c in cs}
        want = expected.get(file)
        if len(values) != 1 or (want is not None and values != {want}):
            problems.append(f"{file}: card counts differ (made with {want}): "
                            + ", ".join(f"{tool} {mode}={sorted(v, key=str)}" for (tool, mode), v in sorted(counts.items())))
        else:
            tools = sorted({tool for tool, _ in counts})
            summary.append(f"{file} {values.pop():,} cards ({', '.join(tools)})")
    print()
    if summary:
        print("Cards read, the same in every run of every tool: " + "; ".join(summary) + ".")
    for problem in problems:
        print(f"**warning**: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Print Scripts/bench-suite.sh's tables from its raw rows.

usage: bench_suite_table.py --procs PROCS_TSV [--engine ENGINE_TSV] [--photos PHOTO_TSV] --runs N --jobs N
                            --book NAME --small-book NAME [--big-book NAME] [--incoming NAME]
                            --cards NAME=N... --warmup-bytes N [--photo-names LIST]

PROCS_TSV holds one row per whole process (bench_process in Scripts/lib/bench-common.sh), ENGINE_TSV one row per
in-process run (bench_timed there), PHOTO_TSV Scripts/photo-bench.py's raw rows. --cards gives how many cards each
input file was made with. Prints, in Markdown: the process table, issue 20's bars, the engine table (labelled as
in process), the photo table, the legend, the spreads, the machine's load and the card-count check. Exit status 1
when a run failed or a card count is not the expected one, else 0.
"""
import argparse
import json
import re
import statistics
import sys
from collections import defaultdict

BUDGETS = [1_000_000, 224_000, 48_000, 16_000, 8_000]

# Process rows in the order shown: (id, what it is). Peers are the rows whose id starts with "peer.".
PROCESS_ROWS = [
    ("vcf.convert", "vCard 3.0 to a file, replaced atomically (temporary file, fsync, rename)"),
    ("vcf.convert-stdout", "vCard 3.0 to stdout, redirected to a file"),
    ("vcf.convert-pipe", "vCard 3.0 from a pipe (cat's time and memory counted) to stdout, redirected to a file"),
    ("vcf.convert-json", "Contact JSON to a file"),
    ("vcf.preview-json", "preview JSON (photos summarised) to a file"),
    ("vcf.lint", "findings to stdout (a file), summary to stderr"),
    ("vcf.lint-fix", "the repaired file, read twice (the cards' UIDs, then the repair), to a file"),
    ("vcf.lint-fix-in-place", "the same in place on a copy of the book (copied before the clock): the repair is "
     "compared with the file up to where they differ, then written"),
    ("vcf.convert-ensure-uid", "vCard 3.0 to a file, every card without a UID given one made from its content"),
    ("vcf.convert-jcard", "jCard (RFC 7095) to a file"),
    ("vcf.from-jcard", "the book as jCard (written by this vcf) to vCard 3.0 in a file; no peer here reads jCard"),
    ("vcf.from-json", "the book as Contact JSON (written by this vcf) to vCard 3.0 in a file"),
    ("vcf.preview-html", "the HTML preview page (photos inline) to a file"),
    ("vcf.convert-csv", "Google CSV to a file (its columns come from every card)"),
    ("vcf.dedupe", "in place on a copy of the book (copied before the clock)"),
    ("vcf.dedupe-json", "a dry run's JSON report to a file: every card's outcome, every possible duplicate explained"),
    ("vcf.dedupe-copies", "in place on a copy of a book a sync loop filled (the book's first tenth ten times over, "
     "copied before the clock)"),
    ("vcf.merge", "into a copy of the book (copied before the clock)"),
    ("vcf.convert-incoming", "the merge's incoming file alone, for the merge's bar"),
    ("vcf.merge-new", "the book into a new file: an import, every card added (copies within it merged)"),
    ("peer.evcard", "C: e_vcard_new_from_string, parse forced, e_vcard_to_string(3.0), to a file"),
    ("peer.sabre", "PHP: Splitter\\VCard, serialize(), to a file"),
    ("peer.ezvcard", "Java: VCardReader, VCardWriter (3.0), to a file; JVM start and JIT included"),
    ("peer.vobject", "readComponents, serialize(), to a file"),
]
PEER_NAMES = {"peer.evcard": "EVCard", "peer.sabre": "sabre/vobject", "peer.ezvcard": "ez-vcard",
              "peer.vobject": "Python vobject"}
ENGINE_TOOLS = [("vcf", "vcf-bench, {jobs} threads"), ("vcf-1-thread", "vcf-bench --jobs 1"),
                ("evcard", "EVCard"), ("ez-vcard", "ez-vcard, warm JIT"), ("sabre", "sabre/vobject"),
                ("vobject", "Python vobject †")]
BIG_BAR_IDS = ["vcf.convert", "vcf.convert-json", "vcf.preview-json", "vcf.lint"]


def mb(kib):
    return kib * 1024 / 1e6


def load_procs(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            (round_, id_, shown, files, size, rss, wall, cpu, others, code, cards, out_lines, err_lines, payload,
             summary) = line.rstrip("\n").split("\t", 14)
            rows.append(dict(round=round_, id=id_, shown=shown, files=files, bytes=int(size), rss=int(rss),
                             wall=float(wall), cpu=float(cpu), others=float(others), exit=int(code), cards=cards,
                             out_lines=int(out_lines), err_lines=int(err_lines), data=json.loads(payload),
                             summary=summary))
    return rows


def load_engine(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            round_, tool, mode, file, rss, wall, payload = line.rstrip("\n").split("\t", 6)
            rows.append(dict(round=round_, tool=tool, mode=mode, file=file, rss=int(rss), wall=float(wall),
                             data=json.loads(payload)))
    return rows


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


def number(text, word):
    """The number before `word` in a summary line ("8 merged" -> 8), or None."""
    found = re.search(r"([0-9][0-9,]*) " + word, text)
    return int(found.group(1).replace(",", "")) if found else None


class Group:
    """The runs of one command on one input: medians and what the runs agree on."""

    def __init__(self, runs):
        self.runs = runs
        good = [r for r in runs if r["ok"]]
        self.failed = [r for r in runs if not r["ok"]]
        self.id, self.files, self.shown, self.bytes = runs[0]["id"], runs[0]["files"], runs[0]["shown"], runs[0]["bytes"]
        self.ok = bool(good)
        if good:
            self.wall = statistics.median(r["wall"] for r in good)
            self.rss = mb(statistics.median(r["rss"] for r in good))
            self.cpu = statistics.median(r["cpu"] for r in good)
            self.mbps = self.bytes / 1e6 / self.wall if self.wall > 0 else float("inf")
            self.spread = (min(r["wall"] for r in good), max(r["wall"] for r in good))
            self.cards = sorted({r["cards"] for r in good})
            self.err_lines = statistics.median(r["err_lines"] for r in good)
            self.out_lines = statistics.median(r["out_lines"] for r in good)
            self.summary = good[-1]["summary"]
            self.read = sorted({r["data"].get("cards") for r in good if "cards" in r["data"]})


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--procs", required=True)
    ap.add_argument("--engine", default="")
    ap.add_argument("--photos", default="")
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--jobs", type=int, required=True)
    ap.add_argument("--book", required=True)
    ap.add_argument("--small-book", required=True)
    ap.add_argument("--big-book", default="")
    ap.add_argument("--incoming", default="")
    ap.add_argument("--cards", action="append", default=[], help="NAME=N")
    ap.add_argument("--warmup-bytes", type=int, required=True)
    ap.add_argument("--photo-names", default="")
    ap.add_argument("--ok-codes", action="append", default=[], help="ID=CODE,CODE (default 0)")
    args = ap.parse_args()
    made = {name: int(n) for name, n in (c.split("=", 1) for c in args.cards)}
    ok_codes = {i: {int(c) for c in codes.split(",")} for i, codes in (o.split("=", 1) for o in args.ok_codes)}

    procs = load_procs(args.procs)
    for r in procs:
        r["ok"] = r["exit"] in ok_codes.get(r["id"], {0})
    groups = defaultdict(list)
    for r in procs:
        groups[(r["id"], r["files"])].append(r)
    groups = {key: Group(runs) for key, runs in groups.items()}
    problems = []

    print("## Whole processes: what users run")
    print()
    print(process_table(groups, args, made, problems))
    print()
    print(bars(groups, args))
    print()
    print(process_legend(args, made))

    if args.engine:
        engine = load_engine(args.engine)
        print()
        print("## Engine, in process (`vcf-bench` and the peers' own timers; not what users run)")
        print()
        print(engine_table(engine, args))
        print()
        print(engine_legend(args))
        check_engine_cards(engine, made, problems)

    if args.photos:
        print()
        print("## Photo fit (whole processes)")
        print()
        print(photo_table(load_photos(args.photos), args))

    print()
    print("## Spread and load")
    print()
    spreads = []
    for key, g in ordered(groups, args):
        if g.ok:
            spreads.append(f"{g.shown} on {g.files} {g.spread[0]:.2f}-{g.spread[1]:.2f}")
    print("Min-max wall seconds over the rounds: " + "; ".join(spreads) + ".")
    print()
    print(load_line(procs, args))
    print()
    for key, g in ordered(groups, args):
        for r in g.failed:
            problems.append(f"{g.shown} on {g.files}, round {r['round']}: exit {r['exit']} "
                            f"(stderr kept in .bench/suite-failed-{g.id}-r{r['round']}.err)")
    print(card_check(groups, args, made, problems))
    for problem in problems:
        print(f"**warning**: {problem}")
    return 1 if problems else 0


def ordered(groups, args):
    """Groups in table order: the book's commands, its peers, then the big book's commands and peers."""
    rank = {id_: i for i, (id_, _) in enumerate(PROCESS_ROWS)}

    def key(item):
        (id_, files), _ = item
        return (args.big_book != "" and files == args.big_book, rank.get(id_, len(rank)), files)

    return sorted(groups.items(), key=key)


def peers_for(groups, g, args):
    """The peer groups g is compared with: the same input's peers (the book's for merge and the incoming file;
    Python vobject's smaller prefix of the book for the book)."""
    if g.id == "vcf.convert-incoming":
        return {}  # a tenth of the book: start-up weighs more, so no peer ratio (it is there for the merge's bar)
    if g.id in ("vcf.from-jcard", "vcf.from-json"):
        return {}  # no peer reads these inputs; the peers' rates are of the vCard book's bytes
    target = args.big_book if g.files == args.big_book and args.big_book else args.book
    found = {}
    for (id_, files), peer in groups.items():
        if not id_.startswith("peer.") or not peer.ok:
            continue
        if files == target or (target == args.book and files == args.small_book):
            found[id_] = peer
    return found


def process_table(groups, args, made, problems):
    lines = ["| command | input | s | MB/s | peak RSS MB | speed × best peer | RSS × lowest peer | cards out | what |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    notes = dict(PROCESS_ROWS)
    for (id_, files), g in ordered(groups, args):
        ours = not id_.startswith("peer.")
        name = f"`{g.shown}`" if ours else f"{PEER_NAMES.get(id_, id_)}: `{g.shown}`"
        # A pipe inside a table cell ends the cell, even in code.
        name = name.replace("|", "\\|")
        if id_ == "peer.vobject" and files != args.book:
            name += " †"
        if not g.ok:
            lines.append(f"| {name} | {files} | failed (exit {g.failed[0]['exit']}) | | | | | | {notes.get(id_, '')} |")
            continue
        speed = memory = ""
        if ours:
            peers = peers_for(groups, g, args)
            if peers:
                best = max(peers, key=lambda p: peers[p].mbps)
                speed = f"{g.mbps / peers[best].mbps:.2f} ({PEER_NAMES[best]})"
                same = {p: s for p, s in peers.items() if s.files == files or (id_ == "vcf.merge" and s.files == args.book)}
                if same:
                    low = min(same, key=lambda p: same[p].rss)
                    memory = f"{same[low].rss / g.rss:.2f} ({PEER_NAMES[low]})"
        note = notes.get(id_, "")
        if id_ in ("vcf.dedupe", "vcf.dedupe-copies"):
            merged, possible = number(g.summary, "merged"), number(g.summary, "possible")
            note += f"; {merged:,} merged" if merged is not None else "; summary not understood"
            if possible is not None:
                note += f", {possible:,} possible duplicates reported"
        if id_ in ("vcf.merge", "vcf.merge-new"):
            added, merged, unchanged = (number(g.summary, w) for w in ("added", "merged", "unchanged"))
            if None not in (added, merged, unchanged):
                note += f"; {added:,} added, {merged:,} merged, {unchanged:,} unchanged"
        if id_ == "vcf.lint":
            note += f"; {int(g.out_lines):,} findings"
        if ours and g.err_lines > 20:
            note += f"; {int(g.err_lines):,} lines on stderr"
        cards = ", ".join(c if c else "—" for c in g.cards)
        size = f"{g.bytes / 1e6:,.1f} MB"
        lines.append(f"| {name} | {files} ({size}) | **{g.wall:.2f}** | {g.mbps:.1f} | **{g.rss:.1f}** | {speed} | "
                     f"{memory} | {cards} | {note} |")
    return "\n".join(lines)


def bars(groups, args):
    """Issue 20's Done-when bars, measured in this run."""
    def get(id_, files):
        g = groups.get((id_, files))
        return g if g and g.ok else None

    out = ["Issue 20's bars, from this run (release build, whole processes, medians):", ""]
    convert, evcard = get("vcf.convert", args.book), get("peer.evcard", args.book)
    if convert and evcard:
        x = evcard.wall / convert.wall
        out.append(f"- `vcf convert BOOK -o OUT` at least 3x faster than EVCard parse + write: "
                   f"{evcard.wall:.2f} s / {convert.wall:.2f} s = **{x:.2f}x**: {'met' if x >= 3 else 'not met'}")
    if args.big_book:
        for id_ in BIG_BAR_IDS:
            g = get(id_, args.big_book)
            if g:
                out.append(f"- `{g.shown}` on {args.big_book} under 64 MB peak RSS: **{g.rss:,.1f} MB**: "
                           f"{'met' if g.rss < 64 else 'not met'}")
            elif (id_, args.big_book) in groups:
                out.append(f"- `{groups[(id_, args.big_book)].shown}` on {args.big_book}: failed, not measured")
    merge, incoming = get("vcf.merge", f"{args.incoming}+{args.book}"), get("vcf.convert-incoming", args.incoming)
    if merge and convert and incoming:
        x = merge.wall / (convert.wall + incoming.wall)
        out.append(f"- `vcf merge` within 1.5x `vcf convert` of both files: {merge.wall:.2f} s / "
                   f"({convert.wall:.2f} + {incoming.wall:.2f}) s = **{x:.2f}x**: {'met' if x <= 1.5 else 'not met'}")
    dedupe = get("vcf.dedupe", args.book)
    if dedupe and convert:
        x = dedupe.wall / convert.wall
        out.append(f"- `vcf dedupe` within 2x `vcf convert` of the book: {dedupe.wall:.2f} s / {convert.wall:.2f} s = "
                   f"**{x:.2f}x**: {'met' if x <= 2 else 'not met'}; under 512 MB: **{dedupe.rss:,.1f} MB**: "
                   f"{'met' if dedupe.rss < 512 else 'not met'}")
    return "\n".join(out)


def process_legend(args, made):
    small = made.get(args.small_book, 0)
    return "\n".join([
        "Every row is a whole process started by the script, as a user starts it, on files in the page cache: "
        "s is the median wall-clock time from start to exit (process start, runtime start-up, reading, writing and "
        "closing or renaming the output all included); MB/s is the input's size / s (MB = 10^6 bytes; merge: both "
        "files); peak RSS is GNU time's `%M`, median over the rounds. "
        "**speed × best peer**: our MB/s / the fastest peer's on the same input (above 1: ours is faster); the "
        "peers parse the book and write every card as vCard 3.0 to a file (the job `vcf convert -o` does), so for "
        "rows doing another job (JSON, preview, lint, dedupe, merge) the ratio compares with that nearest job. "
        "**RSS × lowest peer**: the lowest peer peak RSS on the same file / ours (above 1: ours is smaller). "
        "**cards out**: cards in the output file (counted by `Scripts/lib/count_cards.c`: BEGIN:VCARD lines, or "
        "the top-level array's objects).",
        "",
        "- The peers do not sync their output to disk; `vcf` writes a temporary file, fsyncs it and renames it "
        "(its promise), so its times include that.",
        "- **EVCard** (`Scripts/peers/evcard_bench.c`): reads the file line by line, splits at BEGIN:VCARD / "
        "END:VCARD, `e_vcard_new_from_string`, then `e_vcard_get_attributes` to force EVCard's lazy parse "
        "(checked with `e_vcard_is_parsed`; without it `e_vcard_to_string` returns the input text), then "
        "`e_vcard_to_string(EVC_FORMAT_VCARD_30)` into the output file.",
        "- **ez-vcard** (`Scripts/peers/EzVcardBench.java`, `write` mode): a cold JVM, no warm-up pass: JVM "
        "start-up, class loading and JIT compilation are in its time, as they are for a user. The warm figure is in "
        "the engine table.",
        "- **sabre/vobject** (`Scripts/peers/sabre_bench.php`) and **Python vobject** "
        "(`Scripts/peers/vobject_bench.py`): `write` mode, interpreter start-up and library loading included."
        + (f" † Python vobject reads about 2 MB/s, so it runs on {args.small_book}, the first {small:,} cards of the "
           "same generator: its MB/s compares, its peak RSS does not (it holds the smaller file whole), so it never "
           "counts as the lowest peer." if args.small_book != args.book else ""),
        "- **merge** is `vcf merge INCOMING --into COPY --country-code 1`; **dedupe** is `vcf dedupe COPY` (in "
        "place). Their bars compare with `vcf convert` of the same files, as no peer merges. **merge BOOK --into NEW** "
        "imports the whole book into a file that does not exist yet, as a user moving an address book does: no bar; "
        "its ratios compare it with the peers' parse and write of the same book. **dedupe COPIES** is dedupe of a "
        "book a sync loop filled (the book's first tenth ten times over): no bar; it shows what the bench book, "
        "with few duplicates, does not.",
    ])


def engine_throughput(runs, tool, mode):
    samples = [r for r in runs if r["tool"] == tool and r["mode"] == mode]
    if not samples:
        return None
    seconds = statistics.median(r["data"]["seconds"] for r in samples)
    size = samples[0]["data"]["bytes"]
    return dict(mbps=size / 1e6 / seconds if seconds > 0 else float("inf"), rss=mb(statistics.median(
        r["rss"] for r in samples)), file=samples[0]["file"],
        spread=(min(r["data"]["seconds"] for r in samples), max(r["data"]["seconds"] for r in samples)))


def engine_table(runs, args):
    lines = ["| engine, in process | file | parse MB/s | parse + write MB/s | peak RSS MB, parse + write | "
             "parse + write × best peer |", "| --- | --- | ---: | ---: | ---: | ---: |"]
    stats = {(tool, mode): engine_throughput(runs, tool, mode) for tool, _ in ENGINE_TOOLS
             for mode in ("parse", "parse-write")}
    peers = {t: s for (t, m), s in stats.items() if m == "parse-write" and s and not t.startswith("vcf")}
    best = max(peers, key=lambda t: peers[t]["mbps"]) if peers else None
    labels = dict(ENGINE_TOOLS)
    for tool, label in ENGINE_TOOLS:
        parse, write = stats[(tool, "parse")], stats[(tool, "parse-write")]
        if not parse and not write:
            continue
        ratio = ""
        if tool.startswith("vcf") and write and best:
            ratio = f"{write['mbps'] / peers[best]['mbps']:.2f} ({labels[best].split(',')[0].rstrip(' †')})"
        file = (write or parse)["file"]
        lines.append(f"| {label.format(jobs=args.jobs)} | {file} | {parse['mbps']:.1f} | "
                     f"{write['mbps']:.1f} | {write['rss']:.1f} | {ratio} |" if parse and write else
                     f"| {label} | {file} | | | | |")
    spreads = [f"{t} {m} {s['spread'][0]:.3f}-{s['spread'][1]:.3f}" for (t, m), s in stats.items() if s]
    return "\n".join(lines) + "\n\nMin-max in-process seconds over the rounds: " + "; ".join(spreads) + "."


def engine_legend(args):
    return "\n".join([
        "Each tool's own timer, from opening the file to the last card, inside the process: process and runtime "
        "start-up are excluded, and parse + write writes into memory (a counting stream), not to a file. These "
        "figures describe the parser, not the tool; the table above is the one to quote.",
        "",
        f"- **vcf-bench** `parse|parse-write FILE` reads with `ParallelCardReader` on all {args.jobs} processors; "
        "`--jobs 1` reads on one thread.",
        "- **EVCard**: `evcard_bench FILE parse|parse-write` (parse forced as above). **sabre/vobject**, "
        "**Python vobject** † (the small book): their `parse|parse-write` modes.",
        "- **ez-vcard** runs an untimed warm-up pass over the first "
        f"{args.warmup_bytes:,} bytes (EZVCARD_WARMUP_BYTES) so the JIT has compiled the hot paths; its peak RSS "
        "includes the heap the JVM sized for itself.",
    ])


def photo_table(photos, args):
    lines = ["| photo fit | vcf | ImageMagick | ratio |", "| --- | ---: | ---: | ---: |"]
    for budget in BUDGETS:
        cells = [p for p in photos if p["budget"] == budget]
        if not cells:
            continue
        ours_ms = statistics.median(p["cli_ms"] for p in cells)
        im_ms = statistics.median(p["im_ms"] for p in cells)
        ours_ssim = statistics.median(p["ours_ssim"] for p in cells)
        im_ssim = statistics.median(p["im_ssim"] for p in cells)
        lines.append(f"| {budget:,} B, ms | **{ours_ms:.1f}** | {im_ms:.1f} | {im_ms / ours_ms:.2f} |")
        lines.append(f"| {budget:,} B, SSIM | **{ours_ssim:.4f}** | {im_ssim:.4f} | {ours_ssim - im_ssim:+.4f} (diff.) |")
    ours_rss = mb(max(p["cli_rss"] for p in photos))
    im_rss = mb(max(p["im_rss"] for p in photos))
    lines.append(f"| peak RSS MB | **{ours_rss:.1f}** | {im_rss:.1f} | {im_rss / ours_rss:.2f} |")
    in_process = []
    for budget in BUDGETS:
        cells = [p["ours_ms"] for p in photos if p["budget"] == budget]
        if cells:
            in_process.append(f"{budget:,} B {statistics.median(cells):.1f} ms")
    lines += ["", f"Photos {args.photo_names} (make_photos.py), longest edge 512, budget = JPEG bytes: `vcf photo fit "
              "IMAGE --max-bytes B --max-edge 512 -o OUT` and `/usr/bin/convert IMAGE -define jpeg:size=1024x1024 "
              "-auto-orient -strip -colorspace sRGB -resize '512x512>' -define jpeg:extent=B OUT`, both whole "
              "processes, alternately RUNS times per photo and budget; ms is the median over the photos of each "
              "photo's median (ratio: ImageMagick / ours, above 1: ours is faster); SSIM is photo_quality.py's "
              "against the source at 512 px (ratio row: ours - ImageMagick); peak RSS the largest per-photo median.",
              "", "In process (vcf-bench photo-fit, decode to encode, no process start): " + "; ".join(in_process) + "."]
    return "\n".join(lines)


def load_line(procs, args):
    # /proc/stat counts in 10 ms ticks per core, so runs under half a second say little; use them only if alone.
    timed = [r for r in procs if r["wall"] >= 0.5] or procs
    wall = sum(r["wall"] for r in timed)
    if wall <= 0:
        return ""
    mean = sum(r["others"] for r in timed) / wall
    worst = max(timed, key=lambda r: r["others"] / r["wall"]) if timed else None
    verdict = ("The machine was shared and busy: **these figures come from a loaded machine**; re-measure on a quiet "
               "one before quoting them." if mean > 0.1 else "The machine was quiet during the runs.")
    most = (f"; the busiest run: {worst['others'] / worst['wall']:.2f} cores, during `{worst['shown']}` on "
            f"{worst['files']} in round {worst['round']}" if worst else "")
    return (f"Other processes used {mean:.2f} of the {args.jobs} cores on average while our processes ran (their "
            f"CPU time in /proc/stat over the runs of half a second or more, each run's own CPU time taken out, / "
            f"those runs' wall time{most}). "
            f"{verdict}")


def expected_cards(g, args, made):
    """How many cards g's output should hold, with the reason; None when the command writes no cards."""
    if g.id in ("vcf.lint", "vcf.convert-jcard", "vcf.preview-html", "vcf.convert-csv", "vcf.dedupe-json"):
        # lint writes no cards; jCard, the HTML page and CSV are not counted (count_cards reads vCard and JSON).
        return None
    if g.id in ("vcf.dedupe", "vcf.dedupe-copies"):
        merged = number(g.summary, "merged")
        return None if merged is None or g.files not in made else made[g.files] - merged
    if g.id == "vcf.merge":
        added = number(g.summary, "added")
        return None if added is None or args.book not in made else made[args.book] + added
    if g.id == "vcf.merge-new":
        return number(g.summary, "added")
    return made.get(g.files)


def card_check(groups, args, made, problems):
    seen = []
    for (id_, files), g in ordered(groups, args):
        if not g.ok:
            continue
        want = expected_cards(g, args, made)
        if len(g.cards) != 1:
            problems.append(f"{g.shown} on {files}: the rounds wrote different numbers of cards: {g.cards}")
            continue
        got = g.cards[0]
        if want is not None and got != str(want):
            problems.append(f"{g.shown} on {files}: {got or 'no'} cards out, expected {want:,}")
        read = [c for c in g.read if c is not None]
        if read and made.get(files) is not None and read != [made[files]]:
            problems.append(f"{g.shown} on {files}: read {read} cards, the file was made with {made[files]:,}")
        if got:
            seen.append(f"{g.shown} on {files}: {int(got):,}" if got.isdigit() else f"{g.shown} on {files}: {got}")
    return "Cards out, the same in every round: " + "; ".join(seen) + "."


def check_engine_cards(runs, made, problems):
    counts = defaultdict(set)
    for r in runs:
        counts[(r["tool"], r["mode"], r["file"])].add(r["data"].get("cards"))
    for (tool, mode, file), values in sorted(counts.items(), key=str):
        if values != {made.get(file)}:
            problems.append(f"engine: {tool} {mode} read {sorted(values, key=str)} cards of {file}, "
                            f"made with {made.get(file)}")


if __name__ == "__main__":
    sys.exit(main())

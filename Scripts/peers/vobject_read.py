#!/usr/bin/env python3
"""Read vCard files with Python vobject, one process for many files.

usage: vobject_read.py [--validate] FILE...

For every FILE, decode it as UTF-8, run vobject.readComponents over the text,
walk every component and read every property's value and parameters (which
makes vobject decode and transform them). Prints one tab-separated line per
file on stdout:

    OK<TAB>cards=N<TAB>PATH
    FAIL<TAB>cards=N<TAB>PATH<TAB>ExceptionType: message

cards counts the top-level components read before any failure. --validate
passes validate=True, so vobject also checks required properties and counts
(e.g. exactly one VERSION, at least one FN in 3.0).

Exit status: 0 when every file read, 1 when any failed, 64 on bad usage.
"""
import sys

import vobject
from vobject.base import Component


def touch(component):
    """Read every property value and parameter below component; return property count."""
    count = 0
    for child in component.getChildren():
        if isinstance(child, Component):
            count += touch(child)
        else:
            child.value  # noqa: B018 - forces decoding of the value
            child.params  # noqa: B018
            count += 1
    return count


def read_file(path, validate):
    """Return (cards, error message or None) for one file."""
    cards = 0
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8")
        for component in vobject.readComponents(text, validate=validate):
            touch(component)
            cards += 1
    except Exception as error:  # every failure is a finding, never a crash
        message = " ".join(str(error).split())
        if len(message) > 300:
            message = message[:300] + "..."
        return cards, f"{type(error).__name__}: {message}"
    return cards, None


def main(argv):
    validate = False
    paths = []
    for arg in argv:
        if arg == "--validate":
            validate = True
        elif arg in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        else:
            paths.append(arg)
    if not paths:
        print("usage: vobject_read.py [--validate] FILE...", file=sys.stderr)
        return 64
    failed = 0
    for path in paths:
        cards, error = read_file(path, validate)
        if error is None:
            print(f"OK\tcards={cards}\t{path}")
        else:
            failed += 1
            print(f"FAIL\tcards={cards}\t{path}\t{error}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

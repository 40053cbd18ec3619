#!/usr/bin/env python3
"""What Python vobject sees in vCard files: one JSON line per file on stdout.

usage: vobject_view.py FILE...

Each file is read as an application using vobject would: the bytes decoded as UTF-8 with
errors="replace" (vobject takes text, not bytes), then vobject.readComponents over the text.
Every property of every card becomes an entry {"n": name, "g": group, "v": value, "p": params}
(see consumer-view.sh for the shared shape). A card that fails stops the file, as it stops
readComponents; the cards read before it are kept and "error" says why.
"""
import hashlib
import json
import sys

import vobject
from vobject.base import Component

TRANSFER = {"ENCODING", "CHARSET"}


def magic(data):
    """The format the bytes' signature names (the same test in every consumer's script)."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:4] == b"\x89PNG":
        return "png"
    if data[:4] == b"GIF8":
        return "gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1"):
        return "heic"
    if data[:2] == b"BM":
        return "bmp"
    return "?"


def render(value):
    """One string for any value vobject gives: text, bytes, lists, Name, Address."""
    if isinstance(value, bytes):
        return "binary:%d:%s" % (len(value), hashlib.sha1(value).hexdigest()[:16]) + ":" + magic(value)
    if isinstance(value, (list, tuple)):
        return ",".join(render(item) for item in value)
    if isinstance(value, vobject.vcard.Name):
        return ";".join(render(getattr(value, part)) for part in
                        ("family", "given", "additional", "prefix", "suffix"))
    if isinstance(value, vobject.vcard.Address):
        return ";".join(render(getattr(value, part)) for part in
                        ("box", "extended", "street", "city", "region", "code", "country"))
    return str(value)


def params(line):
    out = {}
    for name, values in line.params.items():
        name = name.upper()
        if name in TRANSFER:
            continue
        out[name] = sorted(str(v) for v in values)
    if line.singletonparams:
        bare = [p for p in line.singletonparams if p.upper() not in ("BASE64", "QUOTED-PRINTABLE", "8BIT", "7BIT")]
        if bare:
            out["(bare)"] = sorted(bare)
    return out


def entries(component):
    result = []
    for child in component.getChildren():
        if isinstance(child, Component):
            result.append({"n": "(component)" + child.name, "g": None, "v": "", "p": {}})
            continue
        result.append({"n": child.name.upper(), "g": child.group, "v": render(child.value), "p": params(child)})
    return result


def view(path):
    cards = []
    error = None
    try:
        with open(path, "rb") as handle:
            text = handle.read().decode("utf-8", errors="replace")
        for component in vobject.readComponents(text):
            if component.name.upper() != "VCARD":
                continue
            cards.append(entries(component))
    except Exception as failure:  # a failure is data here
        error = "%s: %s" % (type(failure).__name__, " ".join(str(failure).split())[:200])
    return {"file": path, "cards": cards, "error": error}


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr)
        return 64
    for path in argv:
        print(json.dumps(view(path), ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

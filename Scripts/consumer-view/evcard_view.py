#!/usr/bin/python3
"""What Evolution's EVCard sees in vCard files: one JSON line per file on stdout.

usage: /usr/bin/python3 evcard_view.py FILE...

Needs Debian's python3-gi and gir1.2-ebookcontacts-1.2 (so /usr/bin/python3, not a pyenv one).
Evolution's importer cuts a file into cards at BEGIN:VCARD ... END:VCARD and hands each to
e_vcard_new_from_string; this does the same (the bytes decoded as UTF-8, or UTF-16 after a byte
order mark, invalid bytes replaced, as the importer's UTF-8 path does). Every attribute becomes an
entry {"n", "g", "v", "p"} (see consumer-view.sh): its decoded values joined with ";", binary values
(ENCODING=b) as a size and hash of the decoded bytes.
"""
import base64
import binascii
import hashlib
import json
import re
import sys

import gi

gi.require_version("EBookContacts", "1.2")
from gi.repository import EBookContacts  # noqa: E402

TRANSFER = {"ENCODING", "CHARSET"}
CARD = re.compile(r"^[ \t]*BEGIN:VCARD[ \t]*\r?$(.*?)^[ \t]*END:VCARD[ \t]*\r?$", re.I | re.M | re.S)


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


def binary(text):
    try:
        data = base64.b64decode("".join(text.split()), validate=False)
    except (binascii.Error, ValueError):
        return "undecodable-base64"
    return "binary:%d:%s" % (len(data), hashlib.sha1(data).hexdigest()[:16]) + ":" + magic(data)


def entries(vcard):
    result = []
    for attribute in vcard.get_attributes():
        params = {}
        encoded = False
        for param in attribute.get_params() or []:
            name = (param.get_name() or "").upper()
            values = [str(v) for v in (param.get_values() or [])]
            if name == "ENCODING" and any(v.lower() in ("b", "base64") for v in values):
                encoded = True
            if name in TRANSFER:
                continue
            params.setdefault(name, []).extend(values)
        values = [str(v) for v in (attribute.get_values() or [])]
        value = binary(";".join(values)) if encoded else ";".join(values)
        result.append({
            "n": (attribute.get_name() or "").upper(), "g": attribute.get_group(), "v": value,
            "p": {k: sorted(v) for k, v in params.items()},
        })
    return result


def decode(data):
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16", errors="replace")
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    return data.decode("utf-8", errors="replace")


def view(path):
    cards = []
    error = None
    try:
        with open(path, "rb") as handle:
            text = decode(handle.read())
        for match in CARD.finditer(text):
            vcard = EBookContacts.VCard.new_from_string(match.group(0))
            cards.append(entries(vcard))
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

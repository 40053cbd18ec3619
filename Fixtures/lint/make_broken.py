#!/usr/bin/env python3
"""Write the `vcf lint` fixtures in this directory, byte for byte.

Usage:
    python3 make_broken.py            # (re)write broken.vcf and clean.vcf
    python3 make_broken.py --check    # verify the files on disk equal what would be written
    python3 make_broken.py --lines    # print broken.vcf with 1-based physical line numbers

broken.vcf holds deliberately broken cards, one problem a card where the format allows it (the comment
above each card names the code it is there for); every other card is valid vCard 3.0 with FN, N and UID,
so the findings are only those the card is for. clean.vcf is valid vCard 3.0 that gives no finding.
Line ends are CRLF. Standard library only; every person, number and address is invented (555-01xx
numbers, example.* domains).
"""

import base64
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CRLF = b"\r\n"

# The 8x8 baseline JPEG (310 bytes) that ../vcard/make_fixtures.py embeds.
JPEG_B64 = (
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dA"
    "RkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8"
    "fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCAAIAAgDASIA"
    "AhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAZEAADAAMAAAAAAAAAAAAAAAAAAxETImH/"
    "xAAVAQEBAAAAAAAAAAAAAAAAAAAEBf/EABkRAQADAQEAAAAAAAAAAAAAAAIAARIxA//aAAwDAQAC"
    "EQMRAD8Anc3LNZOgAqAHzOTyEbt3pdn/2Q=="
)
JPEG = base64.b64decode(JPEG_B64)
assert len(JPEG) == 310 and JPEG[:3] == b"\xff\xd8\xff"

# The record limit the golden run passes (`--max-bytes 1000`): only the card meant for
# record-too-large may be over it.
RECORD_LIMIT = 1000


def b(x):
    return x if isinstance(x, bytes) else x.encode("utf-8")


def fold(line, width=75):
    """Fold one logical line (bytes) at 75 octets, continuation lines starting with a space."""
    line = b(line)
    out = [line[:width]]
    rest = line[width:]
    while rest:
        out.append(b" " + rest[: width - 1])
        rest = rest[width - 1:]
    return out


def card(*lines, version="3.0", end=True):
    """A card: BEGIN, VERSION (unless None), the lines (folded), END."""
    out = [b"BEGIN:VCARD"]
    if version is not None:
        out.append(b"VERSION:" + b(version))
    for line in lines:
        out.extend(fold(line) if not isinstance(line, Raw) else [line.data])
    if end:
        out.append(b"END:VCARD")
    return out


class Raw:
    """A physical line written exactly as given (no folding)."""

    def __init__(self, data):
        self.data = b(data)


def uid(n):
    return "UID:urn:uuid:3b1c2e8a-5d1f-4c3e-9a7b-%012d" % n


def person(n, given, family):
    return ["FN:%s %s" % (given, family), "N:%s;%s;;;" % (family, given), uid(n)]


def broken():
    jpeg = base64.b64encode(JPEG).decode()
    damaged = jpeg[:40] + "*#*" + jpeg[40:]
    text_not_image = base64.b64encode(b"This is a text file, not a picture at all.").decode()
    long_note = ("Met at the 2019 harbour festival; prefers calls after six; "
                 "ask about the boat.") * 2
    big_note = ("Volunteer coordinator for the spring garden fair. Keeps the tool shed keys "
                "and the list of stall holders. ") * 8
    cards = [
        # A valid card: no finding.
        card(*person(1, "Ana", "Lima"), "TEL;TYPE=cell:+1 555 555 0101"),
        # missing-version
        card(*person(2, "Bruno", "Costa"), version=None),
        # unknown-version
        card(*person(3, "Chloé", "Martin"), version="3.1"),
        # version-not-second (a warning in 3.0)
        card(*person(4, "Dmitri", "Volkov"), version=None)[:2] + [b"VERSION:3.0"] + card(
            *person(4, "Dmitri", "Volkov"), version=None)[2:],
        # missing-fn
        card("N:Eriksen;Elin;;;", "ORG:Fjord Analytics", uid(5)),
        # empty-fn
        card("FN:", "N:Fischer;Frida;;;", uid(6)),
        # missing-n (the fix makes N:Smith;Mary Ann;;; from FN)
        card("FN:Mary Ann Smith", uid(7)),
        # duplicate-property (a warning in 3.0: two BDAY)
        card(*person(8, "Hugo", "Berg"), "BDAY:1980-02-11", "BDAY:1981-02-11"),
        # duplicate-property (an error in 4.0: two N)
        card("FN:Ines Duarte", "N:Duarte;Ines;;;", "N:Duarte Silva;Ines;;;", uid(9), version="4.0"),
        # unknown-type
        card(*person(10, "Jonas", "Weber"), "TEL;TYPE=mobile:+1 555 555 0110"),
        # invalid-date
        card(*person(11, "Kaja", "Nowak"), "BDAY:15.04.1985"),
        # invalid-base64 (an error: no base64 at all)
        card(*person(12, "Lena", "Horvat"), "PHOTO;ENCODING=b;TYPE=JPEG:*** no picture here ***"),
        # invalid-base64 (a warning: stray characters, the rest decodes)
        card(*person(13, "Milan", "Novak"), "PHOTO;ENCODING=b;TYPE=JPEG:" + damaged),
        # image-type-mismatch (JPEG bytes declared PNG)
        card(*person(14, "Nora", "Lund"), "PHOTO;ENCODING=b;TYPE=PNG:" + jpeg),
        # unknown-image
        card(*person(15, "Oskar", "Falk"), "PHOTO;ENCODING=b;TYPE=JPEG:" + text_not_image),
        # long-line (written unfolded)
        card(*person(16, "Paula", "Rossi"), Raw("NOTE:" + long_note)),
        # quoted-printable, and invalid-quoted-printable (`=ZZ`) in the same vCard 2.1 value
        card("FN:Quentin Roy", "N:Roy;Quentin;;;", uid(17),
             "NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Caf=C3=A9 at 10=ZZ sharp", version="2.1"),
        # missing-uid
        card("FN:Rosa Klein", "N:Klein;Rosa;;;"),
        # record-too-large (with --max-bytes 1000)
        card(*person(19, "Sven", "Olsen"), "NOTE:" + big_note),
        # missing-end: the next BEGIN comes first
        card(*person(20, "Tara", "Singh"), end=False),
        card(*person(21, "Uma", "Patel")),
        # unexpected-end: an END with no card open
        [b"END:VCARD"],
        # text-outside-card: a line between cards
        [b"Exported by Example Phone 2.0"],
        # missing-colon (an error: the line is skipped, so the card is kept as written by --fix)
        card(*person(22, "Victor", "Hugo"), "Call before noon"),
        # missing-colon (a warning: a bare name, read as an empty value)
        card(*person(23, "Wanda", "Zielinska"), Raw("ROLE")),
        # missing-name (the card is kept as written by --fix)
        card(*person(24, "Xavier", "Moreau"), ":value with no property name"),
        # invalid-encoding (Latin-1 bytes in a 3.0 card: an error)
        card(*person(25, "Yusuf", "Demir"), Raw(b"NOTE:Caf\xe9 on the corner")),
        # unknown-charset
        card(*person(26, "Zoe", "Young"), "NOTE;CHARSET=X-UNHEARD-OF:plain words"),
        # unterminated-quote
        card(*person(27, "Aiko", "Tanaka"), Raw('TEL;TYPE="work:+1 555 555 0127')),
        # nonstandard-name (a property name with a slash, kept as written); invalid-value (a comma where the
        # `;` before the parameters belongs)
        card(*person(28, "Bao", "Tran"), "X-MESSAGING/SIP:sip:bao@example.net", "LABEL,TYPE=HOME:12 Elm St."),
        # nul-character; control-character
        card(*person(29, "Chidi", "Okafor"), Raw("NOTE:before\x00after"), Raw("TITLE:bell\x07")),
    ]
    lines = [line for c in cards for line in c]
    return CRLF.join(lines) + CRLF, cards


def clean():
    jpeg = base64.b64encode(JPEG).decode()
    cards = [
        card("FN:Élodie Marchand", "N:Marchand;Élodie;;;", "NICKNAME:Lodie", "ORG:Atelier Lumière;Design",
             "TITLE:Art director", "PHOTO;ENCODING=b;TYPE=JPEG:" + jpeg,
             "TEL;TYPE=cell,voice,pref:+33 1 55 55 01 02", "TEL;TYPE=work,fax:+33 1 55 55 01 03",
             "EMAIL;TYPE=internet,work:elodie@example.fr", "ADR;TYPE=work,postal:;;12 rue des Lilas;Lyon;;69001;France",
             "BDAY:1984-09-30", "NOTE:Prefers email\\, then phone.", "CATEGORIES:Work,Design",
             "REV:2024-03-05T14:30:00Z", "UID:urn:uuid:0d9a2f64-1c7e-4b8f-a1d2-6e5f4a3b2c10"),
        card("FN:Kofi Mensah", "N:Mensah;Kofi;;;", "EMAIL;TYPE=internet,home:kofi@example.org",
             "item1.TEL;TYPE=iPhone:+1 555 555 0150", "item1.X-ABLabel:_$!<Mobile>!$_",
             "BDAY:--0612", "UID:urn:uuid:0d9a2f64-1c7e-4b8f-a1d2-6e5f4a3b2c11"),
    ]
    return CRLF.join(line for c in cards for line in c) + CRLF


def files():
    data, cards = broken()
    # Only the card meant for record-too-large is over the limit.
    sizes = [len(CRLF.join(c) + CRLF) for c in cards]
    assert sum(1 for s in sizes if s > RECORD_LIMIT) == 1, sizes
    return {"broken.vcf": data, "clean.vcf": clean()}


def main(argv):
    out = files()
    if "--lines" in argv:
        for number, line in enumerate(out["broken.vcf"].split(CRLF)[:-1], 1):
            print("%4d  %s" % (number, line.decode("utf-8", "replace")))
        return 0
    if "--check" in argv:
        bad = 0
        for name, data in sorted(out.items()):
            try:
                with open(os.path.join(HERE, name), "rb") as fh:
                    same = fh.read() == data
            except FileNotFoundError:
                same = False
            if not same:
                print("DIFFERS  %s" % name)
                bad += 1
        print("%d files checked, %d problem(s)" % (len(out), bad))
        return 1 if bad else 0
    for name, data in out.items():
        with open(os.path.join(HERE, name), "wb") as fh:
            fh.write(data)
    print("wrote %s to %s" % (", ".join(sorted(out)), HERE))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

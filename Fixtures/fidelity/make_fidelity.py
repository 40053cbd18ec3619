#!/usr/bin/env python3
"""Write the fidelity fixtures in this directory, byte for byte (issue 19 and issue 18 item 12).

Usage:
    python3 make_fidelity.py            # (re)write every fixture
    python3 make_fidelity.py --check    # verify the files on disk equal what would be written

One file per case of what real vCard readers must still see in our output: legacy character sets declared
elsewhere in the card or file or not at all, damaged UTF-8, binary values without a media type, labels,
tel: URIs, GEO, vendor property names, ANNIVERSARY, non-URI PHOTO/LOGO/SOUND, AGENT, repeated NICKNAME and
CATEGORIES lines, PROFILE, empty N, cards with no name. Every person, number and address is invented
(555-01xx numbers, example.* domains); the texts are our own. Standard library only: Python's codecs write
the legacy character sets, so the bytes are those a Windows, Mac, Linux or phone exporter of that charset
would write. Tests/VCardFormatTests/FidelityTests.swift says what each must read as.
"""

import base64
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
CRLF = b"\r\n"


def b(x, charset="utf-8"):
    return x if isinstance(x, bytes) else x.encode(charset)


def card(*lines, version="3.0", charset="utf-8"):
    out = [b"BEGIN:VCARD"]
    if version is not None:
        out.append(b"VERSION:" + b(version))
    out += [b(line, charset) for line in lines]
    out.append(b"END:VCARD")
    return CRLF.join(out) + CRLF


def qp(text, charset):
    return "".join("=%02X" % byte if byte >= 0x80 or byte in (0x3D,) else chr(byte) for byte in text.encode(charset))


# ---- binary samples, made here ------------------------------------------------------------------------

# The 8x8 baseline JPEG that ../vcard/make_fixtures.py embeds (made with Pillow for this project).
JPEG = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dA"
    "RkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8"
    "fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCAAIAAgDASIA"
    "AhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAZEAADAAMAAAAAAAAAAAAAAAAAAxETImH/"
    "xAAVAQEBAAAAAAAAAAAAAAAAAAAEBf/EABkRAQADAQEAAAAAAAAAAAAAAAIAARIxA//aAAwDAQAC"
    "EQMRAD8Anc3LNZOgAqAHzOTyEbt3pdn/2Q==")


def png_1x1():
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x33\x66\xcc")
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


PNG = png_1x1()
GIF = (b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x33\x66\xcc\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
       b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")
BMP = (b"BM" + struct.pack("<IHHI", 58, 0, 0, 54) + struct.pack("<IiiHHIIiiII", 40, 1, 1, 1, 24, 0, 4, 2835, 2835, 0, 0)
       + b"\xcc\x66\x33\x00")
WEBP = b"RIFF" + struct.pack("<I", 26) + b"WEBPVP8L" + struct.pack("<I", 14) + b"\x2f\x00\x00\x00\x00\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
HEIC = struct.pack(">I", 24) + b"ftypheic" + b"\x00\x00\x00\x00" + b"mif1heic"
WAV = b"RIFF" + struct.pack("<I", 40) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 8000, 8000, 1, 8) + b"data" + struct.pack("<I", 4) + b"\x80\x80\x80\x80"


def b64(data):
    return base64.b64encode(data).decode()


# ---- the cases ---------------------------------------------------------------------------------------------

def files():
    out = {}

    # Class 1: character sets.
    # A CHARSET on one property names the charset of the card's other 8-bit values (Outlook writes it on some
    # properties only).
    out["charset-declared-in-card-1251.vcf"] = card(
        b"N;CHARSET=Windows-1251:" + "Коваленко;Віталій".encode("cp1251"),
        b"FN:" + "Віталій Коваленко".encode("cp1251"),
        b"ADR;HOME:;;" + "вул. Шевченка, 12".encode("cp1251") + b";" + "Київ".encode("cp1251") + b";;01001;",
        b"TEL;CELL:+380 44 555 0101", version="2.1")
    out["charset-declared-in-card-1253-qp.vcf"] = card(
        "N;CHARSET=WINDOWS-1253;ENCODING=QUOTED-PRINTABLE:" + qp("Παπαδόπουλος;Ελένη", "cp1253"),
        "FN;ENCODING=QUOTED-PRINTABLE:" + qp("Ελένη Παπαδοπούλου", "cp1253"),
        "ORG;ENCODING=QUOTED-PRINTABLE:" + qp("Ναυτιλιακή Εταιρεία", "cp1253"),
        "TEL;WORK:+30 210 555 0102", version="2.1")
    # Declared on one card of the file, not on the next.
    out["charset-declared-in-file-1251.vcf"] = (
        card(b"N;CHARSET=WINDOWS-1251:" + "Смирнова;Ольга".encode("cp1251"),
             b"FN;CHARSET=WINDOWS-1251:" + "Ольга Смирнова".encode("cp1251"), version="2.1")
        + card(b"N:" + "Иванов;Пётр".encode("cp1251"), b"FN:" + "Пётр Иванов".encode("cp1251"),
               b"NOTE:" + "Позвонить после обеда".encode("cp1251"), version="2.1"))
    # Nothing declared: old Mac and Palm exports in Mac Roman.
    out["charset-mac-roman.vcf"] = b"".join([
        card(b"N:" + "Télédec;Amélie".encode("mac_roman"), b"FN:" + "Amélie Télédec".encode("mac_roman"),
             b"ADR;TYPE=work:;;" + "12 rue de la Gare".encode("mac_roman") + b";" + "Besançon".encode("mac_roman") + b";;25000;France"),
        card(b"N:" + "Müller;Jürgen".encode("mac_roman"), b"FN:" + "Jürgen Müller".encode("mac_roman"),
             b"ORG:" + "Bäckerei Müller".encode("mac_roman")),
    ])
    # Nothing declared: Hebrew from a Windows phone sync (Windows-1255).
    out["charset-hebrew-1255.vcf"] = card(
        b"N:" + "כהן;שרה".encode("cp1255"), b"FN:" + "שרה כהן".encode("cp1255"),
        b"ADR;TYPE=home:;;" + "רחוב הרצל 5".encode("cp1255") + b";" + "חיפה".encode("cp1255") + b";;;",
        b"TEL;TYPE=cell:+972 4 555 0103")
    # Nothing declared: KOI8-R from an old Linux address book.
    out["charset-koi8-r.vcf"] = card(
        b"N:" + "Кузнецов;Дмитрий".encode("koi8_r"), b"FN:" + "Дмитрий Кузнецов".encode("koi8_r"),
        b"NOTE:" + "Встреча в четверг".encode("koi8_r"))
    # Nothing declared: Windows-1252, which stays the reading of Western text.
    out["charset-windows-1252.vcf"] = card(
        b"N:" + "Lefèvre;François".encode("cp1252"), b"FN:" + "François Lefèvre".encode("cp1252"),
        b"NOTE:" + "Préfère être appelé « François » – merci".encode("cp1252"))
    # Nothing declared: Central European (Windows-1250), Polish and Czech.
    out["charset-windows-1250.vcf"] = (
        card(b"N:" + "Wiśniewska;Małgorzata".encode("cp1250"), b"FN:" + "Małgorzata Wiśniewska".encode("cp1250"),
             b"ADR;TYPE=home:;;" + "ul. Żółkiewskiego 7".encode("cp1250") + b";" + "Łódź".encode("cp1250") + b";;90-001;")
        + card(b"N:" + "Dvořák;Jiří".encode("cp1250"), b"FN:" + "Jiří Dvořák".encode("cp1250"),
               b"ORG:" + "Dřevařství Dvořák".encode("cp1250")))
    # Nothing declared: Japanese from a phone (Shift_JIS), and Chinese in GB18030 and Big5.
    out["charset-shift-jis.vcf"] = card(
        b"N:" + "山田;花子".encode("shift_jis"), b"FN:" + "山田 花子".encode("shift_jis"),
        b"ADR;HOME:;;" + "東京都新宿区西新宿二丁目8番1号".encode("shift_jis") + b";;;;", version="2.1")
    out["charset-gb18030.vcf"] = card(
        b"N:" + "王;小明".encode("gb18030"), b"FN:" + "王小明".encode("gb18030"),
        b"ADR;TYPE=work:;;" + "北京市海淀区中关村大街1号".encode("gb18030") + b";;;;")
    out["charset-big5.vcf"] = card(
        b"N:" + "陳;美玲".encode("big5"), b"FN:" + "陳美玲".encode("big5"),
        b"ADR;TYPE=home:;;" + "臺北市信義區市府路1號".encode("big5") + b";;;;")
    # UTF-8 with one damaged sequence: a value cut inside its last character, and one stray byte.
    out["charset-damaged-utf8.vcf"] = card(
        b"FN:" + "ÄÄÄ Öberg".encode("utf-8"),
        b"ORG:" + "ÄÄÄ".encode("utf-8") + b"\xc3",
        b"NOTE:" + "Grüße aus Köln".encode("utf-8") + b" \xff " + "schön".encode("utf-8"),
        b"N:" + "Öberg;Åsa".encode("utf-8"))

    # Class 2: binary values without a media type, in both directions.
    out["media-no-type-30.vcf"] = card(
        "FN:Ines Duarte", "N:Duarte;Ines;;;", "PHOTO;ENCODING=b:" + b64(JPEG), "LOGO;ENCODING=b:" + b64(PNG),
        "SOUND;ENCODING=b:" + b64(WAV))
    out["media-octet-stream-40.vcf"] = card(
        "FN:Oren Peretz", "PHOTO:data:application/octet-stream;base64," + b64(GIF),
        "LOGO:data:;base64," + b64(WEBP), "X-PHOTO-EXTRA;ENCODING=b:" + b64(BMP), version="4.0")
    out["media-no-type-21.vcf"] = card(
        "FN:Hana Novak", "N:Novak;Hana", "PHOTO;ENCODING=BASE64:" + b64(HEIC), "", version="2.1")

    # Class 3: labels as they came: Google's plain words, Apple's tokens, a custom token.
    out["labels.vcf"] = card(
        "FN:Lucía Romero", "N:Romero;Lucía;;;",
        "item1.EMAIL;TYPE=INTERNET:lucia@example.com", "item1.X-ABLabel:Other",
        "item2.TEL:+34 91 555 0104", "item2.X-ABLabel:_$!<Mobile>!$_",
        "item3.URL:https\\://lucia.example.org", "item3.X-ABLabel:_$!<HomePage>!$_",
        "item4.TEL:+34 91 555 0105", "item4.X-ABLabel:_$!<Ferienhaus>!$_",
        "item5.ADR:;;Calle Mayor 1;Madrid;;28013;España", "item5.X-ABLabel:Home")

    # Class 4: tel: URIs.
    out["tel-uri-40.vcf"] = card(
        "FN:Simone Gagnon", "TEL;VALUE=uri;TYPE=work,voice;PREF=1:tel:+1-418-656-9254;ext=102",
        "TEL;VALUE=uri;TYPE=cell:tel:+1-418-555-0106", "TEL:tel:+1-418-555-0107",
        "TEL;VALUE=uri:tel:7042;phone-context=example.com", "TEL;TYPE=home:+1 418 555 0108", version="4.0")
    out["tel-ext-text-30.vcf"] = card(
        "FN:Marc Tremblay", "N:Tremblay;Marc;;;", "TEL;TYPE=work:+1-418-656-9254 ext. 102",
        "TEL;TYPE=home:(418) 555-0109 ext. 7")

    # Class 5: GEO in both spellings.
    out["geo-30.vcf"] = card("FN:Ana Lima", "N:Lima;Ana;;;", "GEO:45.0;-87.3")
    out["geo-40.vcf"] = card("FN:Tomás Reyes", "GEO:geo:37.386013,-122.082932", version="4.0")
    out["geo-40-uncertainty.vcf"] = card("FN:Ruth Adler", "GEO:geo:48.2,16.37,170;u=35", version="4.0")

    # Class 6: vendor property names, and a comma where the `;` belongs.
    out["vendor-names.vcf"] = card(
        "FN:Kai Wagner", "N:Wagner;Kai;;;", "X-MESSAGING/XMPP-All:kai@jabber.example.org",
        "X-WAB-WEDDING_ANNIVERSARY:2001-06-16", "X-WAB-SPOUSE_NAME:Mia Wagner", "LABEL,TYPE=HOME:Hauptstr. 3\\n10115 Berlin")

    # Class 7: ANNIVERSARY as each version spells it.
    out["anniversary-30.vcf"] = card("FN:Zoe Park", "N:Park;Zoe;;;", "ANNIVERSARY:2010-09-18")
    out["x-anniversary-30.vcf"] = card("FN:Liam Park", "N:Park;Liam;;;", "X-ANNIVERSARY:2010-09-18")
    out["anniversary-40.vcf"] = card("FN:Noa Park", "ANNIVERSARY:20100918", version="4.0")

    # Class 8: PHOTO, LOGO, SOUND that hold no URI, and AGENT.
    out["non-uri-binary-21.vcf"] = card(
        "FN:Ryo Ito", "N:Ito;Ryo", "SOUND;X-IRMC-N:ito;ryo", "PHOTO:TGFycw==", "LOGO:Example Corp", version="2.1")
    out["agent-21-nested.vcf"] = card(
        "FN:Olga Berg", "N:Berg;Olga", "AGENT:", "BEGIN:VCARD", "VERSION:2.1", "N:Holm;Per", "FN:Per Holm",
        "TEL;WORK;VOICE:+46 8 555 0110", "END:VCARD", "TEL;HOME:+46 8 555 0111", version="2.1")
    out["agent-uri-30.vcf"] = card("FN:Ivo Kral", "N:Kral;Ivo;;;", "AGENT;VALUE=uri:CID:assistant@example.com")

    # Class 9: the smaller ones.
    out["repeated-lists.vcf"] = card(
        "FN:Robert Stone", "N:Stone;Robert;;;", "NICKNAME:Rob", "NICKNAME:Bobby,Bert", "CATEGORIES:Work",
        "CATEGORIES:Golf,Friends")
    out["profile.vcf"] = card("PROFILE:VCard", "FN:Eva Horn", "N:Horn;Eva;;;")
    out["empty-n-30.vcf"] = card("FN:Acme Supplies", "N:;;;;", "ORG:Acme Supplies")
    out["no-name.vcf"] = b"".join([
        card("EMAIL:desk@example.com"), card("ORG;LANGUAGE=en:Northwind Traders"), card("item1.TEL:+1 555 0112"),
    ])
    # Properties a card holds once (CardDAV servers refuse a card with two N): a 4.0 name in two languages
    # (ALTID alternatives), a 4.0 card with a second N outside the ALTID, a 3.0 card with two N, two REV, two UID.
    out["single-instance-40.vcf"] = b"".join([
        card("FN:Aiko Tanaka", "N;ALTID=1;LANGUAGE=en:Tanaka;Aiko;;;", "N;ALTID=1;LANGUAGE=ja:田中;愛子;;;",
             "REV:20200101T000000Z", "REV:20231105T101500Z", "UID:urn:uuid:7d2e3f80-0000-4000-8000-000000000001",
             version="4.0"),
        card("FN:Lena Ortiz", "N:Ortiz;Lena;;;", "N;LANGUAGE=es:Ortiz Vega;Lena;;;", "BDAY:19800211",
             "BDAY:--0212", version="4.0"),
    ])
    out["single-instance-30.vcf"] = card(
        "FN:Omar Haddad", "N:Haddad;Omar;;;", "N:Haddad;Omar,Sami;;;", "REV:2021-03-04T05:06:07Z",
        "REV:2019-01-01T00:00:00Z", "UID:omar-1", "UID:omar-2")
    # Text values holding commas, which RFC 2426 and 6350 escape (`\,`) and Python vobject (Radicale) cuts at a
    # bare one: a LABEL and X- values written with bare commas, one already escaped, a backslash before a comma,
    # and a NICKNAME list on one line.
    out["text-commas-30.vcf"] = card(
        "FN:Carla Mendes", "N:Mendes;Carla;;;", "NICKNAME:Carlinha,Cá,Mendes",
        "item1.ADR;TYPE=HOME:;;12 Rua Augusta, apt 3;Lisboa;;1100-053;Portugal",
        "item1.X-ABADR:pt, eu", "LABEL;TYPE=HOME:12 Rua Augusta, apt 3\\n1100-053 Lisboa, Portugal",
        "X-EVOLUTION-FILE-AS:Mendes, Carla", "X-NOTE-ESCAPED:one\\, two", "X-PATH:C:\\\\,d",
        "X-LINK;VALUE=uri:https://example.com/a,b")
    return out


def main(argv):
    out = files()
    if "--check" in argv:
        bad = [name for name, data in sorted(out.items())
               if not os.path.exists(os.path.join(HERE, name)) or open(os.path.join(HERE, name), "rb").read() != data]
        for name in bad:
            print("DIFFERS  %s" % name)
        print("%d files checked, %d problem(s)" % (len(out), len(bad)))
        return 1 if bad else 0
    for name, data in out.items():
        with open(os.path.join(HERE, name), "wb") as handle:
            handle.write(data)
    print("wrote %d fixtures to %s" % (len(out), HERE))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

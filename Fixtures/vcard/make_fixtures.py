#!/usr/bin/env python3
"""Generate the vCard parser test fixtures in this directory, byte for byte.

Usage:
    python3 make_fixtures.py            # (re)write every fixture + EXPECTATIONS.md
    python3 make_fixtures.py --check    # verify files on disk equal what would be written
    python3 make_fixtures.py --lines    # print every fixture with 1-based physical line numbers

Standard library only.  All people, numbers, addresses and texts are invented;
phone numbers use the 555-01xx fictional range, mail addresses use example.* domains.

Every byte that matters (CR CR LF, BOMs, UTF-16, Latin-1 / Windows-1252 bytes,
tabs, split UTF-8 sequences) is spelled out explicitly below.
"""

import base64
import hashlib
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

# A real 8x8 baseline JPEG (310 bytes), made once with Pillow:
#   Image.new("RGB", (8, 8), (51, 102, 204)) with a 4x4 orange square, quality=40.
JPEG_B64 = (
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dA"
    "RkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/2wBDARUXFx4aHjshITt8U0ZTfHx8fHx8"
    "fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHx8fHz/wAARCAAIAAgDASIA"
    "AhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAZEAADAAMAAAAAAAAAAAAAAAAAAxETImH/"
    "xAAVAQEBAAAAAAAAAAAAAAAAAAAEBf/EABkRAQADAQEAAAAAAAAAAAAAAAIAARIxA//aAAwDAQAC"
    "EQMRAD8Anc3LNZOgAqAHzOTyEbt3pdn/2Q=="
)
JPEG = base64.b64decode(JPEG_B64)
assert len(JPEG) == 310 and JPEG[:3] == b"\xff\xd8\xff" and JPEG[-2:] == b"\xff\xd9"
JPEG_SHA = hashlib.sha256(JPEG).hexdigest()
PHOTO_EXPECT = ("PHOTO decodes to %d bytes, SHA-256 %s, first bytes FF D8 FF E0, last bytes FF D9"
                % (len(JPEG), JPEG_SHA))

CRLF = b"\r\n"
LF = b"\n"
CRCRLF = b"\r\r\n"
UTF8_BOM = b"\xef\xbb\xbf"

# Physical line terminators, longest first.  CR CR LF counts as ONE line end.
LINE_RE = re.compile(rb"\r\r\n|\r\n|\n|\r")


def b(x):
    return x if isinstance(x, bytes) else x.encode("utf-8")


def lines(*ls, eol=CRLF, final=True):
    """Join physical lines (str -> UTF-8, bytes kept verbatim) with eol."""
    out = eol.join(b(l) for l in ls)
    return out + eol if final else out


def fold(line, width=75, ws=" "):
    """Fold a logical line at <= width octets per physical line, never inside a
    UTF-8 character.  Continuation lines start with `ws` (which counts)."""
    out, cur, limit = [], "", width
    for ch in line:
        if len((cur + ch).encode("utf-8")) > limit:
            out.append(cur)
            cur, limit = ws, width
        cur += ch
    out.append(cur)
    return out


def chunks(s, n):
    return [s[i:i + n] for i in range(0, len(s), n)]


def qpenc(text, charset):
    """Quoted-printable encode every non-ASCII byte, '=' and control char (no soft breaks)."""
    out = []
    for byte in text.encode(charset):
        if byte == 0x3D or byte < 0x20 or byte > 0x7E:
            out.append("=%02X" % byte)
        else:
            out.append(chr(byte))
    return "".join(out)


def qpdec(s):
    """Tiny reference QP decoder used only for self-checks."""
    s = re.sub(r"=\r?\n", "", s)
    return re.sub(rb"=([0-9A-F]{2})", lambda m: bytes([int(m.group(1), 16)]), s.encode("ascii"))


def line_of(data, marker, nth=1):
    """1-based physical line number where the nth occurrence of marker starts."""
    idx = -1
    for _ in range(nth):
        idx = data.index(b(marker), idx + 1)
    return len(LINE_RE.findall(data[:idx])) + 1


def count_lines(data):
    n = len(LINE_RE.findall(data))
    tail = LINE_RE.split(data)[-1]
    return n + (1 if tail else 0)


# ---------------------------------------------------------------- expectations
def q(s):
    """Render a decoded value: Python-like escapes, \\n = newline."""
    out = []
    for ch in s:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ch in "\ufffd\ufeff" or 0x80 <= ord(ch) < 0xa0:
            out.append("\\u%04X" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def code(s):
    return "`" + s.replace("|", "\\|") + "`"


def v(name, value):
    return code("%s = %s" % (name, q(value)))


def lst(name, values):
    return code("%s = [%s]" % (name, ", ".join(q(x) for x in values)))


def card(n):
    return "**Card %d:**" % n


FIXTURES = []  # (name, data, quirks, cards, expect_items, diagnostics)


def add(name, data, quirks, cards, expect, diags="none"):
    assert re.match(r"^\d\d-[a-z0-9-]+\.vcf$", name), name
    assert name not in [f[0] for f in FIXTURES], name
    FIXTURES.append((name, data, quirks, cards, expect, diags))


# =============================================================== line endings
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Marchand;Élodie;;;", "FN:Élodie Marchand",
          "ORG:Boulangerie Étoile", "TEL;TYPE=WORK,VOICE:+1-555-555-0101",
          "EMAIL;TYPE=INTERNET:elodie.marchand@example.com",
          "NOTE:Préfère être contactée le matin.", "END:VCARD")
add("01-crlf.vcf", d, "CRLF line ends (3.0, UTF-8)", 1, [
    v("FN", "Élodie Marchand"), lst("N", ["Marchand", "Élodie", "", "", ""]),
    v("ORG", "Boulangerie Étoile"), v("TEL", "+1-555-555-0101"), lst("TEL TYPE", ["work", "voice"]),
    v("EMAIL", "elodie.marchand@example.com"), lst("EMAIL TYPE", ["internet"]),
    v("NOTE", "Préfère être contactée le matin."), "no value may contain a CR"])

d = lines("BEGIN:VCARD", "VERSION:4.0", "FN:Анна Петрова", "N:Петрова;Анна;Сергеевна;;",
          "TEL;TYPE=cell:+1-555-555-0102", "EMAIL:anna.petrova@example.org",
          "NOTE:Работает в Новосибирске", "END:VCARD",
          "BEGIN:VCARD", "VERSION:4.0", "FN:Иван Соколов", "N:Соколов;Иван;;;",
          "TEL;TYPE=home:+1-555-555-0112", "END:VCARD", eol=LF)
add("02-lf.vcf", d, "LF-only line ends (4.0, Cyrillic)", 2, [
    card(1), v("FN", "Анна Петрова"), lst("N", ["Петрова", "Анна", "Сергеевна", "", ""]),
    v("TEL", "+1-555-555-0102"), lst("TEL TYPE", ["cell"]), v("EMAIL", "anna.petrova@example.org"),
    v("NOTE", "Работает в Новосибирске"),
    card(2), v("FN", "Иван Соколов"), v("TEL", "+1-555-555-0112"), lst("TEL TYPE", ["home"])])

d = lines("BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Example Fixtures//iOS-style export//EN",
          "N:Ferreira;Inês;;;", "FN:Inês Ferreira",
          "TEL;type=CELL;type=VOICE;type=pref:+1 (555) 555-0103",
          "NOTE:Exported by a phone that ends every line with CR CR LF. Long enough to be fol",
          " ded once.", "END:VCARD",
          "BEGIN:VCARD", "VERSION:3.0", "N:Boateng;Kofi;;;", "FN:Kofi Boateng",
          "EMAIL;type=INTERNET;type=HOME:kofi.boateng@example.net", "END:VCARD", eol=CRCRLF)
add("03-crcrlf.vcf", d, "CR CR LF line ends (iOS export style), incl. one fold", 2, [
    card(1), v("FN", "Inês Ferreira"), v("TEL", "+1 (555) 555-0103"),
    lst("TEL TYPE", ["cell", "voice", "pref"]),
    v("NOTE", "Exported by a phone that ends every line with CR CR LF. Long enough to be folded once."),
    card(2), v("FN", "Kofi Boateng"), v("EMAIL", "kofi.boateng@example.net"),
    lst("EMAIL TYPE", ["internet", "home"]),
    "no value may contain a CR; CR CR LF is one line end, not a line end plus an empty line"])

d = (b"BEGIN:VCARD\r\n"
     b"VERSION:3.0\n"
     + "FN:তানভীর আহমেদ".encode() + b"\r\r\n"
     + "N:আহমেদ;তানভীর;;;".encode() + b"\r"          # lone CR (classic Mac)
     b"TEL;TYPE=HOME:+1-555-555-0104\r\n"
     b"NOTE:This note is folded after an LF line end and contin\n"
     b" ues on the next line.\r\n"
     b"END:VCARD\n"
     b"BEGIN:VCARD\r\n"
     b"VERSION:3.0\r\n"
     b"FN:Nadia Rahman\r\n"
     b"EMAIL:nadia.rahman@example.com\r\n"
     b"END:VCARD")                                    # no line end at EOF
add("04-mixed-line-endings.vcf", d,
    "mixed CRLF / LF / CR CR LF / lone CR within one card; fold after LF; last line has no line end", 2, [
        card(1), v("FN", "তানভীর আহমেদ"), lst("N", ["আহমেদ", "তানভীর", "", "", ""]),
        v("TEL", "+1-555-555-0104"), lst("TEL TYPE", ["home"]),
        v("NOTE", "This note is folded after an LF line end and continues on the next line."),
        card(2), v("FN", "Nadia Rahman"), v("EMAIL", "nadia.rahman@example.com"),
        "line ends in order: CRLF, LF, CRCRLF, CR, CRLF, LF(fold), CRLF, LF, CRLF x4, EOF"])

# =============================================================== folding
note05 = ("Søren coordinates the harbour clean-up every second Saturday. Volunteers meet at "
          "the old ferry terminal at 08:30 sharp and leave around noon. Coffee and wienerbrød "
          "are provided by the bakery on Havnegade.")
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Østergaard;Søren;;;", "FN:Søren Østergaard",
          *fold("NOTE:" + note05, 75, " "),
          "TITLE:Harbour Master and Director of", "  Operations",
          "TEL;TYPE=CELL:+1-555-555-0105", "END:VCARD")
add("05-fold-space.vcf", d,
    "long NOTE folded (75 octets, mid-word) with ONE leading space; a continuation with two spaces "
    "(first is the fold, second is content)", 1, [
        v("FN", "Søren Østergaard"), v("NOTE", note05),
        v("TITLE", "Harbour Master and Director of Operations"), v("TEL", "+1-555-555-0105")])

note06 = ("José organises the neighbourhood choir. Rehearsals are on Thursday evenings in the "
          "library annex and new tenors are always welcome. Ask him about the summer concert "
          "in Valparaíso.")
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Núñez;José;;;", "FN:José Núñez",
          *fold("NOTE:" + note06, 75, "\t"),
          "ORG:Coro del Barrio", "\t Norte",
          "EMAIL:jose.nunez@example.org", "END:VCARD")
add("06-fold-tab.vcf", d,
    "long NOTE folded with a TAB; a continuation 'TAB SPACE Norte' (tab is the fold, space is content)", 1, [
        v("FN", "José Núñez"), v("NOTE", note06), v("ORG", "Coro del Barrio Norte"),
        v("EMAIL", "jose.nunez@example.org")])


def split_inside(text, prefix, ch, k, eol=CRLF, ws=b" "):
    """prefix+text as UTF-8 with a fold inserted k bytes into character ch."""
    raw = b(prefix + text)
    i = raw.index(ch.encode("utf-8")) + k
    return raw[:i] + eol + ws + raw[i:]


note07 = "東京都渋谷区の事務所で働いています。週末は京都で茶道🍵を習っています。"
n07 = b("NOTE:" + note07)
i1 = n07.index("渋".encode()) + 1           # E6 | B8 8B
i2 = n07.index("🍵".encode()) + 2           # F0 9F | 8D B5
note07_phys = n07[:i1] + b"\r\n " + n07[i1:i2] + b"\r\n " + n07[i2:]
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:山田;花子;;;",
          split_inside("山田 花子", "FN:", "花", 2),   # E8 8A | B1
          note07_phys, "TEL;TYPE=WORK:+1-555-555-0107", "END:VCARD",
          "BEGIN:VCARD", "VERSION:3.0", "N:الحداد;يوسف;;;",
          split_inside("يوسف الحداد", "FN:", "س", 1),  # D8 | B3
          "END:VCARD")
assert b"\xe6\r\n \xb8\x8b" in d and b"\xf0\x9f\r\n \x8d\xb5" in d and b"\xe8\x8a\r\n \xb1" in d
assert b"\xd8\r\n \xb3" in d
add("07-fold-split-utf8.vcf", d,
    "folds that split a multi-byte UTF-8 character across two physical lines "
    "(3-byte CJK split 1+2 and 2+1, 4-byte emoji split 2+2, 2-byte Arabic split 1+1)", 2, [
        card(1), v("FN", "山田 花子"), v("NOTE", note07), v("TEL", "+1-555-555-0107"),
        card(2), v("FN", "يوسف الحداد"),
        "no U+FFFD anywhere: unfold on bytes first, decode UTF-8 after"])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Jóhannsson;Ólafur;;;", "FN:Ólafur Jóhannsson",
          "NOTE:Line A\\", " nLine B and the path C:\\", " \\Temp plus apples\\", " ,pears\\",
          " ;plums", "END:VCARD")
add("08-fold-inside-escape.vcf", d,
    "3.0 folds inside escape sequences: `\\` ends a physical line and `n`, `\\`, `,`, `;` start the next", 1, [
        v("FN", "Ólafur Jóhannsson"),
        v("NOTE", "Line A\nLine B and the path C:\\Temp plus apples,pears;plums")])

# =============================================================== 2.1 quoted-printable
d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Lindqvist;Ingrid;;;", "FN:Ingrid Lindqvist",
          "NOTE;ENCODING=QUOTED-PRINTABLE:Meeting notes: bring the blue folder, the sign=",
          "ed contract and two spare pens. Ask about the parking permit for the new o=",
          "ffice before Friday.",
          "TEL;CELL:+1-555-555-0110", "END:VCARD")
add("10-qp-soft-break-col0.vcf", d, "2.1 QP soft line breaks, continuation lines start at column 0", 1, [
    v("FN", "Ingrid Lindqvist"),
    v("NOTE", "Meeting notes: bring the blue folder, the signed contract and two spare pens. "
              "Ask about the parking permit for the new office before Friday."),
    v("TEL", "+1-555-555-0110"), lst("TEL TYPE", ["cell"]),
    "the continuation lines must not be parsed as properties (`ed contract ...` has no colon; "
    "`ffice before Friday.` neither)"])

d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Raman;Priya;;;", "FN:Priya Raman",
          "NOTE;ENCODING=QUOTED-PRINTABLE:Remember to water the ferns on the bal=",
          " cony every Tuesday and to feed the =",
          " cat twice a day. The spare key is under the blue flower=",
          " pot.",
          "EMAIL;INTERNET:priya.raman@example.com", "END:VCARD")
add("11-qp-soft-break-indented.vcf", d,
    "2.1 QP soft breaks where the writer indents EVERY continuation line with one space", 1, [
        v("FN", "Priya Raman"),
        v("NOTE", "Remember to water the ferns on the balcony every Tuesday and to feed the cat "
                  "twice a day. The spare key is under the blue flowerpot."),
        v("EMAIL", "priya.raman@example.com"),
        "the indentation is writer-inserted and dropped (see Decision D3); a plain RFC 2045 decoder "
        "would give `bal cony` / `the  cat` / `flower pot`, which is wrong"])

d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Bianchi;Luca;;;", "FN:Luca Bianchi",
          "NOTE;ENCODING=QUOTED-PRINTABLE:Packing list: passport, charger, adapt=",
          "er plug, sunscreen and=",
          " the red umbrella.",
          "TEL;HOME:+1-555-555-0112", "END:VCARD")
add("12-qp-soft-break-content-space.vcf", d,
    "2.1 QP soft break followed by a continuation whose first char is a REAL space (content); "
    "the other continuation of the same value starts at column 0", 1, [
        v("FN", "Luca Bianchi"),
        v("NOTE", "Packing list: passport, charger, adapter plug, sunscreen and the red umbrella."),
        v("TEL", "+1-555-555-0112"),
        "wrong: `sunscreen andthe red umbrella.` (space eaten). See Decision D3"])

d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Tanaka;Aiko;;;", "FN:Aiko Tanaka",
          "NOTE;ENCODING=QUOTED-PRINTABLE:Shopping:=0D=0A- rice=0D=0A- miso paste=0D=0A=",
          "- green tea=0D=0A=0D=0AThanks!",
          "LABEL;WORK;ENCODING=QUOTED-PRINTABLE:Example Trading Co.=0D=0A12 Harbor Road=0D=0ASpringfield",
          "END:VCARD")
add("13-qp-encoded-crlf.vcf", d, "2.1 QP `=0D=0A` encoded line breaks (incl. an empty line), plus a soft break", 1, [
    v("FN", "Aiko Tanaka"),
    v("NOTE", "Shopping:\n- rice\n- miso paste\n- green tea\n\nThanks!"),
    v("LABEL", "Example Trading Co.\n12 Harbor Road\nSpringfield"), lst("LABEL TYPE", ["work"]),
    "decoded CR LF pairs are normalised to \\n (Decision D2)"])

note14a = "Café crème brûlée 🎉 and a split caf"
note14b = "é at the soft break. Привет!"
qp14 = qpenc(note14a, "utf-8") + "=C3=" + "\r\n" + "=A9" + qpenc(note14b[1:], "utf-8")
assert qpdec(qp14).decode("utf-8") == note14a + note14b
d = lines("BEGIN:VCARD", "VERSION:2.1",
          "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qpenc("Durand;Amélie;;;", "utf-8"),
          "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qpenc("Amélie Durand", "utf-8"),
          "NOTE;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qp14,
          "TEL;WORK:+1-555-555-0114", "END:VCARD")
assert b"Am=C3=A9lie" in d and b"=C3=\r\n=A9" in d
add("14-qp-utf8-charset.vcf", d,
    "2.1 QP with CHARSET=UTF-8 (`=C3=A9`, 4-byte emoji, Cyrillic); a soft break between the two "
    "encoded bytes of one character", 1, [
        lst("N", ["Durand", "Amélie", "", "", ""]), v("FN", "Amélie Durand"),
        v("NOTE", note14a + note14b), v("TEL", "+1-555-555-0114")])

d = lines("BEGIN:VCARD", "VERSION:2.1",
          "N;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:" + qpenc("Gutiérrez;Raúl;;;", "latin-1"),
          "FN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:" + qpenc("Raúl Gutiérrez", "latin-1"),
          "ORG;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:" + qpenc("Café Niño", "latin-1"),
          "NOTE;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:"
          + qpenc("Señal débil en el ático. ¿Llamar mañana?", "latin-1"),
          "TEL;CELL:+1-555-555-0115", "END:VCARD")
assert b"Guti=E9rrez;Ra=FAl" in d and b"=BFLlamar" in d
add("15-qp-latin1.vcf", d, "2.1 QP with CHARSET=ISO-8859-1 (`=E9` etc.)", 1, [
    lst("N", ["Gutiérrez", "Raúl", "", "", ""]), v("FN", "Raúl Gutiérrez"), v("ORG", "Café Niño"),
    v("NOTE", "Señal débil en el ático. ¿Llamar mañana?")])

d = lines("BEGIN:VCARD", "VERSION:2.1",
          b"N;CHARSET=ISO-8859-1:" + "Lefèvre;Renée;;;".encode("latin-1"),
          b"FN;CHARSET=ISO-8859-1:" + "Renée Lefèvre".encode("latin-1"),
          b"ADR;HOME;CHARSET=ISO-8859-1:" + ";;12 rue de l'Église;Lyon;;69002;France".encode("latin-1"),
          b"NOTE;CHARSET=ISO-8859-1:" + "Vient d'Aÿ. Adore la crème brûlée. ½ tarif.".encode("latin-1"),
          "TEL;HOME:+1-555-555-0116", "END:VCARD")
assert b"Ren\xe9e Lef\xe8vre" in d and b"\xc9glise" in d and b"A\xff." in d
add("16-latin1-8bit-raw.vcf", d,
    "2.1 raw 8-bit ISO-8859-1 bytes with CHARSET=ISO-8859-1, no QP (file is not valid UTF-8)", 1, [
        lst("N", ["Lefèvre", "Renée", "", "", ""]), v("FN", "Renée Lefèvre"),
        lst("ADR", ["", "", "12 rue de l'Église", "Lyon", "", "69002", "France"]), lst("ADR TYPE", ["home"]),
        v("NOTE", "Vient d'Aÿ. Adore la crème brûlée. ½ tarif."),
        "no U+FFFD anywhere; raw bytes include E9, E8, C9, FF, BD"])

d = lines("BEGIN:VCARD", "VERSION:2.1",
          b"N;CHARSET=WINDOWS-1252:" + "O’Brien;Chloé;;;".encode("cp1252"),
          b"FN;CHARSET=WINDOWS-1252:" + "Chloé O’Brien".encode("cp1252"),
          b"ORG;CHARSET=WINDOWS-1252:" + "Gasthaus „Zur Post“".encode("cp1252"),
          "NOTE;CHARSET=WINDOWS-1252;ENCODING=QUOTED-PRINTABLE:"
          + qpenc("“Quoted” price: 5€ – café…", "cp1252"),
          "TEL;WORK:+1-555-555-0117", "END:VCARD")
assert b"=93Quoted=94 price: 5=80 =96 caf=E9=85" in d and b"O\x92Brien" in d and b"\x84Zur Post\x93" in d
add("17-windows-1252.vcf", d,
    "2.1 CHARSET=WINDOWS-1252: raw 8-bit 0x92/0x84/0x93 and QP `=93 =94 =80 =96 =85`", 1, [
        lst("N", ["O’Brien", "Chloé", "", "", ""]), v("FN", "Chloé O’Brien"),
        v("ORG", "Gasthaus „Zur Post“"), v("NOTE", "“Quoted” price: 5€ – café…"),
        "0x80-0x9F must map to the Windows-1252 characters (U+20AC, U+2019, U+201C, ...), NOT to C1 controls"])

adr18 = qpenc(";;Hauptstraße 12\r\nHinterhaus;Köln;;50667;Deutschl", "utf-8")
d = lines("BEGIN:VCARD", "VERSION:2.1",
          "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qpenc("Müller;Björn;;Dr.;", "utf-8"),
          "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + qpenc("Dr. Björn Müller", "utf-8"),
          "ADR;HOME;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:" + adr18 + "=",
          "and",
          "TEL;HOME:+1-555-555-0118", "END:VCARD")
assert b"Hauptstra=C3=9Fe 12=0D=0AHinterhaus;K=C3=B6ln;;50667;Deutschl=\r\nand" in d
add("18-qp-structured-n-adr.vcf", d,
    "2.1 QP on structured N and ADR: literal `;` separators, `=0D=0A` inside a component, soft break inside a component", 1, [
        lst("N", ["Müller", "Björn", "", "Dr.", ""]), v("FN", "Dr. Björn Müller"),
        lst("ADR", ["", "", "Hauptstraße 12\nHinterhaus", "Köln", "", "50667", "Deutschland"]),
        lst("ADR TYPE", ["home"]), v("TEL", "+1-555-555-0118")])

d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Okafor;Chinedu;;;", "FN:Chinedu Okafor",
          "TEL;WORK;VOICE:+1-555-555-0119", "TEL;CELL:+1-555-555-0120",
          "EMAIL;INTERNET;PREF:chinedu.okafor@example.com",
          "ADR;HOME;ENCODING=QUOTED-PRINTABLE:;;42 Palm Grove Avenue=0D=0AFlat 7;Ikeja=",
          ";Lagos;100001;Nigeria",
          "NOTE;QUOTED-PRINTABLE:Prefers calls after 5pm =3D 17:00.",
          "END:VCARD")
add("19-v21-bare-params.vcf", d,
    "2.1 bare (valueless) parameters: `TEL;WORK;VOICE`, `TEL;CELL`, `EMAIL;INTERNET;PREF`, "
    "`ADR;HOME;ENCODING=QUOTED-PRINTABLE` (soft break), bare `QUOTED-PRINTABLE`", 1, [
        v("TEL#1", "+1-555-555-0119"), lst("TEL#1 TYPE", ["work", "voice"]),
        v("TEL#2", "+1-555-555-0120"), lst("TEL#2 TYPE", ["cell"]),
        v("EMAIL", "chinedu.okafor@example.com"), lst("EMAIL TYPE", ["internet", "pref"]),
        lst("ADR", ["", "", "42 Palm Grove Avenue\nFlat 7", "Ikeja", "Lagos", "100001", "Nigeria"]),
        lst("ADR TYPE", ["home"]),
        v("NOTE", "Prefers calls after 5pm = 17:00."),
        "bare WORK/VOICE/CELL/HOME/INTERNET/PREF are TYPE values; bare QUOTED-PRINTABLE is ENCODING"])

# =============================================================== base64
b64_76 = chunks(JPEG_B64, 76)
d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Mensah;Kwame;;;", "FN:Kwame Mensah",
          "PHOTO;ENCODING=BASE64;TYPE=JPEG:", *["  " + c for c in b64_76], "",
          "TEL;HOME:+1-555-555-0121", "END:VCARD",
          "BEGIN:VCARD", "VERSION:2.1", "N:Asante;Efua;;;", "FN:Efua Asante",
          "PHOTO;TYPE=JPEG;ENCODING=BASE64:" + b64_76[0], *["  " + c for c in b64_76[1:]], "",
          "END:VCARD")
add("20-v21-base64-photo.vcf", d,
    "2.1 `PHOTO;ENCODING=BASE64;TYPE=JPEG:` with data on following lines indented by two spaces, "
    "ended by a blank line (card 2: first chunk on the PHOTO line itself)", 2, [
        card(1), v("FN", "Kwame Mensah"), PHOTO_EXPECT, lst("PHOTO TYPE", ["jpeg"]),
        v("TEL", "+1-555-555-0121") + " (the property right after the blank line)",
        card(2), v("FN", "Efua Asante"), PHOTO_EXPECT,
        "photo line starts at line %d (card 1) and %d (card 2)" % (
            line_of(d, "PHOTO;"), line_of(d, "PHOTO;", 2))])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Chen;Mei;;;", "FN:陈美 (Mei Chen)",
          "PHOTO;BASE64:", *["  " + c for c in chunks(JPEG_B64, 74)],
          "TEL;type=CELL;type=VOICE:+1 (555) 555-0122", "END:VCARD")
add("21-apple-photo-base64.vcf", d,
    "Apple-style 3.0 `PHOTO;BASE64:` (bare BASE64 param), data folded with two leading spaces "
    "(one is the fold, one stays and must be ignored by the base64 decoder)", 1, [
        v("FN", "陈美 (Mei Chen)"), PHOTO_EXPECT, v("TEL", "+1 (555) 555-0122"),
        lst("TEL TYPE", ["cell", "voice"])])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Yılmaz;Ayşe;;;", "FN:Ayşe Yılmaz",
          *fold("PHOTO;ENCODING=b;TYPE=JPEG:" + JPEG_B64, 75, " "),
          "EMAIL;TYPE=INTERNET:ayse.yilmaz@example.org", "END:VCARD")
add("22-photo-encoding-b-folded.vcf", d, "3.0 `PHOTO;ENCODING=b;TYPE=JPEG:` folded at 75 octets", 1, [
    v("FN", "Ayşe Yılmaz"), PHOTO_EXPECT, lst("PHOTO TYPE", ["jpeg"]),
    v("EMAIL", "ayse.yilmaz@example.org")])

ws_b64 = ""
for k, c in enumerate(chunks(JPEG_B64, 8)):
    ws_b64 += c + ("\t" if k % 3 == 2 else " ")
ws_b64 = ws_b64.rstrip()
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Kapoor;Arjun;;;", "FN:Arjun Kapoor",
          *fold("PHOTO;ENCODING=b;TYPE=JPEG:" + ws_b64, 75, " "),
          "END:VCARD")
assert "\t" in ws_b64 and " " in ws_b64
add("23-base64-whitespace.vcf", d,
    "3.0 base64 PHOTO with spaces and tabs inside the data (every 8 chars), also folded", 1, [
        v("FN", "Arjun Kapoor"), PHOTO_EXPECT])

# =============================================================== vCard 4.0
d = lines("BEGIN:VCARD", "VERSION:4.0", "FN:ليلى حداد", "N:حداد;ليلى;;;",
          *fold("PHOTO:data:image/jpeg;base64," + JPEG_B64, 75, " "),
          "TEL;TYPE=cell:+1-555-555-0130", "END:VCARD")
add("30-v40-data-uri-photo.vcf", d, "4.0 `PHOTO:data:image/jpeg;base64,...` (folded)", 1, [
    v("FN", "ليلى حداد"), "PHOTO is a URI; media type `image/jpeg`; " + PHOTO_EXPECT,
    "the `;base64,` after the colon is value, not a parameter"])

d = lines("BEGIN:VCARD", "VERSION:4.0", "FN:Zoë Ðorđević", "N:Ðorđević;Zoë;;;",
          'TEL;VALUE=uri;TYPE="voice,cell";PREF=1:tel:+1-555-555-0100',
          "TEL;VALUE=uri;TYPE=work:tel:+1-555-555-0131;ext=42",
          "END:VCARD")
add("31-v40-tel-uri.vcf", d, '4.0 `TEL;VALUE=uri;TYPE="voice,cell";PREF=1:tel:...`; `;ext=` inside the value', 1, [
    v("FN", "Zoë Ðorđević"),
    v("TEL#1", "tel:+1-555-555-0100"), lst("TEL#1 TYPE", ["voice", "cell"]), v("TEL#1 PREF", "1"),
    v("TEL#1 VALUE", "uri"),
    v("TEL#2", "tel:+1-555-555-0131;ext=42"), lst("TEL#2 TYPE", ["work"])])

d = lines("BEGIN:VCARD", "VERSION:4.0", "FN:佐藤 健二", "N:佐藤;健二;;;",
          "ADR;TYPE=home;LABEL=\"Mr. Kenji Sato^n1-2-3 Main St.^n^'Home^' ^^ 2^3\":;;1-2-3 Main St.;Springfield;;55555;USA",
          "X-FIXTURE-HINT;X-HINT=first^nsecond:caret escapes in an unquoted parameter",
          "END:VCARD")
add("32-v40-rfc6868-param.vcf", d, "4.0 RFC 6868 caret escapes `^n ^' ^^` in a quoted LABEL and an unquoted X- param; `^3` is not an escape", 1, [
    v("FN", "佐藤 健二"),
    v("ADR LABEL", "Mr. Kenji Sato\n1-2-3 Main St.\n\"Home\" ^ 2^3"),
    lst("ADR", ["", "", "1-2-3 Main St.", "Springfield", "", "55555", "USA"]), lst("ADR TYPE", ["home"]),
    v("X-FIXTURE-HINT X-HINT", "first\nsecond"),
    v("X-FIXTURE-HINT", "caret escapes in an unquoted parameter")])

d = lines("BEGIN:VCARD", "VERSION:4.0", "KIND:individual", "FN:Nguyễn Thị Lan", "N:Nguyễn;Lan;Thị;;",
          "BDAY:--0415", "ANNIVERSARY:20090808T1430-0500", "END:VCARD",
          "BEGIN:VCARD", "VERSION:4.0", "KIND:individual", "FN:Trần Văn Minh",
          "BDAY:19850412", "ANNIVERSARY;VALUE=text:ask his sister", "END:VCARD")
add("33-v40-kind-anniversary-bday.vcf", d,
    "4.0 KIND, BDAY without year (`--0415`), ANNIVERSARY date-time with offset, ANNIVERSARY;VALUE=text", 2, [
        card(1), v("KIND", "individual"), v("FN", "Nguyễn Thị Lan"), lst("N", ["Nguyễn", "Lan", "Thị", "", ""]),
        v("BDAY", "--0415") + " (month 4, day 15, no year)",
        v("ANNIVERSARY", "20090808T1430-0500") + " (2009-08-08 14:30 at UTC-05:00)",
        card(2), v("FN", "Trần Văn Minh"), v("BDAY", "19850412") + " (1985-04-12)",
        v("ANNIVERSARY", "ask his sister") + " (text, not a date; no diagnostic)"])

# =============================================================== files
d = UTF8_BOM + lines("BEGIN:VCARD", "VERSION:3.0", "N:الزهراء;فاطمة;;;", "FN:فاطمة الزهراء",
                     "ORG:شركة المثال", "TEL;TYPE=WORK:+1-555-555-0140", "NOTE:مرحبا 👋", "END:VCARD")
add("40-utf8-bom.vcf", d, "UTF-8 BOM (EF BB BF) before BEGIN (Arabic, emoji)", 1, [
    v("FN", "فاطمة الزهراء"), lst("N", ["الزهراء", "فاطمة", "", "", ""]), v("ORG", "شركة المثال"),
    v("TEL", "+1-555-555-0140"), v("NOTE", "مرحبا 👋"), "no U+FEFF in any value or property name"])

t41 = lines("BEGIN:VCARD", "VERSION:3.0", "N:李;伟;;;", "FN:李伟", "NICKNAME:🐼 Panda",
            "TEL;TYPE=CELL:+1-555-555-0141", "NOTE:北京的朋友。喜欢𝄞音乐。", "END:VCARD",
            "BEGIN:VCARD", "VERSION:3.0", "FN:王芳", "EMAIL:wang.fang@example.com", "END:VCARD").decode()
d = b"\xff\xfe" + t41.encode("utf-16-le")
add("41-utf16le-bom.vcf", d, "UTF-16 LE with BOM (FF FE), CRLF; CJK + emoji/U+1D11E as surrogate pairs", 2, [
    card(1), v("FN", "李伟"), v("NICKNAME", "🐼 Panda"), v("TEL", "+1-555-555-0141"),
    v("NOTE", "北京的朋友。喜欢𝄞音乐。"), card(2), v("FN", "王芳"), v("EMAIL", "wang.fang@example.com")])

t42 = lines("BEGIN:VCARD", "VERSION:4.0", "FN:김민지", "N:김;민지;;;", "TEL;TYPE=cell:+1-555-555-0142",
            "END:VCARD", "BEGIN:VCARD", "VERSION:4.0", "FN:Μαρία Παπαδοπούλου",
            "N:Παπαδοπούλου;Μαρία;;;", "NOTE:Καλημέρα! 🌞", "END:VCARD").decode()
d = b"\xfe\xff" + t42.encode("utf-16-be")
add("42-utf16be-bom.vcf", d, "UTF-16 BE with BOM (FE FF), CRLF; Korean, Greek, emoji", 2, [
    card(1), v("FN", "김민지"), v("TEL", "+1-555-555-0142"),
    card(2), v("FN", "Μαρία Παπαδοπούλου"), lst("N", ["Παπαδοπούλου", "Μαρία", "", "", ""]),
    v("NOTE", "Καλημέρα! 🌞")])

d = lines("", "", "BEGIN:VCARD", "VERSION:3.0", "N:Adeyemi;Olusegun;;;", "",
          "FN:Olusegun Adeyemi", "", "", "TEL;TYPE=HOME:+1-555-555-0143", "END:VCARD", "", "", "",
          "BEGIN:VCARD", "VERSION:3.0", "FN:Ана Јовановић", "", "EMAIL:ana.jovanovic@example.org",
          "END:VCARD", "", "")
add("43-blank-lines.vcf", d, "blank lines before, between and after cards and inside a card (3.0)", 2, [
    card(1), v("FN", "Olusegun Adeyemi"), v("TEL", "+1-555-555-0143"),
    card(2), v("FN", "Ана Јовановић"), v("EMAIL", "ana.jovanovic@example.org"),
    "blank lines produce no properties; at most an informational diagnostic"], "none required")

d = lines("From: Sender Example <sender@example.org>", "To: someone@example.com",
          "Subject: my contact card", "Date: Mon, 1 Jan 2024 09:00:00 +0000",
          "Content-Type: text/x-vcard; charset=utf-8", "",
          "Hi! Here is my card:",
          "BEGIN:VCARD", "VERSION:3.0", "N:Kaya;Deniz;;;", "FN:Deniz Kaya",
          "EMAIL;TYPE=INTERNET:deniz.kaya@example.org", "END:VCARD",
          "garbage between cards",
          "NOTE:this looks like a property but is outside any card",
          "BEGIN:VCARD", "VERSION:3.0", "FN:Ewa Nowak", "TEL:+1-555-555-0144", "END:VCARD",
          "-- ", "trailing signature garbage ✂", eol=CRLF)
add("44-junk-around-cards.vcf", d,
    "junk before (mail header), between (text and a property-looking line) and after the cards", 2, [
        card(1), v("FN", "Deniz Kaya"), v("EMAIL", "deniz.kaya@example.org"),
        card(2), v("FN", "Ewa Nowak"), v("TEL", "+1-555-555-0144"),
        "neither card may contain a NOTE, Subject, Content-Type etc."],
    "optional warnings for ignored junk at lines 1-7, %d-%d, %d-%d" % (
        line_of(d, "garbage between"), line_of(d, "NOTE:this"),
        line_of(d, "-- "), line_of(d, "trailing")))

d = lines("begin:vcard", "version:3.0", "n:Sigurðardóttir;Guðrún;;;", "fn:Guðrún Sigurðardóttir",
          "tel;type=cell:+1-555-555-0145", "End:VCard",
          "Begin:VCard", "Version:4.0", "Fn:Ngozi Eze", "eMaIl;TyPe=Work:ngozi.eze@example.com",
          "END:vcard")
add("45-mixed-case-keywords.vcf", d, "lower/mixed case `begin:vcard`, `End:VCard`, `fn:`, property and parameter names", 2, [
    card(1), v("VERSION", "3.0"), v("FN", "Guðrún Sigurðardóttir"), v("TEL", "+1-555-555-0145"),
    lst("TEL TYPE", ["cell"]),
    card(2), v("VERSION", "4.0"), v("FN", "Ngozi Eze"), v("EMAIL", "ngozi.eze@example.com"),
    lst("EMAIL TYPE", ["work"]), "property names are reported upper-case (FN, TEL, EMAIL)"])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Kowalska;Zofia;;;", "FN:Zofia Kowalska",
          "item1.TEL;type=pref:+1 (555) 555-0146", "item1.X-ABLabel:_$!<Mobile>!$_",
          "item2.URL;type=pref:https\\://blog.example.org/zofia", "item2.X-ABLabel:blog",
          "item3.EMAIL;type=INTERNET:zofia.kowalska@example.com", "item3.X-ABLabel:_$!<Other>!$_",
          "ITEM4.TEL:+1-555-555-0147", "item4.X-ABLabel:Ferienhaus",
          "END:VCARD")
add("46-groups-ablabel.vcf", d,
    "property groups (iPhone/Google style) with `X-ABLabel` labels, Apple `_$!<...>!$_` wrapping, "
    "Apple's escaped colon in URL, group name case differing between members", 1, [
        "TEL group `item1`, " + v("TEL", "+1 (555) 555-0146") + ", " + lst("TYPE", ["pref"]) + ", label " + code('"Mobile"')
        + " (raw X-ABLabel " + code('"_$!<Mobile>!$_"') + ")",
        "URL group `item2`, " + v("URL", "https://blog.example.org/zofia") + ", label " + code('"blog"'),
        "EMAIL group `item3`, " + v("EMAIL", "zofia.kowalska@example.com") + ", label " + code('"Other"'),
        "TEL group `ITEM4`/`item4` (groups compare case-insensitively), " + v("TEL", "+1-555-555-0147")
        + ", label " + code('"Ferienhaus"')])

d = lines("home.begin:vcard", "version:3.0", "fn:Lars Eriksen", "n:Eriksen;Lars;;;",
          "home.tel;type=home:+1-555-555-0148", "home.end:vcard",
          "BEGIN:VCARD", "VERSION:3.0", "FN:Maja Lindgren", "END:VCARD")
add("47-group-on-begin-end.vcf", d, "group prefix on BEGIN/END (`home.begin:vcard` ... `home.end:vcard`), lower case", 2, [
    card(1), v("FN", "Lars Eriksen"), v("TEL", "+1-555-555-0148") + " in group `home`", lst("TEL TYPE", ["home"]),
    card(2), v("FN", "Maja Lindgren")], "optional warning for the group on BEGIN/END")

d = lines("BEGIN:VCARD", "FN:Rafael Souza", "VERSION:3.0", "N:Souza;Rafael;;;",
          "NOTE:Gosta de futebol\\, praia e café.", "END:VCARD",
          "BEGIN:VCARD", "FN:Camila Rocha", "N:Rocha;Camila;;;", "EMAIL:camila.rocha@example.com",
          "VERSION:4.0", "END:VCARD",
          "BEGIN:VCARD", "FN:Tiago Lima", "TEL;CELL:+1-555-555-0149",
          "NOTE;ENCODING=QUOTED-PRINTABLE:Liga depois das 18h=0D=0AObrigado", "VERSION:2.1", "END:VCARD")
add("48-version-not-first.vcf", d,
    "VERSION not the first property: after FN (3.0), last before END (4.0), last before END in a 2.1 "
    "card whose earlier lines use bare params and QP", 3, [
        card(1), v("VERSION", "3.0"), v("FN", "Rafael Souza"), v("NOTE", "Gosta de futebol, praia e café."),
        card(2), v("VERSION", "4.0"), v("FN", "Camila Rocha"), v("EMAIL", "camila.rocha@example.com"),
        card(3), v("VERSION", "2.1"), v("TEL", "+1-555-555-0149"), lst("TEL TYPE", ["cell"]),
        v("NOTE", "Liga depois das 18h\nObrigado")], "none (optionally a warning that VERSION is not first)")

d = lines("BEGIN:VCARD", "VERSION:2.1", "N:Mwangi;Grace;;;", "FN:Grace Mwangi", "TITLE:Managing Director",
          "AGENT:", "BEGIN:VCARD", "VERSION:2.1", "N:Otieno;Brian;;;", "FN:Brian Otieno",
          "TEL;WORK;VOICE:+1-555-555-0150", "END:VCARD",
          "TEL;WORK:+1-555-555-0151", "EMAIL;INTERNET:grace.mwangi@example.org", "END:VCARD")
add("49-v21-agent-inline.vcf", d, "2.1 `AGENT:` followed by an inline nested BEGIN:VCARD...END:VCARD", 1, [
    "exactly 1 top-level card (the agent is NOT a second top-level card)",
    v("FN", "Grace Mwangi"), v("TITLE", "Managing Director"),
    "AGENT = nested card: " + v("FN", "Brian Otieno") + ", " + lst("N", ["Otieno", "Brian", "", "", ""])
    + ", " + v("TEL", "+1-555-555-0150") + " " + lst("TYPE", ["work", "voice"]),
    "properties after the nested END still belong to Grace: " + v("TEL", "+1-555-555-0151")
    + " " + lst("TYPE", ["work"]) + ", " + v("EMAIL", "grace.mwangi@example.org"),
    "nested card spans lines %d-%d" % (line_of(d, "BEGIN:VCARD", 2), line_of(d, "END:VCARD", 1))])

agent50 = ("AGENT:BEGIN:VCARD\\nVERSION:3.0\\nFN:Priya Nair\\nTEL\\;TYPE=CELL:+1-555-555-0152\\n"
           "EMAIL:priya.nair@example.com\\nEND:VCARD")
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Menon;Arun;;;", "FN:Arun Menon", *fold(agent50, 75, " "),
          "TEL;TYPE=WORK:+1-555-555-0153", "END:VCARD")
add("50-v30-agent-escaped.vcf", d, "3.0 AGENT with an escaped text vCard (`\\n`, `\\;`), folded", 1, [
    v("FN", "Arun Menon"),
    v("AGENT", "BEGIN:VCARD\nVERSION:3.0\nFN:Priya Nair\nTEL;TYPE=CELL:+1-555-555-0152\n"
               "EMAIL:priya.nair@example.com\nEND:VCARD") + " (as text; a parser MAY additionally parse it as a nested card)",
    v("TEL", "+1-555-555-0153"), "exactly 1 top-level card"])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Levi;Noa;;;", "FN:Noa Levi", "TITLE:", "NOTE:", "ORG:",
          "TEL;TYPE=:+1-555-555-0154", "EMAIL;;TYPE=work:noa.levi@example.com",
          "X-EMPTY-PARAM;X-FLAG=;TYPE=home:kept", "END:VCARD")
add("51-empty-values-and-params.vcf", d,
    "empty values (`TITLE:`, `NOTE:`, `ORG:`), empty parameter value (`TYPE=`), empty parameter slot (`;;`)", 1, [
        v("TITLE", ""), v("NOTE", ""), v("ORG", "") + " (all present, empty, not dropped)",
        v("TEL", "+1-555-555-0154") + ", " + lst("TYPE", []),
        v("EMAIL", "noa.levi@example.com") + ", " + lst("TYPE", ["work"]),
        v("X-EMPTY-PARAM", "kept") + ", param X-FLAG present with empty value, " + lst("TYPE", ["home"])],
    "optional warnings: empty TYPE at line %d, empty parameter slot at line %d" % (
        line_of(d, "TEL;TYPE="), line_of(d, "EMAIL;;")))

# =============================================================== parameters
d = lines("BEGIN:VCARD", "VERSION:4.0", "FN:Hiroshi Watanabe",
          'X-SERVICE;X-LABEL="Desk; floor 3: east wing, window":desk-3E',
          'URL;X-TITLE="Notes: drafts; ideas, misc":https://example.org/notes:v2;x=1',
          "END:VCARD")
add("60-param-quoted-specials.vcf", d, "quoted parameter values containing `;` `:` `,`; colons/semicolons in the value", 1, [
    v("FN", "Hiroshi Watanabe"),
    lst("X-SERVICE X-LABEL", ["Desk; floor 3: east wing, window"]) + " (one value; comma inside quotes does not split)",
    v("X-SERVICE", "desk-3E"),
    lst("URL X-TITLE", ["Notes: drafts; ideas, misc"]), v("URL", "https://example.org/notes:v2;x=1")])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Nováková;Hana;;;", "FN:Hana Nováková",
          "TEL;TYPE=work,voice,pref:+1-555-555-0161", "ADR;TYPE=HOME,POSTAL,PARCEL:;;Dlouhá 5;Praha;;11000;Česko",
          "END:VCARD")
add("61-param-comma-list.vcf", d, "comma-separated parameter value lists `TYPE=work,voice,pref`", 1, [
    v("TEL", "+1-555-555-0161"), lst("TEL TYPE", ["work", "voice", "pref"]),
    lst("ADR", ["", "", "Dlouhá 5", "Praha", "", "11000", "Česko"]), lst("ADR TYPE", ["home", "postal", "parcel"])])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Haddad;Karim;;;", "FN:Karim Haddad",
          "TEL;TYPE=work;TYPE=voice:+1-555-555-0162", "EMAIL;TYPE=internet;TYPE=home,pref:karim.haddad@example.net",
          "END:VCARD")
add("62-param-repeated.vcf", d, "repeated parameters `TYPE=work;TYPE=voice` (also mixed with a comma list)", 1, [
    v("TEL", "+1-555-555-0162"), lst("TEL TYPE", ["work", "voice"]),
    v("EMAIL", "karim.haddad@example.net"), lst("EMAIL TYPE", ["internet", "home", "pref"])])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Schröder;Lena;;;", "FN:Lena Schröder",
          "TEL;type=HOME:+1-555-555-0163", "EMAIL;Type=Work;tYpE=pref:lena.schroeder@example.de",
          "NOTE;Language=de-AT:Grüß Gott!", "END:VCARD")
add("63-param-lowercase-names.vcf", d, "lower/mixed case parameter names `type=HOME`, `Type=Work;tYpE=pref`, `Language=`", 1, [
    v("TEL", "+1-555-555-0163"), lst("TEL TYPE", ["home"]),
    v("EMAIL", "lena.schroeder@example.de"), lst("EMAIL TYPE", ["work", "pref"]),
    v("NOTE", "Grüß Gott!") + ", " + v("LANGUAGE", "de-AT") + " (name matched case-insensitively, value case kept)"])

# =============================================================== values
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Papadakis;Dimitrios;;;", "FN:Δημήτρης Παπαδάκης",
          "NOTE:Backslash \\\\ comma \\, semicolon \\; newline\\nand capital N\\Nend",
          "END:VCARD")
add("70-text-escapes.vcf", d, "3.0 text escapes `\\\\ \\, \\; \\n \\N`", 1, [
    v("FN", "Δημήτρης Παπαδάκης"),
    v("NOTE", "Backslash \\ comma , semicolon ; newline\nand capital N\nend")])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Alami;Nadia;;;", "FN:Nadia Alami",
          "NOTE:Meet at 10\\:30 and bring the \\x-ray films", "TITLE:Radiologist \\\\ \\tech lead",
          "END:VCARD")
add("71-lenient-escapes.vcf", d, "lenient escapes: `\\:` (Apple) and unknown escapes `\\x`, `\\t`", 1, [
    v("NOTE", "Meet at 10:30 and bring the \\x-ray films") + " (`\\:` -> `:`, unknown `\\x` kept verbatim)",
    v("TITLE", "Radiologist \\ \\tech lead") + " (`\\t` is not a vCard escape, kept verbatim)"],
    "optional warning for each unknown escape (line %d, line %d)" % (line_of(d, "NOTE:"), line_of(d, "TITLE:")))

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:O'Neil\\, Jr.;Seán;Pádraig\\;Mícheál;Dr.;PhD\\, MBA",
          "FN:Dr. Seán O'Neil", "ADR;TYPE=work:;Suite 5\\; Floor 2;12 Harbour Rd\\, Unit B;Cork;;T12 AB34;Ireland",
          "ORG:Ó Briain\\, Walsh & Partners;Legal\\; Tax;Dublin Office", "END:VCARD")
add("72-structured-escapes.vcf", d, "N, ADR, ORG with escaped `\\;` and `\\,` inside components", 1, [
    lst("N", ["O'Neil, Jr.", "Seán", "Pádraig;Mícheál", "Dr.", "PhD, MBA"]),
    lst("ADR", ["", "Suite 5; Floor 2", "12 Harbour Rd, Unit B", "Cork", "", "T12 AB34", "Ireland"]),
    lst("ORG", ["Ó Briain, Walsh & Partners", "Legal; Tax", "Dublin Office"]),
    "each component is a single value (no unescaped comma anywhere)"])

d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Fernández;Lucía;;;", "FN:Lucía Fernández",
          "CATEGORIES:friends,work\\, past,travel", "NICKNAME:Lulu,Lu\\, the Great,🐙 Octo", "END:VCARD")
add("73-list-escapes.vcf", d, "CATEGORIES and NICKNAME comma lists with an escaped comma inside one item", 1, [
    lst("CATEGORIES", ["friends", "work, past", "travel"]), lst("NICKNAME", ["Lulu", "Lu, the Great", "🐙 Octo"])])

inj = "NOTE:Ignore the lines below:\\nEND:VCARD\\nBEGIN:VCARD\\nFN:Mallory Example\\nEND:VCARD"
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Ivanova;Olga;;;", "FN:Olga Ivanova", inj,
          "X-COMMENT:second attempt:\\n", " END:VCARD", "TEL;TYPE=HOME:+1-555-555-0174", "END:VCARD")
add("74-escaped-end-injection.vcf", d,
    "escaped `\\nEND:VCARD\\nBEGIN:VCARD...` inside a NOTE, and a folded continuation line ` END:VCARD`: both stay text", 1, [
        "exactly 1 card; no card named Mallory",
        v("NOTE", "Ignore the lines below:\nEND:VCARD\nBEGIN:VCARD\nFN:Mallory Example\nEND:VCARD"),
        v("X-COMMENT", "second attempt:\nEND:VCARD") + " (text-decoded view; raw `second attempt:\\nEND:VCARD`)",
        v("TEL", "+1-555-555-0174") + " (after the fake END, still in the card)"])

# =============================================================== vendor / X-
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Farouk;Omar;;;", "FN:عمر فاروق",
          "item1.ADR;type=HOME;type=pref:;;7 Cedar Lane;Springfield;IL;55555;USA", "item1.X-ABADR:us",
          "X-SOCIALPROFILE;type=twitter;x-user=omar_example:https://social.example.com/omar_example",
          "IMPP;X-SERVICE-TYPE=Skype;type=HOME;type=pref:skype:omar.farouk.example",
          "item2.IMPP;X-SERVICE-TYPE=Jabber:xmpp:omar@example.org", "item2.X-ABLabel:_$!<Other>!$_",
          "X-ABUID:5F3B2C1A-0000-4000-8000-000000000080\\:ABPerson", "END:VCARD")
add("80-vendor-apple.vcf", d, "Apple vendor properties with groups/params: `X-ABADR`, `X-SOCIALPROFILE`, `IMPP;X-SERVICE-TYPE`, `X-ABUID`", 1, [
    v("FN", "عمر فاروق"),
    lst("item1.ADR", ["", "", "7 Cedar Lane", "Springfield", "IL", "55555", "USA"]) + " " + lst("TYPE", ["home", "pref"]) + "; "
    + "`item1.X-ABADR` raw " + code('"us"'),
    "`X-SOCIALPROFILE` raw " + code('"https://social.example.com/omar_example"') + " params TYPE=[twitter], X-USER=omar_example",
    "`IMPP` " + code('"skype:omar.farouk.example"') + " params X-SERVICE-TYPE=Skype, TYPE=[home, pref]",
    "`item2.IMPP` " + code('"xmpp:omar@example.org"') + " X-SERVICE-TYPE=Jabber, label " + code('"Other"'),
    "`X-ABUID` raw " + code('"5F3B2C1A-0000-4000-8000-000000000080\\:ABPerson"') + " (text view `...0080:ABPerson`)",
    "a 3.0/4.0 writer must re-emit all of these with their group and parameters"])

design = ('<card xmlns="urn:example:ebc" ver="1.0" layout="left" bgcolor="fafafa">'
          '<fld prop="name" align="left" style="b"/><fld prop="email" align="left"/>'
          '<fld prop="telwork" align="left"/></card>')
d = lines("BEGIN:VCARD", "VERSION:3.0", "N:Kowalczyk;Tomasz;;;", "FN:Tomasz Kowalczyk",
          "X-EVOLUTION-FILE-AS:Kowalczyk\\, Tomasz",
          "EMAIL;X-EVOLUTION-UI-SLOT=1;TYPE=WORK:tomasz.kowalczyk@example.com",
          "work.TEL;TYPE=WORK;X-EVOLUTION-UI-SLOT=2:+1-555-555-0181",
          *fold("X-MS-OL-DESIGN;CHARSET=utf-8:" + design, 75, " "),
          "X-MS-OL-DEFAULT-POSTAL-ADDRESS:2", "END:VCARD")
add("81-vendor-outlook-evolution.vcf", d,
    "Evolution/Outlook vendor data: `X-EVOLUTION-FILE-AS`, `X-EVOLUTION-UI-SLOT` params, grouped TEL, folded `X-MS-OL-DESIGN` XML", 1, [
        "`X-EVOLUTION-FILE-AS` raw " + code('"Kowalczyk\\, Tomasz"') + " (text view " + code('"Kowalczyk, Tomasz"') + ")",
        v("EMAIL", "tomasz.kowalczyk@example.com") + " params X-EVOLUTION-UI-SLOT=1, TYPE=[work]",
        "`work.TEL` " + code('"+1-555-555-0181"') + " params TYPE=[work], X-EVOLUTION-UI-SLOT=2",
        "`X-MS-OL-DESIGN` param CHARSET=utf-8, unfolded raw value " + code(q(design)),
        "`X-MS-OL-DEFAULT-POSTAL-ADDRESS` raw " + code('"2"'),
        "a writer must re-emit all of these with their group and parameters"])

# =============================================================== broken (90-99)
d = lines("BEGIN:VCARD", "VERSION:3.0", "FN:Ilse Broekhuis", "TEL:+1-555-555-0190",
          "BEGIN:VCARD", "VERSION:3.0", "FN:Pedro Alves", "EMAIL:pedro.alves@example.com", "END:VCARD")
add("90-missing-end.vcf", d, "card without END:VCARD followed by a good card", 2, [
    card(1) + " (recovered, incomplete) " + v("FN", "Ilse Broekhuis") + ", " + v("TEL", "+1-555-555-0190"),
    card(2) + " " + v("FN", "Pedro Alves") + ", " + v("EMAIL", "pedro.alves@example.com"),
    "minimum: card 2 intact and separate; card 1's properties must NOT leak into card 2"],
    "error/warning: card starting at line %d has no END:VCARD (implicitly closed by BEGIN at line %d)" % (
        line_of(d, "BEGIN:VCARD"), line_of(d, "BEGIN:VCARD", 2)))

d = lines("BEGIN:VCARD", "VERSION:3.0", "FN:Mirela Popescu", "This line has no colon at all",
          "TEL:+1-555-555-0191", "END:VCARD",
          "BEGIN:VCARD", "VERSION:3.0", "FN:Jonas Petersen", "END:VCARD")
add("91-line-without-colon.vcf", d, "a line with no colon inside a card, then a good card", 2, [
    card(1) + " " + v("FN", "Mirela Popescu") + ", " + v("TEL", "+1-555-555-0191") + " (bad line skipped)",
    card(2) + " " + v("FN", "Jonas Petersen")],
    "warning: malformed line (no colon) at line %d" % line_of(d, "This line"))

d = lines("BEGIN:VCARD", "VERSION:3.0", "FN:Aleksander Nowicki", "END:VCARD",
          "BEGIN:VCARD", "VERSION:3.0", "FN:Beatriz Santos", "TEL;TYPE=CELL:+1-555-555-0192")
add("92-eof-before-end.vcf", d, "last card has BEGIN but the file ends before END:VCARD", 2, [
    card(1) + " " + v("FN", "Aleksander Nowicki"),
    card(2) + " (recovered, incomplete) " + v("FN", "Beatriz Santos") + ", " + v("TEL", "+1-555-555-0192"),
    "minimum: card 1 intact"],
    "error/warning: card starting at line %d not terminated (EOF at line %d)" % (
        line_of(d, "BEGIN:VCARD", 2), count_lines(d)))

d = lines("END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:Chiara Romano", "TEL:+1-555-555-0193",
          "END:VCARD", "END:VCARD")
add("93-end-without-begin.vcf", d, "stray END:VCARD before and after a good card", 1, [
    v("FN", "Chiara Romano"), v("TEL", "+1-555-555-0193")],
    "warnings: END without BEGIN at line 1 and line %d" % line_of(d, "END:VCARD", 3))

d = lines("BEGIN:VCARD", "VERSION:2.1", "FN:Daniel Cohen", "END:VCARD",
          "BEGIN:VCARD", "VERSION:2.1", "FN:Sara Lindahl",
          "NOTE;ENCODING=QUOTED-PRINTABLE:This note keeps going=", "and going and going=", final=False)
assert d.endswith(b"going and going=")
add("94-qp-unterminated.vcf", d, "2.1 QP value whose last line ends with a soft break `=` at EOF (no END, no final newline)", 2, [
    card(1) + " " + v("FN", "Daniel Cohen"),
    card(2) + " (recovered, incomplete) " + v("FN", "Sara Lindahl") + ", "
    + v("NOTE", "This note keeps goingand going and going") + " (dangling `=` dropped)",
    "must terminate (no hang, no crash); minimum: card 1 intact"],
    "warnings: QP value starting at line %d ends at EOF inside a soft line break; card starting at line %d "
    "not terminated" % (line_of(d, "NOTE;"), line_of(d, "BEGIN:VCARD", 2)))

long_val = "0123456789" * 1200 + "é"
d = lines("BEGIN:VCARD", "VERSION:3.0", "FN:Wiremu Ngata", "NOTE:" + long_val,
          "TEL:+1-555-555-0195", "END:VCARD", "BEGIN:VCARD", "VERSION:3.0", "FN:Hine Parata", "END:VCARD")
long_line_bytes = len(b("NOTE:" + long_val))
assert long_line_bytes > 10000
add("95-long-line.vcf", d, "one physical line of %d bytes (> 10,000; unfolded NOTE)" % long_line_bytes, 2, [
    card(1) + " " + v("FN", "Wiremu Ngata") + ", NOTE = 12,001 characters (%d UTF-8 bytes): `\"0123456789\"` x 1200 then `\"é\"`, "
    "SHA-256 of its UTF-8 %s" % (len(b(long_val)), hashlib.sha256(b(long_val)).hexdigest()),
    v("TEL", "+1-555-555-0195"), card(2) + " " + v("FN", "Hine Parata")],
    "none with the default ~1 MiB line limit. With a limit below %d bytes: a line-too-long diagnostic at line %d; "
    "suggested recovery drops that property only and still returns both cards" % (long_line_bytes, line_of(d, "NOTE:")))

d = lines("BEGIN:VCARD", "VERSION:3.0", "FN:Håkon Ødegård",
          b"NOTE:Caf\xc3( bad \xff\xfe ok \x80 end", "TEL:+1-555-555-0196", "END:VCARD")
add("96-invalid-utf8.vcf", d, "invalid UTF-8 in a value without CHARSET (lone lead byte C3, FF, FE, lone continuation 80)", 1, [
    v("FN", "Håkon Ødegård") + " (valid UTF-8 in the same card decodes normally)",
    v("NOTE", "Caf\ufffd( bad \ufffd\ufffd ok \ufffd end") + " (one U+FFFD per invalid byte)",
    "acceptable alternative if the parser falls back to Windows-1252 for an invalid value: "
    + v("NOTE", "CafÃ( bad ÿþ ok € end"),
    v("TEL", "+1-555-555-0196")],
    "warning: invalid UTF-8 at line %d" % line_of(d, "NOTE:"))


# =============================================================== EXPECTATIONS.md
HEADER = """# vCard fixture expectations

Generated by `make_fixtures.py` together with the fixtures (do not edit by hand; edit the
script and re-run it). `python3 make_fixtures.py --check` verifies that every fixture and this
file are byte-identical to what the script writes. All people and data are invented.

## Conventions

* **Values** are shown *decoded*: after unfolding, QP/base64 decoding, charset decoding and
  text unescaping. They are written like Python string literals: `\\n` is ONE newline
  character (U+000A), `\\\\` is one backslash, `\\"` a double quote, `\\uFFFD` the replacement
  character. Everything else is literal UTF-8. Inside table cells `\\|` is a literal `|`.
* **Structured values** (N, ADR, ORG) are lists of components split on unescaped `;`.
  **List values** (CATEGORIES, NICKNAME) are lists split on unescaped `,`.
* **TYPE** is a lowercase list gathered from `TYPE=a,b`, repeated `TYPE=` parameters and 2.1
  bare parameters, in file order. `TEL#2` = the second TEL of the card.
* **Line numbers** are 1-based physical lines of the file as generated. A line ends at CR CR LF,
  CR LF, LF or a lone CR (CR CR LF counts as ONE line end). A BOM is not a line.
* **Cards** = number of top-level cards a correct, lenient parser returns.
* **Diagnostics** column: what a parser should report; "none" means no warning/error is expected.
* Photos: the embedded JPEG is a real 8x8 baseline JPEG of %d bytes, SHA-256 `%s`.

## Decisions a reviewer may want to revisit

* **D1 - line ends.** CR CR LF (iOS), CRLF, LF and a lone CR are all line ends; no value keeps a CR
  (fixtures 03, 04).
* **D2 - decoded newlines.** QP `=0D=0A`, `\\n` and `\\N` all become a single `\\n` (fixtures 13, 18, 48, 70).
* **D3 - 2.1 QP continuation white space.** Fixture 11 (every continuation line of the value
  indented) expects the indentation dropped; fixture 12 (one continuation at column 0, one starting
  with a space) expects the space kept. No single stateless rule satisfies both; the rule these
  expectations follow is: *if every continuation line of a QP value begins with white space, remove
  one leading white-space character from each; otherwise keep continuation lines verbatim*.
* **D4 - unknown escapes.** `\\:` unescapes to `:` (Apple writes it); other unknown escapes such as
  `\\x` or `\\t` are kept verbatim including the backslash (fixture 71).
* **D5 - quoted commas.** Inside a quoted TYPE value, commas still separate types
  (`TYPE="voice,cell"` -> [voice, cell], as in RFC 6350's own examples); in any other quoted
  parameter value a comma is literal (fixture 60).
* **D6 - broken cards are recovered**, not dropped: an unterminated card is returned with the
  properties read so far plus a diagnostic (fixtures 90, 92, 94). The "minimum" notes say what must
  hold even for a parser that drops them.
* **D7 - invalid UTF-8** without CHARSET: one U+FFFD per invalid byte (fixture 96), the rest of the
  card is unaffected.
* **D8 - line length.** Fixture 95 has a %d-byte physical line; the planned default limit (~1 MiB)
  must accept it. Fixtures with lines over 1 MiB are deliberately not included (repo size).

## Fixtures

| File | Quirk(s) | Cards | Expected decoded values | Diagnostics |
|---|---|---|---|---|
"""


def expectations_md():
    out = [HEADER % (len(JPEG), JPEG_SHA, long_line_bytes)]
    for name, data, quirks, cards, expect, diags in FIXTURES:
        out.append("| `%s` | %s | %d | %s | %s |\n" % (
            name, quirks.replace("|", "\\|"), cards, "<br>".join(expect), diags.replace("|", "\\|")))
    return "".join(out)


def outputs():
    files = {name: data for name, data, *_ in FIXTURES}
    files["EXPECTATIONS.md"] = expectations_md().encode("utf-8")
    return files


def show_lines():
    for name, data, *_ in FIXTURES:
        print("==== %s (%d bytes)" % (name, len(data)))
        if name.startswith(("41-", "42-")):
            print("   (UTF-16; decoded view)")
            data = data[2:].decode("utf-16-le" if name.startswith("41") else "utf-16-be").encode()
        parts = LINE_RE.split(data)
        ends = LINE_RE.findall(data) + [b""]
        for i, (p, e) in enumerate(zip(parts, ends), 1):
            if i == len(parts) and not p:
                break
            shown = repr(p)[2:-1]
            if len(shown) > 110:
                shown = shown[:100] + "...(%d bytes)" % len(p)
            print("%4d  %-8s %s" % (i, repr(e)[2:-1], shown))


def main(argv):
    files = outputs()
    if "--lines" in argv:
        show_lines()
        return 0
    if "--check" in argv:
        bad = 0
        for name, data in sorted(files.items()):
            path = os.path.join(HERE, name)
            try:
                with open(path, "rb") as fh:
                    disk = fh.read()
            except FileNotFoundError:
                print("MISSING  %s" % name)
                bad += 1
                continue
            if disk != data:
                print("DIFFERS  %s" % name)
                bad += 1
        for extra in sorted(set(f for f in os.listdir(HERE) if f.endswith(".vcf")) - set(files)):
            print("EXTRA    %s (not produced by this script)" % extra)
            bad += 1
        print("%d files checked, %d problem(s)" % (len(files), bad))
        return 1 if bad else 0
    for name, data in files.items():
        with open(os.path.join(HERE, name), "wb") as fh:
            fh.write(data)
    print("wrote %d fixtures + EXPECTATIONS.md to %s" % (len(FIXTURES), HERE))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

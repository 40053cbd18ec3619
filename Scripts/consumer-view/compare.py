#!/usr/bin/env python3
"""Compares what each consumer saw in the original files with what it sees in our output.

usage: compare.py [--details] [--json FILE] OUT_DIR CORPUS_DIR
       compare.py --reasons          (every reason and recovery with its justification, as Markdown)

OUT_DIR is consumer-view.sh's working directory: views/CONSUMER-original.jsonl and CONSUMER-v3.jsonl (ez also
ez-v4.jsonl), one JSON line per file ({"file", "cards": [[{"n", "g", "v", "p"}, ...], ...], "error"}), and our
output files in v3/ and v4/. Prints a Markdown table; --details lists every value that is not "kept", with its
class and reason, on stderr; --json writes the counts. Exit status 1 when any value is changed for the worse,
lost or invented without a reason below.

How values are paired. The cards of a file are paired in order, by their FN (or N) text; a card the consumer
saw only in our output is "recovered", one it saw only in the original "lost" with all its values. Within a
pair of cards an entry is one property as the consumer understood it (name, group, value, parameters).
Identical entries are "kept". The rest are paired by property name (or a rename listed in RENAMES), most alike
first (value, group, types), and every difference in a pair (value, parameters, group) must be explained by one
of the REASONS, or the pair is "changed for the worse". Entries left without a partner are "lost" or "invented"
unless a reason accounts for them. A RECOVERY is a value the consumer could not read in the original and reads
in ours. Nothing is waved through by a catch-all: each reason is a test of the two values (and, where it says
so, of the files' own lines), written below its name.

A file whose cards hold whole cards between their lines (Android's 2.1 nesting) is compared as one list of
entries, since our output writes each nested card as a card of its own. Property and parameter names are
compared upper-cased, as the dumpers print them: they are case-insensitive (RFC 6350 3.3).
"""
import base64
import collections
import difflib
import hashlib
import json
import os
import re
import sys

# Every accepted reason, with why the change is not a loss; the function `reason_NAME` (or the place named) tests it.
REASONS = {
    "version": "VERSION says which format the card is in; converting changes it by definition.",
    "required-fn-n": "RFC 2426 requires FN and N in 3.0 (RFC 6350 FN in 4.0); a card without them gets them (FN "
    "from the name, organisation, email or phone; N empty), which adds no information of its own.",
    "qp-decoded": "The consumer does not decode 2.1 quoted-printable and showed the encoded text; our output holds "
    "the decoded text.",
    "charset-repaired": "The consumer read the original's 8-bit text in the wrong character set (U+FFFD or "
    "mojibake): encoding our text in a legacy charset and reading it as the consumer did gives exactly what the "
    "consumer showed.",
    "bare-2.1-types": "vCard 2.1 writes types as bare parameters (TEL;WORK;VOICE); the consumer kept them as such, "
    "and our output spells them TYPE=work,voice as 3.0 and 4.0 require.",
    "type-spelling": "TYPE values are case-insensitive comma lists (RFC 2426 4, RFC 6350 5.6): the same types in "
    "another case, order, or split from one quoted list.",
    "types-the-original-spells": "Our output has a type this consumer dropped from the original, which spells it in "
    "a way the consumer does not read (a second TYPE, a quoted list followed by more); the type is in the "
    "original's line.",
    "pref-spelling": "3.0 has no PREF parameter; 4.0's PREF=1 is TYPE=pref in 3.0 and back.",
    "default-value-type": "A VALUE parameter that names the property's default type (BDAY;VALUE=date in 3.0, "
    "URL;VALUE=uri, PHOTO;VALUE=binary with ENCODING=b) or a type the value is not (TEL;VALUE=uri:67545678) is "
    "left out; the value is the same.",
    "uri-value-3.0": "A link in PHOTO, LOGO, SOUND or KEY needs VALUE=uri in 3.0, where they default to inline "
    "binary; 2.1's VALUE=URL is that.",
    "line-break-form": "vCard has one way to write a line break in a value (\\n); a CR LF or CR in the original "
    "becomes that line break.",
    "escape-form": "The consumer shows an escaping backslash one side wrote (`\\,` in a structured component, `\\:` "
    "in a URI) and the other did not; the characters are the same.",
    "undefined-escape": "The original has a backslash before a character no vCard escape names (`\\r`, `\\\"`, `\\'`, "
    "2.1 backslashes); readers resolve it differently (dropped, kept, `\\r` read as a CR by Evolution); our output "
    "keeps the backslash and the character, as most of the consumers read it.",
    "fold-whitespace": "The values differ only in white space where the original folds a line or breaks a "
    "quoted-printable line (and in the `=` of a soft break a consumer did not take for one); readers disagree "
    "whether the white space there is content (RFC 2425 5.8.1 removes one space after a fold, 2.1's "
    "quoted-printable keeps a continuation as it stands); our output is not folded so.",
    "structured-padding": "N has five components and ADR seven (RFC 2426 3.1.2, 3.2.1); our output writes them "
    "all, the missing ones empty.",
    "same-date": "The same date or date-time in ISO 8601's basic and extended forms.",
    "apple-omitted-year": "Apple writes a date without a year as that date in the year its X-APPLE-OMIT-YEAR "
    "parameter names (BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-15); 4.0 writes a date without a year as --MMDD (RFC "
    "6350 4.3.1): the same month and day, without the year that was never there, or the parameter.",
    "tel-uri-as-text": "3.0 has no tel: URI for TEL; the number of a 4.0 tel: URI is written as text, its extension "
    "as ` ext. N`, which a person and a phone dial.",
    "tel-text-as-uri": "4.0 writes a number that came as a tel: URI back as one.",
    "media-type-spelling": "The same media type spelled another way (4.0 MEDIATYPE or data: URI, 3.0 TYPE, "
    "application/pkix-cert for X509), or named from the bytes' own signature where the original named none.",
    "x-anniversary-3.0": "3.0 has no ANNIVERSARY; a 4.0 ANNIVERSARY is written X-ANNIVERSARY in 3.0, as Evolution, "
    "KAddressBook and Thunderbird write it.",
    "geo-syntax": "GEO is `lat;lon` in 3.0 and a `geo:lat,lon` URI in 4.0 (RFC 2426 3.4.2, RFC 6350 6.5.2).",
    "profile-4.0": "RFC 6350 removed PROFILE; it only restated that the card is a vCard.",
    "profile-spelling": "PROFILE's value is written VCARD, its RFC 2426 spelling: Python vobject rejects a card "
    "whose PROFILE is spelled otherwise (`VCard`).",
    "agent-4.0": "RFC 6350 removed AGENT; 4.0 writes it as RELATED;TYPE=agent (a nested card as a data: URI).",
    "android-nickname": "Android writes a nickname in 2.1, which has no NICKNAME, as X-ANDROID-CUSTOM:"
    "vnd.android.cursor.item/nickname;NAME;1;...; our 3.0 and 4.0 write it as NICKNAME:NAME, which Android reads "
    "too: the same name, now a nickname to every reader.",
    "nested-card-converted": "A card nested in AGENT is converted like any other card (version, types, required "
    "FN and N); every value of the original nested card is in ours.",
    "unchanged-line": "Every line of this property in our output is a line of the original as written; the "
    "consumer reads the same line differently in the original's version (2.1 lists and escapes).",
    "value-type-default": "The same characters, which the consumer takes for the type its version defaults to "
    "(a 4.0 KEY or PHOTO that is no URI read as a link, the 3.0 line read as text).",
    "empty-value": "Both values are empty (an empty link, empty data).",
    "label-parameter": "An address's LABEL parameter holds the same text, its line breaks and quoted-printable "
    "written as the version writes them (RFC 6868 ^n in 4.0).",
    "stray-quote-parameter": "The original has a `\"` inside an unquoted parameter value or backslashes before "
    "quotes, which no vCard RFC allows; readers take it apart differently; our output keeps every character.",
    "undecodable-data": "The original claims base64 but holds raw bytes; what the consumer decoded from it has no "
    "image or sound signature (it is not the data), and our reader leaves it out with a warning.",
    "anniversary-4.0": "4.0 has ANNIVERSARY (RFC 6350 6.2.6); a 3.0 card's X-ANNIVERSARY, the name Evolution, "
    "KAddressBook and Thunderbird give it, is written as that.",
    "x-name-4.0": "PHOTO, LOGO and SOUND hold only a URI in 4.0 (RFC 6350 6.2.4, 6.6.3, 6.7.5); text that is "
    "neither a URI nor base64 keeps its characters under an X- name (the reader warns), where the consumer read "
    "the original's text as a link or as bytes without any image or sound signature.",
    "original-parameters": "The consumer reads the original's parameters otherwise than RFC 6350 3.3 does (a "
    "quoted value holding `;`, `:` or `,`, a value with `=`, an empty list item, quotes in 2.1); our output's "
    "parameters are the original's as the RFC reads them.",
    "component-list-comma": "A bare comma ends an N or ADR component: a list separator to 4.0 readers, text to "
    "2.1 and 3.0 ones; the consumer dropped the empty item after it, our output keeps the comma as text (`\\,`).",
    "nested-cards-split": "A 2.1 card holds whole cards between its lines (Android's nesting, which no RFC "
    "defines); our output writes each as a card of its own, the nested ones first. Compared over the file, every "
    "value of the original is in one of our cards.",
    "nickname-per-line": "A NICKNAME list (RFC 2426 3.1.3, RFC 6350 6.2.3) is written one nickname per line, which "
    "both RFCs allow and every reader reads as the same nicknames; Python vobject, and so Radicale, keeps only "
    "the first item of a list on one line.",
    "single-instance": "RFC 6350 allows N, BDAY, ANNIVERSARY, GENDER, KIND, PRODID and UID once per card (5.4, "
    "6.x: several only as alternatives sharing one ALTID), RFC 2426 N, BDAY, UID, SORT-STRING and CLASS once (by "
    "their meaning), and CardDAV servers refuse a card with two N; a further one keeps its parameters and value "
    "under the name X- + name.",
    "newest-rev": "A card has one REV (RFC 6350 6.7.4 cardinality *1, RFC 2426 3.6.4), the time of its last "
    "change; of several, ours keeps the newest, and an older one says nothing the newest does not.",
    "bare-name": "A line holding only a property name is old Evolution's way of writing an empty property; our "
    "output writes it as one.",
}
RECOVERIES = {
    "card-recovered": "The consumer failed on the original file or card and reads our output.",
    "binary-recovered": "The consumer could not decode the original's data (base64 it reads as a link, a data: URI "
    "inside ENCODING=b, base64 wrapped over 2.1 lines) and decodes ours to bytes with a known signature, or to the "
    "bytes the original's base64 text decodes to.",
    "continuation-read": "The consumer stopped the original's value at a line its writer continued (Android's 2.1 "
    "backslash continuation); our value holds the rest too.",
    "utf8-fold-joined": "The original folds a line inside a UTF-8 sequence, which RFC 6350 3.2 allows (unfolding "
    "joins octets); the consumer decoded each physical line alone and showed U+FFFD there; ours holds the "
    "character.",
    "line-recovered": "The consumer dropped a line of the original (after bytes it could not read, or beside a "
    "nested card it misread); the line is in the original as written, and the consumer reads it in ours.",
    "list-item-recovered": "The consumer read only the first item of the original's NICKNAME list (Python vobject "
    "keeps the text before the first comma); ours writes each item on a line of its own, and the consumer reads "
    "them all.",
    "parameter-recovered": "The consumer dropped a parameter of the original (an unquoted value holding `=`, "
    "stray quotes that made it a bare word); ours quotes it and the consumer reads it.",
}

TRANSFER = {"ENCODING", "CHARSET"}
KINDS = {"ez": ["v3", "v4"], "sabre": ["v3"], "vobject": ["v3"], "evcard": ["v3"]}
NAMES = {"ez": "ez-vcard", "sabre": "sabre/vobject", "vobject": "Python vobject", "evcard": "Evolution EVCard"}
COLUMNS = ["kept", "accepted", "worse", "lost", "invented", "recovered"]
MEDIA_WORDS = {"jpeg", "jpg", "png", "gif", "bmp", "webp", "heic", "tiff", "wave", "wav", "pgp", "x509"}
BINARY = ("PHOTO", "LOGO", "SOUND", "KEY")
MULTIBYTE = {"shift_jis", "cp932", "euc_jp", "gb18030", "big5"}
LEGACY = ["cp1252", "cp1250", "cp1251", "cp1253", "cp1255", "koi8_r", "koi8_u", "mac_roman", "iso8859_2",
          "iso8859_5", "iso8859_7", "iso8859_8", "iso8859_15", "shift_jis", "cp932", "euc_jp", "gb18030", "big5"]


def load(path):
    files = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            files[record["file"]] = record
    return files


# ---- the files' own lines -------------------------------------------------------------------------------------

class RawFile:
    """A vCard file's logical lines (unfolded, quoted-printable soft breaks joined), for the tests that look at
    what a file says rather than what a consumer read."""

    def __init__(self, path):
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            data = b""
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
            text = data.decode("utf-16", errors="replace")
        else:
            text = data.decode("utf-8", errors="replace")
        physical = re.split(r"\r\n|\r|\n", text)
        self.folded = any(line[:1] in (" ", "\t") for line in physical) or any(
            line.endswith("=") for line in physical)
        # A fold inside a UTF-8 sequence: a lead byte (and maybe continuation bytes), the line end, the fold's
        # white space, then a continuation byte.
        self.splits_utf8 = re.search(rb"[\xc0-\xf4][\x80-\xbf]{0,2}\r?\n[ \t][\x80-\xbf]", data) is not None
        # A quoted-printable soft break followed by an indented line.
        self.soft_break_indented = re.search(r"=\r?\n[ \t]", text) is not None
        self.lines = []
        for line in physical:
            # A soft break (`=` at the end) joins the next line, but never END:VCARD (issue 18, item 12).
            soft = self.lines and self.lines[-1].endswith("=") and line.strip().upper() != "END:VCARD"
            if self.lines and (line[:1] in (" ", "\t") or soft):
                self.lines[-1] = self.lines[-1].rstrip("=") + line.lstrip(" \t") if self.lines[-1].endswith("=") \
                    else self.lines[-1] + line[1:]
            else:
                self.lines.append(line)
        self.text = text
        self.data = data
        self.nested = self._nested()

    def _nested(self):
        """Whether a card holds whole cards between its lines (not as a 2.1 AGENT's value)."""
        depth = 0
        previous = ""
        for line in self.lines:
            squeezed = line.strip().upper()
            if squeezed == "BEGIN:VCARD":
                if depth >= 1 and not re.match(r"(?i)^([^;:]*\.)?AGENT[;:]", previous):
                    return True
                depth += 1
            elif squeezed == "END:VCARD":
                depth = max(0, depth - 1)
            previous = line
        return False

    def named(self, name, group=None):
        """The lines of a property (group ignored when None), as written."""
        out = []
        for line in self.lines:
            head = re.split(r"[;:]", line, maxsplit=1)[0]
            g, _, n = head.rpartition(".")
            if n.strip().upper() == name and (group is None or g.lower() == (group or "").lower()):
                out.append(line)
        return out


RAW_CACHE = {}


def raw(path):
    if path not in RAW_CACHE:
        RAW_CACHE[path] = RawFile(path)
    return RAW_CACHE[path]


# ---- value tests --------------------------------------------------------------------------------------------

def breaks(text):
    return text.replace("\r\n", "\n").replace("\r", "\n")


def unescaped(text):
    return re.sub(r"\\([,;:])", r"\1", text)


def no_backslashes(text):
    return breaks(text).replace("\\n", "\n").replace("\\", "")


def qp_decode(text, soft=True):
    raw_text = re.sub(r"=\r?\n", "", text) if soft else text
    data = bytearray()
    i = 0
    while i < len(raw_text):
        if raw_text[i] == "=" and re.fullmatch(r"[0-9A-Fa-f]{2}", raw_text[i + 1:i + 3] or ""):
            data.append(int(raw_text[i + 1:i + 3], 16))
            i += 3
        else:
            data += raw_text[i].encode("utf-8")
            i += 1
    for charset in ("utf-8", "cp1252"):
        try:
            return data.decode(charset)
        except UnicodeDecodeError:
            continue
    return None


def text_unescape(text):
    return re.sub(r"\\([nN])", "\n", text)


def qp_equal(old, new):
    """The consumer showed quoted-printable it did not decode (escapes, or only the soft breaks), which decodes
    to our text; a soft break is tried as one and, where the consumer had already joined the lines, as text."""
    if not re.search(r"=[0-9A-Fa-f]{2}|=\r?\n", old):
        return False
    for soft in (True, False):
        decoded = qp_decode(old, soft)
        if decoded is None:
            continue
        if breaks(decoded) == breaks(new) or breaks(text_unescape(decoded)) == breaks(text_unescape(new)) or \
                unescaped(breaks(text_unescape(decoded))) == unescaped(breaks(text_unescape(new))):
            return True
    return False


def collapse_replacement(text):
    return re.sub("\ufffd+", "\ufffd", breaks(unescaped(text)))


def charset_repaired(old, new, context=None):
    """Our text, encoded in some legacy charset and read as the consumer read the original (UTF-8 with U+FFFD, or
    byte for byte as Latin-1 or Windows-1252), gives what the consumer showed."""
    if old == new or not any(ord(c) > 0x7F for c in new):
        return False
    # Python vobject's text decoder shows a value that ends in a lone backslash with `eof` after it.
    if old.endswith("\\eof"):
        old = old[:-3]
    # Structured values: the consumer may pad the components differently.
    old, new = old.rstrip(";"), new.rstrip(";")
    if old == new:
        return False
    target = collapse_replacement(old)
    bare_target = collapse_replacement(old.replace("\\", ""))
    for charset in LEGACY:
        try:
            data = breaks(new).encode(charset)
        except UnicodeEncodeError:
            continue
        readings = [data.decode("utf-8", errors="replace"), data.decode("latin-1"),
                    data.decode("cp1252", errors="replace")]
        if any(collapse_replacement(r) == target for r in readings):
            return True
        # Escapes the consumer shows or resolves for a 0x5C trail byte of a multi-byte charset.
        if charset in MULTIBYTE and any(collapse_replacement(r.replace("\\", "")) == bare_target for r in readings):
            return True
    # A damaged UTF-8 sequence: the consumer replaced more than one character, or our U+FFFD stands where the
    # consumer's mojibake was, the rest alike.
    if "\ufffd" in new:
        pattern = "^" + "".join(".+?" if c == "\ufffd" else re.escape(c) for c in breaks(new)) + "$"
        if re.match(pattern, breaks(old), re.S):
            return True
    return False


def apple_omitted_year(old, ov, nv):
    """Whether `ov` is a date in the year the entry's X-APPLE-OMIT-YEAR names and `nv` its month and day alone."""
    years = old["p"].get("X-APPLE-OMIT-YEAR", [])
    o, n = iso_date(ov), iso_date(nv)
    return len(years) == 1 and o is not None and n is not None and nv.strip().startswith("--") and \
        len(o) == 8 and o[:4] == years[0] and n == o[4:]


def iso_date(text):
    digits = re.sub(r"[-:]", "", text.strip())
    return digits if re.fullmatch(r"[0-9T+Z.]+", digits) else None


TEL = re.compile(r"^tel:([^;]*)((?:;[^;]*)*)$", re.I)


def tel_as_text(uri, text):
    match = TEL.match(uri)
    if not match:
        return False
    number, params = match.group(1), match.group(2)
    ext = re.search(r";ext=([^;]*)", params, re.I)
    others = re.sub(r";ext=[^;]*", "", params, flags=re.I)
    if ext and not others:
        return text == number + " ext. " + ext.group(1)
    return text in (number + params, number + params.replace(";", "\\;"))


def geo_numbers(text):
    return [float(x) for x in re.findall(r"-?[0-9]+(?:\.[0-9]+)?", text)]


def padded(old, new):
    parts_old = old.split(";")
    parts_new = new.split(";")
    return len(parts_new) > len(parts_old) and parts_new[:len(parts_old)] == parts_old and \
        all(p == "" for p in parts_new[len(parts_old):])


def whitespace_only(old, new):
    squeeze = lambda t: re.sub(r"\s+", "", no_backslashes(t))
    return squeeze(old) == squeeze(new) and old != new


def nested_values(text):
    lines = no_backslashes(text_unescape(text)).split("\n")
    values = set()
    for line in lines:
        if ":" in line:
            name, _, value = line.partition(":")
            if name.split(";")[0].upper() not in ("BEGIN", "END", "VERSION", "N", "FN"):
                values.add(value.strip())
    return values


def is_vcard_text(text):
    return no_backslashes(text_unescape(text)).lstrip().upper().startswith("BEGIN:VCARD")


def binary_parts(value):
    parts = value.split(":")
    if value.startswith("binary:") and len(parts) >= 3:
        return int(parts[1]), parts[2], parts[3] if len(parts) > 3 else "?"
    return None


def decodes_to(text, digest):
    try:
        data = base64.b64decode(re.sub(r"\s", "", text), validate=False)
    except Exception:  # noqa: BLE001 - any failure means no
        return False
    return hashlib.sha1(data).hexdigest()[:16] == digest


def types(params):
    out = set()
    for value in params.get("TYPE", []):
        out.update(item.strip().lower() for item in value.split(",") if item.strip())
    return out


MEDIA_NAMES = {"jpeg": "image/jpeg", "jpg": "image/jpeg", "png": "image/png", "gif": "image/gif",
               "bmp": "image/bmp", "webp": "image/webp", "heic": "image/heic", "tiff": "image/tiff",
               "wave": "audio/wav", "wav": "audio/wav", "pgp": "application/pgp-keys",
               "x509": "application/pkix-cert"}
MEDIA_ALIASES = {"application/x509": "application/pkix-cert", "image/jpg": "image/jpeg", "audio/x-wav": "audio/wav",
                 "application/x-x509-ca-cert": "application/pkix-cert"}


def media(params, value):
    found = None
    for item in params.get("(media)", []) + params.get("MEDIATYPE", []):
        found = item.lower()
        break
    if found is None:
        for item in sorted(types(params)) + sorted(b.lower() for b in params.get("(bare)", [])):
            if item in MEDIA_NAMES:
                found = MEDIA_NAMES[item]
                break
            if "/" in item:
                found = item
                break
    if found is None and value.lower().startswith("data:"):
        found = value[5:].replace("\\", "").split(";")[0].split(",")[0].lower() or None
    return MEDIA_ALIASES.get(found, found)


def data_uri_key(value):
    """`binary:SIZE:SHA1` of a data: URI the consumer shows as text, or None."""
    match = re.match(r"(?i)data:[^,]*?base64\\?,(.*)$", value, re.S)
    if not match:
        return None
    data = lenient_base64(match.group(1))
    if data is None:
        return None
    return "binary:%d:%s" % (len(data), hashlib.sha1(data).hexdigest()[:16])


def lenient_base64(text):
    """The bytes of base64 as damaged files hold it: characters outside the alphabet dropped, a last partial
    group completed or dropped, as our reader does."""
    letters = re.sub(r"[^A-Za-z0-9+/]", "", text.split("=")[0])
    for length in (len(letters), len(letters) - len(letters) % 4):
        try:
            return base64.b64decode(letters[:length] + "=" * (-length % 4))
        except Exception:  # noqa: BLE001 - try the shorter form
            continue
    return None


def split_outside_quotes(text, separators):
    """`text` split at each of `separators` that is not inside double quotes."""
    parts, current, quoted = [], "", False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char in separators and not quoted:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return parts


def head_and_value(line):
    """A raw line's name and parameters, and its value: split at the first colon outside quotes."""
    parts = split_outside_quotes(line, ":")
    return parts[0], ":".join(parts[1:])


def rfc_params(line):
    """The parameters of a raw line as RFC 6350 3.3 reads them: `;` between parameters and `,` between values
    outside double quotes, quotes removed; a bare 2.1 type is a TYPE."""
    head, _ = head_and_value(line)
    out = collections.defaultdict(list)
    for item in split_outside_quotes(head, ";")[1:]:
        name, equals, values = item.partition("=")
        if not equals:
            out["TYPE"].append(name.strip().lower())
            continue
        for value in split_outside_quotes(values, ","):
            out[name.strip().upper()].append(value.replace('"', ""))
    return out


def normal_params(params):
    """Parameters for comparing one reading with another: no transfer encodings, TYPE as a set of lower-case
    words with `pref` and PREF=1 as one flag, the rest as sorted lists."""
    out = {}
    for key, values in params.items():
        key = key.upper()
        if key in TRANSFER or key == "VALUE":
            continue
        if key in ("TYPE", "(BARE)"):
            out.setdefault("TYPE", set()).update(
                v.strip().lower() for value in values for v in value.split(",") if v.strip())
        elif key == "PREF":
            out["(pref)"] = values == ["1"]
        else:
            out[key] = sorted(values)
    if "pref" in out.get("TYPE", set()):
        out["TYPE"].discard("pref")
        out["(pref)"] = True
    if not out.get("(pref)"):
        out.pop("(pref)", None)
    if not out.get("TYPE"):
        out.pop("TYPE", None)
    return out


def raw_data_uri_key(context, name):
    """`binary:SIZE:SHA1` of each data: URI the original's `name` lines hold as written."""
    keys = set()
    for line in context["raw_old"].named(name):
        _, value = head_and_value(line)
        key = data_uri_key(value.replace("\\", ""))
        if key:
            keys.add(key)
    return keys


def component_list_comma(old, new):
    """N or ADR components alike but for a bare comma at an end of one, which the consumer took for a list
    separator with an empty item after it."""
    a = [c.strip(",") for c in unescaped(old).rstrip(";").split(";")]
    b = [c.strip(",") for c in unescaped(new).rstrip(";").split(";")]
    return a == b


def utf8_fold_joined(old, new):
    """Our text where the consumer showed U+FFFD, each run of them standing for one or two characters."""
    if "\ufffd" not in old or "\ufffd" in new:
        return False
    pattern = "^" + "".join(".{1,2}" if c == "\ufffd" else re.escape(c) for c in re.sub("\ufffd+", "\ufffd", old)) + "$"
    return re.match(pattern, new, re.S) is not None


# ---- pairing and classification ------------------------------------------------------------------------------

RENAMES = {("ANNIVERSARY", "X-ANNIVERSARY"), ("X-ANNIVERSARY", "ANNIVERSARY"), ("AGENT", "RELATED"),
           ("X-ANDROID-CUSTOM", "NICKNAME"),
           ("PHOTO", "X-PHOTO"), ("LOGO", "X-LOGO"), ("SOUND", "X-SOUND")} | \
    {(n, "X-" + n) for n in ("N", "BDAY", "ANNIVERSARY", "GENDER", "KIND", "PRODID", "UID", "SORT-STRING", "CLASS")}
SINGLE = ("N", "BDAY", "ANNIVERSARY", "GENDER", "KIND", "PRODID", "UID", "SORT-STRING", "CLASS")


def explain_value(old, new, context):
    """The reason the values differ acceptably, ("recovered", reason), or None."""
    name = old["n"]
    ov, nv = old["v"], new["v"]
    if name == "VERSION":
        return "version"
    if breaks(ov) == breaks(nv):
        return "line-break-form"
    if unescaped(breaks(ov)) == unescaped(breaks(nv)):
        return "escape-form"
    if qp_equal(ov, nv):
        return "qp-decoded"
    if charset_repaired(ov, nv):
        return "charset-repaired"
    # A legacy multi-byte character whose last byte is 0x5C ends the line: the consumer took it for a backslash
    # escaping the line end and read the next line into the value.
    if "\n" in ov and re.search(rb"[\x81-\xfe]\x5c\r?\n", context["raw_old"].data) and \
            charset_repaired(ov.split("\n")[0], nv):
        return "charset-repaired"
    if name in ("N", "ADR") and (padded(ov, nv) or padded(unescaped(ov), unescaped(nv))):
        return "structured-padding"
    if name in ("N", "ADR") and component_list_comma(ov, nv) and \
            any(re.search(r"[^\\],[;]|[^\\],$", head_and_value(l)[1]) for l in context["raw_old"].named(name)):
        return "component-list-comma"
    if context["raw_old"].splits_utf8:
        squeeze = lambda t: re.sub(r"\s+", "", breaks(unescaped(t)))
        if utf8_fold_joined(squeeze(ov), squeeze(nv)):
            return ("recovered", "utf8-fold-joined")
    if name in ("BDAY", "ANNIVERSARY", "X-ANNIVERSARY", "REV", "DEATHDATE") and iso_date(ov) and \
            iso_date(ov) == iso_date(nv):
        return "same-date"
    if name in ("BDAY", "ANNIVERSARY", "X-ANNIVERSARY") and apple_omitted_year(old, ov, nv):
        return "apple-omitted-year"
    if name == "TEL" and context["kind"] == "v3" and tel_as_text(ov, nv):
        return "tel-uri-as-text"
    if name == "GEO" and geo_numbers(ov) == geo_numbers(nv) and len(geo_numbers(ov)) >= 2:
        return "geo-syntax"
    if name == "PROFILE" and ov.upper() == nv.upper() == "VCARD":
        return "profile-spelling"
    if (name == "AGENT" or name.startswith("AGENT")) and is_vcard_text(ov) and is_vcard_text(nv) and \
            nested_values(ov) <= nested_values(nv):
        return "nested-card-converted"
    if name in BINARY:
        empty = ("url:", "binary:0:da39a3ee5e6b4b0d:?", "")
        if ov in empty and nv in empty:
            return "empty-value"
        o, n = ov.split(":", 1), nv.split(":", 1)
        if len(o) == 2 and len(n) == 2 and o[0] in ("url", "text") and n[0] in ("url", "text") and o[1] == n[1]:
            return "value-type-default"
        ours = binary_parts(nv)
        if ours:
            theirs = binary_parts(ov)
            if data_uri_key(ov) == "binary:%d:%s" % ours[:2]:
                return "media-type-spelling"
            if ov.lower().startswith("data:") and "binary:%d:%s" % ours[:2] in raw_data_uri_key(context, name):
                # The consumer cut the original's data: URI short (at its comma) and decodes ours.
                return ("recovered", "binary-recovered")
            if (theirs and theirs[2] == "?" and ours[2] != "?") or ov.startswith(("url:null", "undecodable")):
                return ("recovered", "binary-recovered")
            if ov.startswith("url:") and decodes_to(ov[4:], ours[1]):
                return ("recovered", "binary-recovered")
            if not ov.startswith(("url:", "binary:")) and decodes_to(ov, ours[1]):
                return ("recovered", "binary-recovered")
    if "\\" in context["raw_old"].text and no_backslashes(ov) == no_backslashes(nv):
        return "undefined-escape"
    if "\\r" in context["raw_old"].text and breaks(nv.replace("\\r", "\r")) == breaks(ov):
        return "undefined-escape"
    stripped = no_backslashes(ov).rstrip("\\ \r\n")
    if stripped and len(no_backslashes(nv)) > len(stripped) and no_backslashes(nv).startswith(stripped):
        return ("recovered", "continuation-read")
    if context["raw_old"].folded and whitespace_only(ov, nv):
        return "fold-whitespace"
    if context["raw_old"].soft_break_indented:
        # The `=` of the soft break, where the consumer kept it, is followed by the continuation's white space.
        squeeze = lambda t: re.sub(r"\s+", "", re.sub(r"=(?=\s)", "", no_backslashes(t)))
        if squeeze(qp_decode(ov) or ov) == squeeze(nv) or squeeze(ov) == squeeze(nv):
            return "fold-whitespace"
    return None


def explain_params(old, new, context, value_reason):
    """The reasons the parameters differ acceptably, or None."""
    op = {k: v for k, v in old["p"].items() if k not in TRANSFER}
    np_ = {k: v for k, v in new["p"].items() if k not in TRANSFER}
    if value_reason == "apple-omitted-year":
        # The parameter is what the value's reason reads: the year it names is the one left out.
        op.pop("X-APPLE-OMIT-YEAR", None)
    if op == np_:
        return []
    name = old["n"]
    reasons = set()
    rest_o = {k: v for k, v in op.items() if k not in ("TYPE", "PREF", "(bare)", "(media)", "MEDIATYPE", "VALUE")}
    rest_n = {k: v for k, v in np_.items() if k not in ("TYPE", "PREF", "(bare)", "(media)", "MEDIATYPE", "VALUE")}
    stray = any('"' in line.split(":")[0] for line in context["raw_old"].named(name))
    squeeze = lambda t: re.sub(r'[\\",^\'\s]', "", t)
    if {k: sorted(v) for k, v in rest_o.items()} != {k: sorted(v) for k, v in rest_n.items()}:
        if set(rest_o) != set(rest_n):
            # A parameter the consumer lost from the original's stray quotes (read as a bare word) and reads
            # in ours.
            dropped = set(rest_n) - set(rest_o)
            bare_old = {b.upper() for b in op.get("(bare)", [])}
            if not (stray and set(rest_o) <= set(rest_n) and dropped <= bare_old):
                return None
            reasons.add("@parameter-recovered")
            bare_old -= dropped
            op = dict(op, **{"(bare)": [b for b in op.get("(bare)", []) if b.upper() not in dropped]})
        for key in rest_o:
            a, b = sorted(rest_o[key]), sorted(rest_n[key])
            if a == b:
                continue
            joined_a, joined_b = ",".join(a), ",".join(b)
            norm = lambda t: breaks(text_unescape(t.replace("^n", "\n").replace("^'", '"')))
            if norm(joined_a) == norm(joined_b) or (qp_equal(joined_a, joined_b)) or \
                    (context["raw_old"].folded and whitespace_only(norm(joined_a), norm(joined_b))):
                reasons.add("label-parameter")
            elif stray and all(squeeze(x) in squeeze(joined_b) for x in a):
                # Every character the consumer read from the original is in ours.
                reasons.add("stray-quote-parameter")
            elif unchanged_lines(name, old, context):
                reasons.add("unchanged-line")
            else:
                return None
    otypes, ntypes = types(op), types(np_)
    # A bare parameter the consumer sees in both is the same word, whatever it makes of it.
    bare = {b.lower() for b in op.get("(bare)", [])} - {b.lower() for b in np_.get("(bare)", [])}
    if name in BINARY:
        mo, mn = media(op, old["v"]), media(np_, new["v"])
        ours = binary_parts(new["v"])
        if mo != mn:
            sniffed = ours and mn and mn.endswith("/" + ours[2])
            if mo is None and (sniffed or mn == "application/octet-stream" or (ours and ours[2] == "?")):
                reasons.add("media-type-spelling")
            elif isinstance(value_reason, tuple):
                pass  # what the consumer made of the original's type went with data it could not read
            elif mo and mn and (mo.split("/")[-1] == mn.split("/")[-1] or MEDIA_ALIASES.get(mo, mo) == mn):
                reasons.add("media-type-spelling")
            else:
                return None
        elif (op.get("(media)"), op.get("MEDIATYPE")) != (np_.get("(media)"), np_.get("MEDIATYPE")) or \
                otypes != ntypes:
            reasons.add("media-type-spelling")
        otypes = {t for t in otypes if "/" not in t and t not in MEDIA_WORDS}
        ntypes = {t for t in ntypes if "/" not in t and t not in MEDIA_WORDS}
        bare = {t for t in bare if t not in MEDIA_WORDS and t not in ("base64", "b")}
    ov_type, nv_type = [x.lower() for x in op.get("VALUE", [])], [x.lower() for x in np_.get("VALUE", [])]
    if ov_type != nv_type:
        is_link = bool(re.match(r"^(url:)?[A-Za-z][A-Za-z0-9+.-]*:", new["v"]))
        if name in BINARY and nv_type == ["uri"] and ov_type in ([], ["url"], ["uri"]) and is_link:
            reasons.add("uri-value-3.0")
        elif name == "TEL" and value_reason == "tel-uri-as-text":
            pass
        elif name == "TEL" and context["kind"] == "v4" and nv_type == ["uri"] and new["v"].lower().startswith("tel:"):
            reasons.add("tel-text-as-uri")
        elif not nv_type and (ov_type in (["date"], ["uri"], ["url"], ["text"], ["binary"], ["date-time"],
                                          ["timestamp"]) or
                              (name == "TEL" and ov_type == ["uri"] and ":" not in new["v"])):
            reasons.add("default-value-type")
        elif name in BINARY and context["kind"] == "v4" and not nv_type:
            reasons.add("media-type-spelling")
        else:
            return None
    opref = op.get("PREF") == ["1"] or "pref" in otypes or "pref" in bare
    npref = np_.get("PREF") == ["1"] or "pref" in ntypes
    if opref != npref:
        if npref and raw_says_type(context, name, "pref"):
            reasons.add("types-the-original-spells")
        else:
            return None
    if op.get("PREF") != np_.get("PREF") and ("pref" in otypes or "pref" in bare) != ("pref" in ntypes):
        reasons.add("pref-spelling")
    otypes.discard("pref")
    ntypes.discard("pref")
    bare.discard("pref")
    seen = otypes | bare
    if bare:
        reasons.add("bare-2.1-types")
    if seen != ntypes:
        extra = ntypes - seen
        if seen <= ntypes and all(raw_says_type(context, name, t) for t in extra):
            reasons.add("types-the-original-spells")
        elif seen - ntypes and all(raw_says_type(context, name, t) for t in ntypes - seen) and \
                unchanged_lines(name, old, context):
            reasons.add("unchanged-line")
        else:
            return None
    elif not bare and sorted(op.get("TYPE", [])) != sorted(np_.get("TYPE", [])):
        reasons.add("type-spelling")
    return sorted(reasons)


def raw_says_type(context, name, type_name):
    for line in context["raw_old"].named(name):
        head, _ = head_and_value(line)
        if re.search(r"(?i)[;=,\"]" + re.escape(type_name) + r"(?=$|[;,\"])", head):
            return True
    return False


def unchanged_lines(name, old, context):
    """Whether every line of this property in our output is a line of the original as written."""
    ours = [l for l in context["raw_new"].named(name, old["g"])]
    theirs = set(l.strip().lower() for l in context["raw_old"].named(name, old["g"]))
    return bool(ours) and all(l.strip().lower() in theirs for l in ours)


def x_name_kept(old, new, context):
    """Our X- line holds the text of one of the original's lines as written (escapes resolved), and the
    consumer read that line as a link to the same text or as bytes with no known signature."""
    text = no_backslashes(text_unescape(new["v"]))
    written = {no_backslashes(text_unescape(head_and_value(l)[1])) for l in context["raw_old"].named(old["n"])}
    part = binary_parts(old["v"])
    read_so = (part is not None and part[2] == "?") or no_backslashes(text_unescape(old["v"])).split(":", 1)[-1] == text
    in_file = text in written or any(encoded_in(text, charset, context["raw_old"].data)
                                     for charset in ["utf-8"] + LEGACY)
    return in_file and read_so


def encoded_in(text, charset, data):
    try:
        return text.encode(charset) in data
    except UnicodeEncodeError:
        return False


def android_nickname(value):
    """The name an Android nickname line holds (vnd.android.cursor.item/nickname;NAME;KIND;...), when it is a
    plain one (kind 1 or none, nothing after it), else None."""
    parts = value.split(";") if isinstance(value, str) else []
    if len(parts) < 2 or parts[0] != "vnd.android.cursor.item/nickname" or not parts[1]:
        return None
    if len(parts) > 2 and parts[2] not in ("", "1") or any(parts[3:]):
        return None
    return parts[1]


def explain_pair(old, new, context):
    """(reasons, recovered) for a pair, or (None, False) when a difference is unexplained."""
    reasons = []
    if old["n"] != new["n"]:
        if (old["n"], new["n"]) == ("ANNIVERSARY", "X-ANNIVERSARY") and context["kind"] == "v3" and \
                context["source_version"] == "4.0":
            reasons.append("x-anniversary-3.0")
        elif (old["n"], new["n"]) == ("AGENT", "RELATED") and context["kind"] == "v4":
            return ["agent-4.0"], False
        elif (old["n"], new["n"]) == ("X-ANDROID-CUSTOM", "NICKNAME"):
            return (["android-nickname"], False) if android_nickname(old["v"]) == new["v"] else (None, False)
        elif (old["n"], new["n"]) == ("X-ANNIVERSARY", "ANNIVERSARY") and context["kind"] == "v4":
            reasons.append("anniversary-4.0")
        elif new["n"] == "X-" + old["n"] and old["n"] in BINARY and context["kind"] == "v4":
            return (["x-name-4.0"], False) if x_name_kept(old, new, context) else (None, False)
        elif new["n"] == "X-" + old["n"] and old["n"] in SINGLE and \
                sum(1 for e in context["old_card"] if e["n"] == old["n"]) > 1:
            if single_kept(old, new, context):
                return ["single-instance"], False
            reasons.append("single-instance")
        else:
            return None, False
    recovered = False
    value_reason = None
    if old["v"] != new["v"]:
        value_reason = explain_value(old, new, context)
        if value_reason is None and unchanged_lines(old["n"], old, context):
            value_reason = "unchanged-line"
        if value_reason is None:
            return None, False
        if isinstance(value_reason, tuple):
            recovered = value_reason[1]
        else:
            reasons.append(value_reason)
    param_reasons = explain_params(old, new, context, value_reason)
    if param_reasons is None:
        if recovered:
            return [], recovered
        param_reasons, dropped = original_parameters(old, new, context)
        if param_reasons is None:
            return None, False
        if dropped:
            recovered = "parameter-recovered"
    if "@parameter-recovered" in param_reasons:
        param_reasons = [r for r in param_reasons if r != "@parameter-recovered"]
        recovered = "parameter-recovered"
    reasons += param_reasons
    if (old["g"] or "").lower() != (new["g"] or "").lower():
        return None, False
    return sorted(set(reasons)), recovered


def original_parameters(old, new, context):
    """(["original-parameters"], recovered) when the consumer's reading of our parameters is the RFC reading of
    one of the original's lines of this property, else (None, False); recovered when the consumer had dropped
    one of those parameters from the original."""
    ours = normal_params(new["p"])
    for line in context["raw_old"].named(old["n"], old["g"]):
        rfc = normal_params(rfc_params(line))
        if rfc == ours:
            theirs = normal_params(old["p"])
            return ["original-parameters"], bool(set(rfc) - set(theirs))
    return None, False


def explain_lone_old(entry, context):
    if entry["n"] == "REV" and any(e["n"] == "REV" and timestamp_key(e["v"]) >= timestamp_key(entry["v"])
                                   for e in context["new_card"]):
        return "newest-rev"
    if entry["n"] == "PROFILE" and context["kind"] == "v4":
        return "profile-4.0"
    if entry["n"] == "VERSION":
        return "version"
    if entry["n"].startswith("AGENT/") and context["kind"] == "v4" and \
            any(entry["v"] in related_card(e["v"]) for e in context["new_card"] if e["n"] == "RELATED"):
        return "agent-4.0"
    if context.get("nested_split") and entry["n"] in ("BEGIN", "END", "(component)VCARD"):
        return "nested-cards-split"
    if entry["n"] in BINARY and entry["v"] == "undecodable-base64":
        return "undecodable-data"
    part = binary_parts(entry["v"])
    if entry["n"] in BINARY and part and part[2] == "?" and \
            any(re.search(r"(?i)base64|encoding=b", l.split(":")[0]) for l in context["raw_old"].named(entry["n"])):
        return "undecodable-data"
    return None


def related_card(value):
    """The text of a card a RELATED data: URI holds, or ""."""
    match = re.match(r"(?i)data:text/vcard(?:;[^,]*)?;base64,(.*)$", value, re.S)
    if not match:
        return ""
    try:
        return base64.b64decode(match.group(1)).decode("utf-8", errors="replace")
    except Exception:  # noqa: BLE001 - not data
        return ""


def single_kept(old, new, context):
    """Whether our X- line holds, as the consumer reads it, the value of one of the original's lines of the
    property as written (the consumer reads a structured or date value otherwise than an X- text)."""
    ours = no_backslashes(breaks(new["v"])).rstrip(";")
    for line in context["raw_old"].named(old["n"], old["g"]):
        if no_backslashes(breaks(head_and_value(line)[1])).rstrip(";") == ours:
            return True
    return False


def timestamp_key(text):
    digits = re.sub(r"[^0-9]", "", text)
    return digits.ljust(14, "0")


def list_items(value):
    """The items of a comma list as written (unescaped commas split it)."""
    return [unescaped(item) for item in re.split(r"(?<!\\),", value)]


def split_nicknames(old, new, tally, details, context):
    """Pairs each original NICKNAME list the consumer read whole with our lines of its items (nickname-per-line),
    removing them from `old` and `new`."""
    for entry in [e for e in old if e["n"] == "NICKNAME"]:
        items = [i for i in list_items(entry["v"]) if i]
        if len(items) < 2:
            continue
        partners = []
        for item in items:
            match = next((e for e in new if e["n"] == "NICKNAME" and e["v"] == item and e not in partners and
                          (e["g"] or "").lower() == (entry["g"] or "").lower()), None)
            if match is None:
                break
            partners.append(match)
        else:
            old.remove(entry)
            for partner in partners:
                new.remove(partner)
            tally["accepted"] += 1
            tally["reason:nickname-per-line"] += 1
            details.append(("accepted", "nickname-per-line", context, entry, partners[0]))


def explain_lone_new(entry, context):
    if entry["n"] == "NICKNAME" and any(entry["v"] in list_items(head_and_value(l)[1])[1:]
                                        for l in context["raw_old"].named("NICKNAME", entry["g"])):
        return ("recovered", "list-item-recovered")
    if entry["n"] in ("FN", "N") and not any(e["n"] == entry["n"] for e in context["old_card"]):
        return "required-fn-n"
    if entry["n"] == "VERSION":
        return "version"
    if "/" in entry["n"] and context["nested"]:
        return "nested-card-converted"
    if entry["v"] == "" and any(l.strip().upper() == entry["n"] for l in context["raw_old"].lines):
        return "bare-name"
    trim = lambda t: t.strip().rstrip(";") if entry["n"] in ("N", "ADR") else t.strip()
    if entry["v"].strip() and any(trim(head_and_value(l)[1]) == trim(entry["v"])
                                  for l in context["raw_old"].named(entry["n"], entry["g"])):
        return ("recovered", "line-recovered")
    return None


def key(entry):
    return (entry["n"], (entry["g"] or "").lower(), entry["v"], json.dumps(entry["p"], sort_keys=True))


def similarity(old, new):
    score = difflib.SequenceMatcher(a=old["v"][:300], b=new["v"][:300], autojunk=False).ratio()
    if (old["g"] or "").lower() == (new["g"] or "").lower():
        score += 0.5
    if old["n"] == new["n"]:
        score += 1
    a = types(old["p"]) | {b.lower() for b in old["p"].get("(bare)", [])}
    b = types(new["p"])
    if ("pref" in a or old["p"].get("PREF") == ["1"]) == ("pref" in b or new["p"].get("PREF") == ["1"]):
        score += 0.3
    a.discard("pref")
    b.discard("pref")
    if a or b:
        score += 0.7 * len(a & b) / len(a | b)
    return score


def compare_cards(old, new, context, tally, details):
    context = dict(context, old_card=old, new_card=new, nested=any(e["v"] == "(vcard)" for e in old + new))
    rest_old = list(old)
    rest_new = list(new)
    split_nicknames(rest_old, rest_new, tally, details, context)
    index = collections.defaultdict(list)
    for entry in rest_new:
        index[key(entry)].append(entry)
    for entry in list(rest_old):
        if index[key(entry)]:
            partner = index[key(entry)].pop()
            rest_old.remove(entry)
            rest_new.remove(partner)
            tally["kept"] += 1
    pairs = []
    for entry in rest_old:
        for other in rest_new:
            if entry["n"] == other["n"] or (entry["n"], other["n"]) in RENAMES:
                pairs.append((-similarity(entry, other), id(entry), id(other), entry, other))
    pairs.sort(key=lambda p: p[:3])
    used_old, used_new = set(), set()
    for _, _, _, entry, other in pairs:
        if id(entry) in used_old or id(other) in used_new:
            continue
        used_old.add(id(entry))
        used_new.add(id(other))
        reasons, recovered = explain_pair(entry, other, context)
        if recovered:
            tally["recovered"] += 1
            details.append(("recovered", recovered if isinstance(recovered, str) else "recovered", context, entry,
                            other))
        elif reasons is None:
            tally["worse"] += 1
            details.append(("worse", None, context, entry, other))
        else:
            tally["accepted"] += 1
            for reason in reasons:
                tally["reason:" + reason] += 1
            details.append(("accepted", ",".join(reasons), context, entry, other))
    for entry in rest_old:
        if id(entry) in used_old:
            continue
        reason = explain_lone_old(entry, context)
        if reason:
            tally["accepted"] += 1
            tally["reason:" + reason] += 1
            details.append(("accepted", reason, context, entry, None))
        else:
            tally["lost"] += 1
            details.append(("lost", None, context, entry, None))
    for entry in rest_new:
        if id(entry) in used_new:
            continue
        reason = explain_lone_new(entry, context)
        if isinstance(reason, tuple):
            tally["recovered"] += 1
            details.append(("recovered", reason[1], context, None, entry))
        elif reason:
            tally["accepted"] += 1
            tally["reason:" + reason] += 1
            details.append(("accepted", reason, context, None, entry))
        else:
            tally["invented"] += 1
            details.append(("invented", None, context, None, entry))


def signature(card):
    for name in ("FN", "N"):
        for entry in card:
            if entry["n"] == name:
                return entry["v"]
    return ""


def source_version(card):
    for entry in card:
        if entry["n"] == "VERSION":
            return entry["v"].strip()
    return None


def compare(out, corpus, consumer, kind, details):
    tally = collections.Counter()
    originals = load(os.path.join(out, "views", consumer + "-original.jsonl"))
    ours = {os.path.basename(path): record
            for path, record in load(os.path.join(out, "views", "%s-%s.jsonl" % (consumer, kind))).items()}
    for path, original in sorted(originals.items()):
        stored = os.path.relpath(path, corpus)
        name = stored.replace("/", "__")
        output = ours.get(name)
        new_cards = output["cards"] if output else []
        old_cards = original["cards"]
        if raw(path).nested and old_cards and new_cards:
            # Cards nested in a card are ours to split: the file's values are compared as one list.
            context = {"consumer": consumer, "kind": kind, "file": stored, "raw_old": raw(path),
                       "raw_new": raw(os.path.join(out, kind, name)), "nested_split": True,
                       "source_version": source_version(old_cards[0]), "card": signature(old_cards[0])}
            before = len(details)
            compare_cards([e for c in old_cards for e in c], [e for c in new_cards for e in c], context, tally,
                          details)
            for index in range(before, len(details)):
                cls, reason, ctx, old, new = details[index]
                if cls == "accepted" and "nested-cards-split" not in (reason or ""):
                    tally["reason:nested-cards-split"] += 1
                    details[index] = (cls, ",".join(filter(None, [reason, "nested-cards-split"])), ctx, old, new)
            continue
        matcher = difflib.SequenceMatcher(a=[signature(c) for c in old_cards], b=[signature(c) for c in new_cards],
                                          autojunk=False)
        for _, i1, i2, j1, j2 in matcher.get_opcodes():
            for k in range(max(i2 - i1, j2 - j1)):
                old = old_cards[i1 + k] if i1 + k < i2 else None
                new = new_cards[j1 + k] if j1 + k < j2 else None
                context = {"consumer": consumer, "kind": kind, "file": stored, "raw_old": raw(path),
                           "raw_new": raw(os.path.join(out, kind, name)),
                           "source_version": source_version(old or new or []), "card": signature(old or new or [])}
                if old is None:
                    tally["recovered"] += len(new)
                    details.append(("recovered", "card-recovered", context, None,
                                    {"n": "(card)", "v": signature(new), "g": None, "p": {}}))
                    continue
                if new is None:
                    tally["lost"] += len(old)
                    details.append(("lost", "whole card", context,
                                    {"n": "(card)", "v": signature(old), "g": None, "p": {}}, None))
                    continue
                compare_cards(old, new, context, tally, details)
    return tally


def show(entry):
    if entry is None:
        return "-"
    text = entry["v"] if len(entry["v"]) <= 120 else entry["v"][:117] + "..."
    group = (entry["g"] + ".") if entry.get("g") else ""
    params = "".join(";%s=%s" % (k, json.dumps(",".join(v), ensure_ascii=False)[1:-1])
                     for k, v in sorted(entry["p"].items()))
    return "%s%s%s:%s" % (group, entry["n"], params, json.dumps(text, ensure_ascii=False)[1:-1])


def main(argv):
    if argv == ["--reasons"]:
        # The list Docs/Fidelity.md quotes.
        for title, table in (("Accepted reasons", REASONS), ("Recoveries", RECOVERIES)):
            print("%s:\n" % title)
            for name, why in sorted(table.items()):
                print("- `%s`: %s" % (name, why))
            print()
        return 0
    show_details = "--details" in argv
    argv = [a for a in argv if a != "--details"]
    json_out = None
    if "--json" in argv:
        at = argv.index("--json")
        json_out = argv[at + 1]
        del argv[at:at + 2]
    if len(argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    out, corpus = argv
    rows = []
    bad = 0
    all_details = []
    reasons_used = collections.Counter()
    for consumer, kinds in KINDS.items():
        for kind in kinds:
            details = []
            tally = compare(out, corpus, consumer, kind, details)
            rows.append((consumer, kind, tally))
            bad += tally["worse"] + tally["lost"] + tally["invented"]
            all_details += details
            for name, count in tally.items():
                if name.startswith("reason:"):
                    reasons_used[name[7:]] += count
    print("| consumer | reads our | kept | changed, accepted reason | changed for the worse | lost | invented "
          "| recovered |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for consumer, kind, tally in rows:
        print("| %s | %s | %s |" % (NAMES[consumer], {"v3": "3.0", "v4": "4.0"}[kind],
                                    " | ".join("{:,}".format(tally[c]) for c in COLUMNS)))
    print()
    print("Accepted reasons used: " + ", ".join("%s %d" % (r, n) for r, n in sorted(reasons_used.items())))
    unknown = set(reasons_used) - set(REASONS)
    assert not unknown, "reasons without a justification: %s" % unknown
    recoveries = {d[1] for d in all_details if d[0] == "recovered"}
    assert recoveries <= set(RECOVERIES), "recoveries without a justification: %s" % (recoveries - set(RECOVERIES))
    if show_details:
        order = {"worse": 0, "lost": 1, "invented": 2, "recovered": 3, "accepted": 4}
        for cls, reason, context, old, new in sorted(all_details, key=lambda d: (
                order[d[0]], d[2]["consumer"], d[2]["kind"], d[2]["file"])):
            print("%s\t%s %s\t%s\t%s\t%s => %s" % (cls, NAMES[context["consumer"]], context["kind"], reason or "",
                                                  context["file"], show(old), show(new)), file=sys.stderr)
    if json_out:
        with open(json_out, "w") as handle:
            json.dump([{"consumer": c, "kind": k, **{col: t[col] for col in COLUMNS}} for c, k, t in rows], handle)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

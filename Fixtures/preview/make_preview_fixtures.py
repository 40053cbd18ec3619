#!/usr/bin/env python3
"""Writes the preview fixtures: cards with and without a photo, a long name, right-to-left text and a
hostile card. Pillow draws the avatar with fixed shapes, so re-running gives the same files."""
import base64
import io
import os

from PIL import Image, ImageDraw

HERE = os.path.dirname(os.path.abspath(__file__))


def avatar() -> bytes:
    """A 96x96 portrait-like JPEG: a face and shoulders on a blue-to-teal background."""
    image = Image.new("RGB", (96, 96))
    draw = ImageDraw.Draw(image)
    for y in range(96):
        draw.line([(0, y), (95, y)], fill=(40, 90 + y, 160 + y // 2))
    draw.ellipse([18, 66, 78, 130], fill=(200, 60, 50))      # shoulders, a red top
    draw.ellipse([30, 18, 66, 60], fill=(232, 190, 160))     # face
    draw.pieslice([28, 12, 68, 48], 180, 360, fill=(70, 45, 30))  # hair
    draw.ellipse([38, 34, 43, 39], fill=(40, 30, 30))
    draw.ellipse([53, 34, 58, 39], fill=(40, 30, 30))
    draw.arc([40, 40, 56, 52], 20, 160, fill=(150, 60, 60), width=2)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue()


def fold(line: str) -> str:
    """RFC 2426 folding at 75 octets (the lines here are ASCII where they are long)."""
    data = line.encode("utf-8")
    if len(data) <= 75:
        return line + "\r\n"
    parts = [data[:75]]
    data = data[75:]
    while data:
        parts.append(b" " + data[:74])
        data = data[74:]
    return "\r\n".join(p.decode("utf-8") for p in parts) + "\r\n"


def card(lines) -> str:
    return "".join(fold(l) for l in ["BEGIN:VCARD", "VERSION:3.0", *lines, "END:VCARD"])


def write(name: str, text: str) -> None:
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)


photo = base64.b64encode(avatar()).decode("ascii")

with_photo = card([
    "FN:Amara Okafor-Lindqvist",
    "N:Okafor-Lindqvist;Amara;;Dr.;",
    "TITLE:Head of Research",
    "ORG:Northwind Labs;Materials",
    "item1.TEL;TYPE=CELL:+44 7700 900123",
    "item1.X-ABLabel:_$!<Mobile>!$_",
    "TEL;TYPE=WORK,VOICE:+44 20 7946 0018",
    "EMAIL;TYPE=INTERNET,WORK,PREF:amara@northwind.example",
    "EMAIL;TYPE=INTERNET,HOME:amara.ol@example.net",
    "ADR;TYPE=WORK:;Floor 4;12 Harbour Street;Edinburgh;;EH6 6QN;United Kingdom",
    "URL:https://northwind.example/people/amara",
    "X-SOCIALPROFILE;TYPE=mastodon:https://mastodon.example/@amara",
    "BDAY:1984-07-19",
    "NOTE:Met at the Lisbon conference.\\nPrefers email before 10:00.",
    "PHOTO;ENCODING=b;TYPE=JPEG:" + photo,
])
without_photo = card([
    "FN:Tomás Herrera",
    "N:Herrera;Tomás;;;",
    "ORG:Herrera & Hijos",
    "TEL;TYPE=HOME:+34 912 345 678",
    "EMAIL;TYPE=INTERNET:tomas@herrera.example",
    "CATEGORIES:family,madrid",
])
long_name = card([
    "FN:Maximiliana Alexandra Konstantinopoulou-Wolfeschlegelsteinhausenbergerdorff von Hohenzollern-Sigmaringen",
    "N:Konstantinopoulou-Wolfeschlegelsteinhausenbergerdorff von Hohenzollern-Sigmaringen;Maximiliana;Alexandra;;",
    "TITLE:Chief Executive Officer for Intercontinental Strategic Partnerships and Long-Term Planning",
    "EMAIL;TYPE=INTERNET:maximiliana.konstantinopoulou-wolfeschlegelsteinhausenbergerdorff@example.com",
])
rtl = card([
    "FN:ليلى حداد",
    "N:حداد;ليلى;;;",
    "TITLE:مهندسة برمجيات",
    "ORG:شركة المثال",
    "TEL;TYPE=CELL:+961 3 123 456",
    "ADR;TYPE=HOME:;;شارع الحمرا ١٢;بيروت;;;لبنان",
    "NOTE:שלום! A note mixing עברית and English.",
])
hostile = card([
    "FN:<script>alert('vcf')</script>",
    "N:<b>Bold</b>;\"Quote\" & 'Apostrophe';;;",
    "ORG:<img src=x onerror=alert(1)>",
    "EMAIL;TYPE=INTERNET:\"><script>alert(2)</script>@example.com",
    "URL:javascript:alert(3)",
    "NOTE:</dd></dl><iframe src=\"https://evil.example\"></iframe>",
])

write("with-photo.vcf", with_photo)
write("without-photo.vcf", without_photo)
write("long-name.vcf", long_name)
write("rtl.vcf", rtl)
write("hostile.vcf", hostile)
write("all.vcf", with_photo + without_photo + long_name + rtl + hostile)

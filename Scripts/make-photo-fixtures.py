#!/usr/bin/env python3
"""Write the small photo test fixtures into Fixtures/photos/ (next to this Scripts/ dir).

Usage:  python3 Scripts/make-photo-fixtures.py

Needs only Pillow + numpy. Deterministic: fixed seeds, fixed EXIF values, no timestamps, so a
re-run with the same Pillow (and libjpeg / zlib) version gives byte-identical files. After writing,
it decodes every valid image again with Pillow (exif_transpose; PNG alpha composited on white),
checks the expected quadrant colours (tolerance 16 per channel) and prints a table.

The base "pattern" is 64x48 (as displayed) with four 32x24 quadrants:
top-left red, top-right green, bottom-left blue, bottom-right yellow.
"""

import os
import random
import sys

import numpy as np
import PIL
from PIL import Image, ImageDraw, ImageFilter, ImageOps, features

OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Fixtures", "photos"))

W, H = 64, 48
RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0)
PATTERN = (RED, GREEN, BLUE, YELLOW)  # TL, TR, BL, BR
TOL = 16

# EXIF orientation N -> the transpose a viewer applies to the STORED pixels to display them
# (same as ImageOps.exif_transpose).
VIEW_OP = {
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_270,
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_90,
}
# ...and its inverse, which turns the displayed pattern into what a camera stores.
INVERSE = {
    Image.Transpose.ROTATE_90: Image.Transpose.ROTATE_270,
    Image.Transpose.ROTATE_270: Image.Transpose.ROTATE_90,
}


def quadrants(mode, colours, w=W, h=H):
    """Image of mode with four solid quadrants TL, TR, BL, BR."""
    im = Image.new(mode, (w, h))
    d = ImageDraw.Draw(im)
    hw, hh = w // 2, h // 2
    boxes = [(0, 0, hw - 1, hh - 1), (hw, 0, w - 1, hh - 1), (0, hh, hw - 1, h - 1), (hw, hh, w - 1, h - 1)]
    for box, c in zip(boxes, colours):
        d.rectangle(box, fill=c)
    return im


def path(name):
    return os.path.join(OUT, name)


def write_bytes(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def camera_exif(orientation):
    exif = Image.Exif()
    exif[0x010F] = "FixtureCam"            # Make
    exif[0x0110] = "FixtureCam One"        # Model
    exif[0x0132] = "2024:01:02 03:04:05"   # DateTime
    exif[0x0112] = orientation             # Orientation
    exif[0x8825] = {                       # GPS IFD: 48 51' 29.5" N, 2 17' 40.2" E
        0x0000: b"\x02\x02\x00\x00",       # GPSVersionID 2.2.0.0
        0x0001: "N",
        0x0002: (48.0, 51.0, 29.5),
        0x0003: "E",
        0x0004: (2.0, 17.0, 40.2),
    }
    return exif.tobytes()


def photo_like():
    """640x480 smooth gradients + shapes + Gaussian noise (sigma 4), fixed seed."""
    w, h = 640, 480
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    r = 70 + 120 * (x / w) + 30 * np.sin(y / 57.0)
    g = 110 + 80 * (y / h) + 25 * np.cos(x / 83.0)
    b = 190 - 110 * (y / h) + 20 * np.sin((x + y) / 101.0)
    base = Image.fromarray(np.clip(np.dstack([r, g, b]), 0, 255).astype(np.uint8), "RGB")

    shapes = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(shapes)
    d.ellipse((60, 250, 260, 440), fill=(200, 40, 40, 230))        # red "ball"
    d.ellipse((380, 60, 560, 200), fill=(250, 220, 60, 255))       # yellow "sun"
    d.ellipse((300, 260, 420, 460), fill=(30, 120, 50, 210))       # green
    d.rectangle((460, 300, 600, 420), fill=(60, 60, 140, 240))     # blue-ish box
    d.polygon([(100, 80), (220, 40), (260, 170), (140, 200)], fill=(240, 240, 240, 200))
    d.line((0, 230, 640, 210), fill=(20, 20, 20, 255), width=5)    # "horizon"
    shapes = shapes.filter(ImageFilter.GaussianBlur(2))            # soft edges like a lens
    im = Image.alpha_composite(base.convert("RGBA"), shapes).convert("RGB")

    rng = np.random.default_rng(20240102)
    noise = rng.normal(0.0, 4.0, size=(h, w, 3))
    arr = np.clip(np.asarray(im, dtype=np.float64) + noise, 0, 255).round().astype(np.uint8)
    return Image.fromarray(arr, "RGB")


def starfield():
    """640x480 star field: 900 sharp points of varying brightness on a faintly noisy black sky, fixed seed.
    Fine point detail like this survives a lower JPEG quality better than shrinking."""
    w, h = 640, 480
    rng = np.random.default_rng(20261121)
    sky = rng.normal(12.0, 3.0, size=(h, w))
    for _ in range(900):
        x, y = int(rng.integers(1, w - 1)), int(rng.integers(1, h - 1))
        peak = float(rng.uniform(90, 255))
        sky[y, x] = max(sky[y, x], peak)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            sky[y + dy, x + dx] = max(sky[y + dy, x + dx], peak * 0.35)
    tint = np.dstack([sky, sky * 0.95, sky * 1.05])
    return Image.fromarray(np.clip(tint, 0, 255).round().astype(np.uint8), "RGB")


def sof0_offset(data):
    """Offset of the FF C0 marker, found by walking the marker segments (not a blind search)."""
    assert data[:2] == b"\xff\xd8"
    i = 2
    while i < len(data):
        assert data[i] == 0xFF, "lost marker sync at %d" % i
        marker = data[i + 1]
        if marker == 0xC0:
            return i
        if marker == 0xDA:
            break
        i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    raise SystemExit("no SOF0 in baseline.jpg")


def make():
    os.makedirs(OUT, exist_ok=True)
    pattern = quadrants("RGB", PATTERN)
    jpg = dict(quality=95, subsampling=0)

    pattern.save(path("baseline.jpg"), "JPEG", **jpg)
    pattern.save(path("progressive.jpg"), "JPEG", progressive=True, **jpg)
    quadrants("L", (0, 85, 170, 255)).save(path("gray.jpg"), "JPEG", quality=95)
    quadrants("CMYK", ((0, 255, 255, 0), (255, 0, 255, 0), (255, 255, 0, 0), (0, 0, 0, 128))).save(
        path("cmyk-adobe.jpg"), "JPEG", quality=95)

    for n in range(1, 9):
        stored = pattern
        if n in VIEW_OP:
            op = VIEW_OP[n]
            stored = pattern.transpose(INVERSE.get(op, op))
        stored.save(path("orient-%d.jpg" % n), "JPEG", exif=camera_exif(n), **jpg)

    quadrants("RGBA", ((255, 0, 0, 255), (0, 0, 0, 0), (0, 0, 255, 128), (0, 0, 0, 255))).save(path("alpha.png"))
    pattern.save(path("opaque.png"))

    photo_like().save(path("photo-640x480.jpg"), "JPEG", quality=92)
    with open(path("photo-640x480.jpg"), "rb") as f:
        photo = f.read()
    write_bytes("truncated.jpg", photo[: len(photo) * 60 // 100])

    starfield().save(path("starfield.png"))

    garbage = bytearray(b"\xff\xd8\xff\xe0")
    garbage += random.Random(1234).randbytes(2000 - len(garbage))
    write_bytes("garbage.jpg", bytes(garbage))

    with open(path("baseline.jpg"), "rb") as f:
        base = bytearray(f.read())
    off = sof0_offset(base)
    base[off + 5:off + 7] = (60000).to_bytes(2, "big")  # height
    base[off + 7:off + 9] = (60000).to_bytes(2, "big")  # width
    write_bytes("huge-header.jpg", bytes(base))

    write_bytes("README.md", README.encode("utf-8"))


README = """\
# Photo fixtures

Made by Scripts/make-photo-fixtures.py (Pillow + numpy, fixed seeds; re-run it to regenerate). Do not edit by hand.
"Pattern" = 64x48 as displayed, four 32x24 quadrants: top-left red (255,0,0), top-right green (0,255,0),
bottom-left blue (0,0,255), bottom-right yellow (255,255,0). Decoded JPEG colours may differ by a few units (tolerance 16).

- `baseline.jpg`: baseline JPEG (SOF0) of the pattern, quality 95, 4:4:4, no EXIF. Must show 64x48, TL red, TR green, BL blue, BR yellow.
- `progressive.jpg`: progressive JPEG (SOF2) of the pattern, quality 95, 4:4:4. Must show the same as baseline.jpg.
- `gray.jpg`: 1-component grayscale JPEG 64x48, quality 95. Must show gray levels TL 0, TR 85, BL 170, BR 255.
- `cmyk-adobe.jpg`: 4-component CMYK JPEG with an Adobe APP14 marker (transform 0) and Adobe/Photoshop-style INVERTED samples, 64x48. Must show (naive C/M/Y/K -> RGB) TL red (255,0,0), TR green (0,255,0), BL blue (0,0,255), BR mid gray about (127,127,127). A decoder that forgets the inversion shows cyan/magenta/yellow-ish garbage.
- `orient-1.jpg` .. `orient-8.jpg`: pattern stored as a camera would for EXIF Orientation 1..8 (stored 64x48 for 1-4, 48x64 for 5-8), with EXIF Make "FixtureCam", Model "FixtureCam One", DateTime 2024:01:02 03:04:05 and a GPS IFD (48 51' 29.5" N, 2 17' 40.2" E). After applying the orientation every one must show 64x48 TL red, TR green, BL blue, BR yellow. (Useful to check that EXIF/GPS get stripped on re-encode.)
- `alpha.png`: RGBA PNG 64x48: TL red opaque, TR fully transparent (alpha 0), BL blue alpha 128, BR black opaque. Composited on white must show TL (255,0,0), TR (255,255,255), BL about (127,127,255), BR (0,0,0).
- `opaque.png`: RGB PNG (no alpha) of the pattern, 64x48, exact colours TL red, TR green, BL blue, BR yellow.
- `photo-640x480.jpg`: photo-like 640x480 baseline JPEG, quality 92, 4:2:0, no EXIF (gradients, shapes, Gaussian noise). Must decode as 640x480; use it for size/resize/re-encode tests.
- `starfield.png`: 640x480 RGB star field (900 sharp points on a faintly noisy black sky). At small budgets a
  lower JPEG quality at full size keeps more of it (SSIM) than shrinking does.
- `truncated.jpg`: the first 60% of the bytes of photo-640x480.jpg (no EOI). A decoder must report an error (or a clearly partial image), never crash or hang.
- `garbage.jpg`: 2000 bytes: FF D8 FF E0 then seeded random bytes. Must be rejected as invalid, without crashing.
- `huge-header.jpg`: baseline.jpg with the SOF0 height and width patched to 60000 x 60000 (the data is still 64x48). Must be rejected (or refused by a size limit) without trying to allocate 60000x60000 pixels.
"""


# ---------------------------------------------------------------- verification

CENTRES = lambda w, h: [(w // 4, h // 4), (3 * w // 4, h // 4), (w // 4, 3 * h // 4), (3 * w // 4, 3 * h // 4)]

EXPECT = {
    "baseline.jpg": PATTERN,
    "progressive.jpg": PATTERN,
    "gray.jpg": ((0,) * 3, (85,) * 3, (170,) * 3, (255,) * 3),
    "cmyk-adobe.jpg": (RED, GREEN, BLUE, (127, 127, 127)),
    "alpha.png": ((255, 0, 0), (255, 255, 255), (127, 127, 255), (0, 0, 0)),
    "opaque.png": PATTERN,
    "photo-640x480.jpg": None,
}
EXPECT.update({"orient-%d.jpg" % n: PATTERN for n in range(1, 9)})
ORDER = (["baseline.jpg", "progressive.jpg", "gray.jpg", "cmyk-adobe.jpg"]
         + ["orient-%d.jpg" % n for n in range(1, 9)]
         + ["alpha.png", "opaque.png", "photo-640x480.jpg", "truncated.jpg", "garbage.jpg", "huge-header.jpg", "README.md"])


def displayed(name):
    im = ImageOps.exif_transpose(Image.open(path(name)))
    if im.mode in ("RGBA", "LA", "P"):
        im = im.convert("RGBA")
        white = Image.new("RGBA", im.size, (255, 255, 255, 255))
        im = Image.alpha_composite(white, im)
    return im.convert("RGB")


def verify():
    ok = True
    print("Pillow %s, libjpeg %s" % (PIL.__version__, features.version("jpg")))
    print("%-18s %7s  %-8s %s" % ("file", "bytes", "display", "quadrant centres TL | TR | BL | BR (Pillow)"))
    total = 0
    for name in ORDER:
        size = os.path.getsize(path(name))
        total += size
        if name not in EXPECT:
            print("%-18s %7d  %-8s %s" % (name, size, "-", "(invalid on purpose / text)"))
            continue
        im = displayed(name)
        got = [im.getpixel(c) for c in CENTRES(*im.size)]
        exp = EXPECT[name]
        bad = ""
        if exp is not None:
            if im.size != (W, H):
                bad = "  SIZE MISMATCH"
            elif any(abs(a - b) > TOL for g, e in zip(got, exp) for a, b in zip(g, e)):
                bad = "  COLOUR MISMATCH, expected %s" % (exp,)
        ok &= not bad
        print("%-18s %7d  %-8s %s%s" % (name, size, "%dx%d" % im.size,
                                         " | ".join("%d,%d,%d" % g for g in got), bad))
    print("%-18s %7d" % ("total", total))

    # Invalid ones really are invalid for Pillow.
    for name in ("truncated.jpg", "garbage.jpg", "huge-header.jpg"):
        try:
            with Image.open(path(name)) as im:
                im.load()
            print("NOTE: Pillow decoded %s without error" % name)
        except Exception as e:  # noqa: BLE001 - we only report
            print("%-18s Pillow: %s: %s" % (name, type(e).__name__, e))
    return ok


if __name__ == "__main__":
    make()
    sys.exit(0 if verify() else 1)

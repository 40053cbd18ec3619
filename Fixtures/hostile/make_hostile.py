#!/usr/bin/env python3
"""Writes the hostile fixtures that are small on disk: png-bomb.png, a 20,000 x 20,000 one-bit grayscale PNG
whose 60 KB inflate to 50 MB of rows and 400 megapixels. (The large hostile inputs are streamed by the tests.)"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bomb(side: int = 20_000) -> bytes:
    row = b"\x00" + b"\x00" * ((side + 7) // 8)
    compressor = zlib.compressobj(9)
    data = b"".join(compressor.compress(row) for _ in range(side)) + compressor.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


with open(os.path.join(HERE, "png-bomb.png"), "wb") as f:
    f.write(png_bomb())

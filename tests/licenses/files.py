"""Sample files for license tests: the smallest real file of each accepted format, and impostors."""

import struct
import zlib


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes():
    """A valid 1x1 PNG."""
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", pixels) + _chunk(b"IEND", b"")


def pdf_bytes(padding=0):
    """A small PDF; padding adds that many bytes of comment so that its size can be chosen."""
    body = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"
    return body + b"%" + b"x" * max(padding - 1, 0) + b"\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def pdf_of_size(size):
    """A PDF of exactly size bytes."""
    base = len(pdf_bytes())
    return pdf_bytes(padding=size - base + 1) if size > base else pdf_bytes()[:size]


JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00" + b"\x00" * 32 + b"\xff\xd9"
GIF = (
    b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00"
    b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
)
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
#: A Windows program renamed to look like a PDF.
EXE = (
    b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00"
    + b"\x00" * 48
    + b"This program cannot be run in DOS mode."
)
#: The PNG signature and the start of the IHDR chunk, cut off.
TRUNCATED_PNG = png_bytes()[:20]

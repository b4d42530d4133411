"""Uploads checked within bounds (issue 38, item 5): every frame's pixels count against the limit, an
image is decoded and a PDF parsed within a time and memory budget (in a child process, so a file that
cannot be checked is a form error, never a dead worker), PDFs carrying scripts or actions are refused, and
so is markup a browser would run; ordinary images and PDFs still pass."""

import resource
import time

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from licenses import files
from licenses.files import license_content_check, license_file_check
from licenses.models import LicenseRequest
from tests.factories import PropertyFactory, member

from .files import (
    ANIMATED_GIF,
    GIF,
    JPEG,
    WEBP,
    animated_gif,
    large_png,
    pdf_bytes,
    pdf_of_nested_arrays,
    pdf_of_object_stream_bombs,
    pdf_of_page_cycle,
    pdf_of_streamed_objects,
    pdf_with,
    png_bytes,
)


def _refusal(content, name="license.bin"):
    with pytest.raises(ValidationError) as refused:
        license_file_check(SimpleUploadedFile(name, content))
    return refused.value.code


def _link(action):
    return pdf_with(
        page_extra=b"/Annots [4 0 R]", objects=[b"<< /Type /Annot /Subtype /Link /Rect [0 0 9 9] /A %s >>" % action]
    )


ACTIVE_PDFS = {
    "open action running javascript": pdf_with(
        b"/OpenAction 4 0 R", objects=[b"<< /S /JavaScript /JS (app.alert(1)) >>"]
    ),
    "page auto-action": pdf_with(page_extra=b"/AA << /O 4 0 R >>", objects=[b"<< /S /GoTo /D [3 0 R /Fit] >>"]),
    "launch link": _link(b"<< /S /Launch /F (calc.exe) >>"),
    "javascript: link, mixed case and a tab": _link(b"<< /S /URI /URI (JaVa\tscript:alert(1)) >>"),
    "document javascript, its name hex-escaped": pdf_with(
        b"/Names << /J#61vaScript 4 0 R >>", objects=[b"<< /Names [] >>"]
    ),
    "embedded files": pdf_with(b"/Names << /EmbeddedFiles 4 0 R >>", objects=[b"<< /Names [] >>"]),
    "embedded-file action": _link(b"<< /S /GoToE /T << /R /C /N (a.exe) >> >>"),
}

MARKUP = {
    "event attribute": b"<img src=x onerror=alert(1)>",
    "event attribute after a slash": b"<svg/onload=alert(1)>",
    "javascript: url": b"<a href='JavaScript :alert(1)'>",
    "meta refresh": b"<meta http-equiv=refresh content='0;url=https://evil.example/'>",
    "namespaced script": b"<x:script xmlns:x='http://www.w3.org/1999/xhtml'>alert(1)</x:script>",
}


def test_an_animated_gif_of_many_large_frames_is_refused_quickly():
    content = animated_gif(40, 3000, 3000)  # 360 million pixels in all, 9 million a frame
    started = time.monotonic()

    assert _refusal(content, "license.gif") == "too_many_pixels"
    assert time.monotonic() - started < 5


def test_the_frames_are_counted_not_only_the_first():
    assert license_file_check(SimpleUploadedFile("a.gif", ANIMATED_GIF)) == "gif"
    frames = files.MAX_IMAGE_PIXELS // (3000 * 3000) + 1

    assert _refusal(animated_gif(frames, 3000, 3000)) == "too_many_pixels"


def _large_png():
    return large_png(7000, 7000)  # 49 million pixels: within the pixel limit, about 200 MB decoded


def test_a_decoding_that_does_not_finish_in_time_is_a_form_error(monkeypatch):
    monkeypatch.setattr(files, "CHECK_SECONDS", 0.005)

    assert _refusal(_large_png()) == "decode_budget"


def test_a_decoding_that_needs_more_memory_than_the_budget_is_a_form_error(monkeypatch):
    monkeypatch.setattr(files, "CHECK_MEMORY_BYTES", 64 * 1024 * 1024)

    assert _refusal(_large_png()) == "decode_budget"
    assert license_file_check(SimpleUploadedFile("a.png", png_bytes())) == "png"


@pytest.mark.parametrize("name", ACTIVE_PDFS)
def test_a_pdf_carrying_a_script_or_an_action_is_refused(name):
    assert _refusal(ACTIVE_PDFS[name]) == "pdf_active_content"


def test_a_pdf_whose_object_streams_decode_beyond_the_memory_budget_is_a_form_error(monkeypatch):
    monkeypatch.setattr(files, "CHECK_MEMORY_BYTES", 128 * 1024 * 1024)
    bomb = pdf_of_object_stream_bombs(3, 70)  # 210 MiB decoded from 1 MB
    held = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

    assert _refusal(bomb) == "pdf_budget"
    # Decoded in the child: this process never held the decoded streams.
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - held < 100 * 1024
    assert license_file_check(SimpleUploadedFile("a.pdf", pdf_of_object_stream_bombs(1, 1))) == "pdf"


def test_a_pdf_that_is_not_parsed_in_time_is_a_form_error(monkeypatch):
    many = pdf_of_streamed_objects(20_000)
    assert license_file_check(SimpleUploadedFile("a.pdf", many)) == "pdf"
    monkeypatch.setattr(files, "CHECK_SECONDS", 0.005)

    assert _refusal(many) == "pdf_budget"


@pytest.mark.parametrize("content", [pdf_of_nested_arrays(100_000), pdf_of_page_cycle()], ids=["nesting", "cycle"])
def test_a_pdf_nested_too_deep_or_whose_pages_hold_themselves_is_refused(content):
    assert _refusal(content) == "polyglot"


def test_the_pdf_budget_form_error_in_korean(monkeypatch):
    monkeypatch.setattr(files, "CHECK_SECONDS", 0.005)
    with translation.override("ko"):
        with pytest.raises(ValidationError) as refused:
            license_file_check(SimpleUploadedFile("a.pdf", pdf_of_streamed_objects(20_000)))
        messages = " ".join(refused.value.messages)

    assert "이 PDF는 시간과 메모리" in messages


@pytest.mark.parametrize("name", MARKUP)
def test_markup_a_browser_would_run_is_refused(name):
    assert _refusal(png_bytes()[:-12] + MARKUP[name] + png_bytes()[-12:]) == "polyglot"
    assert _refusal(pdf_bytes(padding=0)[:9] + b"%" + MARKUP[name] + b"\n" + pdf_bytes()[9:]) == "polyglot"


@pytest.mark.parametrize(
    ("content", "file_format"),
    [
        (JPEG, "jpeg"),
        (GIF, "gif"),
        (WEBP, "webp"),
        (png_bytes(), "png"),
        (pdf_bytes(), "pdf"),
        (_link(b"<< /S /URI /URI (https://www.example.com/permit) >>"), "pdf"),
        (pdf_with(b"/Outlines << /Count 0 >>"), "pdf"),
    ],
)
def test_ordinary_images_and_pdfs_still_pass(content, file_format):
    assert license_file_check(SimpleUploadedFile("license", content)) == file_format
    license_content_check(content, file_format)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "language", "text"),
    [
        (animated_gif(40, 3000, 3000), "en", "too many pixels"),
        (animated_gif(40, 3000, 3000), "ko", "픽셀이 너무 많습니다"),
        (ACTIVE_PDFS["launch link"], "en", "carries a script"),
        (ACTIVE_PDFS["launch link"], "ko", "스크립트"),
    ],
)
def test_the_upload_form_says_why_in_the_users_language(client, content, language, text):
    prop = PropertyFactory(vendor_id="hanok-stay")
    client.force_login(member(prop, "manager"))
    data = {
        "property": prop.pk,
        "permit_type": "hostel",
        "permit_number": "1",
        "permit_date": "2024-01-01",
        "file": SimpleUploadedFile("license.pdf", content, content_type="application/pdf"),
    }

    response = client.post(
        reverse("admin:licenses_licenserequest_add") + "?type=permit", data, HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 200
    assert text in " ".join(response.context["adminform"].form.errors["file"])
    assert not LicenseRequest.objects.exists()


def test_the_budget_form_error_in_korean(monkeypatch):
    monkeypatch.setattr(files, "CHECK_SECONDS", 0.005)
    with translation.override("ko"):
        with pytest.raises(ValidationError) as refused:
            license_file_check(SimpleUploadedFile("a.png", _large_png()))
        messages = " ".join(refused.value.messages)

    assert "시간과 메모리" in messages


def test_the_memory_budget_holds_in_a_worker_whose_heap_holds_free_memory(monkeypatch):
    # A long-lived worker's heap keeps memory it freed; a forked child reuses it unseen by its memory limit,
    # so the decoded size is counted before decoding.
    monkeypatch.setattr(files, "CHECK_MEMORY_BYTES", 64 * 1024 * 1024)
    raised_threshold = bytearray(20 * 1024 * 1024)
    del raised_threshold
    freed = [bytearray(15 * 1024 * 1024) for _ in range(15)]
    kept = freed[-1]
    del freed

    assert _refusal(_large_png()) == "decode_budget"
    assert len(kept) == 15 * 1024 * 1024

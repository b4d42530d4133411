"""The frame around every page: no dead "View site" link, a favicon, API docs that load nothing from
outside, the language switch naming each language in itself, and one PORT for `make run`."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.exceptions import ValidationError
from django.templatetags.static import static
from django.urls import reverse

from licenses.forms import BusinessNumberField
from licenses.validators import validate_business_number

pytestmark = pytest.mark.django_db

BASE_DIR = Path(settings.BASE_DIR)


@pytest.mark.parametrize(("language", "view_site"), [("en", "View site"), ("ko", "사이트 보기")])
def test_no_view_site_link_and_each_language_named_in_itself(admin_client, language, view_site):
    page = admin_client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert view_site not in page
    options = dict(re.findall(r'<option value="(\w+)" lang="\w+"(?: selected)?>([^<]+)</option>', page))
    assert options == {"ko": "한국어", "en": "English"}


def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"] == static("vendorhub/favicon.ico")
    icon = Path(finders.find("vendorhub/favicon.ico")).read_bytes()
    assert icon[:4] == b"\x00\x00\x01\x00"  # an ICO file
    assert static("vendorhub/favicon.ico") in client.get(reverse("admin:login")).content.decode()


def test_the_api_docs_page_names_only_our_own_files(client):
    page = client.get(reverse("api-docs")).content.decode()

    assert re.findall(r"(?:src|href)=\"(https?:)?//", page) == []
    assert "fonts.googleapis" not in page
    assert re.search(r'<script src="/static/drf_spectacular_sidecar/redoc/bundles/redoc\.standalone\.js"', page)


def test_the_business_number_example_passes_its_own_check():
    placeholder = BusinessNumberField().widget.attrs["placeholder"]
    validate_business_number(placeholder)  # raises ValidationError if the example is not a valid number
    with pytest.raises(ValidationError):
        validate_business_number("123-45-67890")  # the example shown before, whose check digit is wrong


def _settings_with(**environ):
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.HUB_BASE_URL); print(s.HUB_SANDBOX_VENDOR_URL)"
    )
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PORT", "HUB_BASE_URL", "HUB_SANDBOX_VENDOR_URL", "DJANGO_SETTINGS_MODULE")
    }
    env.update(DJANGO_SETTINGS_MODULE="config.settings", DJANGO_DEBUG="true", **environ)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


@pytest.mark.subprocess
def test_port_moves_both_sandbox_urls():
    assert _settings_with() == ["http://127.0.0.1:8000/sandbox", "http://127.0.0.1:8000"]
    assert _settings_with(PORT="8123") == ["http://127.0.0.1:8123/sandbox", "http://127.0.0.1:8123"]


@pytest.mark.subprocess
def test_make_run_moves_web_and_both_urls_with_port():
    """honcho gives each process its own PORT (web PORT, the worker PORT+100): the origin every process
    derives its URLs from is therefore fixed by make, from the one PORT web listens on
    (tests/config/test_run_ports.py: what each process computes from it)."""
    env = {key: value for key, value in os.environ.items() if key not in ("PORT", "HUB_BASE_URL")}
    plan = subprocess.run(
        ["make", "-n", "run", "PORT=8123"], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=True
    ).stdout

    assert "start --port 8123" in plan
    assert "LOCAL_ORIGIN=http://127.0.0.1:8123 exec" in plan
    web = next(line for line in (BASE_DIR / "Procfile.dev").read_text().splitlines() if line.startswith("web:"))
    assert "127.0.0.1:$PORT" in web
    assert "8000" not in web

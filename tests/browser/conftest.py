"""Playwright against the live server, in Debian's headless chromium."""

import os
import pathlib

import pytest

from tests.conftest import CHROMIUM, unavailable

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make around
# it are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Launch the machine's chromium (Playwright's own download is not used), headless and quiet."""
    if not CHROMIUM.exists():
        unavailable(f"needs chromium at {CHROMIUM} (apt-get install chromium)", required_by="REQUIRE_BROWSER")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    }


@pytest.fixture
def browser_context_args(browser_context_args):
    """Browsers open in Korean, as most of our staff's do."""
    return {**browser_context_args, "locale": "ko-KR"}


@pytest.fixture
def shots(tmp_path):
    """Where screenshots go: $VH_SCREENSHOTS when set (to look at them), else the test's own directory."""
    folder = pathlib.Path(os.environ.get("VH_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder

"""`make run PORT=N` is one system: honcho gives web, worker and beat each its own PORT (N, N+100, N+200),
yet all three compute the same hub URLs and SITE_URL from the LOCAL_ORIGIN the Makefile sets once."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
PRINT_URLS = (
    "from django.conf import settings as s; "
    "print(s.HUB_BASE_URL, s.HUB_PRODUCTION_BASE_URL, s.HUB_SANDBOX_VENDOR_URL, s.SITE_URL)"
)


def _urls(port, local_origin):
    env = {key: value for key, value in os.environ.items() if not key.startswith(("HUB_", "SITE_", "LOCAL_"))}
    env |= {"DJANGO_DEBUG": "true", "PORT": str(port), "LOCAL_ORIGIN": local_origin}
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v0", "-c", PRINT_URLS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return result.stdout.split()


def test_web_worker_and_beat_under_honcho_compute_the_same_urls():
    origin = "http://127.0.0.1:8100"

    web, worker, beat = (_urls(port, origin) for port in (8100, 8200, 8300))

    assert web == worker == beat
    assert web == [
        "http://127.0.0.1:8100/sandbox",
        "http://127.0.0.1:8100/sandbox/production",
        "http://127.0.0.1:8100",
        "http://127.0.0.1:8100",
    ]

"""A development checkout's .env: `make setup` writes the settings `make run` gives its processes, and
manage.py run by hand reads them (config.settings), with a variable of the environment winning over it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
PRINT_SETTINGS = (
    "from django.conf import settings as s; "
    "print(s.DEBUG, 'hubsandbox' in s.INSTALLED_APPS, s.LOCAL_ORIGIN, s.HUB_SANDBOX_VENDOR_URL, "
    "s.CACHES['default']['BACKEND'])"
)
#: What the Makefile exports when nothing is given (`make setup` with no variables).
MAKE_DEFAULTS = {"PORT", "DJANGO_DEBUG", "HUB_SANDBOX_ENABLED"}


def _clean_environment():
    """The caller's environment without the product's configuration, as in a new shell."""
    prefixes = ("DJANGO_", "HUB_", "LOCAL_", "CACHE_", "CELERY_", "DATABASE_")
    return {
        key: value for key, value in os.environ.items() if not key.startswith(prefixes) and key not in MAKE_DEFAULTS
    }


def _write_env_file(folder, **variables):
    """Run the Makefile's .env target in folder, as `make setup PORT=...` does."""
    assignments = [f"{name}={value}" for name, value in variables.items()]
    subprocess.run(
        ["make", "--no-print-directory", "-s", "-f", str(ROOT / "Makefile"), ".env", *assignments],
        cwd=folder,
        env=_clean_environment(),
        check=True,
        timeout=60,
    )
    return folder / ".env"


def _settings(env_file, **environment):
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v0", "-c", PRINT_SETTINGS],
        cwd=ROOT,
        env=_clean_environment() | {"DJANGO_ENV_FILE": str(env_file)} | environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return result.returncode, result.stdout.split(), result.stderr


def test_manage_py_by_hand_runs_as_make_run_did_on_its_port(tmp_path):
    env_file = _write_env_file(tmp_path, PORT="8123", CACHE_URL="redis://127.0.0.1:6379/5")

    code, printed, stderr = _settings(env_file)

    assert code == 0, stderr
    assert printed[:4] == ["True", "True", "http://127.0.0.1:8123", "http://127.0.0.1:8123"]
    assert printed[4].endswith("RedisCache")  # the services given to make are written too


def test_without_the_file_manage_py_is_in_production_mode(tmp_path):
    code, _printed, stderr = _settings(tmp_path / "absent.env")

    assert code != 0
    assert "DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is false" in stderr


def test_a_variable_of_the_environment_wins_over_the_file(tmp_path):
    env_file = _write_env_file(tmp_path, PORT="8123")

    code, printed, stderr = _settings(env_file, LOCAL_ORIGIN="http://127.0.0.1:9999")
    assert code == 0, stderr
    assert printed[2:4] == ["http://127.0.0.1:9999", "http://127.0.0.1:9999"]

    code, _printed, stderr = _settings(env_file, DJANGO_DEBUG="false")
    assert code != 0
    assert "DJANGO_SECRET_KEY must be set" in stderr

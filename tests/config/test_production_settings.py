"""Production mode refuses to start without its secrets, by name, and passes `check --deploy` cleanly."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "x9$kq!r2v7#mZp4@Lw8^nT1&cY6*bH3%jD5(gF0)sA-eU+iO=oP_",
    "DJANGO_ALLOWED_HOSTS": "vendor.example.com",
    "HUB_BASE_URL": "https://hub.example.com",
    "HUB_API_TOKEN": "hub-token-from-operator",
    "VENDOR_API_TOKEN": "vendor-token-for-hub",
    "VENDOR_API_SECRET": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    "CACHE_URL": "redis://127.0.0.1:6379/1",
}


def manage(*args, env):
    """Run manage.py in a fresh process with exactly the given configuration."""
    base = {key: value for key, value in os.environ.items() if not key.startswith(("DJANGO_", "HUB_", "VENDOR_"))}
    base["DJANGO_SETTINGS_MODULE"] = "config.settings"
    base["DJANGO_ENV_FILE"] = ""  # as production: no checkout's .env
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_is_clean_in_production():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    "missing",
    [
        "DJANGO_SECRET_KEY",
        "DJANGO_ALLOWED_HOSTS",
        "HUB_BASE_URL",
        "HUB_API_TOKEN",
        "VENDOR_API_TOKEN",
        "VENDOR_API_SECRET",
    ],
)
def test_production_refuses_to_start_naming_the_missing_variable(missing):
    env = {key: value for key, value in PRODUCTION_ENV.items() if key != missing}

    result = manage("check", env=env)

    assert result.returncode != 0
    assert f"vendorhub cannot start: {missing} must be set" in result.stderr
    assert "Traceback" not in result.stderr


def test_development_mode_starts_with_embedded_defaults():
    result = manage("check", env={"DJANGO_DEBUG": "true"})

    assert result.returncode == 0, result.stderr


def bare(*args):
    """Run manage.py with nothing set at all, as a fresh shell or a hook runs it on a server (no .env there)."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"), "DJANGO_ENV_FILE": ""},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_bare_environment_gets_the_message_not_a_traceback():
    result = bare("check")

    assert result.returncode != 0
    assert "vendorhub cannot start: DJANGO_SECRET_KEY must be set" in result.stderr
    assert "Traceback" not in result.stderr


def test_commands_that_read_only_the_code_need_no_secrets():
    result = bare("makemigrations", "--check", "--dry-run")

    assert result.returncode == 0, result.stderr
    assert "No changes detected" in result.stdout

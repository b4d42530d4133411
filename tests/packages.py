"""The project's own packages, read from INSTALLED_APPS: the one list that the tests scan, and that
.importlinter and mypy's files are checked against (tests/config/test_packages.py)."""

from pathlib import Path

from django.apps import apps
from django.conf import settings


def project_packages():
    """The top-level packages of the installed apps whose code lives in this repository (not in the
    virtualenv): every app of ours, and config, whose app config wires the project. The test settings
    install the hub sandbox too."""
    root = Path(settings.BASE_DIR).resolve()
    return {
        app_config.name.partition(".")[0]
        for app_config in apps.get_app_configs()
        if Path(app_config.path).resolve().parents[app_config.name.count(".")] == root
    }

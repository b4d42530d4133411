"""Fixtures of the license tests: license files go to a temporary directory."""

import pytest


@pytest.fixture(autouse=True)
def private_files(settings, tmp_path):
    """License files are stored under a fresh directory for each test."""
    settings.LICENSE_FILES_ROOT = tmp_path / "private-licenses"
    return settings.LICENSE_FILES_ROOT

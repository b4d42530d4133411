"""One list of our packages, INSTALLED_APPS: .importlinter and mypy's files name the same packages as the
installed apps of this repository (tests.packages.project_packages, config included), so that a new app is
checked by both, and a gone one is not named."""

import configparser
import re
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

from tests.packages import project_packages

ROOT = Path(settings.BASE_DIR)
SANDBOX = "hubsandbox"


def _import_linter():
    parser = configparser.ConfigParser()
    parser.read(ROOT / ".importlinter", encoding="utf-8")
    return parser


def _lines(value):
    return [line.strip() for line in value.splitlines() if line.strip()]


def _packages(modules):
    return {module.split(".")[0] for module in modules}


def _modules(contract):
    """Every module a contract names, whole (its layers only when they are not inside containers)."""
    modules = []
    for key in ("containers", "source_modules", "forbidden_modules", "ancestors"):
        modules += _lines(contract.get(key, ""))
    if "containers" not in contract:
        modules += [name.strip() for line in _lines(contract.get("layers", "")) for name in re.split(r"[|:]", line)]
    for line in _lines(contract.get("ignore_imports", "")):
        modules += [side.strip() for side in line.split("->")]
    return modules


def test_the_import_linter_root_packages_are_the_project_packages():
    root_packages = _lines(_import_linter()["importlinter"]["root_packages"])

    assert set(root_packages) == project_packages()


def test_every_package_a_contract_names_is_a_project_package():
    parser = _import_linter()
    contracts = [name for name in parser.sections() if name.startswith("importlinter:contract:")]

    named = {name: _packages(_modules(parser[name])) - project_packages() for name in contracts}

    assert {name: packages for name, packages in named.items() if packages} == {}


# The contracts over every package: {contract: {key: the project packages it leaves out}}. The sandbox runs
# as the hub (reached over HTTP only), outside the product's layers: no product package may import it.
EVERY_PACKAGE = {
    "apps-one-direction": {"layers": {SANDBOX}},
    "no-sandbox-in-product": {"source_modules": {SANDBOX}},
    "core-below-apps": {"forbidden_modules": {"core"}},
    # The engine imports none of integration's areas, nor any app above integration.
    "sync-engine-knows-no-area": {"forbidden_modules": {"core", "config"}},
}


@pytest.mark.parametrize(
    ("contract", "key", "left_out"),
    [(contract, key, left_out) for contract, keys in EVERY_PACKAGE.items() for key, left_out in keys.items()],
)
def test_the_contracts_over_every_package_name_every_project_package(contract, key, left_out):
    section = _import_linter()[f"importlinter:contract:{contract}"]
    modules = _modules(section) if key == "layers" else _lines(section[key])

    assert _packages(modules) == project_packages() - left_out


def test_mypy_checks_every_project_package():
    with (ROOT / "pyproject.toml").open("rb") as pyproject:
        files = tomllib.load(pyproject)["tool"]["mypy"]["files"]

    assert set(files) == project_packages()

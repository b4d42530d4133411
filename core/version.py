"""vendorhub's version, read from pyproject.toml's [project] version: the one place it is written."""

import tomllib
from pathlib import Path

with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as _file:
    VERSION: str = tomllib.load(_file)["project"]["version"]

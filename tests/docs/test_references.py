"""Nothing in the repository points outside it: no file names the old contract or design notes kept
beside the repository, every "decision NNNN" names a record in docs/decisions/, and every OURS tag
(a value we chose where the hub's spec is silent) names the record that says why."""

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = ROOT / "docs" / "decisions"
SKIP_DIRS = {".git", ".venv", "var", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
SKIP_SUFFIXES = (".mo", ".png", ".jpg", ".jpeg", ".gif", ".webp", ".pdf", ".ico", ".woff", ".woff2", ".sqlite3")
#: This file spells the patterns it looks for.
EXEMPT = {Path(__file__).resolve()}

OUTSIDE = re.compile(
    r"hub-contract|\.\./shared/|shared/design|/work/shared|design\.md|contract(?:'s)?\s+(?:section|§)",
    re.IGNORECASE,
)
NUMBER = r"\[?\d{4}(?:\]\([^)]*\))?"
CITE = re.compile(rf"\bdecisions?\s+({NUMBER}(?:(?:,\s*|\s+and\s+){NUMBER})*)", re.IGNORECASE)
RECORD_LINK = re.compile(r"decisions/(\d{4}-[\w-]+\.md)")
TAG = re.compile(r"\bOURS\b")
TAG_NAMES_RECORD = re.compile(r"\s*[,:]?\s*\(?\s*decisions?\s+\[?\d{4}", re.IGNORECASE)


def _texts():
    for directory, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = [name for name in dirnames if name not in SKIP_DIRS]
        for name in filenames:
            path = Path(directory) / name
            if name.endswith(SKIP_SUFFIXES) or path.resolve() in EXEMPT:
                continue
            try:
                text = path.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            yield path.relative_to(ROOT), text


def _line(text, index):
    return text.count("\n", 0, index) + 1


def _records():
    return {path.name[:4]: path.name for path in DECISIONS.glob("[0-9][0-9][0-9][0-9]-*.md")}


def test_no_file_points_outside_the_repository():
    found = [
        f"{path}:{_line(text, match.start())}: {match.group(0)}"
        for path, text in _texts()
        for match in OUTSIDE.finditer(text)
    ]
    assert not found, "Point these at their decision record (docs/decisions/):\n" + "\n".join(found)


def test_every_cited_decision_and_record_link_has_a_record():
    records = _records()
    found = []
    for path, text in _texts():
        for match in CITE.finditer(text):
            found += [
                f"{path}:{_line(text, match.start())}: decision {number}"
                for number in re.findall(r"(?<![\d-])\d{4}(?![\d])", match.group(1))
                if number not in records
            ]
        for match in RECORD_LINK.finditer(text):
            if match.group(1) not in records.values():
                found.append(f"{path}:{_line(text, match.start())}: {match.group(0)}")
    assert not found, "No such decision record:\n" + "\n".join(found)


def test_every_ours_tag_names_its_record():
    found = [
        f"{path}:{_line(text, match.start())}: {text[match.start() : match.end() + 40].splitlines()[0]}"
        for path, text in _texts()
        for match in TAG.finditer(text)
        if not TAG_NAMES_RECORD.match(text, match.end())
    ]
    assert not found, 'Name the record after each tag, e.g. "OURS (decision 0016)":\n' + "\n".join(found)


def test_every_record_is_listed_and_has_its_sections():
    index = (DECISIONS / "index.md").read_text(encoding="utf-8")
    records = _records()
    assert records, "no decision records"
    assert sorted(records) == [f"{number:04d}" for number in range(1, len(records) + 1)], "numbers have gaps"
    for name in records.values():
        text = (DECISIONS / name).read_text(encoding="utf-8")
        assert f"]({name})" in index, f"docs/decisions/index.md does not list {name}"
        assert re.match(rf"# {name[:4]}\. ", text), f"{name} does not start with its number and title"
        for heading in ("## Context", "## Decision", "## Consequences", "## Where in the code"):
            assert heading in text, f"{name} lacks {heading}"

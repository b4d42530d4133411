"""Every locking read of the product names its own table: a join (of select_related, or of a default
ordering across a relation) would lock the joined rows too; a room type's days would lock its property,
and every booking of the property would wait at its foreign-key check. tests/bookings/test_lock_scope.py
shows it on PostgreSQL with real locks."""

import ast
from pathlib import Path

from django.conf import settings

from tests.packages import project_packages

ROOT = Path(settings.BASE_DIR)
#: The hub's stand-in: its locking reads join nothing, and it is not the product.
SANDBOX = "hubsandbox"


def bare_locking_reads(source):
    """The lines of source's select_for_update() calls that do not say what they lock (no of=)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "select_for_update"
        and not any(keyword.arg == "of" for keyword in node.keywords)
    ]


def test_every_locking_read_names_its_own_table():
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in sorted(project_packages() - {SANDBOX})
        for path in sorted((ROOT / package).rglob("*.py"))
        for line in bare_locking_reads(path.read_text(encoding="utf-8"))
    ]

    assert found == [], 'select_for_update(of=("self",)), ordered by plain columns of its own table'


def test_the_scan_finds_a_bare_locking_read():
    source = 'Day.objects.select_for_update().filter(room_type=r)\nDay.objects.select_for_update(of=("self",))\n'

    assert bare_locking_reads(source) == [1]

"""The vendor's code mapping table: importing it from a CSV file, previewed, then applied (the spec's
start-up order: fetch the catalog, then map)."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.audit import ADDITION, audit_record, audit_values
from core.files.csv_files import CsvLines, csv_records

from ..choices import CatalogGroup
from ..models import CodeMapping
from ..selectors import Catalog, catalog_read

#: The CSV header of a code mapping file; note may be left out.
MAPPING_COLUMNS = ("group", "vendor_code", "hub_code", "note")

_REQUIRED_COLUMNS = MAPPING_COLUMNS[:3]

#: Larger files are refused: a mapping table has hundreds of rows, not megabytes.
MAPPING_MAX_BYTES = 1024 * 1024


class MappingImportAction(models.TextChoices):
    """What importing one row of a code mapping file does."""

    CREATE = "create", gettext_lazy("Create")
    UPDATE = "update", gettext_lazy("Update")
    UNCHANGED = "unchanged", gettext_lazy("Unchanged")
    ERROR = "error", gettext_lazy("Error")


@dataclass
class MappingImportRow:
    """One data line of the file and what importing it does (problems say why it cannot)."""

    line: int
    group: str
    vendor_code: str
    hub_code: str
    note: str = ""
    extra: list = field(default_factory=list)
    action: str = MappingImportAction.ERROR
    problems: list = field(default_factory=list)
    changes: list = field(default_factory=list)
    changed_fields: list = field(default_factory=list)
    hub_label: str = ""
    mapping_id: int | None = None

    def get_action_display(self) -> str | Promise:
        """The action's label, as a model's choice field would give it."""
        return MappingImportAction(self.action).label


@dataclass
class MappingImportPlan:
    """Every row's action; applied is True once the rows were written (never when any row has errors)."""

    rows: list
    applied: bool = False

    @property
    def has_errors(self) -> bool:
        return any(row.action == MappingImportAction.ERROR for row in self.rows)

    def count(self, action: str) -> int:
        return sum(1 for row in self.rows if row.action == action)

    @property
    def counts(self) -> dict[str, int]:
        """{action: number of rows}, every action present."""
        return {action: self.count(action) for action in MappingImportAction.values}


def code_mappings_csv_export() -> Iterator[str]:
    """The lines of the code mapping table as a file the import reads back unchanged (header first, UTF-8
    with a byte order mark for spreadsheets); a generator for a streaming response."""
    writer = CsvLines()
    yield "\ufeff" + writer.line(MAPPING_COLUMNS)
    for values in CodeMapping.objects.order_by("group", "vendor_code").values_list(*MAPPING_COLUMNS).iterator():
        yield writer.line(values)


def code_mappings_read_csv(content: bytes | str) -> list[MappingImportRow]:
    """Rows of a code mapping file (bytes or text, UTF-8) as MappingImportRow, before any check.

    Raises ValidationError when the file as a whole is unusable: not UTF-8 text, not CSV, too large,
    a wrong header, or no rows.
    """
    records = csv_records(content, columns=MAPPING_COLUMNS, required=_REQUIRED_COLUMNS, max_bytes=MAPPING_MAX_BYTES)
    return [MappingImportRow(line=record.line, **record.cells, extra=record.extra) for record in records]


def _field(name: str) -> "models.Field[Any, Any]":
    """A column of the mapping table (a plain field, never a relation)."""
    return cast("models.Field[Any, Any]", CodeMapping._meta.get_field(name))


def _max_length(name: str) -> int:
    return cast(int, _field(name).max_length)


def _plan_row(
    row: MappingImportRow,
    catalog: Catalog | None,
    existing: dict[tuple[str, str], CodeMapping],
    first_line: dict[tuple[str, str], int],
) -> None:
    """Set the row's action, problems and changes against the catalog and the stored mappings."""
    row.group = row.group.lower()
    key = (row.group, row.vendor_code)
    row.problems = [*_shape_problems(row), *_repeated(row, key, first_line), *_hub_code_problems(row, catalog)]
    first_line.setdefault(key, row.line)
    if row.problems:
        row.action = MappingImportAction.ERROR
        return
    current = existing.get(key)
    if current is None:
        row.action = MappingImportAction.CREATE
        return
    row.mapping_id = current.pk
    for name in ("hub_code", "note"):
        old, new = getattr(current, name), getattr(row, name)
        if old != new:
            label = _field(name).verbose_name
            row.changed_fields.append(name)
            row.changes.append(_("%(field)s: %(old)s → %(new)s") % {"field": label, "old": old, "new": new})
    row.action = MappingImportAction.UPDATE if row.changes else MappingImportAction.UNCHANGED


def _shape_problems(row: MappingImportRow) -> list[str]:
    """What is wrong with the row's own values: extra values, an unknown group, empty or too long codes."""
    problems = []
    if row.extra:
        problems.append(_("The line has more values than the header."))
    if row.group not in CatalogGroup.values:
        problems.append(
            _("Unknown group “%(group)s”; use one of %(groups)s.")
            % {"group": row.group, "groups": ", ".join(CatalogGroup.values)}
        )
    if not row.vendor_code:
        problems.append(_("Our code (vendor_code) is empty."))
    if not row.hub_code:
        problems.append(_("The hub code (hub_code) is empty."))
    for name in ("vendor_code", "hub_code", "note"):
        if len(getattr(row, name)) > _max_length(name):
            problems.append(
                _("%(column)s is longer than %(max)s characters.") % {"column": name, "max": _max_length(name)}
            )
    return problems


def _repeated(row: MappingImportRow, key: tuple[str, str], first_line: dict[tuple[str, str], int]) -> list[str]:
    """The problem of a code mapped in an earlier line of the same file (first_line: key -> its line)."""
    if row.vendor_code and key in first_line:
        return [
            _("Our code “%(code)s” is already mapped in line %(line)s of this file.")
            % {"code": row.vendor_code, "line": first_line[key]}
        ]
    return []


def _hub_code_problems(row: MappingImportRow, catalog: Catalog | None) -> list[str]:
    """The problem of a hub code not in the hub's catalog (or no catalog yet); sets the row's hub label."""
    if not row.hub_code or row.group not in CatalogGroup.values:
        return []
    if catalog is None:
        return [_("Fetch the hub's code catalog first: there is none yet to check hub codes against.")]
    if row.hub_code not in catalog.codes.get(row.group, ()):
        return [
            _("The hub code “%(code)s” is not in the hub's catalog (%(group)s).")
            % {"code": row.hub_code, "group": CatalogGroup(row.group).label}
        ]
    row.hub_label = catalog.label(row.group, row.hub_code) or ""
    return []


def code_mappings_import(
    rows: Iterable[MappingImportRow], *, apply: bool, user: User | None = None
) -> MappingImportPlan:
    """Plan the import of rows (from code_mappings_read_csv) and, with apply, write it in one transaction,
    each mapping created or changed recorded in the audit trail as user's, with its values.

    Every row becomes create, update, unchanged or error (with the reasons). Any error row blocks the
    whole apply: then nothing is written and plan.applied stays False.
    """
    rows = list(rows)
    with transaction.atomic():
        catalog = catalog_read()
        existing = {
            (mapping.group, mapping.vendor_code): mapping
            for mapping in CodeMapping.objects.select_for_update(of=("self",))
            .filter(group__in={row.group.lower() for row in rows})
            .order_by("group", "vendor_code")
        }
        first_line: dict[tuple[str, str], int] = {}
        for row in rows:
            _plan_row(row, catalog, existing, first_line)
        plan = MappingImportPlan(rows=rows)
        if not apply or plan.has_errors:
            return plan
        created = CodeMapping.objects.bulk_create(
            CodeMapping(group=row.group, vendor_code=row.vendor_code, hub_code=row.hub_code, note=row.note)
            for row in rows
            if row.action == MappingImportAction.CREATE
        )
        for row, mapping in zip(
            (row for row in rows if row.action == MappingImportAction.CREATE), created, strict=True
        ):
            row.mapping_id = mapping.pk
        for mapping in created:
            audit_record(user=user, obj=mapping, action=ADDITION)
        now = timezone.now()
        updated = []
        for row in rows:
            if row.action == MappingImportAction.UPDATE:
                mapping = existing[row.group, row.vendor_code]
                before = audit_values(mapping)
                mapping.hub_code, mapping.note, mapping.updated_at = row.hub_code, row.note, now
                audit_record(user=user, obj=mapping, before=before)
                updated.append(mapping)
        # bulk_update skips auto_now, hence updated_at set above.
        CodeMapping.objects.bulk_update(updated, ["hub_code", "note", "updated_at"])
        plan.applied = True
    return plan

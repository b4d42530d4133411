"""The hub's code catalog (GET /meta): fetching and storing it, reading it, checking tags against it,
and importing the vendor's code mapping table (the spec's start-up order: fetch the catalog, then map).
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from .choices import CatalogGroup
from .csv_files import csv_records
from .hub.client import HubError, get_hub_client
from .hub.endpoints import CATALOG, CATALOG_LOCALE_PARAM
from .models import CatalogSnapshot, CodeMapping, Property, RoomType

#: The locales a snapshot holds; the first is the hub's default and the source of the tree.
SNAPSHOT_LOCALES = ("ko-KR", "en-US")

#: Which catalog group each tag field of Property and RoomType takes its codes from.
TAG_FIELD_GROUPS = {
    "classifications": CatalogGroup.CLASSIFICATION,
    "property_tags": CatalogGroup.PROPERTY,
    "facility_tags": CatalogGroup.FACILITY,
    "service_tags": CatalogGroup.SERVICE,
    "attraction_tags": CatalogGroup.ATTRACTION,
    "roomtype_tags": CatalogGroup.ROOMTYPE,
    "amenity_tags": CatalogGroup.AMENITY,
    "view_tags": CatalogGroup.VIEW,
}
#: The models whose fields TAG_FIELD_GROUPS names.
TAG_MODELS = (Property, RoomType)

#: Joins the names along a nested code's path in its label, e.g. "Pool \u203a Outdoor pool".
PATH_SEPARATOR = " \u203a "


class CatalogInvalid(HubError):
    """The hub answered GET /meta with 2xx but not with the spec's catalog shape."""


# --- Fetching ---------------------------------------------------------------------------------


def _problem_in_nodes(nodes, path):
    """The first shape problem in a group's node tree, or None. Walks with a stack, not recursion, so
    that no nesting depth can exhaust the interpreter's stack."""
    if not isinstance(nodes, list):
        return _("%(path)s must be a list of nodes") % {"path": path}
    stack = [(nodes, path)]
    while stack:
        siblings, where = stack.pop()
        for index, node in enumerate(siblings):
            here = f"{where}[{index}]"
            if not isinstance(node, dict):
                return _("%(path)s must be an object with code and name") % {"path": here}
            if not isinstance(node.get("code"), str) or not node["code"].strip():
                return _("%(path)s must be a non-empty string") % {"path": f"{here}.code"}
            if not isinstance(node.get("name"), str):
                return _("%(path)s must be a string") % {"path": f"{here}.name"}
            children = node.get("children")
            if children is not None:
                if not isinstance(children, list):
                    return _("%(path)s must be a list of nodes") % {"path": f"{here}.children"}
                stack.append((children, f"{here}.children"))
    return None


def _validated_data(answer, *, locale):
    """The "data" object of a GET /meta answer; raises CatalogInvalid naming the first shape problem."""
    if not isinstance(answer, dict) or not isinstance(answer.get("data"), dict):
        problem = _('the answer is not an object with a "data" object')
    else:
        data = answer["data"]
        missing = [group for group in CatalogGroup.values if group not in data]
        if missing:
            problem = _("data has no %(groups)s") % {"groups": ", ".join(missing)}
        else:
            problem = next(
                (
                    found
                    for group in CatalogGroup.values
                    if (found := _problem_in_nodes(data[group], f"data.{group}")) is not None
                ),
                None,
            )
    if problem:
        raise CatalogInvalid(
            _("The hub's code catalog (%(locale)s) is malformed: %(problem)s.") % {"locale": locale, "problem": problem}
        )
    return answer["data"]


def catalog_refresh(*, client=None):
    """Fetch the catalog in Korean and in English and store it as one new CatalogSnapshot.

    Raises HubError (CatalogInvalid for a malformed answer); then nothing is stored.
    """
    client = client or get_hub_client()
    data = {}
    for locale in SNAPSHOT_LOCALES:
        # Korean is the hub's default: it is asked without the parameter, which is our own convention
        # (hub-contract.md, OURS), so that at least the Korean catalog works with any hub.
        query = None if locale == SNAPSHOT_LOCALES[0] else {CATALOG_LOCALE_PARAM: locale}
        data[locale] = _validated_data(client.call(CATALOG, query=query).data, locale=locale)
    # Both calls are done: the insert is the only write, so no transaction spans the network.
    snapshot = CatalogSnapshot.objects.create(data=data)
    _remember(Catalog(snapshot))
    return snapshot


# --- Reading ----------------------------------------------------------------------------------


def _walk(nodes):
    """Every node of a tree with the codes of its path from the top-level node: (node, (code, ...))."""
    stack = [(node, ()) for node in reversed(nodes)]
    while stack:
        node, parents = stack.pop()
        path = (*parents, node["code"])
        yield node, path
        stack.extend((child, path) for child in reversed(node.get("children") or ()))


def catalog_counts(snapshot):
    """How many codes (at any depth) each group of a snapshot has: {group: count}."""
    tree = snapshot.data[SNAPSHOT_LOCALES[0]]
    return {group: sum(1 for _node in _walk(tree.get(group, []))) for group in CatalogGroup.values}


def _locale_for(language):
    """The snapshot locale whose names suit a Django language code: Korean for ko*, else English."""
    return SNAPSHOT_LOCALES[0] if (language or settings.LANGUAGE_CODE).lower().startswith("ko") else "en-US"


class Catalog:
    """A snapshot parsed for reading: codes and their paths per group, names per locale.

    The tree comes from the Korean answer (the hub's default); English names fall back to the Korean
    one, and a missing name to the code, so both languages list the same codes.
    """

    def __init__(self, snapshot):
        self.key = (snapshot.pk, snapshot.fetched_at)
        self.snapshot = snapshot
        tree = snapshot.data[SNAPSHOT_LOCALES[0]]
        #: {group: {code: path}} in catalog order, parents before their children; path is the codes from
        #: the top-level node down to the code.
        self.paths = {group: {node["code"]: path for node, path in _walk(tree[group])} for group in tree}
        self.codes = {group: frozenset(paths) for group, paths in self.paths.items()}
        self.names = {
            locale: {
                group: {node["code"]: node["name"] for node, _path in _walk(nodes)}
                for group, nodes in snapshot.data.get(locale, {}).items()
            }
            for locale in SNAPSHOT_LOCALES
        }
        self._choices = {}

    def _name(self, group, code, locale):
        for source in (locale, SNAPSHOT_LOCALES[0]):
            name = self.names.get(source, {}).get(group, {}).get(code)
            if name:
                return name
        return code

    def _label(self, group, code, locale):
        path = self.paths.get(group, {}).get(code, (code,))
        return PATH_SEPARATOR.join(self._name(group, step, locale) for step in path)

    def label(self, group, code, language):
        """The code's name with the names of its parents (joined by PATH_SEPARATOR) in the language (a
        Django language code); None when the group lacks the code."""
        if code not in self.codes.get(group, ()):
            return None
        return self._label(group, code, _locale_for(language))

    def choices(self, group, language):
        """Grouped choices of a group in the language (see catalog_choices), built once per group and locale."""
        locale = _locale_for(language)
        if (group, locale) not in self._choices:
            self._choices[group, locale] = self._build_choices(group, locale)
        return [(label, list(options)) for label, options in self._choices[group, locale]]

    def _build_choices(self, group, locale):
        below = {}  # top-level code -> the options of every code under it, in catalog order
        for code, path in self.paths.get(group, {}).items():
            if len(path) > 1:
                below.setdefault(path[0], []).append((code, self._label(group, code, locale)))
        optgroups, leaves = [], []
        for code, path in self.paths.get(group, {}).items():
            if len(path) > 1:
                continue
            option = (code, self._name(group, code, locale))
            if code in below:
                optgroups.append((option[1], (option, *below[code])))
            else:
                leaves.append(option)
        if leaves:
            # Built once and kept, so in the list's own language rather than whichever is active now.
            with translation.override("ko" if locale == SNAPSHOT_LOCALES[0] else "en"):
                label = _("Other") if optgroups else str(CatalogGroup(group).label)
            optgroups.append((label, tuple(leaves)))
        return tuple(optgroups)


#: The last catalog parsed in this process. Snapshots never change, so it stays right for as long as
#: its snapshot is the latest; a newer one (stored by any process) has another key and replaces it.
_latest = None


def _remember(catalog):
    global _latest
    _latest = catalog
    return catalog


def _latest_catalog():
    """The latest snapshot, parsed; None before the first fetch.

    Costs one indexed two-column query; the catalog itself is loaded and parsed only when it changed.
    """
    head = CatalogSnapshot.objects.order_by("-fetched_at", "-pk").values_list("pk", "fetched_at").first()
    if head is None:
        return None
    cached = _latest
    if cached is not None and cached.key == head:
        return cached
    snapshot = CatalogSnapshot.objects.filter(pk=head[0]).first()
    return _remember(Catalog(snapshot)) if snapshot else _latest_catalog()


def catalog_read():
    """The latest catalog parsed for reading (a Catalog: codes, labels, choices), or None before the
    first fetch. Read it once where many codes are looked up."""
    return _latest_catalog()


def catalog_latest():
    """The latest CatalogSnapshot, or None before the catalog was first fetched."""
    catalog = _latest_catalog()
    return catalog.snapshot if catalog else None


def catalog_codes(group):
    """Every code of a group, at any depth, in the latest catalog (empty before the first fetch)."""
    catalog = _latest_catalog()
    return catalog.codes.get(CatalogGroup(group), frozenset()) if catalog else frozenset()


def catalog_choices(group, language):
    """A group's codes as Django grouped choices: [(optgroup label, [(code, label), ...]), ...].

    Each top-level node with children is an optgroup holding itself and every code below it, labelled
    with its path (names joined by PATH_SEPARATOR); top-level leaves share one last optgroup. Names are Korean
    when language (a Django language code) starts with "ko", English otherwise. Empty before the
    first fetch.
    """
    catalog = _latest_catalog()
    return catalog.choices(CatalogGroup(group), language) if catalog else []


def catalog_label(group, code, language):
    """The code's label with its path in the language, or None when the latest catalog lacks it."""
    catalog = _latest_catalog()
    return catalog.label(CatalogGroup(group), code, language) if catalog else None


# --- Checking tags ----------------------------------------------------------------------------

_UNKNOWN_CODES = ngettext_lazy(
    "%(codes)s is not a code of the hub's catalog (%(group)s).",
    "%(codes)s are not codes of the hub's catalog (%(group)s).",
    "count",
)
_NO_CATALOG = gettext_lazy(
    "Fetch the hub's code catalog first: no catalog has been fetched yet to check %(codes)s against."
)


def catalog_check_codes(values, field_groups=TAG_FIELD_GROUPS):
    """Field errors for codes that the latest catalog lacks: {field: ValidationError}, empty when all is well.

    values is a mapping (a form's cleaned_data) or an object (a Property or RoomType); only the fields
    of field_groups ({field: CatalogGroup}) that it has are checked, and only their string codes (the
    list's shape is validate_code_list's concern). The result suits form.add_error(field, error) and
    ValidationError(result).
    """
    catalog = _latest_catalog()
    errors = {}
    for name, group in field_groups.items():
        codes = values.get(name) if isinstance(values, Mapping) else getattr(values, name, None)
        if not isinstance(codes, list | tuple):
            continue
        codes = [code for code in codes if isinstance(code, str) and code]
        if catalog is None:
            unknown = codes
        else:
            known = catalog.codes.get(CatalogGroup(group), frozenset())
            unknown = [code for code in codes if code not in known]
        if not unknown:
            continue
        params = {"codes": ", ".join(unknown), "count": len(unknown), "group": CatalogGroup(group).label}
        if catalog is None:
            errors[name] = ValidationError(_NO_CATALOG, code="no_catalog", params=params)
        else:
            errors[name] = ValidationError(_UNKNOWN_CODES, code="unknown_code", params=params)
    return errors


# --- Code mapping import ------------------------------------------------------------------------

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

    def get_action_display(self):
        """The action's label, as a model's choice field would give it."""
        return MappingImportAction(self.action).label


@dataclass
class MappingImportPlan:
    """Every row's action; applied is True once the rows were written (never when any row has errors)."""

    rows: list
    applied: bool = False

    @property
    def has_errors(self):
        return any(row.action == MappingImportAction.ERROR for row in self.rows)

    def count(self, action):
        return sum(1 for row in self.rows if row.action == action)

    @property
    def counts(self):
        """{action: number of rows}, every action present."""
        return {action: self.count(action) for action in MappingImportAction.values}


def code_mappings_read_csv(content):
    """Rows of a code mapping file (bytes or text, UTF-8) as MappingImportRow, before any check.

    Raises ValidationError when the file as a whole is unusable: not UTF-8 text, not CSV, too large,
    a wrong header, or no rows.
    """
    records = csv_records(content, columns=MAPPING_COLUMNS, required=_REQUIRED_COLUMNS, max_bytes=MAPPING_MAX_BYTES)
    return [MappingImportRow(line=record.line, **record.cells, extra=record.extra) for record in records]


def _max_length(name):
    return CodeMapping._meta.get_field(name).max_length


def _plan_row(row, catalog, existing, first_line):
    """Set the row's action, problems and changes against the catalog and the stored mappings."""
    row.group = row.group.lower()
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
    key = (row.group, row.vendor_code)
    if row.vendor_code and key in first_line:
        problems.append(
            _("Our code “%(code)s” is already mapped in line %(line)s of this file.")
            % {"code": row.vendor_code, "line": first_line[key]}
        )
    first_line.setdefault(key, row.line)
    if row.hub_code and row.group in CatalogGroup.values:
        if catalog is None:
            problems.append(_("Fetch the hub's code catalog first: there is none yet to check hub codes against."))
        elif row.hub_code not in catalog.codes.get(row.group, ()):
            problems.append(
                _("The hub code “%(code)s” is not in the hub's catalog (%(group)s).")
                % {"code": row.hub_code, "group": CatalogGroup(row.group).label}
            )
        else:
            row.hub_label = catalog.label(row.group, row.hub_code, translation.get_language())
    row.problems = problems
    if problems:
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
            label = CodeMapping._meta.get_field(name).verbose_name
            row.changed_fields.append(name)
            row.changes.append(_("%(field)s: %(old)s → %(new)s") % {"field": label, "old": old, "new": new})
    row.action = MappingImportAction.UPDATE if row.changes else MappingImportAction.UNCHANGED


def code_mappings_import(rows: Iterable[MappingImportRow], *, apply):
    """Plan the import of rows (from code_mappings_read_csv) and, with apply, write it in one transaction.

    Every row becomes create, update, unchanged or error (with the reasons). Any error row blocks the
    whole apply: then nothing is written and plan.applied stays False.
    """
    rows = list(rows)
    with transaction.atomic():
        catalog = _latest_catalog()
        existing = {
            (mapping.group, mapping.vendor_code): mapping
            for mapping in CodeMapping.objects.select_for_update().filter(group__in={row.group.lower() for row in rows})
        }
        first_line = {}
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
        now = timezone.now()
        updated = []
        for row in rows:
            if row.action == MappingImportAction.UPDATE:
                mapping = existing[row.group, row.vendor_code]
                mapping.hub_code, mapping.note, mapping.updated_at = row.hub_code, row.note, now
                updated.append(mapping)
        # bulk_update skips auto_now, hence updated_at set above.
        CodeMapping.objects.bulk_update(updated, ["hub_code", "note", "updated_at"])
        plan.applied = True
    return plan

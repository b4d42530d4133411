"""Reading the hub's code catalog: the latest snapshot parsed once per process, its codes, labels and
choices, checking tags against it, and our codes as the hub's (the code mapping table applied)."""

from collections.abc import Iterator, Mapping
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from ..content.models import Property, RoomType
from .choices import CatalogGroup
from .models import CatalogSnapshot, CodeMapping

#: The key a snapshot holds the hub's catalog under: the one answer of GET /meta, names as the hub gives
#: them (Korean). Snapshots from before it was fetched once may hold an "en-US" answer too; it is not read.
SNAPSHOT_LOCALE = "ko-KR"

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
#: A group's codes as Django grouped choices: ((optgroup label, ((code, label), ...)), ...).
Optgroups = tuple[tuple[str, tuple[tuple[str, str], ...]], ...]


def _walk(nodes: list[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], tuple[str, ...]]]:
    """Every node of a tree with the codes of its path from the top-level node: (node, (code, ...))."""
    stack: list[tuple[dict, tuple[str, ...]]] = [(node, ()) for node in reversed(nodes)]
    while stack:
        node, parents = stack.pop()
        path = (*parents, node["code"])
        yield node, path
        stack.extend((child, path) for child in reversed(node.get("children") or ()))


def catalog_counts(snapshot: CatalogSnapshot) -> dict[str, int]:
    """How many codes (at any depth) each group of a snapshot has: {group: count}."""
    tree = snapshot.data[SNAPSHOT_LOCALE]
    return {group: sum(1 for _node in _walk(tree.get(group, []))) for group in CatalogGroup.values}


class Catalog:
    """A snapshot parsed for reading: codes and their paths per group, and the hub's names, which every
    language of our screens shows (the spec's catalog has one name per code); a missing name shows the code."""

    def __init__(self, snapshot: CatalogSnapshot) -> None:
        self.key = (snapshot.pk, snapshot.fetched_at)
        self.snapshot = snapshot
        tree = snapshot.data[SNAPSHOT_LOCALE]
        #: {group: {code: path}} in catalog order, parents before their children; path is the codes from
        #: the top-level node down to the code.
        self.paths = {group: {node["code"]: path for node, path in _walk(tree[group])} for group in tree}
        self.codes = {group: frozenset(paths) for group, paths in self.paths.items()}
        self.names = {
            group: {node["code"]: node["name"] for node, _path in _walk(nodes)} for group, nodes in tree.items()
        }
        self._choices: dict[tuple[str, bool], Optgroups] = {}

    def _name(self, group: str, code: str) -> str:
        return self.names.get(group, {}).get(code) or code

    def _label(self, group: str, code: str) -> str:
        path = self.paths.get(group, {}).get(code, (code,))
        return PATH_SEPARATOR.join(self._name(group, step) for step in path)

    def label(self, group: str, code: str) -> str | None:
        """The code's name with the names of its parents (joined by PATH_SEPARATOR); None when the group
        lacks the code."""
        if code not in self.codes.get(group, ()):
            return None
        return self._label(group, code)

    def choices(self, group: str, language: str | None) -> list[tuple[str, list[tuple[str, str]]]]:
        """A group's codes as Django grouped choices for a Django language code, built once per group and
        language (Korean, or English for any other): [(optgroup label, [(code, label), ...]), ...]. Each
        top-level node with children is an optgroup holding itself and every code below it, labelled with
        its path; top-level leaves share one last optgroup, labelled in the language."""
        korean = (language or settings.LANGUAGE_CODE).lower().startswith("ko")
        if (group, korean) not in self._choices:
            self._choices[group, korean] = self._build_choices(group, korean)
        return [(label, list(options)) for label, options in self._choices[group, korean]]

    def _build_choices(self, group: str, korean: bool) -> Optgroups:
        # top-level code -> the options of every code under it, in catalog order
        below: dict[str, list[tuple[str, str]]] = {}
        for code, path in self.paths.get(group, {}).items():
            if len(path) > 1:
                below.setdefault(path[0], []).append((code, self._label(group, code)))
        optgroups: list[tuple[str, tuple[tuple[str, str], ...]]] = []
        leaves: list[tuple[str, str]] = []
        for code, path in self.paths.get(group, {}).items():
            if len(path) > 1:
                continue
            option = (code, self._name(group, code))
            if code in below:
                optgroups.append((option[1], (option, *below[code])))
            else:
                leaves.append(option)
        if leaves:
            # Built once and kept, so in the list's own language rather than whichever is active now.
            with translation.override("ko" if korean else "en"):
                label = _("Other") if optgroups else str(CatalogGroup(group).label)
            optgroups.append((label, tuple(leaves)))
        return tuple(optgroups)


#: The last catalog parsed in this process. Snapshots never change, so it stays right for as long as
#: its snapshot is the latest; a newer one (stored by any process) has another key and replaces it.
_latest: Catalog | None = None


def catalog_remember(catalog: Catalog) -> Catalog:
    """Keep catalog as this process's latest (after a fetch stored it); returns it."""
    global _latest
    _latest = catalog
    return catalog


def _latest_catalog() -> Catalog | None:
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
    return catalog_remember(Catalog(snapshot)) if snapshot else _latest_catalog()


def catalog_read() -> Catalog | None:
    """The latest catalog parsed for reading (a Catalog: codes, labels, choices), or None before the
    first fetch. Read it once where many codes are looked up."""
    return _latest_catalog()


_UNKNOWN_CODES = ngettext_lazy(
    "%(codes)s is not a code of the hub's catalog (%(group)s).",
    "%(codes)s are not codes of the hub's catalog (%(group)s).",
    "count",
)

_NO_CATALOG = gettext_lazy(
    "Fetch the hub's code catalog first: no catalog has been fetched yet to check %(codes)s against."
)


def catalog_check_codes(
    values: Mapping[str, Any] | Model, field_groups: Mapping[str, str] = TAG_FIELD_GROUPS
) -> dict[str, ValidationError]:
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


class HubCodes:
    """Our codes as the hub's, for the bodies we send: the code mapping table (our code -> hub code)
    applied, with the catalog as the judge. The one place where outgoing codes are translated.

    A code the table maps becomes its hub code; any other goes as it is. A code whose hub code the
    latest catalog lacks is unknown: it is listed in unknown ({field: [our codes]}) and the sync refuses
    to send the resource (integration.content.resources). OURS (decision 0018): before the catalog was first fetched
    nothing can be judged, so codes go as they are (mapped ones mapped) and the hub is the judge; the
    go-live checklist fails until the catalog is fetched.
    """

    def __init__(self, catalog: Catalog | None, mappings: dict[tuple[str, str], str]) -> None:
        self.catalog = catalog
        #: {(group, our code): hub code}
        self.mappings = mappings
        self.unknown: dict[str, list[str]] = {}

    def known(self, group: str, hub_code: str) -> bool:
        """Whether the latest catalog has hub_code (True before the first fetch: nothing to judge by)."""
        return self.catalog is None or hub_code in self.catalog.codes.get(group, ())

    def __call__(self, field: str, codes: list[str]) -> list[str]:
        """The hub codes of a tag field's codes (TAG_FIELD_GROUPS names its group), in order, each once;
        the unknown ones are noted in self.unknown."""
        group = TAG_FIELD_GROUPS[field]
        hub_codes = []
        for code in codes:
            hub_code = self.mappings.get((group, code), code)
            if not self.known(group, hub_code):
                self.unknown.setdefault(field, []).append(code)
            hub_codes.append(hub_code)
        return list(dict.fromkeys(hub_codes))

    def check(self, obj: Model) -> dict[str, list[str]]:
        """Apply the table to every tag field of obj (a Property or RoomType, or any object with some of
        the fields); returns obj's unknown codes ({field: [our codes]}), also left in self.unknown."""
        self.unknown = {}
        for field in TAG_FIELD_GROUPS:
            if hasattr(obj, field):
                self(field, getattr(obj, field))
        return self.unknown

    def problem(self, model: type[Model]) -> str:
        """The message that refuses to send an object of model with unknown codes, naming each field and
        its codes; "" when every code is known."""
        return " ".join(
            _UNKNOWN_HUB_CODES
            % {
                # A tag field, never a relation.
                "field": model._meta.get_field(field).verbose_name,  # type: ignore[union-attr]
                "codes": ", ".join(codes),
                "group": CatalogGroup(TAG_FIELD_GROUPS[field]).label,
            }
            for field, codes in self.unknown.items()
        )


_UNKNOWN_HUB_CODES = gettext_lazy(
    "%(field)s: the hub's catalog (%(group)s) has no code for %(codes)s; map them to codes of the catalog in the "
    "code mapping table, or choose codes of the catalog."
)


def hub_codes_read() -> HubCodes:
    """A fresh HubCodes with the latest catalog and the whole code mapping table (hundreds of rows: one
    query). Read it once per body, or once for many objects."""
    mappings = {
        (group, vendor_code): hub_code
        for group, vendor_code, hub_code in CodeMapping.objects.values_list("group", "vendor_code", "hub_code")
    }
    return HubCodes(_latest_catalog(), mappings)

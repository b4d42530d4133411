"""Field by field comparison of the body the hub last acknowledged with the read shape it answers now."""

from dataclasses import dataclass
from typing import Any

from ..sync.models import ResourceKind

#: SPEC (read shapes): fields the hub adds to what it answers, derived from the path or the parents, that
#: no create or patch body of ours carries; they are not ours to compare.
HUB_DERIVED_FIELDS = {
    ResourceKind.PROPERTY: frozenset(),
    ResourceKind.ROOM_TYPE: frozenset(),
    ResourceKind.RATE_PLAN_MODEL: frozenset({"vendor_property_id"}),
    ResourceKind.RATE_PLAN: frozenset({"vendor_property_id", "vendor_roomtype_id", "type"}),
}

#: A field one side does not have at all (JSON null is a value).
ABSENT = object()


@dataclass(frozen=True)
class FieldDifference:
    """One field (a path such as "i18n[ko-KR].name" or "settings.extra_adult_price") that differs;
    ours or hubs is ABSENT when that side does not have the field at all."""

    field: str
    ours: Any
    hubs: Any

    @property
    def ours_present(self):
        return self.ours is not ABSENT

    @property
    def hubs_present(self):
        return self.hubs is not ABSENT


def body_differences(kind, ours, hubs):
    """Every field where the hub's read shape (hubs) differs from the body we last sent (ours), in field
    order. Objects are compared member by member, arrays of translations entry by locale, other arrays of
    objects entry by position, and arrays of plain values (tags, channels) whole."""
    skip = HUB_DERIVED_FIELDS.get(kind, frozenset())
    ours = {key: value for key, value in (ours or {}).items() if key not in skip}
    hubs = {key: value for key, value in (hubs or {}).items() if key not in skip}
    differences: list[FieldDifference] = []
    _compare("", ours, hubs, differences)
    return differences


def _compare(path, ours, hubs, out):
    if isinstance(ours, dict) and isinstance(hubs, dict):
        for key in sorted(ours.keys() | hubs.keys()):
            _compare(f"{path}.{key}" if path else key, ours.get(key, ABSENT), hubs.get(key, ABSENT), out)
    elif _keyed_list(ours) and _keyed_list(hubs):
        ours_by, hubs_by = _entries(ours), _entries(hubs)
        for key in sorted(ours_by.keys() | hubs_by.keys()):
            _compare(f"{path}[{key}]", ours_by.get(key, ABSENT), hubs_by.get(key, ABSENT), out)
    elif not _equal(ours, hubs):
        out.append(FieldDifference(path, ours, hubs))


def _keyed_list(value):
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _entries(items):
    """A translations array by locale; any other array of objects (photos) by position."""
    if all("locale" in item for item in items):
        return {item["locale"]: item for item in items}
    return dict(enumerate(items))


def _equal(ours, hubs):
    # 2 and 2.0 are one JSON number; True is not 1.
    if isinstance(ours, bool) or isinstance(hubs, bool):
        return type(ours) is type(hubs) and ours == hubs
    return ours == hubs

"""How the drift report shows a difference to people: the field by its label in the reader's language
("Name (Korean)", "Photos #2 · Caption") and the values as plain text ("Yes", "a, b", "—"); the raw path
and JSON stay for a tooltip."""

import json
import re

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from ..content.choices import Locale
from ..content.models import (
    Property,
    PropertyPhoto,
    PropertyTranslation,
    RatePlan,
    RatePlanModel,
    RoomType,
    RoomTypeTranslation,
)

#: The models whose fields the hub's bodies carry under the same names.
_MODELS = (Property, PropertyTranslation, RoomType, RoomTypeTranslation, RatePlanModel, RatePlan)
#: Fields whose entries are objects of another model ("photos[1].description" is a photo's caption).
_ENTRIES = {"photos": PropertyPhoto}
#: Path parts that only group others: the label shows what they hold.
_GROUPS = {"i18n", "settings"}
_PART = re.compile(r"([^.\[\]]+)|\[([^\]]+)\]")


def _field_labels(*models):
    labels = {}
    for model in reversed(models):  # the first model's label wins
        for field in model._meta.get_fields():
            if hasattr(field, "verbose_name"):
                labels[field.name] = field.verbose_name
    return labels


def drift_field_label(path):
    """A difference's field, named for people: each part by its model field's label (else the hub's name
    in words), a translation's locale by its language, a list entry by its number."""
    labels, parts, language = _field_labels(*_MODELS), [], None
    locales = dict(Locale.choices)
    for name, key in _PART.findall(path):
        if key in locales:
            language = locales[key]
        elif key:
            parts.append(f"#{int(key) + 1}" if key.isdigit() else key)
        elif name not in _GROUPS:
            if name in _ENTRIES:
                parts.append(str(_ENTRIES[name]._meta.verbose_name_plural))
                labels = _field_labels(_ENTRIES[name])
            else:
                parts.append(str(labels[name]) if name in labels else _unknown_field(name))
    label = " · ".join(parts) or path
    label = label[:1].upper() + label[1:]
    return f"{label} ({language})" if language else label


def _unknown_field(name):
    """A field of the hub's that none of our models has (so no label of ours, in any language): said as the
    hub names it, in the reader's language around it, never as English words made of its name."""
    return _("the hub's field “%(name)s”") % {"name": name}


def drift_value_text(value):
    """A value as plain text: yes/no, numbers grouped, lists joined, objects as "key: value" pairs."""
    if value is None or value == "" or value == []:
        return "—"
    if isinstance(value, bool):
        return _("Yes") if value else _("No")
    if isinstance(value, int | float):
        return number_format(value, force_grouping=True)
    if isinstance(value, list):
        return ", ".join(drift_value_text(item) for item in value)
    if isinstance(value, dict):
        return "; ".join(f"{key}: {drift_value_text(item)}" for key, item in value.items())
    return str(value)


def drift_raw(path, value):
    """The tooltip of a value: the hub's path and the value as JSON, as the hub holds them."""
    return f"{path}: {json.dumps(value, ensure_ascii=False)}"

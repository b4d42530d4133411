"""Maps edited as rows of a key and a value: the refund policy (days before check-in, refund percentage)
and the room composition (part, count).

They read without JavaScript; catalog_widgets.js (shared with the catalog's tag picker) adds adding and
removing rows.
"""

import json
import re

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ..catalog.widgets import WIDGET_MEDIA

_REFUND_KEY = re.compile(r"(\d{1,5})d")


def _number_text(number):
    """A stored percentage as typed: 50 rather than 50.0."""
    if isinstance(number, float) and number.is_integer():
        return str(int(number))
    return str(number)


def refund_rows(value):
    """A refund policy as editor rows [(days, percent), ...] of text.

    value is the stored map ({"7d": 100}, shown by days), its JSON text, or rows as posted (kept as
    typed). Keys that are not "<n>d" are shown as they are, last, for the field's validation to name.
    """
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else {}
        except ValueError:
            return [(value, "")]
    if isinstance(value, dict):
        rows = []
        for key, percent in value.items():
            match = _REFUND_KEY.fullmatch(str(key))
            rows.append((int(match[1]) if match else None, str(key), _number_text(percent)))
        rows.sort(key=lambda row: (row[0] is None, row[0] or 0))
        return [(str(days) if days is not None else key, percent) for days, key, percent in rows]
    if isinstance(value, list | tuple):
        return [(str(days), str(percent)) for days, percent in value]
    return []


def count_rows(value):
    """A room composition as editor rows [(part, count), ...] of text, in stored order.

    value is the stored map ({"bedroom": 2}), its JSON text, or rows as posted (kept as typed).
    """
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else {}
        except ValueError:
            return [(value, "")]
    if isinstance(value, dict):
        return [(str(part), _number_text(count)) for part, count in value.items()]
    if isinstance(value, list | tuple):
        return [(str(part), str(count)) for part, count in value]
    return []


class MapRowsWidget(forms.Widget):
    """Rows of a key and a value for a map: subclasses name the two columns and turn values into rows.

    Posts two lists, <name>_<key_suffix> and <name>_<value_suffix>, one entry per row, plus an empty
    <name> marker so that removing every row is told apart from a form without the field. A blank row is
    always shown, so a row can be added without JavaScript too.
    """

    template_name = "vendorhub/widgets/map_rows.html"
    key_suffix = value_suffix = ""
    key_label: str | Promise = ""
    value_label: str | Promise = ""
    key_inputmode, value_inputmode, key_size = "text", "numeric", 6

    @property
    def media(self):
        return WIDGET_MEDIA

    def rows(self, value):
        """value (stored, JSON text or posted rows) as [(key, value), ...] of text."""
        raise NotImplementedError

    def format_value(self, value):
        return self.rows(value)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"].update(
            rows=[*context["widget"]["value"], ("", "")],
            key_suffix=self.key_suffix,
            value_suffix=self.value_suffix,
            key_label=self.key_label,
            value_label=self.value_label,
            key_inputmode=self.key_inputmode,
            value_inputmode=self.value_inputmode,
            key_size=self.key_size,
        )
        return context

    def id_for_label(self, id_):
        return f"{id_}_0_{self.key_suffix}" if id_ else id_

    def value_from_datadict(self, data, files, name):
        keys_name, values_name = f"{name}_{self.key_suffix}", f"{name}_{self.value_suffix}"
        if keys_name in data or values_name in data:
            keys, values = _getlist(data, keys_name), _getlist(data, values_name)
            rows = max(len(keys), len(values))
            keys += [""] * (rows - len(keys))
            values += [""] * (rows - len(values))
            return list(zip(keys, values, strict=True))
        # No rows: the marker is empty (every row removed), or carries the map's JSON when a client
        # posts the field's value as it is (as tests/admin_forms.py does).
        return self.rows(data.get(name) or "")

    def value_omitted_from_data(self, data, files, name):
        return not any(key in data for key in (name, f"{name}_{self.key_suffix}", f"{name}_{self.value_suffix}"))


class RefundPolicyWidget(MapRowsWidget):
    """Rows of "days before check-in" and "refund %" for the refund policy map {"<n>d": percent}."""

    key_suffix, value_suffix = "days", "percent"
    key_label, value_label = _("Days before check-in"), _("Refund percentage")
    key_inputmode, value_inputmode = "numeric", "decimal"

    def rows(self, value):
        return refund_rows(value)


class RoomCompositionWidget(MapRowsWidget):
    """Rows of "part" (bedroom, bathroom...) and "count" for the room composition {"bedroom": 2}."""

    key_suffix, value_suffix = "part", "count"
    key_label, value_label = _("Part of the room"), _("Count")
    key_size = 14

    def rows(self, value):
        return count_rows(value)


def _getlist(data, key):
    if hasattr(data, "getlist"):
        return list(data.getlist(key))
    value = data.get(key, [])
    return list(value) if isinstance(value, list | tuple) else [value]

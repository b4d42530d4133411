"""The refund policy editor: rows of days before check-in and refund percentage.

It reads without JavaScript; catalog_widgets.js (shared with the catalog's tag picker) adds adding and
removing rows.
"""

import json
import re

from django import forms

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


class RefundPolicyWidget(forms.Widget):
    """Rows of "days before check-in" and "refund %" for the refund policy map {"<n>d": percent}.

    Posts two lists, <name>_days and <name>_percent, one entry per row, plus an empty <name> marker so
    that removing every row is told apart from a form without the field. A blank row is always shown,
    so a row can be added without JavaScript too.
    """

    template_name = "vendorhub/widgets/refund_policy.html"

    @property
    def media(self):
        return WIDGET_MEDIA

    def format_value(self, value):
        return refund_rows(value)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["rows"] = [*context["widget"]["value"], ("", "")]
        return context

    def id_for_label(self, id_):
        return f"{id_}_0_days" if id_ else id_

    def value_from_datadict(self, data, files, name):
        days_key, percent_key = f"{name}_days", f"{name}_percent"
        if days_key in data or percent_key in data:
            days, percents = _getlist(data, days_key), _getlist(data, percent_key)
            rows = max(len(days), len(percents))
            days += [""] * (rows - len(days))
            percents += [""] * (rows - len(percents))
            return list(zip(days, percents, strict=True))
        # No rows: the marker is empty (every row removed), or carries the policy's JSON when a client
        # posts the field's value as it is (as tests/admin_forms.py does).
        return refund_rows(data.get(name) or "")

    def value_omitted_from_data(self, data, files, name):
        return not any(key in data for key in (name, f"{name}_days", f"{name}_percent"))


def _getlist(data, key):
    if hasattr(data, "getlist"):
        return list(data.getlist(key))
    value = data.get(key, [])
    return list(value) if isinstance(value, list | tuple) else [value]

"""Widgets of the content forms: a tag picker over the hub's code catalog and a refund policy editor.

Both read without JavaScript; catalog_widgets.js adds searching and click-to-toggle to the picker, and
adding and removing rows to the editor.
"""

import json
import re

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from .catalog import catalog_read

_MEDIA = forms.Media(
    css={"all": ["vendorhub/catalog_widgets.css"]},
    js=[forms.Script("vendorhub/catalog_widgets.js", defer=True)],
)


class CatalogTagsWidget(forms.SelectMultiple):
    """A <select multiple> of one catalog group's codes in optgroups, named in the active language.

    Codes of the value that the catalog lacks stay listed (first, marked) and selected, so that saving
    the form never drops them silently; the field's validation names them instead.
    """

    template_name = "vendorhub/widgets/catalog_tags.html"
    unknown_label = _("Not in the hub's catalog")

    def __init__(self, group, attrs=None):
        super().__init__(attrs={"size": 12, "class": "vh-tag-select", **(attrs or {})})
        self.group = group

    @property
    def media(self):
        return _MEDIA

    def optgroups(self, name, value, attrs=None):
        # The catalog changes while the process runs, so choices are read at render time.
        catalog = catalog_read()
        known = catalog.codes.get(self.group, frozenset()) if catalog else frozenset()
        unknown = [code for code in value if code and code not in known]
        self.choices = catalog.choices(self.group, get_language()) if catalog else []
        if unknown:
            self.choices.insert(0, (self.unknown_label, [(code, code) for code in unknown]))
        return super().optgroups(name, value, attrs)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        widget = context["widget"]
        # (label, options, unknown?) per optgroup; the unknown codes' group is marked in the page.
        widget["unknown_label"] = self.unknown_label
        widget["groups"] = [(group, options, group is self.unknown_label) for group, options, _i in widget["optgroups"]]
        widget["chosen"] = [
            {"label": option["label"], "known": not unknown}
            for _group, options, unknown in widget["groups"]
            for option in options
            if option["selected"]
        ]
        widget["catalog_empty"] = not any(options for _group, options, unknown in widget["groups"] if not unknown)
        return context


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
        return _MEDIA

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

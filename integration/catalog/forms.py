"""Form fields and forms of the back office: catalog tags, the refund policy, code mappings and their import."""

import json
import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from .catalog import (
    MAPPING_MAX_BYTES,
    TAG_FIELD_GROUPS,
    TAG_MODELS,
    catalog_check_codes,
    code_mappings_read_csv,
)
from .choices import CatalogGroup
from .models import CodeMapping, Property
from .widgets import CatalogTagsWidget, RefundPolicyWidget, refund_rows


class CatalogTagsField(forms.Field):
    """A list of codes of one catalog group, picked with CatalogTagsWidget; cleans to a list of codes.

    Codes that the latest catalog lacks (or any code before the catalog was fetched) are errors that
    name them (catalog_check_codes).
    """

    default_error_messages = {"invalid": _("Choose codes from the hub's code catalog.")}

    def __init__(self, group, **kwargs):
        self.group = CatalogGroup(group)
        kwargs.setdefault("widget", CatalogTagsWidget(self.group))
        super().__init__(**kwargs)

    def to_python(self, value):
        if value in self.empty_values:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list | tuple):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        codes = []
        for code in value:
            if not isinstance(code, str):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
            if code.strip() and code.strip() not in codes:
                codes.append(code.strip())
        return codes

    def validate(self, value):
        super().validate(value)
        errors = catalog_check_codes({"codes": value}, {"codes": self.group})
        if errors:
            raise errors["codes"]

    def has_changed(self, initial, data):
        try:
            data = self.to_python(data)
        except ValidationError:
            return True
        # The select posts codes in catalog order: another order is not a change.
        return sorted(initial or []) != sorted(data)


_DAYS = re.compile(r"(\d{1,5})d?")


def _parse_days(text):
    match = _DAYS.fullmatch(text)
    return int(match[1]) if match else None


def _parse_percent(text):
    try:
        percent = Decimal(text.replace(",", "."))
    except InvalidOperation:
        return None
    if not percent.is_finite() or not 0 <= percent <= 100:
        return None
    return int(percent) if percent == percent.to_integral_value() else float(percent)


class RefundPolicyField(forms.Field):
    """The refund policy {"<n>d": percent}, edited as rows with RefundPolicyWidget.

    Cleans to the map ordered by days. A row with only one cell filled, days that are not a whole
    number of 0 or more, a percentage outside 0-100 and days given twice are errors naming the row;
    rows left empty are ignored.
    """

    widget = RefundPolicyWidget
    default_error_messages = {
        "incomplete": _("Row %(row)s: give both the days before check-in and the refund percentage."),
        "days": _("Row %(row)s: the days before check-in must be a whole number of 0 or more."),
        "percent": _("Row %(row)s: the refund must be a percentage from 0 to 100."),
        "duplicate": _("Row %(row)s repeats the days before check-in of row %(first)s (%(days)s)."),
    }

    def prepare_value(self, value):
        # The stored map as JSON text: the widget shows it as rows, and a client that posts a field's
        # value unchanged (as tests/admin_forms.py does) sends the whole policy back. Posted rows stay
        # as typed, so that a form with errors shows them again.
        return json.dumps(value) if isinstance(value, dict) else value

    def to_python(self, value):
        if value in self.empty_values:
            return {}
        errors, policy, first_row = [], {}, {}
        for number, (days_text, percent_text) in enumerate(refund_rows(value), start=1):
            days_text, percent_text = days_text.strip(), percent_text.strip()
            if not days_text and not percent_text:
                continue
            params = {"row": number}
            if not days_text or not percent_text:
                errors.append(ValidationError(self.error_messages["incomplete"], code="incomplete", params=params))
                continue
            days, percent = _parse_days(days_text), _parse_percent(percent_text)
            if days is None:
                errors.append(ValidationError(self.error_messages["days"], code="days", params=params))
            if percent is None:
                errors.append(ValidationError(self.error_messages["percent"], code="percent", params=params))
            if days is None or percent is None:
                continue
            if days in first_row:
                errors.append(
                    ValidationError(
                        self.error_messages["duplicate"],
                        code="duplicate",
                        params={**params, "first": first_row[days], "days": days},
                    )
                )
                continue
            first_row[days] = number
            policy[days] = percent
        if errors:
            raise ValidationError(errors)
        return {f"{days}d": policy[days] for days in sorted(policy)}

    def has_changed(self, initial, data):
        try:
            return self.to_python(initial) != self.to_python(data)
        except ValidationError:
            return True


def catalog_formfield(db_field, **kwargs):
    """The tag picker for a tag field of Property or RoomType, the refund editor for Property.refunds,
    else None. For ModelAdmin.formfield_for_dbfield or a ModelForm's formfield_callback."""
    if not isinstance(db_field, models.JSONField):
        return None
    defaults = {
        "label": capfirst(db_field.verbose_name),
        "help_text": db_field.help_text,
        "required": not db_field.blank,
        **kwargs,
    }
    if db_field.model in TAG_MODELS and db_field.name in TAG_FIELD_GROUPS:
        return CatalogTagsField(TAG_FIELD_GROUPS[db_field.name], **defaults)
    if db_field.model is Property and db_field.name == "refunds":
        return RefundPolicyField(**defaults)
    return None


class CodeMappingForm(forms.ModelForm):
    """One code mapping; the hub code must be in the latest catalog's group."""

    class Meta:
        model = CodeMapping
        fields = ["group", "vendor_code", "hub_code", "note"]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("group") and cleaned.get("hub_code"):
            errors = catalog_check_codes({"hub_code": [cleaned["hub_code"]]}, {"hub_code": cleaned["group"]})
            for name, error in errors.items():
                self.add_error(name, error)
        return cleaned


class CodeMappingImportForm(forms.Form):
    """The upload of a code mapping file. Cleaned: "file" is its text, "rows" its rows (unchecked)."""

    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("UTF-8 text with the header line group,vendor_code,hub_code,note; one mapping per line."),
    )

    def clean_file(self):
        # One byte over the limit is enough to know it is too large, without reading all of it.
        content = self.cleaned_data["file"].read(MAPPING_MAX_BYTES + 1)
        self.cleaned_data["rows"] = code_mappings_read_csv(content)
        return content.decode("utf-8-sig")

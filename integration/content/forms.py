"""Form fields of content: the refund policy, and the field each JSON field of content is edited with."""

import json
import re
from decimal import Decimal, InvalidOperation
from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from ..catalog.forms import CatalogTagsField
from ..catalog.selectors import TAG_FIELD_GROUPS, TAG_MODELS
from ..channels.selectors import open_channel_ids, open_channels_of
from .models import Property, RoomType
from .widgets import RefundPolicyWidget, RoomCompositionWidget

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


class MapRowsField(forms.Field):
    """A map edited as rows of a key and a value (a MapRowsWidget).

    Rows with both cells empty are ignored; a row with one cell filled, a key or value that does not
    parse, and a key given twice are errors naming the row. Subclasses parse the cells (None when a cell
    does not parse) and build the map from the (key, value) pairs in row order.
    """

    #: The error codes of a key and a value that do not parse, and the message parameter of a repeated key.
    key_code, value_code, key_param = "key", "value", "key"

    def parse_key(self, text):
        raise NotImplementedError

    def parse_value(self, text):
        raise NotImplementedError

    def build(self, pairs):
        return dict(pairs)

    def prepare_value(self, value):
        # The stored map as JSON text: the widget shows it as rows, and a client that posts a field's
        # value unchanged (as tests/admin_forms.py does) sends the whole map back. Posted rows stay
        # as typed, so that a form with errors shows them again.
        return json.dumps(value) if isinstance(value, dict) else value

    def to_python(self, value):
        if value in self.empty_values:
            return {}
        errors, pairs = [], []
        first_row: dict[str, int] = {}
        for number, (key_text, value_text) in enumerate(self.widget.rows(value), start=1):
            key_text, value_text = key_text.strip(), value_text.strip()
            if not key_text and not value_text:
                continue
            params = {"row": number}
            if not key_text or not value_text:
                errors.append(ValidationError(self.error_messages["incomplete"], code="incomplete", params=params))
                continue
            key, parsed = self.parse_key(key_text), self.parse_value(value_text)
            if key is None:
                errors.append(ValidationError(self.error_messages[self.key_code], code=self.key_code, params=params))
            if parsed is None:
                errors.append(
                    ValidationError(self.error_messages[self.value_code], code=self.value_code, params=params)
                )
            if key is None or parsed is None:
                continue
            if key in first_row:
                errors.append(
                    ValidationError(
                        self.error_messages["duplicate"],
                        code="duplicate",
                        params={**params, "first": first_row[key], self.key_param: key},
                    )
                )
                continue
            first_row[key] = number
            pairs.append((key, parsed))
        if errors:
            raise ValidationError(errors)
        return self.build(pairs)

    def has_changed(self, initial, data):
        try:
            return self.to_python(initial) != self.to_python(data)
        except ValidationError:
            return True


class RefundPolicyField(MapRowsField):
    """The refund policy {"<n>d": percent}, edited as rows with RefundPolicyWidget; cleans to the map
    ordered by days."""

    widget = RefundPolicyWidget
    key_code, value_code, key_param = "days", "percent", "days"
    default_error_messages = {
        "incomplete": _("Row %(row)s: give both the days before check-in and the refund percentage."),
        "days": _("Row %(row)s: the days before check-in must be a whole number of 0 or more."),
        "percent": _("Row %(row)s: the refund must be a percentage from 0 to 100."),
        "duplicate": _("Row %(row)s repeats the days before check-in of row %(first)s (%(days)s)."),
    }

    def parse_key(self, text):
        return _parse_days(text)

    def parse_value(self, text):
        return _parse_percent(text)

    def build(self, pairs):
        return {f"{days}d": percent for days, percent in sorted(pairs)}


class RoomCompositionField(MapRowsField):
    """The room composition {"bedroom": 2, ...}, edited as rows of a part and its count (RoomCompositionWidget)."""

    widget = RoomCompositionWidget
    default_error_messages = {
        "incomplete": _("Row %(row)s: give both the part of the room and its count."),
        "key": _("Row %(row)s: name the part of the room."),
        "value": _("Row %(row)s: the count must be a whole number of 0 or more."),
        "duplicate": _("Row %(row)s repeats the part “%(key)s” of row %(first)s."),
    }

    def parse_key(self, text):
        return text

    def parse_value(self, text):
        return int(text) if text.isascii() and text.isdigit() else None


def catalog_formfield(db_field, **kwargs):
    """The tag picker for a tag field of Property or RoomType, the row editors of Property.refunds and
    RoomType.details, else None. For ModelAdmin.formfield_for_dbfield or a ModelForm's formfield_callback."""
    if not isinstance(db_field, models.JSONField):
        return None
    defaults = {
        "label": capfirst(db_field.verbose_name),
        "help_text": db_field.help_text,
        "required": not db_field.blank,
        **kwargs,
    }
    if db_field.model is RoomType and db_field.name == "details":
        return RoomCompositionField(**defaults)
    if db_field.model in TAG_MODELS and db_field.name in TAG_FIELD_GROUPS:
        return CatalogTagsField(TAG_FIELD_GROUPS[db_field.name], **defaults)
    if db_field.model is Property and db_field.name == "refunds":
        return RefundPolicyField(**defaults)
    return None


class SalesChannelsField(forms.TypedMultipleChoiceField):
    """A rate plan model's sales channels, ticked among the channels open for its property (the form sets
    the choices); none ticked means every channel."""

    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs):
        kwargs.pop("max_length", None)
        super().__init__(coerce=int, empty_value=[], **{**kwargs, "required": False})

    def prepare_value(self, value):
        if isinstance(value, str):  # the stored JSON text a bound form shows back
            try:
                value = json.loads(value)
            except ValueError:
                return []
        return [str(item) for item in value or []]


class RatePlanModelForm(forms.ModelForm):
    """A rate plan model, whose channels are chosen among those open for its property."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields.get("channels")
        if field is None:
            return
        if self.instance.pk:
            properties = [self.instance.property]
        else:
            chosen = self.fields.get("property")
            properties = list(chosen.queryset or ()) if isinstance(chosen, forms.ModelChoiceField) else []
        offered = open_channels_of(properties)
        stored = [cid for cid in self.instance.channels or [] if cid not in {c.channel_id for c in offered}]
        cast(forms.ChoiceField, field).choices = [(channel.channel_id, str(channel)) for channel in offered] + [
            (cid, _("Channel %(id)s (not open for this property)") % {"id": cid}) for cid in stored
        ]

    def clean(self):
        cleaned = super().clean() or {}
        prop = cleaned.get("property") or (self.instance.property if self.instance.property_id else None)
        chosen = cleaned.get("channels") or []
        if prop is not None and chosen:
            not_open = sorted(set(chosen) - open_channel_ids(prop))
            if not_open:
                self.add_error(
                    "channels",
                    _("Not open for this property: %(ids)s. Untick them, or open them on the Sales channels screen.")
                    % {"ids": ", ".join(map(str, not_open))},
                )
        return cleaned

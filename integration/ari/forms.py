"""Forms of the rates and availability screens: a cell of the grid, the bulk edit, the CSV export and
import. Each cleans to the edit of integration.ari it stands for; the edit's own checks
(ari_edit_validate) become the form's field errors."""

import dataclasses
import datetime
import json
from typing import TYPE_CHECKING, cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.crypto import salted_hmac
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.translation import gettext_lazy as _

from ..channels.selectors import open_channels
from ..content.names import display_name
from .csv_parse import ARI_CSV_MAX_BYTES, ARI_VALUE_MAX, ari_csv_read
from .dates import WINDOW_DAYS, DateRange, ari_window, clamp_ranges
from .models import AriSeason, RoomType, SalesChannel
from .selectors.grid import CellSeen
from .selectors.history import ari_cells_filter
from .selectors.rates import rate_plans_of
from .services.copy import AriCopy, ari_copy_validate
from .services.edits import AriEdit, Operation, ari_edit_validate

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

OPERATION_LABELS = {
    Operation.SET: _("Set the rate (packages: the price guests pay)"),
    Operation.INCREASE_AMOUNT: _("Increase the rate by an amount (KRW)"),
    Operation.DECREASE_AMOUNT: _("Decrease the rate by an amount (KRW)"),
    Operation.INCREASE_PERCENT: _("Increase the rate by a percentage"),
    Operation.DECREASE_PERCENT: _("Decrease the rate by a percentage"),
    Operation.OPEN: _("Open for sale"),
    Operation.CLOSE: _("Close for sale"),
    Operation.SET_AVAILABILITY: _("Set the rooms to sell (with a channel: its cap)"),
    Operation.CLEAR_CHANNEL: _("Clear the channel's own values (it sells at the common ones)"),
}


def _parse_value(text):
    """An optional whole number typed by staff ("120,000" too); None when empty."""
    text = (text or "").replace(",", "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise ValidationError(_("Enter a whole number."), code="invalid") from None


# --- One cell ---------------------------------------------------------------------------------


class AriCellForm(forms.Form):
    """One cell of the grid: a rate plan's rate and business day, or a room type's rooms to sell, on one
    day; with a channel, that channel's own value (empty: cleared)."""

    kind = forms.ChoiceField(choices=[("rate", _("rate")), ("availability", _("availability"))])
    target = forms.IntegerField()
    date = forms.DateField(input_formats=["%Y-%m-%d"])
    value = forms.CharField(required=False, max_length=20)
    business_day = forms.ChoiceField(choices=[("", "—"), ("1", _("open")), ("0", _("closed"))], required=False)
    channel = forms.ModelChoiceField(SalesChannel.objects.none(), required=False)
    #: What the cell showed when staff opened it (its data-value and data-open); the save is refused when
    #: the cell holds something else by then. Without seen_value no check is made.
    seen_value = forms.CharField(required=False, max_length=20)
    seen_open = forms.ChoiceField(choices=[("", "—"), ("1", _("open")), ("0", _("closed"))], required=False)
    #: Staff confirmed rooms to sell far above the room type's number of rooms.
    confirm = forms.BooleanField(required=False)

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        self.property = property
        # A channel's own values only for the channels open for the property.
        cast(forms.ModelChoiceField, self.fields["channel"]).queryset = open_channels(property)

    def clean_seen_value(self):
        return _parse_value(self.cleaned_data["seen_value"])

    def clean_value(self):
        value = _parse_value(self.cleaned_data["value"])
        if value is not None and not 0 <= value <= ARI_VALUE_MAX:
            raise ValidationError(
                _("Give a number from 0 to %(max)s.") % {"max": f"{ARI_VALUE_MAX:,}"}, code="out_of_range"
            )
        return value

    def clean_business_day(self):
        return {"1": True, "0": False}.get(self.cleaned_data["business_day"])

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if "kind" in data and "target" in data:
            if data["kind"] == "rate":
                plans = [plan for plan in rate_plans_of(self.property) if plan.pk == data["target"]]
                data["target"] = plans[0] if plans else None
            else:
                data["target"] = (
                    RoomType.objects.filter(property=self.property, pk=data["target"])
                    .select_related("property")
                    .first()
                )
        data["seen"] = None
        if "seen_value" in self.data and "seen_value" in data:
            data["seen"] = CellSeen(data["seen_value"], {"1": True, "0": False}.get(data.get("seen_open", "")))
        return data


# --- Bulk edit --------------------------------------------------------------------------------


class DateRangesWidget(forms.Widget):
    """Rows of "from" and "to" dates; posts <name>_from and <name>_to, one entry per row. Two blank rows
    are always there, so that a range can be added without JavaScript too."""

    template_name = "vendorhub/widgets/date_ranges.html"

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        rows = [pair for pair in (value or []) if any(pair)]
        context["widget"]["rows"] = [*rows, ("", ""), ("", "")][: max(len(rows) + 1, 2)]
        return context

    def format_value(self, value):
        rows = []
        for pair in value or []:
            if isinstance(pair, DateRange):
                pair = (pair.start.isoformat(), pair.end.isoformat())
            rows.append(pair)
        return rows

    def id_for_label(self, id_):
        return f"{id_}_0_from" if id_ else id_

    def value_from_datadict(self, data, files, name):
        starts, ends = data.getlist(f"{name}_from"), data.getlist(f"{name}_to")
        count = max(len(starts), len(ends))
        starts, ends = starts + [""] * (count - len(starts)), ends + [""] * (count - len(ends))
        return [(start.strip(), end.strip()) for start, end in zip(starts, ends, strict=True)]

    def value_omitted_from_data(self, data, files, name):
        return f"{name}_from" not in data and f"{name}_to" not in data


class DateRangesField(forms.Field):
    """One or more date ranges, both ends included; a row with only "from" is that one day."""

    widget = DateRangesWidget

    def to_python(self, value):
        ranges = []
        for start, end in value or []:
            if not start and not end:
                continue
            try:
                first = datetime.date.fromisoformat(start or end)
                last = datetime.date.fromisoformat(end or start)
            except ValueError:
                raise ValidationError(
                    _("“%(value)s” is not a date: write it as YYYY-MM-DD.") % {"value": start if start else end},
                    code="invalid",
                ) from None
            ranges.append(DateRange(first, last))
        return ranges


def ari_rows(prop):
    """prop's room types and rate plans by id, and the choices that name them as rows of the grid
    ("rt:<id>": a room type's availability, "rp:<id>": a rate plan), grouped by room type."""
    room_types = {
        room_type.pk: room_type for room_type in RoomType.objects.filter(property=prop).prefetch_related("translations")
    }
    for room_type in room_types.values():
        room_type.property = prop
    rate_plans = {plan.pk: plan for plan in rate_plans_of(prop)}
    choices = []
    for room_type in sorted(room_types.values(), key=lambda room_type: (room_type.name, room_type.pk)):
        options: list[tuple[str, StrOrPromise]] = [(f"rt:{room_type.pk}", _("Availability"))]
        options.extend(
            (f"rp:{plan.pk}", f"{display_name(plan.model)} · {plan.vendor_id}")
            for plan in rate_plans.values()
            if plan.room_type_id == room_type.pk
        )
        choices.append((f"{display_name(room_type)} ({room_type.vendor_id})", options))
    return room_types, rate_plans, choices


class AriChangesFilterForm(forms.Form):
    """The change history's filters: when the change was made, a day of the grid it touched, a row, who."""

    made_from = forms.DateField(
        label=_("Made from"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    made_to = forms.DateField(
        label=_("Made until"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    day = forms.DateField(
        label=_("Day of the calendar"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    row = forms.ChoiceField(label=_("Row"), required=False)
    user = forms.TypedChoiceField(label=_("Who"), required=False, coerce=int, empty_value=None)

    def __init__(self, *args, property, users, **kwargs):
        super().__init__(*args, **kwargs)
        self.room_types, self.rate_plans, choices = ari_rows(property)
        cast(forms.ChoiceField, self.fields["row"]).choices = [("", _("Every row")), *choices]
        cast(forms.ChoiceField, self.fields["user"]).choices = [
            ("", _("Anyone")),
            *((user.pk, user.get_username()) for user in users),
        ]

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("made_from") and data.get("made_to") and data["made_from"] > data["made_to"]:
            self.add_error("made_to", _("Give a day on or after the first."))
        return data

    def cells(self):
        """The cells the filters ask for (ari_cells_filter); call once valid."""
        row = self.cleaned_data.get("row") or ""
        kind, _sep, pk = row.partition(":")
        return ari_cells_filter(
            day=self.cleaned_data.get("day"),
            rate_plan=self.rate_plans.get(int(pk)) if kind == "rp" else None,
            room_type=self.room_types.get(int(pk)) if kind == "rt" else None,
        )


class AriBulkEditForm(forms.Form):
    """One change to many cells: date ranges, weekdays, room types (availability) and rate plans, an
    operation and its value, optionally on one channel."""

    ranges = DateRangesField(label=_("Dates"), required=False, help_text=_("One or more ranges, both days included."))
    season = forms.ModelChoiceField(
        AriSeason.objects.none(),
        label=_("Season"),
        required=False,
        empty_label=_("No season (the dates above)"),
        help_text=_("The season's days from today on, with the dates above if any."),
    )
    weekdays = forms.TypedMultipleChoiceField(
        label=_("Weekdays"),
        choices=list(WEEKDAYS_ABBR.items()),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "vh-weekdays"}),
        help_text=_("None ticked: every day of the dates."),
    )
    targets = forms.MultipleChoiceField(
        label=_("Rows"),
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "vh-targets"}),
        help_text=_("Rate operations change the rate plans; “Set the rooms to sell” changes the room types."),
    )
    operation = forms.ChoiceField(label=_("Operation"), choices=list(OPERATION_LABELS.items()))
    value = forms.CharField(
        label=_("Value"),
        required=False,
        max_length=20,
        help_text=_("KRW, a percentage or a number of rooms, as the operation says."),
    )
    channel = forms.ModelChoiceField(
        SalesChannel.objects.none(),
        label=_("Channel"),
        required=False,
        empty_label=_("All channels (the common values)"),
    )
    confirm_rooms = forms.BooleanField(
        label=_("Rooms above the room count"),
        required=False,
        help_text=_("Yes, sell more rooms than the room type has."),
    )
    confirm_prices = forms.BooleanField(
        label=_("Large price moves"),
        required=False,
        help_text=_("Yes, move these prices by more than their rate plan's guard allows without a confirmation."),
    )

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        self.property = property
        cast(forms.ModelChoiceField, self.fields["channel"]).queryset = open_channels(property)
        cast(forms.ModelChoiceField, self.fields["season"]).queryset = AriSeason.objects.filter(property=property)
        #: The rooms to sell are far above a room type's rooms: the form shows the confirmation.
        self.asks_confirmation = False
        #: Prices move more than their guard allows (the preview found it): the form shows that confirmation.
        self.asks_price_confirmation = False
        self.room_types, self.rate_plans, cast(forms.ChoiceField, self.fields["targets"]).choices = ari_rows(property)

    def clean_value(self):
        value = _parse_value(self.cleaned_data["value"])
        if value is not None and not 0 <= value <= ARI_VALUE_MAX:
            raise ValidationError(_("Give a number from 0 to %(max)s.") % {"max": f"{ARI_VALUE_MAX:,}"})
        return value

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        targets = data["targets"]
        weekdays = frozenset(data["weekdays"])
        ranges = list(data["ranges"])
        if data["season"] is not None:
            days = [DateRange(r.date_from, r.date_to) for r in data["season"].ranges.all()]
            ranges.extend(clamp_ranges(days, ari_window()))
            if not ranges:
                self.add_error("season", _("The season has no days from today on."))
                return data
        edit = AriEdit(
            ranges=tuple(ranges),
            operation=data["operation"],
            value=data["value"],
            rate_plans=tuple(self.rate_plans[int(t[3:])] for t in targets if t.startswith("rp:")),
            room_types=tuple(self.room_types[int(t[3:])] for t in targets if t.startswith("rt:")),
            # No weekday ticked (how the form starts) or all seven: every day of the ranges.
            weekdays=None if len(weekdays) in (0, len(WEEKDAYS_ABBR)) else weekdays,
            channel=data["channel"],
            confirmed=data["confirm_rooms"] or data["confirm_prices"],
        )
        errors = ari_edit_validate(edit)
        self.asks_confirmation = "confirm" in errors or (
            data["confirm_rooms"] and "confirm" in ari_edit_validate(dataclasses.replace(edit, confirmed=False))
        )
        fields = {"rate_plans": "targets", "room_types": "targets", "confirm": "confirm_rooms"}
        for name, message in errors.items():
            self.add_error(fields.get(name, name), message)
        data["edit"] = edit
        return data

    def digest(self):
        """A fingerprint of what the valid form edits: "Apply" applies only the edit that was previewed."""
        data = self.cleaned_data
        fingerprint = {
            "ranges": [(r.start.isoformat(), r.end.isoformat()) for r in data["edit"].ranges],
            "weekdays": sorted(data["weekdays"]),
            "targets": sorted(data["targets"]),
            "operation": data["operation"],
            "value": data["value"],
            "channel": data["channel"].pk if data["channel"] else None,
            "property": self.property.pk,
        }
        return salted_hmac("integration.ari_bulk", json.dumps(fingerprint, sort_keys=True)).hexdigest()


# --- Periods: the copy of a period, named seasons ------------------------------------------------


def _date_input():
    return forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")


class AriCopyForm(forms.Form):
    """A copy of a period's common values onto another, the weekdays kept (integration.ari.services.copy):
    the period, where the copy should start, the rate plans (rates, differences, business days) and room
    types (rooms to sell)."""

    source_from = forms.DateField(label=_("Copy from"), input_formats=["%Y-%m-%d"], widget=_date_input())
    source_to = forms.DateField(label=_("Copy until"), input_formats=["%Y-%m-%d"], widget=_date_input())
    target_from = forms.DateField(
        label=_("Onto the days from"),
        input_formats=["%Y-%m-%d"],
        widget=_date_input(),
        help_text=_(
            "Each day lands on the same weekday: the period's first Monday lands on the first Monday from this "
            "day on, and every other day moves with it."
        ),
    )
    targets = forms.MultipleChoiceField(
        label=_("Rows"),
        widget=forms.CheckboxSelectMultiple(attrs={"class": "vh-targets"}),
        help_text=_(
            "Rate plans copy their rates and open days (packages their difference); room types their rooms to sell."
        ),
    )

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        self.property = property
        self.room_types, self.rate_plans, cast(forms.ChoiceField, self.fields["targets"]).choices = ari_rows(property)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        targets = data["targets"]
        copy = AriCopy(
            source=DateRange(data["source_from"], data["source_to"]),
            target_first=data["target_from"],
            rate_plans=tuple(self.rate_plans[int(t[3:])] for t in targets if t.startswith("rp:")),
            room_types=tuple(self.room_types[int(t[3:])] for t in targets if t.startswith("rt:")),
        )
        for name, message in ari_copy_validate(copy).items():
            self.add_error(name, message)
        data["copy"] = copy
        return data

    def digest(self):
        """A fingerprint of the valid form's copy: "Apply" applies only the copy that was previewed."""
        copy = self.cleaned_data["copy"]
        fingerprint = [copy.description(), sorted(self.cleaned_data["targets"]), self.property.pk]
        return salted_hmac("integration.ari_copy", json.dumps(fingerprint)).hexdigest()


class AriSeasonForm(forms.ModelForm):
    """A named season of a property: its name and date ranges."""

    ranges = DateRangesField(label=_("Dates"), help_text=_("One or more ranges, both days included."))

    class Meta:
        model = AriSeason
        fields = ["name"]

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.property = property
        if self.instance.pk and not self.is_bound:
            ranges = self.instance.ranges.all()
            self.initial["ranges"] = [(r.date_from.isoformat(), r.date_to.isoformat()) for r in ranges]

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        others = AriSeason.objects.filter(property=self.instance.property, name=name).exclude(pk=self.instance.pk)
        if others.exists():
            raise ValidationError(_("The property has a season of this name already."), code="unique")
        return name

    def clean_ranges(self):
        ranges = self.cleaned_data["ranges"]
        if not ranges:
            raise ValidationError(_("Give at least one range of days."), code="required")
        if any(r.start > r.end for r in ranges):
            raise ValidationError(_("A range must not end before it starts."), code="invalid")
        return ranges


# --- CSV --------------------------------------------------------------------------------------


class AriExportForm(forms.Form):
    """The date range of a CSV export."""

    date_from = forms.DateField(
        label=_("From"), input_formats=["%Y-%m-%d"], widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )
    date_to = forms.DateField(
        label=_("To"), input_formats=["%Y-%m-%d"], widget=forms.DateInput({"type": "date"}, format="%Y-%m-%d")
    )

    def clean(self):
        super().clean()
        data = self.cleaned_data
        first, last = data.get("date_from"), data.get("date_to")
        if first and last:
            if first > last:
                self.add_error("date_to", _("The range must not end before it starts."))
            elif (last - first).days > WINDOW_DAYS:
                self.add_error("date_to", _("Export at most %(days)s days at once.") % {"days": WINDOW_DAYS + 1})
        return data


class AriImportForm(forms.Form):
    """The upload of a rates and availability file. Cleaned: "file" is its text, checked as a whole (size,
    encoding, header, a first row); the import's job reads and checks its rows."""

    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("UTF-8 text with the header line kind,room_type,rate_plan,channel,date,value,business_day."),
    )

    def clean_file(self):
        # One byte over the limit is enough to know it is too large, without reading all of it.
        content = self.cleaned_data["file"].read(ARI_CSV_MAX_BYTES + 1)
        ari_csv_read(content, first_only=True)
        return content.decode("utf-8-sig")

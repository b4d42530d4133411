"""The reports' form: which report, of which properties (one, or every one the person may see), for which
dates, grouped how. Bad input is a form error, never a page that fails."""

import calendar
import datetime
from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from core.dates import korea_today
from integration.models import Property

from .periods import Grouping

#: The longest range a report reads: two years of days (a row per day at most 731).
MAX_DAYS = 731


class ReportKind(models.TextChoices):
    """The reports, each a table with its chart."""

    PERFORMANCE = "performance", _("Occupancy, ADR and RevPAR")
    PICKUP = "pickup", _("Pickup")
    PACE = "pace", _("Pace against last year")
    CHANNELS = "channels", _("Channel mix")
    BOOKINGS = "bookings", _("Lead time, length of stay and cancellations")


def _this_month() -> tuple[datetime.date, datetime.date]:
    today = korea_today()
    return today.replace(day=1), today.replace(day=calendar.monthrange(today.year, today.month)[1])


class ReportForm(forms.Form):
    """What a report shows. Unbound fields take their initial values: this month, every property, by day."""

    report = forms.ChoiceField(label=_("Report"), choices=ReportKind.choices, initial=ReportKind.PERFORMANCE)
    property = forms.ModelChoiceField(
        label=_("Property"), queryset=Property.objects.none(), required=False, empty_label=_("All my properties")
    )
    start = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    grouping = forms.ChoiceField(label=_("Group by"), choices=Grouping.choices, initial=Grouping.DAY)

    def __init__(self, data, *, properties: QuerySet[Property]):
        start, end = _this_month()
        initial = {"report": ReportKind.PERFORMANCE, "start": start, "end": end, "grouping": Grouping.DAY}
        # A page opened without a query shows the initial report; any field given is checked as typed.
        super().__init__({**initial, **data.dict()} if data else initial)
        field = cast(forms.ModelChoiceField, self.fields["property"])
        field.queryset = properties.only("pk", "name").order_by("name", "pk")

    def clean(self):
        cleaned = super().clean() or {}
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end:
            if end < start:
                raise ValidationError(_("The end date is before the start date."))
            if (end - start).days >= MAX_DAYS:
                raise ValidationError(_("A report covers two years at most."))
        return cleaned

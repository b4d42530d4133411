"""The form that asks for a reconciliation: property (or all of the manager's), period and date basis."""

import datetime
from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from core.dates import korea_today
from integration.access.selectors import properties_for_user

from .choices import Basis
from .selectors import MANAGERS


def previous_month(today=None) -> tuple[datetime.date, datetime.date]:
    """The first and last day of the month before today's (Korea)."""
    last = (today or korea_today()).replace(day=1) - datetime.timedelta(days=1)
    return last.replace(day=1), last


class ReconciliationForm(forms.Form):
    """What to reconcile; the period defaults to the previous month."""

    property: forms.ModelChoiceField = forms.ModelChoiceField(
        label=pgettext_lazy("settlement", "Property"), queryset=None, required=False, empty_label=_("All my properties")
    )
    basis = forms.ChoiceField(label=_("Date basis"), choices=Basis.choices, initial=Basis.CHECKIN)
    date_from = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        managed = properties_for_user(user, roles=MANAGERS).order_by("name")
        cast(forms.ModelChoiceField, self.fields["property"]).queryset = managed
        self.fields["date_from"].initial, self.fields["date_to"].initial = previous_month()

    def properties(self):
        """The chosen property, or every property the user manages."""
        chosen = self.cleaned_data.get("property")
        return [chosen] if chosen else list(cast(forms.ModelChoiceField, self.fields["property"]).queryset or ())

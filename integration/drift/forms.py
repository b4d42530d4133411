"""Forms of the drift check screens."""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from ..content.models import Property


class DriftCheckRequestForm(forms.Form):
    """Which of the user's properties to check against the hub now."""

    property = forms.ModelChoiceField(label=_("property"), queryset=Property.objects.none())

    def __init__(self, *args, properties, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["property"]).queryset = properties


class DriftResendForm(forms.Form):
    """Re-send one difference's resource, or (all) every resource the report lists."""

    difference = forms.IntegerField(required=False, min_value=1)
    all = forms.BooleanField(required=False)

    def clean(self):
        cleaned = super().clean() or {}
        if not cleaned.get("all") and not cleaned.get("difference"):
            raise forms.ValidationError(_("Choose a difference to re-send, or re-send all."))
        return cleaned

"""The second factor's forms: a code from the app, or a recovery code."""

from django import forms
from django.utils.translation import gettext_lazy as _


class CodeForm(forms.Form):
    """One code, as typed (spaces ignored)."""

    code = forms.CharField(
        label=_("Code"),
        max_length=20,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}),
    )

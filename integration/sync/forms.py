"""The form of the hub environment switch: which environment, and an explicit confirmation."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..hub.environments import HubEnvironment


class HubSwitchForm(forms.Form):
    """Confirm a switch to the environment `to` (a hidden field: the page names it in full)."""

    to = forms.ChoiceField(choices=HubEnvironment.choices, widget=forms.HiddenInput)
    confirm = forms.BooleanField(
        label=_("I understand: every property, room type, rate plan and their rates will be sent to this hub as new."),
        error_messages={"required": _("Tick the box to confirm the switch.")},
    )

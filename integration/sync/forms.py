"""The forms of the hub environment switch and of the distribution pause: each with an explicit confirmation."""

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


class DistributionPauseForm(forms.Form):
    """Confirm a pause of distribution to the hub, or its resume (paused: the box then says what resuming
    does)."""

    confirm = forms.BooleanField(
        label=_("I understand: nothing is sent to the hub until distribution resumes; changes and bookings queue up."),
        error_messages={"required": _("Tick the box to confirm.")},
    )

    def __init__(self, *args, paused: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if paused:
            self.fields["confirm"].label = _("I understand: everything that waited is sent to the hub now.")

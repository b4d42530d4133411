"""Forms of the channel screens: an open request with the fields the channel's type needs, what an open
channel sells, and a cms channel's codes. Each checks its input and hands it to one service."""

from typing import cast

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ..content.models import RatePlan, RoomType
from ..content.names import NAME_PREFETCHES, display_label
from .models import CODE_MAX_LENGTH, COMMENT_MAX_LENGTH


class CodeField(forms.CharField):
    """A code at the channel, at most CODE_MAX_LENGTH characters. Checked here with a message that counts,
    never by the browser: a maxlength attribute would cut a pasted longer code without a word."""

    def validate(self, value):
        super().validate(value)
        if len(value) > CODE_MAX_LENGTH:
            raise ValidationError(
                ngettext(
                    "At most %(max)s characters: this one has %(count)s.",
                    "At most %(max)s characters: this one has %(count)s.",
                    len(value),
                ),
                code="max_length",
                params={"max": CODE_MAX_LENGTH, "count": len(value)},
            )


class OpenRequestForm(forms.Form):
    """Asking the hub to open a channel: a comment, and for a cms channel the account the property holds
    there and its code at the channel."""

    comment = forms.CharField(
        label=_("Comment for the hub"),
        required=False,
        max_length=COMMENT_MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    cms_account_id = CodeField(
        label=_("Account id at the channel"),
        help_text=_("The account your property holds with the channel under its direct contract."),
    )
    cms_property_code = CodeField(
        label=_("Property code at the channel"),
        help_text=_("The code the channel knows this property by."),
    )

    def __init__(self, *args, channel, **kwargs):
        super().__init__(*args, **kwargs)
        if not channel.is_cms:
            del self.fields["cms_account_id"]
            del self.fields["cms_property_code"]


class _Labelled(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        return display_label(obj)


class ChannelSettingsForm(forms.Form):
    """What the property sells on an open channel: on sale or not, and which room types and rate plans."""

    on_sale = forms.BooleanField(label=_("On sale on this channel"), required=False)
    room_types = _Labelled(None, label=_("Room types sold"), required=False, widget=forms.CheckboxSelectMultiple)
    rate_plans = _Labelled(None, label=_("Rate plans sold"), required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, data=None, *, property_channel, **kwargs):
        prop = property_channel.property
        rooms = prop.room_types.prefetch_related(*NAME_PREFETCHES[RoomType]).order_by("name", "vendor_id")
        plans = (
            prop.rate_plans.select_related("room_type", "model")
            .prefetch_related(*NAME_PREFETCHES[RatePlan])
            .order_by("room_type__name", "model__name")
        )
        initial = {
            "on_sale": property_channel.on_sale,
            "room_types": [room for room in rooms if property_channel.room_types.get(room.vendor_id, True)],
            "rate_plans": [plan for plan in plans if property_channel.rate_plans.get(plan.vendor_id, True)],
        }
        super().__init__(data, initial=initial, **kwargs)
        cast(forms.ModelMultipleChoiceField, self.fields["room_types"]).queryset = rooms
        cast(forms.ModelMultipleChoiceField, self.fields["rate_plans"]).queryset = plans

    def switched_off(self):
        """The room types and rate plans left unticked: what the service records as not sold."""
        data = self.cleaned_data
        rooms = cast(forms.ModelMultipleChoiceField, self.fields["room_types"]).queryset or ()
        plans = cast(forms.ModelMultipleChoiceField, self.fields["rate_plans"]).queryset or ()
        return (
            [room for room in rooms if room not in data["room_types"]],
            [plan for plan in plans if plan not in data["rate_plans"]],
        )


class ChannelMappingForm(forms.Form):
    """A cms channel's code of each room type and rate plan of the property (empty: not mapped)."""

    def __init__(self, *args, property_channel, **kwargs):
        super().__init__(*args, **kwargs)
        prop = property_channel.property
        self.rooms = list(prop.room_types.prefetch_related(*NAME_PREFETCHES[RoomType]).order_by("name", "vendor_id"))
        self.plans = list(
            prop.rate_plans.select_related("room_type", "model")
            .prefetch_related(*NAME_PREFETCHES[RatePlan])
            .order_by("room_type__name", "model__name")
        )
        for room in self.rooms:
            self.fields[f"room_type_{room.pk}"] = CodeField(
                label=display_label(room),
                required=False,
                initial=property_channel.room_type_codes.get(room.vendor_id, ""),
            )
        for plan in self.plans:
            self.fields[f"rate_plan_{plan.pk}"] = CodeField(
                label=display_label(plan),
                required=False,
                initial=property_channel.rate_plan_codes.get(plan.vendor_id, ""),
            )

    def room_type_fields(self):
        return [self[f"room_type_{room.pk}"] for room in self.rooms]

    def rate_plan_fields(self):
        return [self[f"rate_plan_{plan.pk}"] for plan in self.plans]

    def codes(self):
        """({room type: code}, {rate plan: code}) as entered."""
        data = self.cleaned_data
        return (
            {room: data[f"room_type_{room.pk}"] for room in self.rooms},
            {plan: data[f"rate_plan_{plan.pk}"] for plan in self.plans},
        )

"""The forms of the prices per channel screen: the property's rounding rule, a channel's price rule, a
channel's typed commission and a rate plan's price guard."""

from decimal import Decimal
from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from ..channels.models import SalesChannel
from ..channels.selectors import open_channels
from ..content.choices import RatePlanType
from ..content.models import RatePlan
from ..content.names import display_name
from .models_prices import ChannelCommission, PriceGuard, PriceMethod, PricingSettings


class PricingSettingsForm(forms.ModelForm):
    """The property's rounding rule and how its channels' commissions are measured."""

    class Meta:
        model = PricingSettings
        fields = ["rounding_unit", "rounding", "commission_sample", "commission_drift"]
        help_texts = {
            "rounding_unit": _("Computed channel prices end on a multiple of this (e.g. 100 KRW)."),
            "commission_sample": _("A measured commission is used once this many bookings are reconciled."),
        }


def _standalone_plans(prop):
    return RatePlan.objects.filter(property=prop, model__type=RatePlanType.STANDALONE).select_related(
        "model", "room_type"
    )


class _PlanChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return display_name(obj)


class PriceRuleForm(forms.Form):
    """A channel's rule for one standalone rate plan or all of them; "remove" goes back to the common rate."""

    REMOVE = "remove"

    channel = forms.ModelChoiceField(SalesChannel.objects.none(), label=_("Channel"))
    rate_plan = _PlanChoiceField(
        RatePlan.objects.none(), label=_("Rate plan"), required=False, empty_label=_("All standalone rate plans")
    )
    method = forms.ChoiceField(
        label=_("Price"), choices=[*PriceMethod.choices, (REMOVE, _("The common rate (no rule)"))]
    )
    value = forms.DecimalField(
        label=_("Markup"),
        required=False,
        max_digits=12,
        decimal_places=2,
        help_text=_("Percent or KRW as the method says; negative for a discount. A net target takes none."),
    )
    confirm_prices = forms.BooleanField(
        label=_("Large price moves"),
        required=False,
        help_text=_("Yes, move these prices by more than their rate plan's guard allows without a confirmation."),
    )

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["channel"]).queryset = open_channels(property)
        cast(forms.ModelChoiceField, self.fields["rate_plan"]).queryset = _standalone_plans(property)
        #: The preview found prices moving more than their guard allows: the form shows the confirmation.
        self.asks_price_confirmation = False

    def clean(self):
        super().clean()
        data = self.cleaned_data
        method = data.get("method")
        if method == self.REMOVE:
            data["method"], data["value"] = "", None
        elif method in (PriceMethod.PERCENT, PriceMethod.AMOUNT) and data.get("value") is None:
            self.add_error("value", _("Give the markup."))
        elif method == PriceMethod.NET:
            data["value"] = Decimal(0)
        return data


class CommissionForm(forms.ModelForm):
    """The commission staff type for a channel (used until enough bookings are reconciled to measure it)."""

    channel = forms.ModelChoiceField(SalesChannel.objects.none(), label=_("Channel"))

    class Meta:
        model = ChannelCommission
        fields = ["typed"]

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        cast(forms.ModelChoiceField, self.fields["channel"]).queryset = open_channels(property)
        self.order_fields(["channel", "typed"])


class PriceGuardForm(forms.ModelForm):
    """A rate plan's floor, ceiling and the share a price may move without a confirmation."""

    rate_plan = _PlanChoiceField(RatePlan.objects.none(), label=_("Rate plan"))

    class Meta:
        model = PriceGuard
        fields = ["rate_plan", "floor", "ceiling", "max_move"]

    def __init__(self, *args, property, **kwargs):
        super().__init__(*args, **kwargs)
        plans = RatePlan.objects.filter(property=property).select_related("model", "room_type")
        cast(forms.ModelChoiceField, self.fields["rate_plan"]).queryset = plans

    def validate_unique(self):
        # One guard per rate plan: the view updates the plan's guard in place.
        pass

    def clean(self):
        super().clean()
        data = self.cleaned_data
        floor, ceiling = data.get("floor"), data.get("ceiling")
        if floor is not None and ceiling is not None and floor > ceiling:
            self.add_error("ceiling", _("The ceiling must not be below the floor."))
        return data

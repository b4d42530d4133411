"""The screens of the availability levers: channel rules (close, cap, hold back over dates) with a preview
of each channel's counts before they are saved, their history with its undo; the same-day cut-off and the
lead days; the defaults that open each new day of the horizon."""

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ..access.admin_mixins import PropertyScopedAdmin, ScopedPropertyFilter
from ..content.choices import RatePlanType
from .dates import ari_window
from .models_avail import (
    ChannelAvailRule,
    ChannelAvailRuleChange,
    ChannelAvailRuleKind,
    ChannelLeadDays,
    PropertyCutoff,
    RatePlanDefault,
    RoomTypeDefault,
)
from .services import avail_rules
from .services.edits import MAX_RATE

#: The POST field the preview's confirm button sends: without it a save shows the preview first.
CONFIRM_FIELD = "_preview_confirmed"
#: The change form's save buttons.
SAVE_BUTTONS = ("_continue", "_addanother", "_save")


class ChannelAvailRuleForm(forms.ModelForm):
    """A channel rule: its room type must be the property's, its dates in order and within the hub's
    window, and a cap or hold back needs its number of rooms."""

    class Meta:
        model = ChannelAvailRule
        fields = ("property", "room_type", "channel", "kind", "value", "date_from", "date_to")

    def clean(self):
        data = super().clean() or {}
        prop, room_type = data.get("property"), data.get("room_type")
        if prop and room_type and room_type.property_id != prop.pk:
            self.add_error("room_type", _("Choose a room type of this property."))
        first, last = data.get("date_from"), data.get("date_to")
        today, window_end = ari_window()
        if first and last and first > last:
            self.add_error("date_to", _("The last day comes before the first."))
        elif last and last < today:
            self.add_error("date_to", _("The rule would end before today."))
        elif first and first > window_end:
            self.add_error("date_from", _("The hub takes dates up to %(date)s.") % {"date": window_end})
        kind = data.get("kind")
        if kind in (ChannelAvailRuleKind.CAP, ChannelAvailRuleKind.HOLD_BACK) and data.get("value") is None:
            self.add_error("value", _("Enter the number of rooms."))
        return data


@admin.register(ChannelAvailRule)
class ChannelAvailRuleAdmin(PropertyScopedAdmin):
    """A property's channel rules; a save shows each channel's counts before and after, then applies."""

    form = ChannelAvailRuleForm
    list_display = ("channel", "kind", "value", "room_type_label", "date_from", "date_to", "property")
    list_filter = (("property", ScopedPropertyFilter), "kind")
    list_select_related = ("property", "room_type", "channel")
    date_hierarchy = None
    ordering = ("property", "date_from", "pk")

    @admin.display(description=gettext_lazy("room type"), ordering="room_type")
    def room_type_label(self, obj):
        return obj.room_type or _("Every room type")

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        if request.method == "POST" and CONFIRM_FIELD not in request.POST and "_popup" not in request.POST:
            preview = self._preview(request, object_id)
            if preview is not None:
                return preview
        return super().changeform_view(request, object_id, form_url, extra_context)

    def _preview(self, request, object_id):
        """The preview page of a valid form (None: let the form show its errors)."""
        obj = self.get_object(request, object_id) if object_id else None
        if obj is not None and not self.has_change_permission(request, obj):
            return None
        before = ChannelAvailRule.objects.select_related("channel").get(pk=obj.pk) if obj else None
        form = self.get_form(request, obj, change=obj is not None)(request.POST, instance=obj)
        if not form.is_valid():
            return None
        after = form.save(commit=False)
        preview = avail_rules.avail_rule_preview(after.property, before=before, after=after)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Preview of the rule"),
            "rule": after,
            "preview": preview,
            "fields": [
                (key, value)
                for key in request.POST
                if key not in SAVE_BUTTONS and key != "csrfmiddlewaretoken"
                for value in request.POST.getlist(key)
            ],
            # The preview's button saves as the form's button asked (save, and continue, and add another).
            "save_button": next((name for name in SAVE_BUTTONS if name in request.POST), "_save"),
            "confirm_field": CONFIRM_FIELD,
        }
        return TemplateResponse(request, "admin/integration/channelavailrule/preview.html", context)

    def save_model(self, request, obj, form, change):
        avail_rules.avail_rule_save(rule=obj, user=request.user)

    def delete_model(self, request, obj):
        avail_rules.avail_rule_delete(rule=obj, user=request.user)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for rule in queryset.select_related("property", "channel"):
                avail_rules.avail_rule_delete(rule=rule, user=request.user)


@admin.register(ChannelAvailRuleChange)
class ChannelAvailRuleChangeAdmin(PropertyScopedAdmin):
    """The history of the channel rules, newest first; a change can be undone."""

    list_display = ("created_at", "property", "channel", "before_label", "after_label", "user", "undo_of")
    list_filter = (("property", ScopedPropertyFilter),)
    list_select_related = ("property", "channel", "user", "undo_of")
    actions = ("undo",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _describe(self, values):
        if values is None:
            return "—"
        kind = ChannelAvailRuleKind(values["kind"]).label
        rooms = f" {values['value']}" if values["value"] is not None else ""
        return f"{kind}{rooms}: {values['date_from']} .. {values['date_to']}"

    @admin.display(description=gettext_lazy("before"))
    def before_label(self, obj):
        return self._describe(obj.before)

    @admin.display(description=gettext_lazy("after"))
    def after_label(self, obj):
        return self._describe(obj.after)

    @admin.action(description=gettext_lazy("Undo the selected changes"), permissions=["view"])
    def undo(self, request, queryset):
        if not request.user.has_perm("integration.change_channelavailrule"):
            self.message_user(request, _("You may not change channel rules."), messages.ERROR)
            return
        done = refused = 0
        for change in queryset.select_related("property").order_by("-created_at", "-pk"):
            try:
                avail_rules.avail_rule_change_undo(change=change, user=request.user)
                done += 1
            except avail_rules.RuleUndoConflict:
                refused += 1
        if done:
            message = ngettext("%(count)d change undone.", "%(count)d changes undone.", done) % {"count": done}
            self.message_user(request, message, messages.SUCCESS)
        if refused:
            message = ngettext(
                "%(count)d change was not undone: its rule changed since.",
                "%(count)d changes were not undone: their rules changed since.",
                refused,
            ) % {"count": refused}
            self.message_user(request, message, messages.WARNING)


@admin.register(PropertyCutoff)
class PropertyCutoffAdmin(PropertyScopedAdmin):
    """A property's same-day cut-off: today closes at the hub from that time (Korea time)."""

    list_display = ("property", "cutoff_time", "channels_label")
    list_select_related = ("property",)
    filter_horizontal = ("channels",)

    @admin.display(description=gettext_lazy("channels closed at the cut-off"))
    def channels_label(self, obj):
        names = [channel.name for channel in obj.channels.all()]
        return ", ".join(names) or _("Every channel")

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("channels")

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # The channels are saved by now: today goes to the hub as the new cut-off says.
        avail_rules.cutoff_settings_changed(form.instance.property)

    def delete_model(self, request, obj):
        prop = obj.property
        super().delete_model(request, obj)
        avail_rules.cutoff_settings_changed(prop)


@admin.register(ChannelLeadDays)
class ChannelLeadDaysAdmin(PropertyScopedAdmin):
    """How many days before arrival each channel sells a property's rooms at the least."""

    list_display = ("property", "channel", "days")
    list_filter = (("property", ScopedPropertyFilter),)
    list_select_related = ("property", "channel")

    def save_model(self, request, obj, form, change):
        avail_rules.lead_days_save(lead=obj)

    def delete_model(self, request, obj):
        avail_rules.lead_days_delete(lead=obj)

    def delete_queryset(self, request, queryset):
        with transaction.atomic():
            for lead in queryset.select_related("property"):
                avail_rules.lead_days_delete(lead=lead)


class RatePlanDefaultForm(forms.ModelForm):
    """A rate plan's default: a price per weekday needs at least one price."""

    class Meta:
        model = RatePlanDefault
        fields = ("rate_plan", "mode", *RatePlanDefault.WEEKDAY_FIELDS)

    def clean(self):
        data = super().clean() or {}
        weekdays = [data.get(name) for name in RatePlanDefault.WEEKDAY_FIELDS]
        if data.get("mode") == RatePlanDefault.Mode.WEEKDAY and all(value is None for value in weekdays):
            raise forms.ValidationError(_("Enter the price of at least one weekday."))
        plan = data.get("rate_plan")
        # A standalone plan's rate is a price (0 or more); a package's is a difference, which may be negative.
        lowest = 0 if plan is not None and plan.model.type == RatePlanType.STANDALONE else -MAX_RATE
        for name, value in zip(RatePlanDefault.WEEKDAY_FIELDS, weekdays, strict=True):
            if value is not None and not lowest <= value <= MAX_RATE:
                self.add_error(name, _("Enter an amount from %(low)s to %(high)s.") % {"low": lowest, "high": MAX_RATE})
        return data


@admin.register(RatePlanDefault)
class RatePlanDefaultAdmin(PropertyScopedAdmin):
    """What each rate plan sells at on a day the horizon opens without a value (the nightly job)."""

    form = RatePlanDefaultForm
    property_path = "rate_plan__property"
    list_display = ("rate_plan", "mode")
    list_select_related = ("rate_plan", "rate_plan__room_type", "rate_plan__model")


@admin.register(RoomTypeDefault)
class RoomTypeDefaultAdmin(PropertyScopedAdmin):
    """How many rooms each room type sells on a day the horizon opens without stock (the nightly job)."""

    property_path = "room_type__property"
    list_display = ("room_type", "stock")
    list_select_related = ("room_type",)

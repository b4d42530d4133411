"""Read-only admin screens of what the sandbox hub holds and the requests it received; superusers only."""

import json
from typing import TYPE_CHECKING

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.template.response import TemplateResponse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.admin.mixins import ReadOnlyAdminMixin

from . import channels
from .licenses import ReviewRefused, license_detail_json, license_review
from .models import (
    SandboxAvailDay,
    SandboxChannel,
    SandboxLicense,
    SandboxOpenRequest,
    SandboxProperty,
    SandboxPropertyChannel,
    SandboxRateDay,
    SandboxRateplan,
    SandboxRateplanModel,
    SandboxRequest,
    SandboxRoomtype,
    SandboxSale,
)
from .sales import SaleImpossible, sell
from .services import hub_copy_alter


def _pretty(value) -> str:
    return format_html('<pre style="white-space: pre-wrap">{}</pre>', json.dumps(value, ensure_ascii=False, indent=2))


class _LightChangeList(ChangeList):
    """A changelist that leaves the model admin's list_defer fields (JSON and bodies) unloaded."""

    model_admin: "SandboxReadOnlyAdmin"

    def get_queryset(self, request, exclude_parameters=None):
        return super().get_queryset(request, exclude_parameters).defer(*self.model_admin.list_defer)


class SandboxReadOnlyAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Shows the sandbox's rows to superusers; nobody adds, changes or deletes them here."""

    #: Large fields the list does not show, so it does not load them either.
    list_defer: tuple[str, ...] = ()

    def get_changelist(self, request, **kwargs):
        return _LightChangeList

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


class HubCopyAlterForm(forms.Form):
    """A merge patch for the hub's copy (a JSON object; null removes a field)."""

    patch = forms.JSONField(
        label=_("merge patch (JSON)"),
        widget=forms.Textarea(attrs={"rows": 6, "cols": 80}),
        help_text=_('For example {"email": "front@hub.example"}, or {"status": "disabled"} for a rate plan.'),
    )

    def clean_patch(self):
        patch = self.cleaned_data["patch"]
        if not isinstance(patch, dict) or not patch:
            raise forms.ValidationError(_("Give a JSON object with at least one field."))
        return patch


class HubContentAdmin(SandboxReadOnlyAdmin):
    """A kind of content: the list without the JSON (lists stay light), the detail with the read shape.
    Its action changes the hub's copy behind the vendor's back, for demos of the drift check."""

    search_fields = ["vendor_id"]
    readonly_fields = ["hub_json"]
    fields = ["hub_json", "created_at", "updated_at"]
    list_defer = ("content",)
    actions = ["alter_behind_vendors_back"]

    @admin.display(description=_("what the hub answers (read shape)"))
    def hub_json(self, obj):
        return _pretty(obj.as_hub_json())

    @admin.action(description=_("Change the hub's copy behind the vendor's back (drift demo)"))
    def alter_behind_vendors_back(self, request, queryset):
        form = HubCopyAlterForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            for resource in queryset:
                hub_copy_alter(resource=resource, patch=form.cleaned_data["patch"])
            self.message_user(
                request,
                _("%(count)d changed at the hub; the vendor was not told.") % {"count": len(queryset)},
                messages.SUCCESS,
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("Change the hub's copy behind the vendor's back"),
            "opts": self.opts,
            "queryset": queryset,
            "form": form,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/hubsandbox/alter.html", context)


@admin.register(SandboxProperty)
class SandboxPropertyAdmin(HubContentAdmin):
    """Properties the sandbox hub holds, at its staging or production hub."""

    list_display = ["vendor_id", "hub", "created_at", "updated_at"]
    list_filter = ["hub"]


@admin.register(SandboxRoomtype)
class SandboxRoomtypeAdmin(HubContentAdmin):
    """Room types the sandbox hub holds."""

    list_display = ["vendor_id", "property", "updated_at"]
    list_select_related = ["property"]
    list_filter = ["property"]
    search_fields = ["vendor_id", "property__vendor_id"]


@admin.register(SandboxRateplanModel)
class SandboxRateplanModelAdmin(HubContentAdmin):
    """Rate plan models the sandbox hub holds."""

    list_display = ["vendor_id", "property", "type", "updated_at"]
    list_select_related = ["property"]
    list_filter = ["type", "property"]
    search_fields = ["vendor_id", "property__vendor_id"]


@admin.register(SandboxRateplan)
class SandboxRateplanAdmin(HubContentAdmin):
    """Rate plans the sandbox hub holds."""

    list_display = ["vendor_id", "property", "roomtype", "rateplan_model", "updated_at"]
    list_select_related = ["property", "roomtype", "rateplan_model"]
    list_filter = ["property"]
    search_fields = ["vendor_id", "property__vendor_id", "roomtype__vendor_id"]
    actions = [*HubContentAdmin.actions, "sell_a_room"]

    @admin.action(description=_("Sell a room as the hub would (tomorrow, one night, confirmed)"))
    def sell_a_room(self, request, queryset):
        for rateplan in queryset.select_related("property", "roomtype"):
            ids = {
                "property_id": rateplan.property.vendor_id,
                "roomtype_id": rateplan.roomtype.vendor_id,
                "rateplan_id": rateplan.vendor_id,
            }
            try:
                result = sell(**ids)
            except SaleImpossible:
                self.message_user(request, _("%(plan)s: no rates for tomorrow.") % {"plan": rateplan}, messages.WARNING)
                continue
            except OSError as error:
                self.message_user(
                    request, _("%(plan)s: %(error)s") % {"plan": rateplan, "error": error}, messages.ERROR
                )
                continue
            refusal = result.refusal
            if refusal is None:
                sale = result.sale
                assert sale is not None  # every call succeeded: the create stored it
                text = _("%(plan)s: sold %(number)s (%(status)s).")
                values = {"plan": rateplan, "number": sale.vendor_booking_number, "status": sale.status}
                self.message_user(request, text % values)
            else:
                text = _("%(plan)s: %(step)s refused: %(code)s %(error)s")
                values = {
                    "plan": rateplan,
                    "step": refusal.name,
                    "code": refusal.answer.get("code", refusal.status),
                    "error": refusal.answer.get("error", ""),
                }
                self.message_user(request, text % values, messages.WARNING)


@admin.register(SandboxSale)
class SandboxSaleAdmin(SandboxReadOnlyAdmin):
    """Bookings the sandbox sold as the hub, with the vendor's last answer."""

    list_display = ["vendor_booking_number", "gds_sub_booking_number", "rateplan", "status", "drift", "created_at"]
    list_select_related = ["rateplan"]
    list_filter = ["status", "drift"]
    search_fields = ["vendor_booking_number", "gds_booking_number", "gds_sub_booking_number"]
    fields = [
        "vendor_booking_number",
        "gds_booking_number",
        "gds_sub_booking_number",
        "status",
        "refund_amount",
        "drift",
        "answer_json",
    ]
    readonly_fields = ["answer_json"]
    list_defer = ("booking",)

    @admin.display(description=_("vendor's answer"))
    def answer_json(self, obj):
        return _pretty(obj.booking)


@admin.register(SandboxRequest)
class SandboxRequestAdmin(SandboxReadOnlyAdmin):
    """Every request the sandbox hub received, newest first, with the bodies on the detail page."""

    list_display = ["received_at", "hub", "method", "path", "response_status", "fault", "request_bytes", "duration_ms"]
    list_filter = ["hub", "method", "response_status", "fault"]
    search_fields = ["path"]
    date_hierarchy = "received_at"
    fields = [
        "received_at",
        "hub",
        "method",
        "path",
        "query",
        "response_status",
        "fault",
        "request_bytes",
        "response_bytes",
        "duration_ms",
        "request_json",
        "response_json",
    ]
    readonly_fields = ["request_json", "response_json"]
    list_defer = ("request_body", "response_body")

    @admin.display(description=_("request body"))
    def request_json(self, obj):
        return _pretty_text(obj.request_body)

    @admin.display(description=_("response body"))
    def response_json(self, obj):
        return _pretty_text(obj.response_body)


def _pretty_text(text: str) -> str:
    """A logged body, indented when it is JSON, as sent otherwise."""
    try:
        return _pretty(json.loads(text)) if text else "-"
    except ValueError:
        return format_html("<pre>{}</pre>", text)


# --- Rates, business days and availability -----------------------------------------------------


class AriDayAdmin(SandboxReadOnlyAdmin):
    """The values the hub holds per day; the list stays light (no total count, joins selected once)."""

    date_hierarchy = "date"
    show_full_result_count = False
    list_per_page = 200

    @admin.display(description=_("channel"), ordering="channel_id")
    def channel(self, obj):
        return str(obj.channel_id) if obj.channel_id else _("common")


@admin.register(SandboxRateDay)
class SandboxRateDayAdmin(AriDayAdmin):
    """Rates and business days per rate plan, day and channel."""

    list_display = ["date", "property", "roomtype", "rateplan", "channel", "rate", "rate_modify", "business_day"]
    list_select_related = ["rateplan__property", "rateplan__roomtype"]
    list_filter = ["rateplan__property", "rateplan__roomtype", "rateplan", "channel_id", "business_day"]
    search_fields = ["rateplan__vendor_id", "rateplan__roomtype__vendor_id", "rateplan__property__vendor_id"]

    @admin.display(description=_("property"), ordering="rateplan__property__vendor_id")
    def property(self, obj):
        return obj.rateplan.property

    @admin.display(description=_("room type"), ordering="rateplan__roomtype__vendor_id")
    def roomtype(self, obj):
        return obj.rateplan.roomtype


@admin.register(SandboxAvailDay)
class SandboxAvailDayAdmin(AriDayAdmin):
    """Availability per room type, day and channel."""

    list_display = ["date", "property", "roomtype", "channel", "count"]
    list_select_related = ["roomtype__property"]
    list_filter = ["roomtype__property", "roomtype", "channel_id"]
    search_fields = ["roomtype__vendor_id", "roomtype__property__vendor_id"]

    @admin.display(description=_("property"), ordering="roomtype__property__vendor_id")
    def property(self, obj):
        return obj.roomtype.property


# --- Licenses ----------------------------------------------------------------------------------------


class RejectForm(forms.Form):
    """The reason the hub's reviewer gives the vendor for a rejection."""

    reason = forms.CharField(label=_("reason"), widget=forms.Textarea(attrs={"rows": 3}), max_length=1000)


if TYPE_CHECKING:
    # What the views use of the ModelAdmin they are mixed into (a real base would come before that
    # ModelAdmin in the composed admin's MRO).
    _ModelAdminBase = admin.ModelAdmin
else:
    _ModelAdminBase = object


class RejectWithReasonMixin(_ModelAdminBase):
    """The reviewer's reject action (license and channel open requests): one page asks for the reason the
    vendor reads, then each selected request is reviewed. Subclasses set the texts, the rejected status,
    describe each request (reject_row) and review them (_review)."""

    reject_title: str | Promise | None = None
    reject_intro: str | Promise | None = None
    rejected_status: str | None = None

    def reject_row(self, obj):
        raise NotImplementedError

    def _review(self, request, queryset, status, reason):
        raise NotImplementedError

    def _reject_with_reason(self, request, queryset):
        form = RejectForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            self._review(request, queryset, self.rejected_status, form.cleaned_data["reason"])
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": self.reject_title,
            "intro": self.reject_intro,
            "opts": self.opts,
            "rows": [(obj.pk, self.reject_row(obj)) for obj in queryset],
            "form": form,
            "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
        }
        return TemplateResponse(request, "admin/hubsandbox/reject.html", context)


@admin.register(SandboxLicense)
class SandboxLicenseAdmin(RejectWithReasonMixin, SandboxReadOnlyAdmin):
    """License requests the hub received; the hub's reviewer confirms or rejects them here."""

    reject_title = _("Reject license requests")
    reject_intro = _("These license requests will be rejected with the reason below, which the vendor sees:")
    rejected_status = SandboxLicense.Status.REJECT

    list_display = ["id", "property", "type", "status", "reason", "file_format", "file_bytes", "created_at"]
    list_select_related = ["property"]
    list_filter = ["status", "type", "property"]
    search_fields = ["=id", "property__vendor_id"]
    fields = ["hub_json", "file_format", "file_bytes", "file_sha256"]
    readonly_fields = ["hub_json", "file_format", "file_bytes", "file_sha256"]
    list_defer = ("data", "comment")
    actions = ["confirm_selected", "reject_selected"]

    @admin.display(description=_("what the hub answers (detail)"))
    def hub_json(self, obj):
        return _pretty(license_detail_json(obj))

    def _review(self, request, queryset, status, reason=None):
        done = 0
        for lic in queryset:
            try:
                license_review(license_id=lic.pk, status=status, reason=reason)
                done += 1
            except ReviewRefused as refused:
                self.message_user(request, str(refused), messages.WARNING)
        if done:
            self.message_user(request, _("%(count)d license requests reviewed.") % {"count": done})

    @admin.action(description=_("Confirm the selected license requests"))
    def confirm_selected(self, request, queryset):
        self._review(request, queryset, SandboxLicense.Status.CONFIRM)

    @admin.action(description=_("Reject the selected license requests (with a reason)"))
    def reject_selected(self, request, queryset):
        return self._reject_with_reason(request, queryset)

    def reject_row(self, license):
        return f"{license.property} · {license.get_type_display()} · {license.get_status_display()}"


# --- Sales channels ----------------------------------------------------------------------------------


@admin.register(SandboxChannel)
class SandboxChannelAdmin(SandboxReadOnlyAdmin):
    """The hub's sales channels, and how the sandbox reviews requests to open each."""

    list_display = ["channel_id", "name", "channel_type", "auto_review", "reject_reason"]


@admin.register(SandboxPropertyChannel)
class SandboxPropertyChannelAdmin(SandboxReadOnlyAdmin):
    """What each property open on a channel sells there, and its mapping (cms channels)."""

    list_display = ["property", "channel", "updated_at"]
    list_select_related = ["property", "channel"]
    list_filter = ["channel"]
    readonly_fields = ("property", "channel", "settings_json", "mappings_json")
    fields = readonly_fields
    list_defer = ("settings", "mappings")

    @admin.display(description=_("sales settings"))
    def settings_json(self, obj):
        return _pretty(obj.settings)

    @admin.display(description=_("mapping"))
    def mappings_json(self, obj):
        return _pretty(obj.mappings)


@admin.register(SandboxOpenRequest)
class SandboxOpenRequestAdmin(RejectWithReasonMixin, SandboxReadOnlyAdmin):
    """Requests of properties to open a channel; the hub's reviewer approves or rejects them here."""

    reject_title = _("Reject channel open requests")
    reject_intro = _("These channel open requests will be rejected with the reason below, which the vendor sees:")
    rejected_status = SandboxOpenRequest.Status.REJECTED

    list_display = ["id", "property", "channel", "status", "reason", "created_at", "updated_at"]
    list_select_related = ["property", "channel"]
    list_filter = ["status", "channel"]
    search_fields = ["=id", "property__vendor_id"]
    actions = ["approve_selected", "reject_selected"]

    def _review(self, request, queryset, status, reason=None):
        done = 0
        for open_request in queryset:
            try:
                channels.open_request_review(request_id=open_request.pk, status=status, reason=reason)
                done += 1
            except channels.ReviewRefused as refused:
                self.message_user(request, str(refused), messages.WARNING)
        if done:
            self.message_user(request, _("%(count)d channel open requests reviewed.") % {"count": done})

    @admin.action(description=_("Approve the selected channel open requests"))
    def approve_selected(self, request, queryset):
        self._review(request, queryset, SandboxOpenRequest.Status.APPROVED)

    @admin.action(description=_("Reject the selected channel open requests (with a reason)"))
    def reject_selected(self, request, queryset):
        return self._reject_with_reason(request, queryset)

    def reject_row(self, open_request):
        return f"{open_request.property} · {open_request.channel} · {open_request.get_status_display()}"

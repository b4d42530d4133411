"""Read-only admin screens of what the sandbox hub holds and the requests it received; superusers only."""

import json

from django.contrib import admin
from django.contrib.admin.views.main import ChangeList
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import SandboxProperty, SandboxRateplan, SandboxRateplanModel, SandboxRequest, SandboxRoomtype


def _pretty(value) -> str:
    return format_html('<pre style="white-space: pre-wrap">{}</pre>', json.dumps(value, ensure_ascii=False, indent=2))


class _LightChangeList(ChangeList):
    """A changelist that leaves the model admin's list_defer fields (JSON and bodies) unloaded."""

    def get_queryset(self, request, exclude_parameters=None):
        return super().get_queryset(request, exclude_parameters).defer(*self.model_admin.list_defer)


class SandboxReadOnlyAdmin(admin.ModelAdmin):
    """Shows the sandbox's rows to superusers; nobody adds, changes or deletes them here."""

    #: Large fields the list does not show, so it does not load them either.
    list_defer = ()

    def get_changelist(self, request, **kwargs):
        return _LightChangeList

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class HubContentAdmin(SandboxReadOnlyAdmin):
    """A kind of content: the list without the JSON (lists stay light), the detail with the read shape."""

    search_fields = ["vendor_id"]
    readonly_fields = ["hub_json"]
    fields = ["hub_json", "created_at", "updated_at"]
    list_defer = ("content",)

    @admin.display(description=_("what the hub answers (read shape)"))
    def hub_json(self, obj):
        return _pretty(obj.as_hub_json())


@admin.register(SandboxProperty)
class SandboxPropertyAdmin(HubContentAdmin):
    """Properties the sandbox hub holds."""

    list_display = ["vendor_id", "created_at", "updated_at"]


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


@admin.register(SandboxRequest)
class SandboxRequestAdmin(SandboxReadOnlyAdmin):
    """Every request the sandbox hub received, newest first, with the bodies on the detail page."""

    list_display = ["received_at", "method", "path", "response_status", "fault", "request_bytes", "duration_ms"]
    list_filter = ["method", "response_status", "fault"]
    search_fields = ["path"]
    date_hierarchy = "received_at"
    fields = [
        "received_at",
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

"""Admin screens of the sync to the hub: every resource's standing (with send now and retry) and the log
of every exchange."""

import json

from django.contrib import admin
from django.db.models import Q
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ..access.admin_mixins import PropertyScopedAdmin, ReadOnlyAdminMixin
from ..access.choices import MembershipRole
from ..access.selectors import properties_for_user
from .choices import SyncStatus
from .models import ResourceKind, SyncAttempt, SyncState
from .outbox import sync_request


def sync_badge(status, label=None):
    """A coloured badge for a sync status."""
    if not status:
        return format_html('<span class="sync-badge sync-none">{}</span>', _("Not sent"))
    return format_html('<span class="sync-badge sync-{}">{}</span>', status, label or SyncStatus(status).label)


def _without_others_licenses(queryset, user, kind_path):
    """License rows (business numbers, owner names) only for the managers of their property."""
    if user.is_superuser:
        return queryset
    managed = properties_for_user(user, roles=[MembershipRole.MANAGER]).values("pk")
    return queryset.exclude(Q(**{kind_path: ResourceKind.LICENSE}) & ~Q(property__in=managed))


@admin.register(SyncState)
class SyncStateAdmin(ReadOnlyAdminMixin, PropertyScopedAdmin):
    """Every resource's standing with the hub; failed ones can be retried from here."""

    def get_queryset(self, request):
        return _without_others_licenses(super().get_queryset(request), request.user, "kind")

    list_display = ["__str__", "property", "status_badge", "last_error", "last_synced_at", "failures"]
    list_filter = ["status", "kind", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["property"]
    actions = ["send_now", "retry_failed"]
    readonly_fields = [field.name for field in SyncState._meta.fields]

    @admin.display(description=_("sync status"), ordering="status")
    def status_badge(self, state):
        return sync_badge(state.status)

    @admin.action(description=_("Send to the hub now"), permissions=["view"])
    def send_now(self, request, queryset):
        queued = sync_request(list(queryset), retry_failed=False)
        self.message_user(request, _("%(count)d queued for the hub.") % {"count": queued})

    @admin.action(description=_("Retry failed sends"), permissions=["view"])
    def retry_failed(self, request, queryset):
        queued = sync_request(list(queryset), retry_failed=True)
        self.message_user(request, _("%(count)d queued for the hub.") % {"count": queued})


@admin.register(SyncAttempt)
class SyncAttemptAdmin(ReadOnlyAdminMixin, PropertyScopedAdmin):
    """Every exchange with the hub: what was sent (secrets removed) and what the hub answered."""

    def get_queryset(self, request):
        return _without_others_licenses(super().get_queryset(request), request.user, "state__kind")

    list_display = ["created_at", "method", "path", "status_code", "outcome", "hub_message", "duration_ms"]
    list_filter = ["outcome", "method", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["property"]
    search_fields = ["path", "hub_message"]
    date_hierarchy = "created_at"
    fields = [
        "created_at",
        "property",
        "state",
        "method",
        "path",
        "status_code",
        "outcome",
        "hub_message",
        "duration_ms",
        "body",
    ]
    readonly_fields = fields

    @admin.display(description=_("request body"))
    def body(self, attempt):
        return format_html(
            "<pre class='sync-body'>{}</pre>", json.dumps(attempt.request_body, ensure_ascii=False, indent=2)
        )

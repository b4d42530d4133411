"""Admin screens of the sync to the hub: every resource's standing (with send now and retry) and the log
of every exchange."""

import json

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..access.admin_mixins import PropertyScopedAdmin, ReadOnlyAdminMixin
from ..access.choices import MembershipRole
from ..access.selectors import properties_for_user
from ..hub.environments import HubEnvironment, hub_address
from ..hub.models import HubSwitch
from ..hub.selectors import hub_environment_active
from .choices import SyncStatus
from .forms import HubSwitchForm
from .models import ResourceKind, SyncAttempt, SyncState
from .outbox import sync_request
from .selectors import hub_switch_latest, hub_switch_progress, sync_status_counts
from .switch import SwitchRefused, hub_environment_switch


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
    list_filter = ["status", "kind", "environment", ("property", admin.RelatedOnlyFieldListFilter)]
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


@admin.register(HubSwitch)
class HubSwitchAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The switches between hub environments, and the switch itself, for superusers only: a confirmation
    page, then the first sync's progress against the new hub and its summary."""

    list_display = ["switched_at", "from_environment", "to_environment", "switched_by", "resources", "progress_link"]
    list_select_related = ["switched_by"]

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("switch/", wrap(self.switch_view), name="integration_hubswitch_switch"),
            path("<int:switch_id>/progress/", wrap(self.progress_view), name="integration_hubswitch_progress"),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(
            request, {"active_environment": hub_environment_active(), **(extra_context or {})}
        )

    @admin.display(description=_("progress"))
    def progress_link(self, switch):
        url = reverse("admin:integration_hubswitch_progress", args=[switch.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Progress"))

    def _context(self, request, title, **context):
        return {**self.admin_site.each_context(request), "opts": self.model._meta, "title": title, **context}

    def switch_view(self, request):
        """GET: what the switch will do, with a confirmation box; POST: switch, then show the progress."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        active = hub_environment_active()
        requested = request.POST.get("to") or request.GET.get("to")
        target = HubEnvironment(requested) if requested in HubEnvironment.values else None
        if target is None or target == active:
            target = next(environment for environment in HubEnvironment if environment != active)
        form = HubSwitchForm(request.POST or None, initial={"to": target})
        if request.method == "POST" and form.is_valid():
            try:
                switch = hub_environment_switch(to=form.cleaned_data["to"], user=request.user)
            except SwitchRefused as refused:
                form.add_error(None, str(refused))
            else:
                self.message_user(
                    request,
                    gettext("Switched to the %(environment)s hub: %(count)d resources are being sent there.")
                    % {"environment": switch.get_to_environment_display(), "count": switch.resources},
                    messages.SUCCESS,
                )
                return redirect("admin:integration_hubswitch_progress", switch.pk)
        counts = sync_status_counts(active)
        context = self._context(
            request,
            gettext("Switch the hub environment"),
            form=form,
            active=active,
            target=target,
            target_address=hub_address(target),
            counts=[(SyncStatus(status).label, status, counts.get(status, 0)) for status in SyncStatus],
        )
        return TemplateResponse(request, "admin/integration/hubswitch/switch.html", context)

    def progress_view(self, request, switch_id):
        """The first sync against the switch's hub: counts synced, pending and failed; a summary once done."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        switch = get_object_or_404(HubSwitch.objects.select_related("switched_by"), pk=switch_id)
        latest = hub_switch_latest()
        progress = hub_switch_progress(switch)
        context = self._context(
            request,
            gettext("Switch to the %(environment)s hub") % {"environment": switch.get_to_environment_display()},
            switch=switch,
            progress=progress,
            superseded=latest is not None and latest.pk != switch.pk,
            states_url=reverse("admin:integration_syncstate_changelist") + f"?environment={switch.to_environment}",
        )
        return TemplateResponse(request, "admin/integration/hubswitch/progress.html", context)

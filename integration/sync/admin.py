"""Admin screens of the sync to the hub: every resource's standing (with send now and retry) and the log
of every exchange."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from core.admin.log_display import decoded_path, pretty_json
from core.admin.mixins import ReadOnlyAdminMixin
from core.admin.paging import BoundedCountPaginator

from ..access.admin_mixins import PropertyScopedAdmin, ScopedPropertyFilter
from ..access.choices import MembershipRole
from ..access.selectors import properties_for_user
from ..content.names import NAME_PREFETCHES, display_name
from ..hub.environments import HubEnvironment, hub_address
from ..hub.models import HubSwitch
from ..hub.selectors import hub_distribution_pause_read, hub_environment_active
from .choices import SyncStatus
from .forms import DistributionPauseForm, HubSwitchForm
from .models import ResourceKind, SyncAttempt, SyncState
from .resources import objects_of
from .selectors import hub_switch_latest, hub_switch_progress, sync_status_counts
from .services.outbox import sync_request
from .services.pause import PauseRefused, hub_distribution_pause, hub_distribution_resume
from .services.switch import SwitchRefused, hub_environment_switch


def sync_badge(status, label=None):
    """A coloured badge for a sync status."""
    if not status:
        return format_html('<span class="sync-badge sync-none">{}</span>', _("Not sent"))
    return format_html('<span class="sync-badge sync-{}">{}</span>', status, label or SyncStatus(status).label)


def sync_state_badge(state):
    """The badge of a sync state: a pending one retried after the hub failed reads "waiting for the hub"."""
    return sync_badge(state.status, _("Waiting for the hub") if state.waiting_for_hub() else None)


def name_subjects(states):
    """Set each state's subject_name (the name of the object it stands for, in the active language), one
    query per kind for the whole list."""
    states = [state for state in states if state is not None]
    objects = objects_of(states, prefetch=NAME_PREFETCHES)
    for state in states:
        obj = objects.get((state.kind, state.object_id))
        if obj is not None:
            state.subject_name = display_name(obj)
    return states


class NamedSubjectsMixin(admin.ModelAdmin):
    """Lists and pages of sync states (or of rows with a state) that name the states' objects; put it
    before the other ModelAdmin bases."""

    #: How a listed row reaches its sync state; "" for the states themselves.
    state_path = ""

    def _state_of(self, row):
        return getattr(row, self.state_path) if self.state_path else row

    def get_changelist_instance(self, request):
        changelist = super().get_changelist_instance(request)
        name_subjects(self._state_of(row) for row in changelist.result_list)
        return changelist

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is not None:
            name_subjects([self._state_of(obj)])
        return obj


def _without_others_licenses(queryset, user, state_path):
    """License rows (business numbers, owner names) only for the managers of their property. The license
    states others may not see are a few rows, excluded by id: no join of every listed row to its state."""
    if user.is_superuser:
        return queryset
    managed = properties_for_user(user, roles=[MembershipRole.MANAGER]).values("pk")
    hidden = SyncState.objects.filter(kind=ResourceKind.LICENSE).exclude(property__in=managed).values("pk")
    return queryset.exclude(**{f"{state_path}__in": hidden})


class KindFilter(admin.SimpleListFilter):
    """The resource kinds, without license requests for those who may see none (they manage no property)."""

    title = _("resource")
    parameter_name = "kind__exact"

    def lookups(self, request, model_admin):
        user = request.user
        sees_licenses = user.is_superuser or properties_for_user(user, roles=[MembershipRole.MANAGER]).exists()
        return [
            (value, label) for value, label in ResourceKind.choices if sees_licenses or value != ResourceKind.LICENSE
        ]

    def queryset(self, request, queryset):
        return queryset.filter(kind=self.value()) if self.value() in ResourceKind.values else queryset


class MethodFilter(admin.SimpleListFilter):
    """The HTTP methods we send the hub (a DISTINCT over the log would read every attempt)."""

    title = _("method")
    parameter_name = "method__exact"
    METHODS = ("POST", "PUT", "PATCH", "GET", "DELETE")

    def lookups(self, request, model_admin):
        return [(method, method) for method in self.METHODS]

    def queryset(self, request, queryset):
        return queryset.filter(method=self.value()) if self.value() in self.METHODS else queryset


def _queued_message(count):
    return ngettext("%(count)d resource queued for the hub.", "%(count)d resources queued for the hub.", count) % {
        "count": count
    }


@admin.register(SyncState)
class SyncStateAdmin(NamedSubjectsMixin, ReadOnlyAdminMixin, PropertyScopedAdmin):
    """Every resource's standing with the hub; failed ones can be retried from here."""

    def get_queryset(self, request):
        return _without_others_licenses(super().get_queryset(request), request.user, "pk")

    list_display = ["subject", "property", "status_badge", "last_error", "last_synced_at", "failures"]
    list_filter = ["status", KindFilter, "environment", ("property", ScopedPropertyFilter)]
    list_select_related = ["property"]
    # Grouped by property in the order of syncstate_list (by the properties' names, the whole list would be
    # joined and sorted on every page).
    ordering = ["property_id", "kind", "object_id"]
    # A state per resource of every property: tens of thousands of rows, never counted whole (core.admin.paging).
    paginator = BoundedCountPaginator
    show_full_result_count = False
    actions = ["send_now", "retry_failed"]
    readonly_fields = (
        "subject",
        *(name for name in (field.name for field in SyncState._meta.fields) if name not in ("id", "acked_body")),
        "acked_body_text",
    )
    fields = readonly_fields

    @admin.display(description=_("object"))
    def subject(self, state):
        return state.subject_label()

    @admin.display(description=_("body the hub acknowledged"))
    def acked_body_text(self, state):
        return pretty_json(state.acked_body)

    @admin.display(description=_("sync status"), ordering="status")
    def status_badge(self, state):
        return sync_state_badge(state)

    @admin.action(description=_("Send to the hub now"), permissions=["view"])
    def send_now(self, request, queryset):
        queued = sync_request(list(queryset), retry_failed=False)
        self.message_user(request, _queued_message(queued))

    @admin.action(description=_("Retry failed sends"), permissions=["view"])
    def retry_failed(self, request, queryset):
        queued = sync_request(list(queryset), retry_failed=True)
        self.message_user(request, _queued_message(queued))


@admin.register(SyncAttempt)
class SyncAttemptAdmin(NamedSubjectsMixin, ReadOnlyAdminMixin, PropertyScopedAdmin):
    """Every exchange with the hub: what was sent (secrets removed) and what the hub answered."""

    def get_queryset(self, request):
        queryset = _without_others_licenses(super().get_queryset(request), request.user, "state")
        if not request.user.is_superuser:
            # The same properties as the scope's subquery, named: PostgreSQL then reads them from
            # syncattempt_property_recent in the list's order instead of walking the whole log's dates.
            queryset = queryset.filter(property__in=list(self.scoped_properties(request).values_list("pk", flat=True)))
        return queryset

    state_path = "state"
    list_display = [
        "created_at",
        "subject",
        "method",
        "path_text",
        "status_code",
        "outcome",
        "hub_message",
        "duration_ms",
    ]
    # Millions of attempts: no filter lists its choices from the log, the list never counts it whole
    # (core.admin.paging) and its date drill-down probes periods (change_list.html, core.admin.dates).
    list_filter = ["outcome", MethodFilter, ("property", ScopedPropertyFilter)]
    list_select_related = ["property", "state"]
    search_fields = ["path", "hub_message"]
    date_hierarchy = "created_at"
    paginator = BoundedCountPaginator
    show_full_result_count = False
    readonly_fields = (
        "created_at",
        "property",
        "subject",
        "method",
        "path_text",
        "status_code",
        "outcome",
        "hub_message",
        "duration_ms",
        "body",
    )
    fields = readonly_fields

    @admin.display(description=_("object"), ordering="state__kind")
    def subject(self, attempt):
        url = reverse("admin:integration_syncstate_change", args=[attempt.state_id])
        return format_html('<a href="{}">{}</a>', url, attempt.state.subject_label())

    @admin.display(description=_("path"), ordering="path")
    def path_text(self, attempt):
        return decoded_path(attempt.path)

    @admin.display(description=_("request body"))
    def body(self, attempt):
        return pretty_json(attempt.request_body)


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
            path("distribution/", wrap(self.distribution_view), name="integration_hubswitch_distribution"),
            path("<int:switch_id>/progress/", wrap(self.progress_view), name="integration_hubswitch_progress"),
            *super().get_urls(),
        ]

    def changelist_view(self, request, extra_context=None):
        return super().changelist_view(
            request,
            {
                "active_environment": hub_environment_active(),
                "distribution_paused": hub_distribution_pause_read(),
                **(extra_context or {}),
            },
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

    def distribution_view(self, request):
        """GET: whether distribution to the hub runs, with a confirmation box to pause or resume it; POST: do
        it, then back to the switches' list."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        paused = hub_distribution_pause_read()
        form = DistributionPauseForm(request.POST or None, paused=paused is not None)
        if request.method == "POST" and form.is_valid():
            try:
                if paused is None:
                    hub_distribution_pause(user=request.user)
                    message = gettext("Distribution to the hub is paused: nothing is sent until you resume it.")
                else:
                    hub_distribution_resume(user=request.user)
                    message = gettext("Distribution to the hub resumes: what waited is being sent, availability first.")
            except PauseRefused as refused:
                form.add_error(None, str(refused))
            else:
                self.message_user(request, message, messages.SUCCESS)
                return redirect("admin:integration_hubswitch_changelist")
        title = gettext("Resume distribution to the hub") if paused else gettext("Pause distribution to the hub")
        context = self._context(
            request,
            title,
            form=form,
            paused=paused,
            pending=sync_status_counts(hub_environment_active()).get(SyncStatus.PENDING, 0),
        )
        return TemplateResponse(request, "admin/integration/hubswitch/distribution.html", context)

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

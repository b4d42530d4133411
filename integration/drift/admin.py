"""Admin screens of the drift check: the checks of the user's properties, each one's report of what
differs from the hub's copy with re-send (ours wins) per row or for all, and "Check now"."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponseNotAllowed, JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.admin.mixins import ReadOnlyAdminMixin

from ..access.admin_mixins import PropertyScopedAdmin
from ..sync.admin import name_subjects
from .choices import DriftCheckStatus
from .forms import DriftCheckRequestForm, DriftResendForm
from .models import DriftCheck
from .report import drift_field_label, drift_raw, drift_value_text
from .selectors import drift_report_rows
from .services import drift_check_request, drift_resend

_BADGE = {
    DriftCheckStatus.QUEUED: "pending",
    DriftCheckStatus.RUNNING: "pending",
    DriftCheckStatus.DONE: "synced",
    DriftCheckStatus.FAILED: "failed",
}

#: The statuses of a check a worker has still to finish: the list and the report refresh while any is.
RUNNING = (DriftCheckStatus.QUEUED, DriftCheckStatus.RUNNING)


@admin.register(DriftCheck)
class DriftCheckAdmin(ReadOnlyAdminMixin, PropertyScopedAdmin):
    """The drift checks of the user's properties; the change page is the check's report."""

    list_display = ["property", "status_badge", "finished_at", "resources_checked", "difference_count", "requested_by"]
    list_filter = ["status", ("property", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["property", "requested_by"]
    actions = ["check_again"]

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("check/", view(self.check_view), name="integration_driftcheck_check"),
            path("running/", view(self.running_view), name="integration_driftcheck_running"),
            path("<path:object_id>/resend/", view(self.resend_view), name="integration_driftcheck_resend"),
            *super().get_urls(),
        ]

    def _may_act(self, request):
        """Checking and re-sending: anyone whose role may add checks (staff and managers)."""
        return request.user.has_perm("integration.add_driftcheck")

    @admin.display(description=gettext_lazy("status"), ordering="status")
    def status_badge(self, check):
        return format_html(
            '<span class="sync-badge sync-{}">{}</span>', _BADGE[check.status], check.get_status_display()
        )

    def _running_ids(self, request):
        return sorted(self.get_queryset(request).filter(status__in=RUNNING).values_list("pk", flat=True))

    def changelist_view(self, request, extra_context=None):
        context = {"can_check": self._may_act(request), "running_ids": self._running_ids(request)}
        return super().changelist_view(request, {**context, **(extra_context or {})})

    def running_view(self, request):
        """The ids of the user's checks still queued or running, as JSON: the list and the report poll it
        and load again when one of theirs finishes."""
        if not self.has_view_permission(request):
            raise PermissionDenied
        return JsonResponse({"running": self._running_ids(request)})

    def check_view(self, request):
        """GET: choose one of the user's properties; POST: queue its check."""
        if not self._may_act(request):
            raise PermissionDenied
        form = DriftCheckRequestForm(request.POST or None, properties=self.scoped_properties(request))
        if request.method == "POST" and form.is_valid():
            prop = form.cleaned_data["property"]
            try:
                drift_check_request(property=prop, user=request.user)
            except ValidationError as error:
                form.add_error(None, error)
            else:
                self.message_user(
                    request,
                    _("The drift check of %(property)s is queued; its report appears here when it has run.")
                    % {"property": prop},
                    messages.SUCCESS,
                )
                return redirect("admin:integration_driftcheck_changelist")
        context = {
            **self.admin_site.each_context(request),
            "title": _("Check a property against the hub"),
            "opts": self.opts,
            "form": form,
        }
        return TemplateResponse(request, "admin/integration/driftcheck/check.html", context)

    @admin.action(description=gettext_lazy("Check these properties again"), permissions=["view"])
    def check_again(self, request, queryset):
        if not self._may_act(request):
            raise PermissionDenied
        properties = {check.property for check in queryset.select_related("property")}
        try:
            for prop in properties:
                drift_check_request(property=prop, user=request.user)
        except ValidationError as error:
            self.message_user(request, " ".join(error.messages), messages.ERROR)
            return
        self.message_user(
            request,
            ngettext("%(count)d drift check queued.", "%(count)d drift checks queued.", len(properties))
            % {"count": len(properties)},
        )

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The check's report: every difference, with re-send per row and for all."""
        check = self.get_object(request, object_id)
        if not self.has_view_permission(request, check):
            raise PermissionDenied
        rows = list(drift_report_rows(check))
        # Each resource by its name (a room type, a rate plan), one query per kind; its hub id in a tooltip.
        name_subjects(row.state for row in rows)
        context = {
            **self.admin_site.each_context(request),
            "title": _("Drift report: %(property)s") % {"property": check.property},
            "opts": self.opts,
            "check": check,
            "rows": [
                (
                    row,
                    drift_field_label(row.field),
                    (drift_value_text(row.ours), drift_raw(row.field, row.ours)),
                    (drift_value_text(row.hubs), drift_raw(row.field, row.hubs)),
                )
                for row in rows
            ],
            "running_ids": [check.pk] if check.status in RUNNING else [],
            "open_rows": sum(1 for row in rows if row.resent_at is None),
            "can_resend": self._may_act(request),
        }
        return TemplateResponse(request, "admin/integration/driftcheck/report.html", context)

    def resend_view(self, request, object_id):
        """POST difference=<id> or all=1: re-send those resources (ours wins) through the sync queue."""
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        if not self._may_act(request):
            raise PermissionDenied
        check = self.get_object(request, object_id)
        form = DriftResendForm(request.POST)
        if not form.is_valid():
            for error in form.non_field_errors() or [_("That difference does not exist.")]:
                self.message_user(request, str(error), messages.ERROR)
            return redirect("admin:integration_driftcheck_change", check.pk)
        ids = None if form.cleaned_data["all"] else [form.cleaned_data["difference"]]
        count = drift_resend(check=check, difference_ids=ids)
        if count:
            message = ngettext(
                "%(count)d resource will be sent to the hub again: see its state in the hub sync states.",
                "%(count)d resources will be sent to the hub again: see their state in the hub sync states.",
                count,
            ) % {"count": count}
            self.message_user(request, message, messages.SUCCESS)
        else:
            self.message_user(request, _("Nothing to re-send: these rows were re-sent already."), messages.WARNING)
        return redirect("admin:integration_driftcheck_change", check.pk)

"""How the license requests screen shows a request: the hub's review with its history, the sync to the
hub, related requests and the file. A part of the screen (licenses.admin)."""

from datetime import datetime

from django.contrib import admin
from django.template.defaultfilters import filesizeformat
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from integration.sync.admin import sync_badge
from integration.sync.choices import SyncStatus

from . import selectors
from .choices import ReviewStatus


def review_badge(status):
    """A coloured badge for the hub's review status."""
    if not status:
        return ""
    return format_html('<span class="license-badge license-{}">{}</span>', status, ReviewStatus(status).label)


def _when(value):
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value)
        except ValueError:
            return value
    if value is None:
        return "—"
    return date_format(timezone.localtime(value), "Y-m-d H:i")


class LicenseRequestDisplay:
    """The read-only fields of LicenseRequestAdmin."""

    @admin.display(description=_("business registration number"))
    def masked_business_number(self, obj):
        return obj.masked_number()

    @admin.display(description=_("review"))
    def review(self, obj):
        if not obj.hub_id:
            return _("Not at the hub yet.")
        return format_html(
            '{} <span class="sync-meta">{} {}</span>{}',
            review_badge(obj.status),
            _("request"),
            f"#{obj.hub_id}",
            format_html('<div class="license-reason">{}</div>', self._reason(obj, obj.reason)) if obj.reason else "",
        )

    def _reason(self, obj, reason):
        """The hub's reason; "Superseded by request N" links to request N when it was submitted here."""
        newer = selectors.license_request_superseding(obj, reason)
        if newer is None:
            return reason
        return format_html(
            '{} <a href="{}" class="license-newer">{}</a>',
            reason,
            reverse("admin:licenses_licenserequest_change", args=[newer.pk]),
            _("Open the newer request"),
        )

    @admin.display(description=_("hub sync"))
    def hub_sync(self, obj):
        state = selectors.license_request_sync_state(obj)
        if state is None:
            return sync_badge(None)
        log_url = reverse("admin:integration_syncattempt_changelist") + f"?state__id__exact={state.pk}"
        # A rejected request was delivered, but a green "synced" beside its red review reads as all well.
        rejected = obj.status == ReviewStatus.REJECT and state.status == SyncStatus.SYNCED
        return format_html(
            '{} <span class="sync-meta">{}: {}</span>{}<br><a href="{}">{}</a>',
            "" if rejected else sync_badge(state.status),
            _("last synced"),
            _when(state.last_synced_at),
            format_html('<div class="sync-error">{}</div>', state.last_error) if state.last_error else "",
            log_url,
            _("Sync log"),
        )

    @admin.display(description=_("related requests"))
    def related_requests(self, obj):
        links = []
        if obj.resubmission_of_id:
            links.append((_("Resubmission of"), obj.resubmission_of))
        links.extend((_("Resubmitted as"), newer) for newer in obj.resubmissions.all())
        if not links:
            return "—"
        return format_html_join(
            mark_safe("<br>"),
            '{}: <a href="{}">{}</a>',
            (
                (label, reverse("admin:licenses_licenserequest_change", args=[other.pk]), other)
                for label, other in links
            ),
        )

    @admin.display(description=_("file"))
    def file_link(self, obj):
        if not obj.file:
            return "—"
        return format_html(
            '<a href="{}" class="license-file">{}</a> <span class="sync-meta">{}, {}</span>',
            reverse("admin:licenses_licenserequest_file", args=[obj.pk]),
            obj.file_name or _("download"),
            obj.get_file_format_display(),
            filesizeformat(obj.file_size),
        )

    @admin.display(description=_("review history"))
    def timeline(self, obj):
        """The hub's history, newest first, ending with the submission."""
        if not obj.hub_id:
            return _("Not at the hub yet.")
        events = [
            (
                entry.get("status") or "",
                review_badge(entry.get("status")),
                entry.get("created_at") or "",
                _when(entry.get("created_at")),
                format_html('<div class="license-reason">{}</div>', self._reason(obj, entry["reason"]))
                if entry.get("reason")
                else "",
            )
            for entry in obj.history
        ]
        submitted_at = obj.hub_created_at.isoformat() if obj.hub_created_at else ""
        events.append(("submitted", _("Submitted"), submitted_at, _when(obj.hub_created_at), ""))
        return format_html(
            '<ol class="license-timeline">{}</ol>',
            format_html_join(
                "",
                '<li class="license-event license-event-{}">{} <time datetime="{}">{}</time>{}</li>',
                events,
            ),
        )

    @admin.display(description=_("uploaded by"))
    def uploaded_by(self, obj):
        """Who uploaded it, as text: a link to the user's page would refuse everyone but administrators."""
        return obj.created_by.get_username() if obj.created_by else "—"

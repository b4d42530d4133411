"""How an event reads (in the reader's language, from what it recorded) and where it is handled."""

from dataclasses import dataclass

from django.apps import apps
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from integration.models import ResourceKind

from .choices import EventKind


@dataclass(frozen=True)
class Target:
    """The admin screen where an event is handled: model (whose admin must show it to the viewer; None:
    a page of the reader's own, which takes no id) and the URL name, taking the event's object id, or its
    property id when by_property."""

    model: str | None
    url_name: str
    by_property: bool = False


TARGETS = {
    EventKind.LICENSE_CONFIRMED: Target("licenses.LicenseRequest", "admin:licenses_licenserequest_change"),
    EventKind.LICENSE_REJECTED: Target("licenses.LicenseRequest", "admin:licenses_licenserequest_change"),
    EventKind.CHANNEL_OPENED: Target(
        "integration.PropertyChannel", "admin:integration_propertychannel_property", by_property=True
    ),
    EventKind.SEND_FAILED: Target("integration.SyncState", "admin:integration_syncstate_change"),
    EventKind.DRIFT_FOUND: Target("integration.DriftCheck", "admin:integration_driftcheck_change"),
    EventKind.BOOKING_CANCELED: Target("bookings.Booking", "admin:bookings_booking_change"),
    # Where the reader turns the two-step login on, or renews their recovery codes.
    EventKind.LOGIN_TRIED: Target(None, "admin:second_factor"),
    EventKind.BOOKING_CREATED: Target("bookings.Booking", "admin:bookings_booking_change"),
    EventKind.BOOKING_UNMAPPED: Target("bookings.Booking", "admin:bookings_booking_change"),
}


def event_text(event):
    """One sentence saying what happened, in the active language."""
    values = {"subject": event.subject, "detail": event.detail}
    if event.kind == EventKind.LICENSE_CONFIRMED:
        return _("The hub confirmed license request %(subject)s.") % values
    if event.kind == EventKind.LICENSE_REJECTED:
        return _("The hub rejected license request %(subject)s: %(detail)s") % values
    if event.kind == EventKind.CHANNEL_OPENED:
        # Approved is not yet selling (the channel's card says so): the property sells there once it turns
        # the channel's sales on.
        return (
            _(
                "The hub approved the channel %(subject)s. It does not sell yet: on the property's channels "
                "page, open “What it sells”, turn “On sale on this channel” on and choose what it sells (a cms "
                "channel also needs its mapping)."
            )
            % values
        )
    if event.kind == EventKind.BOOKING_CREATED:
        return _("New booking %(subject)s (%(detail)s).") % values
    if event.kind == EventKind.BOOKING_UNMAPPED:
        return (
            _("Booking %(subject)s (%(detail)s) was made without a rate plan of ours: check its room and price.")
            % values
        )
    if event.kind == EventKind.SEND_FAILED:
        resource = capfirst(ResourceKind(event.subject).label) if event.subject in ResourceKind.values else "?"
        return _("%(resource)s did not reach the hub: %(detail)s") % {"resource": resource, "detail": event.detail}
    if event.kind == EventKind.DRIFT_FOUND:
        count = int(event.detail or 0)
        return ngettext(
            "The hub's copy of %(subject)s differs from ours in %(count)d place.",
            "The hub's copy of %(subject)s differs from ours in %(count)d places.",
            count,
        ) % {"subject": event.subject, "count": count}
    if event.kind == EventKind.LOGIN_TRIED:
        count = int(event.detail or 0)
        return ngettext(
            "Your user name %(subject)s was tried with wrong passwords from %(count)d address: its logins are "
            "slowed down, not locked. If that was not you, choose a strong password and turn the two-step "
            "login on.",
            "Your user name %(subject)s was tried with wrong passwords from %(count)d different addresses: its "
            "logins are slowed down, not locked. If that was not you, choose a strong password and turn the "
            "two-step login on.",
            count,
        ) % {"subject": event.subject, "count": count}
    return _("Booking %(subject)s (%(detail)s) was canceled.") % values


def event_target_url(event):
    """The path of the screen where event is handled, whoever looks."""
    target = TARGETS[EventKind(event.kind)]
    if target.model is None:
        return reverse(target.url_name)
    return reverse(target.url_name, args=[event.property_id if target.by_property else event.object_id])


def event_link(request, admin_site, event):
    """The path of the screen where event is handled, or None when the viewer's admin would not show
    that screen to them (staff and licenses)."""
    target = TARGETS[EventKind(event.kind)]
    if target.model is None:
        return event_target_url(event)
    model_admin = admin_site._registry.get(apps.get_model(target.model))
    if model_admin is None or not model_admin.has_view_or_change_permission(request):
        return None
    return event_target_url(event)

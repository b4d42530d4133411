"""The apps below the inbox send signals in the transaction of what happened; these record the events
in that same transaction (those apps never import the inbox)."""

from accounts.signals import login_name_tried_widely
from bookings.signals import booking_canceled, booking_received
from integration.channels.signals import channel_opened
from integration.drift.signals import drift_found
from integration.sync.signals import sync_failed
from licenses.choices import ReviewStatus
from licenses.signals import license_reviewed

from .choices import EventKind
from .models import Event
from .services import event_record


def _license_reviewed(sender, license_request, **kwargs):
    confirmed = license_request.status == ReviewStatus.CONFIRM
    event_record(
        property_id=license_request.property_id,
        kind=EventKind.LICENSE_CONFIRMED if confirmed else EventKind.LICENSE_REJECTED,
        object_id=license_request.pk,
        subject=f"#{license_request.hub_id}" if license_request.hub_id else f"({license_request.pk})",
        detail=license_request.reason,
    )


def _channel_opened(sender, property, channel, **kwargs):
    event_record(property_id=property.pk, kind=EventKind.CHANNEL_OPENED, object_id=channel.pk, subject=channel.name)


def _sync_failed(sender, state, **kwargs):
    event_record(
        property_id=state.property_id,
        kind=EventKind.SEND_FAILED,
        object_id=state.pk,
        subject=state.kind,
        detail=state.last_error,
    )


def _drift_found(sender, check, **kwargs):
    event_record(
        property_id=check.property_id,
        kind=EventKind.DRIFT_FOUND,
        object_id=check.pk,
        subject=check.property.name,
        detail=str(check.difference_count),
    )


def _booking_canceled(sender, booking, **kwargs):
    event_record(
        property_id=booking.property_id,
        kind=EventKind.BOOKING_CANCELED,
        object_id=booking.pk,
        subject=booking.vendor_booking_number,
        detail=booking.guest_name,
    )


def _login_name_tried_widely(sender, user, addresses, **kwargs):
    event_record(
        property_id=None,
        user_id=user.pk,
        kind=EventKind.LOGIN_TRIED,
        object_id=user.pk,
        subject=user.get_username(),
        detail=str(addresses),
    )


def _booking_received(sender, booking, **kwargs):
    # A new booking is news once (the worker may run its job again), flagged when the hub made it without
    # a rate plan of ours.
    kinds = [EventKind.BOOKING_CREATED]
    if booking.rate_plan_id is None:
        kinds.append(EventKind.BOOKING_UNMAPPED)
    recorded = set(Event.objects.filter(kind__in=kinds, object_id=booking.pk).values_list("kind", flat=True))
    for kind in kinds:
        if kind not in recorded:
            event_record(
                property_id=booking.property_id,
                kind=kind,
                object_id=booking.pk,
                subject=booking.vendor_booking_number,
                detail=booking.guest_name,
            )


def connect():
    """Connect every receiver (InboxConfig.ready)."""
    license_reviewed.connect(_license_reviewed, dispatch_uid="inbox.license_reviewed")
    channel_opened.connect(_channel_opened, dispatch_uid="inbox.channel_opened")
    sync_failed.connect(_sync_failed, dispatch_uid="inbox.sync_failed")
    drift_found.connect(_drift_found, dispatch_uid="inbox.drift_found")
    booking_canceled.connect(_booking_canceled, dispatch_uid="inbox.booking_canceled")
    login_name_tried_widely.connect(_login_name_tried_widely, dispatch_uid="inbox.login_name_tried_widely")
    booking_received.connect(_booking_received, dispatch_uid="inbox.booking_received")

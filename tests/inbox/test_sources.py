"""Each app below the inbox records its events through its signal, in the transaction of what happened,
through the real services against the sandbox hub (licenses, channels, the sender, the drift check) and
the signed vendor API (bookings)."""

import pytest

from hubsandbox import state
from inbox.choices import EventKind
from inbox.display import event_text
from inbox.models import Event
from integration.channels.services import channel_open_request, property_channels_refresh
from integration.drift.services import drift_check_request, drift_checks_run
from integration.sync.services.batch import sync_pending
from integration.sync.services.outbox import sync_mark_changed, sync_state_ensure
from integration.sync.services.sender import Outcome, sync_send
from licenses.services import license_requests_refresh
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.integration.channels.conftest import channel
from tests.licenses.factories import LicenseRequestFactory

pytestmark = pytest.mark.django_db(transaction=True)


def only_event():
    events = list(Event.objects.all())
    assert len(events) == 1, events
    return events[0]


@pytest.mark.parametrize(
    ("review", "kind"), [("confirm", EventKind.LICENSE_CONFIRMED), ("reject", EventKind.LICENSE_REJECTED)]
)
def test_a_license_the_hub_reviews_is_an_event(hub_property, review, kind):
    prop = hub_property[0]
    request = LicenseRequestFactory(property=prop)
    sync_mark_changed(request)
    assert not sync_pending(property=prop).failures
    request.refresh_from_db()
    license_requests_refresh(property=prop)
    assert not Event.objects.exists()  # still under review

    state.review_license(request.hub_id, review, "Blurry scan" if review == "reject" else None)
    license_requests_refresh(property=prop)

    event = only_event()
    assert (event.property, event.kind, event.object_id) == (prop, kind, request.pk)
    assert f"#{request.hub_id}" in event_text(event)


def test_a_channel_the_hub_approves_is_an_event(hub_property):
    prop = hub_property[0]
    request = channel_open_request(property=prop, channel=channel(1))
    assert not sync_pending(property=prop).failures
    request.refresh_from_db()

    state.review_open_request(request.hub_id, "approved")
    property_channels_refresh(property=prop)

    event = only_event()
    assert (event.property, event.kind, event.subject) == (prop, EventKind.CHANNEL_OPENED, channel(1).name)
    assert event_text(event).startswith(f"The hub approved the channel {channel(1).name}")
    # Approved is not selling (the channel's card says "On sale: No"): the sentence says what to do.
    assert "It does not sell yet" in event_text(event)
    assert "sells the property now" not in event_text(event)


def test_a_send_the_hub_refuses_is_an_event(hub_property):
    prop = hub_property[0]
    prop.facility_tags = ["no-such-facility"]  # past our form checks: only the hub can refuse it here
    prop.save()

    assert sync_send(sync_state_ensure(prop).pk, schedule=False) == Outcome.FAILED

    event = only_event()
    assert (event.kind, event.object_id) == (EventKind.SEND_FAILED, sync_state_ensure(prop).pk)
    assert "facility_tags" in event.detail
    assert event_text(event).startswith("Property did not reach the hub: ")


def test_a_drift_check_that_finds_differences_is_an_event(hub_property, settings):
    settings.HUB_DRIFT_RATE = 1000.0
    prop = hub_property[0]
    state.alter_resource("property", prop.vendor_id, patch={"email": "hub@example.com"})

    check = drift_check_request(property=prop)
    drift_checks_run()

    check.refresh_from_db()
    assert check.difference_count >= 1
    event = only_event()
    assert (event.kind, event.object_id, event.detail) == (EventKind.DRIFT_FOUND, check.pk, str(check.difference_count))


def test_a_booking_the_hub_cancels_is_an_event(client):
    _room_type, standalone, _package = sellable(allotment=3)
    hub = HubClient(client)
    number = hub.post("/bookings", create_body(standalone, nights=2)).json()["vendor_booking_number"]
    hub.put(f"/bookings/{number}/confirm")
    assert not Event.objects.exists()

    assert hub.post(f"/bookings/{number}/cancel").status_code == 200

    event = only_event()
    assert (event.kind, event.subject, event.property) == (EventKind.BOOKING_CANCELED, number, standalone.property)

"""New bookings (once confirmed) and bookings without a rate plan of ours are inbox events, recorded by the
booking e-mails' worker task (bookings.notifications); new and canceled bookings are shown and e-mailed per
property as each person chose (PropertyChoice)."""

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import translation

from bookings import tasks as booking_tasks  # noqa: F401 (registers the tasks run here, as a worker does)
from bookings.notifications import NOTIFY_TASK as BOOKING_NOTIFY_TASK
from bookings.notifications import SEND_TASK as BOOKING_SEND_TASK
from bookings.notifications import booking_notify
from inbox.choices import EventKind
from inbox.display import event_text
from inbox.models import Event, InboxPreference, PropertyChoice
from inbox.selectors import event_email_recipients, events_for_user
from inbox.services import NOTIFY_TASK, SEND_TASK, property_choices_set
from integration.access.choices import MembershipRole
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient
from tests.factories import PropertyFactory, member
from tests.queued import run_queued

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_queues")]

TASKS = (BOOKING_NOTIFY_TASK, BOOKING_SEND_TASK, NOTIFY_TASK, SEND_TASK)


@pytest.fixture
def hub_client(client):
    return HubClient(client)


def booked(hub_client, capture, body):
    """Create and confirm a booking through the signed vendor API, then run the e-mail and inbox tasks as a
    worker would; its number."""
    with capture(execute=True):
        number = hub_client.post("/bookings", body).json()["vendor_booking_number"]
    with capture(execute=True):
        assert hub_client.put(f"/bookings/{number}/confirm").status_code == 200
    run_queued(capture, TASKS)
    return number


def kinds():
    return sorted(Event.objects.values_list("kind", flat=True))


def test_a_new_booking_is_an_event_once_confirmed_and_once_only(hub_client, django_capture_on_commit_callbacks):
    _room_type, standalone, _package = sellable()
    with django_capture_on_commit_callbacks(execute=True):
        number = hub_client.post("/bookings", create_body(standalone)).json()["vendor_booking_number"]
    run_queued(django_capture_on_commit_callbacks, TASKS)
    assert not Event.objects.exists()  # a hold is not news yet

    with django_capture_on_commit_callbacks(execute=True):
        hub_client.put(f"/bookings/{number}/confirm")
    run_queued(django_capture_on_commit_callbacks, TASKS)

    event = Event.objects.get()
    assert (event.kind, event.subject, event.detail) == (EventKind.BOOKING_CREATED, number, "Kim Minji")
    with translation.override("en"):
        assert event_text(event) == f"New booking {number} (Kim Minji)."
    # The worker running the job again (a redelivery) does not count it twice.
    booking_notify(booking_id=event.object_id, event="created", occurrence="again", event_at=None)
    assert Event.objects.get().count == 1


def test_a_booking_without_a_rate_plan_of_ours_is_flagged(hub_client, django_capture_on_commit_callbacks):
    _room_type, standalone, _package = sellable()
    body = create_body(standalone)
    del body["rateplan_id"]

    number = booked(hub_client, django_capture_on_commit_callbacks, body)

    assert kinds() == [EventKind.BOOKING_CREATED, EventKind.BOOKING_UNMAPPED]
    flagged = Event.objects.get(kind=EventKind.BOOKING_UNMAPPED)
    with translation.override("en"):
        assert "without a rate plan of ours" in event_text(flagged)
    assert flagged.subject == number


@pytest.fixture
def setup(hub_client, django_capture_on_commit_callbacks):
    """Two properties with a new booking each (one without a rate plan) and a staff member of both who
    turned the inbox's e-mails on."""
    _room_type, first, _package = sellable()
    _room_type, second, _package = sellable()
    booked(hub_client, django_capture_on_commit_callbacks, create_body(first))
    body = create_body(second)
    del body["rateplan_id"]
    booked(hub_client, django_capture_on_commit_callbacks, body)
    person = member(first.property, MembershipRole.STAFF, email="desk@example.com")
    member_second = second.property.memberships.create(user=person, role=MembershipRole.STAFF)
    assert member_second.pk
    InboxPreference.objects.create(user=person, emails=True)
    return first.property, second.property, person


def test_each_person_chooses_per_property_whether_booking_events_show(setup):
    first, second, person = setup
    assert sorted(events_for_user(person).values_list("kind", flat=True)) == sorted(
        [EventKind.BOOKING_CREATED, EventKind.BOOKING_CREATED, EventKind.BOOKING_UNMAPPED]
    )

    property_choices_set(user=person, choices={first.pk: (False, False), second.pk: (False, False)})

    # The flag for a look stays; new bookings of both properties are hidden for this person only.
    assert list(events_for_user(person).values_list("kind", flat=True)) == [EventKind.BOOKING_UNMAPPED]
    colleague = member(first, MembershipRole.STAFF)
    assert events_for_user(colleague).filter(kind=EventKind.BOOKING_CREATED).count() == 1


def test_booking_events_are_emailed_by_the_choice_for_their_property(setup):
    first, second, person = setup
    created_first = Event.objects.get(property=first, kind=EventKind.BOOKING_CREATED)
    created_second = Event.objects.get(property=second, kind=EventKind.BOOKING_CREATED)
    flagged = Event.objects.get(kind=EventKind.BOOKING_UNMAPPED)

    # Booking events are not e-mailed by the inbox's switch alone (the booking e-mails tell them already).
    assert person not in event_email_recipients(created_first)
    assert person in event_email_recipients(flagged)

    property_choices_set(user=person, choices={first.pk: (True, True)})
    assert person in event_email_recipients(created_first)
    assert person not in event_email_recipients(created_second)

    # An e-mail of what the inbox hides is not sent: hidden means not e-mailed either.
    property_choices_set(user=person, choices={first.pk: (False, True)})
    assert PropertyChoice.objects.get(user=person, property=first).bookings_emailed is False
    assert person not in event_email_recipients(created_first)


def test_the_choice_is_mailed_through_the_worker_path(hub_client, django_capture_on_commit_callbacks):
    _room_type, standalone, _package = sellable()
    person = member(standalone.property, MembershipRole.STAFF, email="desk@example.com")
    property_choices_set(user=person, choices={standalone.property.pk: (True, True)})

    number = booked(hub_client, django_capture_on_commit_callbacks, create_body(standalone))

    inbox_mails = [message for message in mail.outbox if number in message.subject + message.body]
    # The booking e-mail (bookings.notifications) and the inbox's e-mail of the event.
    assert len(inbox_mails) == 2, [message.subject for message in mail.outbox]


def test_the_choices_page_lists_the_persons_properties_and_saves(client, setup):
    first, second, person = setup
    elsewhere = PropertyFactory(name="Not theirs")
    client.force_login(person)
    url = reverse("admin:inbox_event_choices")

    text = client.get(url).content.decode()
    assert first.name in text
    assert second.name in text
    assert elsewhere.name not in text
    assert f'name="shown-{first.pk}" id="shown-{first.pk}" checked' in text

    response = client.post(url, {f"shown-{second.pk}": "on", f"emailed-{second.pk}": "on"})

    assert response.status_code == 302
    choices = {
        choice.property_id: (choice.bookings_shown, choice.bookings_emailed)
        for choice in PropertyChoice.objects.filter(user=person)
    }
    assert choices == {first.pk: (False, False), second.pk: (True, True)}
    # The inbox links to it.
    assert url in client.get(reverse("admin:inbox_event_changelist")).content.decode()

"""Booking e-mails through the real path: the signed vendor API call, its commit, the Celery tasks (run from
the in-memory broker as a worker would) and Django's locmem e-mail backend."""

import pytest
from celery import current_app
from django.core import mail
from django.utils import translation
from django.utils.formats import date_format

from bookings.models import Booking, NotificationPreference
from bookings.notifications import NOTIFY_TASK, SEND_TASK
from bookings.tasks import booking_email_send_task, booking_notify_task
from core.dates import KOREA
from core.models import SentMail
from tests.factories import member
from tests.queued import drain_queue, run_queued

from . import mail_backends
from .factories import create_body, open_channel, sellable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_queues")]
#: When the events these tests send by hand happened (ISO 8601, as the notify job passes it on).
NOW = "2026-01-05T09:00:00+00:00"


@pytest.fixture
def content():
    return sellable(allotment=3)


@pytest.fixture
def members(content):
    """The property's members: one who never chose (Korean), one in English, one who turned e-mails off,
    one without an address; and a member of another property."""
    prop = content[0].property
    korean = member(prop, "staff", email="ko@example.com")
    english = member(prop, "manager", email="en@example.com")
    NotificationPreference.objects.create(user=english, language="en")
    off = member(prop, "staff", email="off@example.com")
    NotificationPreference.objects.create(user=off, booking_emails=False, language="en")
    member(prop, "staff", email="")
    other = sellable(allotment=1)[0].property
    member(other, "manager", email="other@example.com")
    return {"ko": korean, "en": english}


def run_mail_tasks(capture):
    """Run, as a worker would, the booking e-mail tasks waiting in the broker and those they queue in
    turn (after their commit); other tasks (the hub sync, with no hub in these tests) are dropped."""
    run_queued(capture, (NOTIFY_TASK, SEND_TASK))


def call(hub_client, capture, method, path, body=None):
    """Call the vendor API, queue what its transaction queues on commit, and run the e-mail tasks."""
    with capture(execute=True):
        response = getattr(hub_client, method)(path, body)
    assert response.status_code == 200, response.content
    run_mail_tasks(capture)
    return response.json()


def confirmed_booking(hub_client, capture, plan, **overrides):
    number = call(hub_client, capture, "post", "/bookings", create_body(plan, nights=2, **overrides))[
        "vendor_booking_number"
    ]
    call(hub_client, capture, "put", f"/bookings/{number}/confirm")
    return number


def by_recipient():
    """{address: message} of the outbox, asserting one message per address."""
    addresses = [message.to[0] for message in mail.outbox]
    assert len(addresses) == len(set(addresses)), addresses
    assert all(len(message.to) == 1 for message in mail.outbox)
    return {message.to[0]: message for message in mail.outbox}


EVENTS = {
    "created": ("새 예약", "New booking"),
    "modified": ("예약 변경", "Booking changed"),
    "canceled": ("예약 취소", "Booking canceled"),
}


@pytest.mark.parametrize("event", EVENTS)
def test_each_event_mails_each_receiving_member_once_in_their_language(
    event, hub_client, django_capture_on_commit_callbacks, content, members
):
    _room_type, standalone, _package = content
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, standalone, total_amount=1_234_567)
    if event != "created":
        mail.outbox = []
        if event == "modified":
            call(
                hub_client,
                django_capture_on_commit_callbacks,
                "put",
                f"/bookings/{number}/modify",
                {"guest": {"name": "이준"}},
            )
        else:
            call(hub_client, django_capture_on_commit_callbacks, "post", f"/bookings/{number}/cancel")

    sent = by_recipient()

    assert set(sent) == {"ko@example.com", "en@example.com"}
    korean_subject, english_subject = EVENTS[event]
    booking = Booking.objects.get(vendor_booking_number=number)
    korean, english = sent["ko@example.com"], sent["en@example.com"]
    assert korean.subject.startswith(f"[{booking.property.name}] {korean_subject}: {booking.guest_name}, ")
    assert english.subject.startswith(f"[{booking.property.name}] {english_subject}: {booking.guest_name}, ")
    assert number in korean.subject
    assert number in english.subject
    link = f"http://127.0.0.1:8000/admin/bookings/booking/{booking.pk}/change/"
    for message in (korean, english):
        html, mimetype = message.alternatives[0]
        assert mimetype == "text/html"
        for fact in (booking.guest_name, "1,234,567 KRW", "Channel Seven", link):
            assert fact in message.body
            assert fact in html
    # The stay in Korea time, in each language's own words and date format.
    checkin, checkout = (moment.astimezone(KOREA) for moment in (booking.checkin, booking.checkout))
    assert (
        f"숙박 기간: {checkin.year}년 {checkin.month}월 {checkin.day}일 15:00 \u2013 "
        f"{checkout.year}년 {checkout.month}월 {checkout.day}일 11:00"
    ) in korean.body
    with translation.override("en"):
        assert f"Stay: {date_format(checkin)} 15:00 \u2013 {date_format(checkout)} 11:00" in english.body
    assert f"투숙객: {booking.guest_name} (2명)" in korean.body
    assert f"Guest: {booking.guest_name} (2 guests)" in english.body


def test_each_change_of_a_booking_is_its_own_e_mail_sent_once(
    hub_client, django_capture_on_commit_callbacks, content, members
):
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, content[1])
    mail.outbox = []
    for name in ("이준", "Kim Minji"):
        call(
            hub_client,
            django_capture_on_commit_callbacks,
            "put",
            f"/bookings/{number}/modify",
            {"guest": {"name": name}},
        )
    assert sorted(message.to[0] for message in mail.outbox) == [
        "en@example.com",
        "en@example.com",
        "ko@example.com",
        "ko@example.com",
    ]

    # A send job run again (a worker that died before the job's end) sends nothing more.
    sent = SentMail.objects.filter(user=members["en"], key__contains=":modified:").first()
    booking_id, event, occurrence = sent.key.removeprefix("booking:").split(":")
    booking_email_send_task.apply((int(booking_id), event, members["en"].pk, occurrence, sent.event_at.isoformat()))
    assert len(mail.outbox) == 4


def test_jobs_recorded_before_occurrences_still_send_their_e_mails(
    hub_client, django_capture_on_commit_callbacks, content, members
):
    # Jobs recorded by the release before carry no occurrence and no event time: an upgrade loses none.
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, content[1])
    booking = Booking.objects.get(vendor_booking_number=number)
    mail.outbox = []
    booking_email_send_task.apply((booking.pk, "modified", members["en"].pk))
    with django_capture_on_commit_callbacks(execute=True):
        booking_notify_task.apply((booking.pk, "canceled"))
    run_queued(django_capture_on_commit_callbacks, {SEND_TASK})
    assert sorted(message.to[0] for message in mail.outbox) == ["en@example.com", "en@example.com", "ko@example.com"]


def test_a_hold_the_hub_never_confirmed_mails_nobody(hub_client, django_capture_on_commit_callbacks, content, members):
    _room_type, standalone, _package = content
    number = call(hub_client, django_capture_on_commit_callbacks, "post", "/bookings", create_body(standalone))[
        "vendor_booking_number"
    ]
    call(hub_client, django_capture_on_commit_callbacks, "put", f"/bookings/{number}/modify", {"special_comment": "x"})
    call(hub_client, django_capture_on_commit_callbacks, "post", f"/bookings/{number}/cancel")

    assert mail.outbox == []


def test_confirming_again_mails_nobody_again(hub_client, django_capture_on_commit_callbacks, content, members):
    _room_type, standalone, _package = content
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, standalone)
    assert len(mail.outbox) == 2

    call(hub_client, django_capture_on_commit_callbacks, "put", f"/bookings/{number}/confirm")

    assert len(mail.outbox) == 2


def test_a_cms_booking_confirmed_on_create_is_mailed_once(
    hub_client, django_capture_on_commit_callbacks, content, members
):
    room_type, standalone, _package = content
    open_channel(
        standalone.property,
        3,
        channel_type="cms",
        room_type_codes={room_type.vendor_id: "DLX"},
        rate_plan_codes={standalone.vendor_id: "DLX-RO"},
    )
    body = create_body(standalone, channel_id=3, channel_name="Direct channel (CMS)")

    answer = call(hub_client, django_capture_on_commit_callbacks, "post", "/bookings", body)
    call(hub_client, django_capture_on_commit_callbacks, "put", f"/bookings/{answer['vendor_booking_number']}/confirm")

    assert answer["status"] == "confirmed"
    assert set(by_recipient()) == {"ko@example.com", "en@example.com"}
    assert all("Direct channel (CMS)" in message.body for message in mail.outbox)


def test_the_hub_gets_its_answer_when_the_mail_server_is_down(
    hub_client, django_capture_on_commit_callbacks, content, members, settings
):
    settings.EMAIL_BACKEND = "tests.bookings.mail_backends.DownBackend"
    mail_backends.reset()
    _room_type, standalone, _package = content

    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, standalone)
    answer = call(hub_client, django_capture_on_commit_callbacks, "post", f"/bookings/{number}/cancel")

    assert answer["status"] == "canceled"
    assert Booking.objects.get(vendor_booking_number=number).status == Booking.Status.CANCELED
    # Every send was tried (each member, each retry), none delivered.
    assert mail_backends.calls["refused"] == 2 * 2 * (1 + booking_email_send_task.max_retries)
    assert mail.outbox == []


def test_the_answer_only_queues_the_mails_after_the_commit(
    hub_client, django_capture_on_commit_callbacks, content, members
):
    _room_type, standalone, _package = content
    drain_queue()
    number = call(hub_client, django_capture_on_commit_callbacks, "post", "/bookings", create_body(standalone))[
        "vendor_booking_number"
    ]
    with django_capture_on_commit_callbacks() as callbacks:
        response = hub_client.put(f"/bookings/{number}/confirm")
        # Inside the transaction nothing is queued yet.
        assert drain_queue() == []

    assert response.status_code == 200
    for callback in callbacks:
        callback()
    booking = Booking.objects.get(vendor_booking_number=number)
    assert [args[:2] for name, args, _kwargs in drain_queue() if name == NOTIFY_TASK] == [[booking.pk, "created"]]
    assert mail.outbox == []


def test_the_send_is_retried_on_smtp_errors(hub_client, django_capture_on_commit_callbacks, content, members, settings):
    settings.EMAIL_BACKEND = "tests.bookings.mail_backends.FlakyBackend"
    _room_type, standalone, _package = content
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, standalone)
    booking = Booking.objects.get(vendor_booking_number=number)
    mail_backends.reset(fail_first=2)

    result = booking_email_send_task.apply((booking.pk, "created", members["en"].pk, "retried", NOW))

    assert result.successful()
    assert mail_backends.calls["refused"] == 2
    assert [message.to for message in mail.outbox] == [["en@example.com"]]


def test_a_server_that_stays_down_fails_the_task_after_its_retries(
    hub_client, django_capture_on_commit_callbacks, content, members, settings
):
    settings.EMAIL_BACKEND = "tests.bookings.mail_backends.DownBackend"
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, content[1])
    booking = Booking.objects.get(vendor_booking_number=number)
    mail_backends.reset()

    result = booking_email_send_task.apply((booking.pk, "modified", members["ko"].pk, "down", NOW))

    assert result.failed()
    assert mail_backends.calls["refused"] == 1 + booking_email_send_task.max_retries


def test_a_member_who_turned_mails_off_after_the_event_gets_none(
    hub_client, django_capture_on_commit_callbacks, content, members
):
    number = confirmed_booking(hub_client, django_capture_on_commit_callbacks, content[1])
    booking = Booking.objects.get(vendor_booking_number=number)
    NotificationPreference.objects.create(user=members["ko"], booking_emails=False)
    mail.outbox = []

    result = current_app.tasks[SEND_TASK].apply((booking.pk, "created", members["ko"].pk, "off", NOW))

    assert result.successful()
    assert mail.outbox == []

"""The inbox without a hub: who sees which events, read state per user, folding, the badge, the screen's
links and actions, the e-mail opt-in through real jobs, and the purge."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.template import Context, Template
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from bookings.models import NotificationPreference
from inbox.choices import EventKind
from inbox.models import Event, InboxPreference
from inbox.selectors import events_for_user, unread_count
from inbox.services import NOTIFY_TASK, SEND_TASK, event_record, events_mark_read, events_purge
from tests.factories import member
from tests.login import Client
from tests.queued import run_queued

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_queues")]

CHANGELIST = reverse("admin:inbox_event_changelist")


def canceled(prop, object_id=1, **fields):
    return event_record(
        property_id=prop.pk,
        kind=EventKind.BOOKING_CANCELED,
        object_id=object_id,
        subject=f"VH{object_id}",
        detail="Kim Minji",
        **fields,
    )


def rejected(prop, object_id=1):
    return event_record(
        property_id=prop.pk, kind=EventKind.LICENSE_REJECTED, object_id=object_id, subject="#7", detail="Blurry"
    )


def logged_in(user, language="en"):
    client = Client()
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def seen(user):
    return {(event.property.name, event.kind) for event in events_for_user(user)}


def test_each_person_sees_the_events_of_the_properties_they_hold_a_role_at(
    property_a, property_b, staff_a, manager_a, superuser
):
    canceled(property_a)
    rejected(property_a)
    canceled(property_b)
    manager_b = member(property_b, "manager")

    assert seen(staff_a) == {("Property A", EventKind.BOOKING_CANCELED)}  # licenses are the managers'
    assert seen(manager_a) == {("Property A", EventKind.BOOKING_CANCELED), ("Property A", EventKind.LICENSE_REJECTED)}
    assert seen(manager_b) == {("Property B", EventKind.BOOKING_CANCELED)}
    assert len(seen(superuser)) == 3
    manager_a.is_active = False
    assert seen(manager_a) == set()


def test_another_propertys_event_is_not_found_on_the_screen(property_a, property_b, manager_a):
    other = canceled(property_b)
    client = logged_in(manager_a)

    assert client.get(reverse("admin:inbox_event_open", args=[other.pk])).status_code == 404
    assert "VH1" not in client.get(CHANGELIST).content.decode()


def test_read_state_is_per_person_and_a_repeat_makes_it_unread_again(property_a, manager_a):
    colleague = member(property_a, "manager")
    event = canceled(property_a)
    events_mark_read(user=manager_a, events=[event])

    assert (unread_count(manager_a), unread_count(colleague)) == (0, 1)
    later = canceled(property_a, now=timezone.now() + timedelta(hours=3))
    assert later.pk == event.pk
    assert (unread_count(manager_a), unread_count(colleague)) == (1, 1)


def test_repeats_within_a_day_fold_into_one_event_counted(property_a, manager_a):
    now = timezone.now()
    for hours in (0, 5, 23):
        canceled(property_a, now=now + timedelta(hours=hours))
    canceled(property_a, object_id=2, now=now)  # another booking: its own event

    assert Event.objects.count() == 2
    folded = Event.objects.get(object_id=1)
    assert folded.count == 3
    page = logged_in(manager_a).get(CHANGELIST).content.decode()
    assert "3 times" in page
    assert "3회" in logged_in(manager_a, "ko").get(CHANGELIST).content.decode()

    # A day after the last one: a new event.
    assert canceled(property_a, now=now + timedelta(hours=23, days=1, minutes=1)).pk != folded.pk


def test_the_badge_counts_unread_events_in_one_query_and_says_99_plus(property_a, manager_a):
    request = RequestFactory().get("/admin/")
    request.user = manager_a
    badge = Template("{% load vendorhub_inbox %}{% inbox_badge %}{% inbox_badge %}")
    canceled(property_a)

    with CaptureQueriesContext(connection) as queries:
        html = badge.render(Context({"request": request}))
    assert len(queries) == 1
    assert '<span class="inbox-badge"' in html
    assert ">1</span>" in html

    Event.objects.bulk_create(
        Event(property=property_a, kind=EventKind.BOOKING_CANCELED, object_id=n, subject="x", last_at=timezone.now())
        for n in range(2, 102)
    )
    del request._inbox_unread
    assert ">99+</span>" in badge.render(Context({"request": request}))


def test_the_header_shows_the_badge_on_every_admin_page(property_a, manager_a):
    canceled(property_a)
    page = logged_in(manager_a, "ko").get(reverse("admin:index")).content.decode()
    assert f'href="{CHANGELIST}"' in page
    assert "받은 알림" in page
    assert ">1</span>" in page


def test_an_event_links_only_where_the_viewers_admin_would_show_it(property_a, staff_a, manager_a, superuser):
    booking = canceled(property_a)
    license_event = rejected(property_a)
    open_booking = reverse("admin:inbox_event_open", args=[booking.pk])
    open_license = reverse("admin:inbox_event_open", args=[license_event.pk])

    staff_page = logged_in(staff_a).get(CHANGELIST).content.decode()
    assert open_booking in staff_page
    assert "Blurry" not in staff_page
    manager_page = logged_in(manager_a).get(CHANGELIST).content.decode()
    assert open_booking in manager_page
    assert open_license in manager_page
    # Staff without the bookings screen (a custom group) get the sentence without a link.
    staff_a.groups.clear()
    assert open_booking not in logged_in(staff_a).get(CHANGELIST).content.decode()


def test_opening_an_event_marks_it_read_and_leads_where_it_is_handled(property_a, manager_a):
    event = canceled(property_a, object_id=41)
    client = logged_in(manager_a)

    response = client.get(reverse("admin:inbox_event_open", args=[event.pk]))

    assert response.status_code == 302
    assert response["Location"] == reverse("admin:bookings_booking_change", args=[41])
    assert unread_count(manager_a) == 0


def test_filters_mark_selected_and_mark_all_read(property_a, manager_a):
    first, second, third = (canceled(property_a, object_id=n) for n in (1, 2, 3))
    client = logged_in(manager_a)

    client.post(CHANGELIST, {"action": "mark_read", "_selected_action": [first.pk]})
    unread_page = client.get(CHANGELIST + "?read=no").content.decode()
    assert "VH2" in unread_page
    assert "VH1" not in unread_page
    assert "VH1" in client.get(CHANGELIST + "?read=yes").content.decode()
    assert "VH1" not in client.get(CHANGELIST + "?kind=license_rejected").content.decode()

    response = client.post(reverse("admin:inbox_event_read_all"))
    assert response.status_code == 302
    assert unread_count(manager_a) == 0
    assert client.get(reverse("admin:inbox_event_read_all")).status_code == 405
    assert {second.pk, third.pk} <= {event.pk for event in events_for_user(manager_a).filter(unread=False)}


def test_opted_in_people_get_a_new_event_by_e_mail_in_their_language_through_jobs(
    property_a, manager_a, superuser, django_capture_on_commit_callbacks
):
    manager_a.email = "manager@example.com"
    manager_a.save()
    NotificationPreference.objects.create(user=manager_a, language="en")
    member(property_a, "manager", email="quiet@example.com")  # never opted in
    korean_manager = member(property_a, "manager", email="ko@example.com")
    InboxPreference.objects.create(user=korean_manager, emails=True)
    response = logged_in(manager_a).post(reverse("admin:inbox_event_emails"), {"emails": "1"})
    assert response.status_code == 302
    assert InboxPreference.objects.get(user=manager_a).emails

    with django_capture_on_commit_callbacks(execute=True):
        event = rejected(property_a)
    ran = run_queued(django_capture_on_commit_callbacks, (NOTIFY_TASK, SEND_TASK))

    assert ran == [NOTIFY_TASK, SEND_TASK, SEND_TASK]
    sent = {message.to[0]: message for message in mail.outbox}
    assert set(sent) == {"manager@example.com", "ko@example.com"}
    english, korean = sent["manager@example.com"], sent["ko@example.com"]
    assert english.subject == "[Property A] License rejected"
    assert "The hub rejected license request #7: Blurry" in english.body
    assert korean.subject == "[Property A] 라이선스 반려"
    assert "허브가 라이선스 요청 #7을(를) 반려했습니다: Blurry" in korean.body
    assert reverse("admin:inbox_event_open", args=[event.pk]) in english.alternatives[0][0]

    # A repeat within the day is no new e-mail.
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        rejected(property_a)
    assert run_queued(django_capture_on_commit_callbacks, (NOTIFY_TASK, SEND_TASK)) == []


def test_a_persons_own_event_reaches_them_alone_without_a_property(
    property_a, manager_a, superuser, django_capture_on_commit_callbacks
):
    for person in (manager_a, superuser):
        person.email = f"{person.username}@example.com"
        person.save()
        InboxPreference.objects.create(user=person, emails=True)
    NotificationPreference.objects.create(user=manager_a, language="en")

    with django_capture_on_commit_callbacks(execute=True):
        event = event_record(
            property_id=None,
            user_id=manager_a.pk,
            kind=EventKind.LOGIN_TRIED,
            object_id=manager_a.pk,
            subject=manager_a.username,
            detail="5",
        )
    ran = run_queued(django_capture_on_commit_callbacks, (NOTIFY_TASK, SEND_TASK))
    page = logged_in(manager_a).get(CHANGELIST)

    assert ran == [NOTIFY_TASK, SEND_TASK]
    [message] = mail.outbox
    assert message.to == [manager_a.email]
    assert message.subject == "Login tried from many addresses"
    assert f"Your user name {manager_a.username} was tried with wrong passwords from 5 different" in message.body
    assert list(events_for_user(superuser)) == []
    assert reverse("admin:inbox_event_open", args=[event.pk]) in page.content.decode()
    assert logged_in(manager_a).get(reverse("admin:inbox_event_open", args=[event.pk]))["Location"] == reverse(
        "admin:second_factor"
    )


def test_read_events_go_after_a_month_and_every_event_after_a_year(property_a, manager_a):
    now = timezone.now()
    old_read = canceled(property_a, object_id=1, now=now - timedelta(days=31))
    old_unread = canceled(property_a, object_id=2, now=now - timedelta(days=31))
    recent_read = canceled(property_a, object_id=3, now=now - timedelta(days=29))
    ancient = canceled(property_a, object_id=4, now=now - timedelta(days=366))
    events_mark_read(user=manager_a, events=[old_read, recent_read])
    Event.objects.filter(pk=ancient.pk).update(created_at=now - timedelta(days=366))
    Event.objects.filter(pk__in=[old_read.pk, old_unread.pk]).update(created_at=now - timedelta(days=31))

    events_purge(now=now)

    assert set(Event.objects.values_list("pk", flat=True)) == {old_unread.pk, recent_read.pk}

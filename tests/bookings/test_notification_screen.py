"""The Booking e-mails screen through the admin: each user sets their own choice; managers see who
receives at the properties they manage, and nobody else's."""

import pytest
from django.conf import settings
from django.urls import reverse

from bookings.models import NotificationPreference
from tests.factories import PASSWORD, member

pytestmark = pytest.mark.django_db

URL = reverse("admin:bookings_notificationpreference_changelist")


def logged_in(client, user):
    assert client.login(username=user.username, password=PASSWORD)
    return client


def test_a_member_turns_mails_off_and_picks_english_for_themselves(client, staff_a):
    logged_in(client, staff_a)
    page = client.get(URL)
    assert page.status_code == 200
    assert page.context["form"].initial == {"booking_emails": True, "language": "ko"}
    assert "vh-recipients" not in page.text  # staff do not see the other members

    response = client.post(URL, {"language": "en"})  # the unticked checkbox is not sent

    assert response.status_code == 302
    preference = NotificationPreference.objects.get(user=staff_a)
    assert (preference.booking_emails, preference.language) == (False, "en")
    assert client.get(URL).context["form"].initial == {"booking_emails": False, "language": "en"}


def test_an_unknown_language_is_a_form_error(client, staff_a):
    response = logged_in(client, staff_a).post(URL, {"booking_emails": "on", "language": "fr"})

    assert response.status_code == 200
    assert "language" in response.context["form"].errors
    assert not NotificationPreference.objects.exists()


def test_a_manager_sees_who_receives_at_their_properties_only(client, property_a, property_b, manager_a):
    # The screen speaks Korean, the default language.
    off = member(property_a, "staff", email="off@example.com")
    NotificationPreference.objects.create(user=off, booking_emails=False, language="en")
    no_address = member(property_a, "staff", email="")
    stranger = member(property_b, "manager")

    rows = {row["user"]: row for row in logged_in(client, manager_a).get(URL).context["members"]}

    assert set(rows) == {manager_a, off, no_address}
    assert (rows[manager_a]["receives"], rows[manager_a]["language"]) == (True, "한국어")
    assert (rows[off]["receives"], rows[off]["reason"], rows[off]["language"]) == (False, "수신 끔", "English")
    assert (rows[no_address]["receives"], rows[no_address]["reason"]) == (False, "메일 주소 없음")
    assert stranger not in rows


def test_nobody_opens_or_changes_another_persons_setting(client, staff_a, manager_a):
    theirs = NotificationPreference.objects.create(user=manager_a)
    logged_in(client, staff_a)

    page = client.get(reverse("admin:bookings_notificationpreference_change", args=[theirs.pk]))
    client.post(reverse("admin:bookings_notificationpreference_change", args=[theirs.pk]), {"booking_emails": ""})

    assert page.status_code == 302
    theirs.refresh_from_db()
    assert theirs.booking_emails is True
    assert client.get(reverse("admin:bookings_notificationpreference_add")).status_code == 403


def test_a_reader_in_english_is_offered_english_and_told_mail_goes_in_korean_until_saved(client, staff_a):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = logged_in(client, staff_a).get(URL)

    assert page.context["form"].initial["language"] == "en"
    assert '<option value="en" selected>English</option>' in page.text
    assert "until you do, booking e-mails go to you in 한국어." in page.text

    client.post(URL, {"booking_emails": "on", "language": "en"})
    assert "until you do" not in client.get(URL).text


def test_a_member_without_an_address_reads_once_why_not(client, property_a, manager_a):
    member(property_a, "staff", email="")
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    page = logged_in(client, manager_a).get(URL).text

    assert '<span class="sync-badge sync-none">No e-mail address</span>' in page
    assert "No No" not in page

"""The login's lockout stops guessing without locking staff out (issue 38, point 6): wrong passwords lock a
user name from one address only; an address trying many names is refused for a while; a name tried from
many addresses is slowed down, never locked, and its owner told in the inbox once per window; a browser
that passed the second factor is not held back by other addresses' failures; each page says which."""

import re
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import authenticate
from django.core.cache import cache
from django.db import connection
from django.test import Client, RequestFactory
from django_otp.plugins.otp_totp.models import TOTPDevice

from inbox.choices import EventKind
from inbox.models import Event
from inbox.selectors import events_for_user
from tests.factories import UserFactory
from tests.login import totp_code, totp_device
from tests.security.test_login import LOGIN, log_in, logged_in

pytestmark = pytest.mark.django_db

#: The address log_in logs in from by default: a hotel's, shared by its staff.
HOTEL = "198.51.100.7"


@pytest.fixture(autouse=True)
def _owners_not_told_yet():
    """Whether an owner was told this window lives in the cache, which outlives a test."""
    cache.clear()


def text(response):
    return response.content.decode()


def some_time_passes(seconds):
    """Move every recorded failure seconds into the past (the rules read the failures' times)."""
    for attempt in AccessAttempt.objects.all():
        AccessAttempt.objects.filter(pk=attempt.pk).update(
            attempt_time=attempt.attempt_time - timedelta(seconds=seconds)
        )


# --- The pair: a user name from one address ------------------------------------------------------


def test_five_wrong_passwords_lock_the_name_from_that_address_only():
    admin = UserFactory(username="admin", is_staff=True)
    answers = [log_in(Client(), admin.username, f"guess-{n}").status_code for n in range(5)]

    from_there = log_in(Client(), admin.username)
    from_elsewhere = log_in(client := Client(), admin.username, address="198.51.100.20")

    assert answers == [200] * 4 + [429]  # the fifth failure locks
    assert from_there.status_code == 429
    assert "from this address: logging in with it from here is locked for 15 more minutes" in text(from_there)
    assert from_elsewhere.status_code == 302
    assert logged_in(client)


def test_one_persons_typos_leave_the_colleagues_behind_the_same_address_alone():
    typist, colleague = UserFactory(is_staff=True), UserFactory(is_staff=True)
    for n in range(30):
        log_in(Client(), typist.username, f"typo-{n}")

    assert log_in(client := Client(), colleague.username).status_code == 302
    assert logged_in(client)


def test_hammering_a_locked_pair_does_not_prolong_it():
    user = UserFactory(is_staff=True)
    for n in range(5):
        log_in(Client(), user.username, f"guess-{n}")
    some_time_passes(14 * 60)
    for n in range(20):
        log_in(Client(), user.username, f"more-{n}")  # refused unread, not counted
    some_time_passes(61)

    assert log_in(Client(), user.username).status_code == 302


def test_the_lockout_page_says_so_in_korean_and_leads_to_a_menu_that_exists():
    user = UserFactory(is_staff=True)
    for n in range(5):
        log_in(Client(), user.username, f"guess-{n}")

    page = log_in(Client(), user.username, language="ko")

    assert page.status_code == 429
    assert 840 <= int(page["Retry-After"]) <= 900  # the 15 minutes after the fifth failure
    assert "이 주소에서 이 사용자 이름으로 틀린 비밀번호가 너무 많습니다" in text(page)
    # The menu the page names is the sidebar's (accounts.apps: django-axes' app renamed).
    assert "계정과 보안 → 로그인 실패에서" in text(page)


# --- The address: many names from one address ------------------------------------------------------


def test_an_address_failing_for_ten_names_is_refused_for_a_while_and_says_so():
    people = [UserFactory(is_staff=True) for _ in range(2)]
    for n in range(9):
        log_in(Client(), f"guess-{n}", "wrong")
    assert log_in(Client(), people[0].username).status_code == 302  # nine names: still open

    log_in(Client(), "guess-9", "wrong")
    refused = log_in(Client(), people[1].username, language="ko")
    english = log_in(Client(), people[1].username)
    elsewhere = log_in(Client(), people[1].username, address="198.51.100.20")

    assert refused.status_code == 429
    assert "이 주소에서 너무 많은 사용자 이름으로 로그인에 실패했습니다" in text(refused)
    assert "too many different user names: logins from it are refused for 15 more minutes" in text(english)
    assert elsewhere.status_code == 302
    some_time_passes(15 * 60)
    assert log_in(Client(), people[1].username).status_code == 302


# --- The name: one name from many addresses ----------------------------------------------------------


def tried_from_five_addresses(username):
    for n in range(5):
        log_in(Client(), username, "wrong", address=f"192.0.2.{n + 1}")


def test_a_name_tried_from_many_addresses_waits_between_tries_but_is_never_locked():
    owner = UserFactory(is_staff=True)
    tried_from_five_addresses(owner.username)

    waits = [log_in(Client(), owner.username, address="198.51.100.50").status_code for _ in range(10)]
    page = log_in(Client(), owner.username, address="198.51.100.50")
    some_time_passes(10)
    after_the_wait = log_in(client := Client(), owner.username, address="198.51.100.50")

    assert set(waits) == {429}
    # At most the 10 seconds after the last failure, however long the requests above took.
    assert 1 <= int(re.search(r"try again in (\d+) seconds?", text(page))[1]) <= 10
    assert "It is not locked" in text(page)
    # The refused tries were not counted against the owner's own address: the wait over, they log in.
    assert after_the_wait.status_code == 302
    assert logged_in(client)


def test_four_addresses_do_not_slow_a_name_down():
    owner = UserFactory(is_staff=True)
    for n in range(4):
        log_in(Client(), owner.username, "wrong", address=f"192.0.2.{n + 1}")

    assert log_in(Client(), owner.username, address="198.51.100.50").status_code == 302


def test_the_owner_is_told_in_their_inbox_once_per_window():
    owner, other = UserFactory(is_staff=True), UserFactory(is_staff=True, is_superuser=True)
    tried_from_five_addresses(owner.username)
    some_time_passes(10)
    for n in range(3):
        log_in(Client(), owner.username, "wrong", address=f"192.0.2.{n + 10}")
        some_time_passes(10)

    event = Event.objects.get(kind=EventKind.LOGIN_TRIED)
    assert (event.user, event.property, event.count, event.detail) == (owner, None, 1, "5")
    assert list(events_for_user(owner)) == [event]
    assert list(events_for_user(other)) == []  # a superuser sees every property's events, not others' logins


def test_a_name_nobody_has_tells_nobody():
    tried_from_five_addresses("nobody-here")

    assert not Event.objects.exists()


# --- The second factor: not held back by other addresses --------------------------------------------


def passed_second_factor(owner, *, address):
    """A browser where owner logged in with their password and app's code."""
    device = totp_device(owner)
    client = Client()
    log_in(client, owner.username, address=address)
    answer = client.post("/admin/second-factor/verify/", {"code": totp_code(device), "next": "/admin/"})
    assert answer["Location"] == "/admin/"
    client.post("/admin/logout/")
    return client


def test_a_browser_that_passed_the_second_factor_is_not_held_back_by_other_addresses():
    owner = UserFactory(is_staff=True, is_superuser=True)
    own_browser = passed_second_factor(owner, address="198.51.100.50")
    tried_from_five_addresses(owner.username)
    for n in range(10):
        log_in(Client(), f"colleague-{n}", "wrong", address="198.51.100.50")  # the owner's address refused too

    fresh_browser = log_in(Client(), owner.username, address="198.51.100.50")
    own = log_in(own_browser, owner.username, address="198.51.100.50")
    # A later login: the app's code of the first one is spent (django-otp refuses a period twice).
    TOTPDevice.objects.filter(user=owner).update(last_t=-1)
    verified = own_browser.post("/admin/second-factor/verify/", {"code": totp_code(TOTPDevice.objects.get(user=owner))})

    assert fresh_browser.status_code == 429
    assert own["Location"] == "/admin/"
    assert verified.status_code == 302
    assert own_browser.get("/admin/").status_code == 200


def test_the_browser_mark_is_the_owners_only():
    owner, other = UserFactory(is_staff=True, is_superuser=True), UserFactory(is_staff=True)
    browser = passed_second_factor(owner, address="198.51.100.50")
    tried_from_five_addresses(other.username)

    assert log_in(browser, other.username, address="198.51.100.50").status_code == 429


# --- Concurrent failures (PostgreSQL: real row locks) -------------------------------------------------


def _wrong_password(username, address):
    try:
        request = RequestFactory().post(LOGIN, REMOTE_ADDR=address)
        return authenticate(request, username=username, password="wrong")
    finally:
        connection.close()


def _race(tries):
    with ThreadPoolExecutor(max_workers=10) as pool:
        list(pool.map(lambda args: _wrong_password(*args), tries))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_failures_are_each_counted(settings):
    # No rule refuses a try here: every racing failure must be counted, none lost.
    settings.AXES_FAILURE_LIMIT = settings.LOGIN_NAME_ADDRESS_LIMIT = settings.LOGIN_ADDRESS_NAME_LIMIT = 100
    owner = UserFactory(is_staff=True)

    _race([(owner.username, HOTEL)] * 12 + [(owner.username, f"192.0.2.{n}") for n in range(1, 13)])
    _race([(f"guess-{n}", HOTEL) for n in range(12)])

    pair = AccessAttempt.objects.filter(username=owner.username, ip_address=HOTEL)
    assert sum(pair.values_list("failures_since_start", flat=True)) == 12
    assert AccessAttempt.objects.filter(username=owner.username).values("ip_address").distinct().count() == 13
    assert AccessAttempt.objects.filter(ip_address=HOTEL).values("username").distinct().count() == 13


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_failures_from_many_addresses_tell_the_owner_once():
    owner = UserFactory(is_staff=True)

    _race([(owner.username, f"192.0.2.{n}") for n in range(1, 21)])

    assert AccessAttempt.objects.filter(username=owner.username).values("ip_address").distinct().count() >= 5
    event = Event.objects.get(kind=EventKind.LOGIN_TRIED, user=owner)
    assert event.count == 1

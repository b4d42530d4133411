"""The login (issue 25, items 2 and 6): a superuser unlocks a locked-out login (the lockout's rules:
test_lockout.py); superusers and managers reach no admin page before a
second factor (an authenticator app, or a recovery code); staff may add one; and a login lands on the
dashboard, never on a 404."""

import re

import pytest
from axes.models import AccessAttempt
from django.contrib import admin
from django.test import Client
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from tests.factories import PASSWORD, PropertyFactory, UserFactory, member
from tests.login import Client as VerifiedClient
from tests.login import totp_code, totp_device

pytestmark = pytest.mark.django_db

LOGIN = "/admin/login/"


def log_in(client, username, password=PASSWORD, *, address="198.51.100.7", language="en"):
    return client.post(
        LOGIN + "?next=/admin/",
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE=language,
    )


def logged_in(client):
    return "_auth_user_id" in client.session


# --- Lockout (the rules themselves: test_lockout.py) ------------------------------------------


def test_a_superuser_unlocks_a_locked_out_user():
    user = UserFactory(is_staff=True)
    for _ in range(5):
        log_in(Client(), user.username, "wrong")
    assert log_in(Client(), user.username).status_code == 429
    superuser = VerifiedClient()
    superuser.force_login(UserFactory(is_staff=True, is_superuser=True))

    response = superuser.post(
        reverse("admin:axes_accessattempt_changelist"),
        {"action": "unlock", "_selected_action": list(AccessAttempt.objects.values_list("pk", flat=True))},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )

    assert "lockout lifted" in response.content.decode()
    assert log_in(client := Client(), user.username).status_code == 302
    assert logged_in(client)


# --- The second factor --------------------------------------------------------------------------


def admin_pages():
    """Every page of the admin site that needs no id, and every registered model's list, add and change
    page (with an id that need not exist: the second factor comes before any lookup)."""
    names = [
        pattern.name
        for pattern in admin.site.get_urls()
        if getattr(pattern, "name", None)
        and not pattern.pattern.converters
        and pattern.name not in {"login", "logout", "jsi18n"}
    ]
    urls = []
    for name in names:
        try:
            urls.append(reverse(f"admin:{name}"))
        except NoReverseMatch:
            continue
    for model in admin.site._registry:
        info = f"admin:{model._meta.app_label}_{model._meta.model_name}"
        for page, args in (("changelist", []), ("change", [1]), ("history", [1])):
            try:  # a model admin may serve its list only (the reports)
                urls.append(reverse(f"{info}_{page}", args=args))
            except NoReverseMatch:
                continue
    return sorted(set(urls) - {reverse("admin:second_factor"), reverse("admin:second_factor_verify")})


@pytest.mark.parametrize("who", ["superuser", "manager"])
def test_superusers_and_managers_reach_no_admin_page_before_the_second_factor(who):
    user = UserFactory(is_staff=True, is_superuser=True) if who == "superuser" else member(PropertyFactory(), "manager")
    client = Client()
    client.force_login(user)
    pages = admin_pages()
    assert len(pages) > 100

    reached = [url for url in pages if not client.get(url)["Location"].startswith("/admin/second-factor/")]

    assert reached == []


def test_staff_need_none_until_they_set_one_up():
    staff = member(PropertyFactory(), "staff")
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200

    totp_device(staff)
    client.force_login(staff)

    assert client.get("/admin/")["Location"] == "/admin/second-factor/verify/?next=%2Fadmin%2F"


def test_a_manager_sets_up_the_app_and_gets_recovery_codes():
    manager = member(PropertyFactory(), "manager")
    client = Client()
    first = log_in(client, manager.username)
    assert first["Location"] == "/admin/"

    to_setup = client.get("/admin/")
    page = client.get(to_setup["Location"], HTTP_ACCEPT_LANGUAGE="en")
    device = TOTPDevice.objects.get(user=manager, confirmed=False)
    wrong = client.post(to_setup["Location"], {"action": "confirm", "code": "000000", "next": "/admin/"})
    # The wait django-otp imposes after a wrong code (a second, doubling with each) has passed.
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, throttling_failure_timestamp=None)
    right = client.post(to_setup["Location"], {"action": "confirm", "code": totp_code(device), "next": "/admin/"})
    codes_page = client.get(right["Location"], HTTP_ACCEPT_LANGUAGE="en")

    assert to_setup["Location"] == "/admin/second-factor/?next=%2Fadmin%2F"
    assert "<svg" in page.content.decode()
    assert 'id="vh-otp-secret"' in page.content.decode()
    assert wrong.status_code == 200
    assert wrong.context["form"].errors["code"]
    codes = [token.token for token in StaticToken.objects.filter(device__user=manager)]
    assert len(codes) == 10
    assert all(code in codes_page.content.decode() for code in codes)
    assert client.get("/admin/").status_code == 200
    # Shown once only.
    assert codes[0] not in client.get("/admin/second-factor/").content.decode()


def test_after_the_password_a_code_or_a_recovery_code_once():
    superuser = UserFactory(is_staff=True, is_superuser=True)
    device = totp_device(superuser)
    StaticToken.objects.create(device=superuser.staticdevice_set.create(name="recovery codes"), token="abcd2345")

    first, second, third = Client(), Client(), Client()
    for client in (first, second, third):
        log_in(client, superuser.username)
    verify = "/admin/second-factor/verify/"
    with_app = first.post(verify, {"code": totp_code(device), "next": "/admin/"})
    with_recovery = second.post(verify, {"code": "ABCD 2345", "next": "https://evil.example/"})
    used_again = third.post(verify, {"code": "abcd2345", "next": "/admin/"}, HTTP_ACCEPT_LANGUAGE="ko")

    assert with_app["Location"] == "/admin/"
    assert with_recovery["Location"] == "/admin/"  # a next= of another site is refused
    assert first.get("/admin/").status_code == second.get("/admin/").status_code == 200
    assert used_again.status_code == 200
    assert "1초 뒤에" in used_again.content.decode()  # the wait after a wrong code, said
    assert third.get("/admin/").status_code == 302


@pytest.mark.parametrize(("role", "may_remove"), [("staff", True), ("manager", False)])
def test_only_those_who_need_not_have_it_turn_it_off(role, may_remove):
    user = member(PropertyFactory(), role)
    client = VerifiedClient()
    totp_device(user)
    client.force_login(user)

    client.post("/admin/second-factor/", {"action": "remove"})

    assert TOTPDevice.objects.filter(user=user).exists() is not may_remove


# --- Where a login lands ---------------------------------------------------------------------------


def test_the_address_alone_leads_to_the_dashboard():
    assert Client().get("/")["Location"] == "/admin/"


def test_a_login_with_a_foreign_next_lands_on_the_dashboard():
    staff = member(PropertyFactory(), "staff")
    client = Client()

    response = client.post(
        LOGIN + "?next=https://evil.example/", {"username": staff.username, "password": PASSWORD}, follow=True
    )

    assert response.redirect_chain == [("/admin/", 302)]
    assert response.status_code == 200


def test_a_recovery_code_never_counts_as_a_wrong_app_code():
    # The app's device throttles its failures (2^(n-1) s after the n-th): recovery codes, right or used up,
    # are not tried on it, so the next app code passes at once.
    superuser = UserFactory(is_staff=True, is_superuser=True)
    device = totp_device(superuser)
    StaticToken.objects.create(device=superuser.staticdevice_set.create(name="recovery codes"), token="abcd2345")
    first, second, third = Client(), Client(), Client()
    for client in (first, second, third):
        log_in(client, superuser.username)
    verify = "/admin/second-factor/verify/"

    first.post(verify, {"code": "abcd2345", "next": "/admin/"})
    second.post(verify, {"code": "abcd2345", "next": "/admin/"})  # used up: a wrong recovery code
    device.refresh_from_db()
    after_app = third.post(verify, {"code": totp_code(device), "next": "/admin/"})

    assert device.throttling_failure_count == 0
    assert after_app["Location"] == "/admin/"


def test_the_wait_after_wrong_app_codes_is_said_on_the_page():
    superuser = UserFactory(is_staff=True, is_superuser=True)
    device = totp_device(superuser)
    client = Client()
    log_in(client, superuser.username)
    verify = "/admin/second-factor/verify/"

    first = client.post(verify, {"code": "000000"}, HTTP_ACCEPT_LANGUAGE="en")
    # Three wrong codes in a row: django-otp makes the next one wait 2^(3-1) = 4 seconds.
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_count=3, throttling_failure_timestamp=timezone.now()
    )
    fourth = client.post(verify, {"code": totp_code(device)}, HTTP_ACCEPT_LANGUAGE="ko")

    assert "in 1 second, type the code your app shows then" in first.content.decode()
    # 4 seconds from the last wrong code, less the moment the request took.
    assert 2 <= int(re.search(r"(\d+)초 뒤에", fourth.content.decode())[1]) <= 4
    assert client.get("/admin/").status_code == 302

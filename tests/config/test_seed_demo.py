"""seed_demo: a demo property and an admin with a generated password and recovery codes, idempotent;
under `make run` the login waits for demo_login, which shows it once the web server answers."""

import re
import time
from io import StringIO

import django.test
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command

from config import demo_login
from core.background.heartbeat import BEAT, WORKER_PREFIX, heartbeat
from integration.models import Property, PropertyMembership
from tests.hub_fixtures import all_synced, assert_hub_holds, wait_until

pytestmark = pytest.mark.django_db


def seed():
    out = StringIO()
    call_command("seed_demo", stdout=out)
    return out.getvalue()


def printed_password(output):
    match = re.search(r"as admin / (\S+)", output)
    return match and match.group(1)


def printed_codes(output):
    """The recovery codes: lines of five (django-otp's are eight characters of base32)."""
    return [code for line in re.findall(r"(?:[a-z2-7]{8}  ){4}[a-z2-7]{8}", output) for code in line.split()]


def test_first_run_creates_the_demo_and_prints_a_working_password(client):
    output = seed()

    password = printed_password(output)
    assert password
    assert client.login(username="admin", password=password)
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser
    demo = Property.objects.get()
    assert PropertyMembership.objects.get(user=admin, property=demo).role == "manager"


def test_the_printed_codes_pass_the_second_step_without_an_app():
    output = seed()
    password, codes = printed_password(output), printed_codes(output)

    for code in codes[:2]:  # each code is one login
        browser = django.test.Client()  # types the code itself (tests.login's client would skip the step)
        browser.post("/admin/login/", {"username": "admin", "password": password, "next": "/admin/"})
        asked = browser.get("/admin/")
        passed = browser.post("/admin/second-factor/verify/", {"code": code, "next": "/admin/"})

        assert asked["Location"] == "/admin/second-factor/verify/?next=%2Fadmin%2F"  # not the app's set-up
        assert passed["Location"] == "/admin/"
        assert browser.get("/admin/").status_code == 200
    assert len(set(codes)) == 10


def test_under_make_run_the_login_waits_for_the_box_and_is_shown_once(tmp_path, monkeypatch):
    monkeypatch.setattr(demo_login, "LOGIN_FILE", tmp_path / "demo-login.txt")
    out = StringIO()
    call_command("seed_demo", "--keep-login", stdout=out)
    monkeypatch.setattr(demo_login, "web_settled", lambda origin, timeout: origin == "http://127.0.0.1:8000")
    first, second = StringIO(), StringIO()

    call_command("demo_login", stdout=first)
    call_command("demo_login", stdout=second)

    assert printed_password(out.getvalue()) is None
    box = first.getvalue().splitlines()
    assert box[0] == box[-1] == "+" + "-" * (len(box[0]) - 2) + "+"
    assert all(line.startswith("| ") and line.endswith(" |") and len(line) == len(box[0]) for line in box[1:-1])
    assert printed_password(first.getvalue())
    assert len(printed_codes(first.getvalue())) == 10
    assert printed_password(second.getvalue()) is None
    assert "http://127.0.0.1:8000/admin/" in second.getvalue()


def test_a_login_not_shown_yet_outlives_the_next_run(tmp_path, monkeypatch):
    """make run stopped before the web server answered: the next run's box still shows the password."""
    monkeypatch.setattr(demo_login, "LOGIN_FILE", tmp_path / "demo-login.txt")
    monkeypatch.setattr(demo_login, "web_settled", lambda origin, timeout: True)
    call_command("seed_demo", "--keep-login", stdout=StringIO())
    call_command("seed_demo", "--keep-login", stdout=StringIO())
    box = StringIO()

    call_command("demo_login", stdout=box)

    assert printed_password(box.getvalue())


@pytest.mark.django_db(transaction=True)
def test_the_box_waits_for_the_workers_and_the_first_sends(live_server):
    started = time.monotonic()
    assert demo_login.web_settled(live_server.url, timeout=1)  # answers, but no worker yet: after the timeout
    assert time.monotonic() - started >= 1
    heartbeat(WORKER_PREFIX + "worker@dev", [queue.name for queue in settings.CELERY_TASK_QUEUES])
    heartbeat(BEAT)

    started = time.monotonic()
    assert demo_login.web_settled(live_server.url, timeout=30)
    assert time.monotonic() - started < 5
    assert not demo_login.web_settled("http://127.0.0.1:1", timeout=1)  # nothing answers


def test_second_run_changes_nothing_and_says_how_to_set_a_password(client):
    password = printed_password(seed())

    output = seed()

    assert printed_password(output) is None
    assert "manage.py changepassword admin" in output
    assert Property.objects.count() == 1
    assert client.login(username="admin", password=password)


def test_password_is_generated_not_fixed():
    first = printed_password(seed())
    get_user_model().objects.filter(username="admin").delete()

    second = printed_password(seed())

    assert first != second
    assert len(second) >= 16


def test_the_demo_has_rooms_three_models_and_their_rate_plans():
    seed()

    demo = Property.objects.get()
    assert demo.room_types.count() == 3
    assert sorted(demo.rate_plan_models.values_list("type", flat=True)) == ["package", "package", "standalone"]
    assert demo.rate_plans.count() == 9
    assert set(demo.translations.values_list("locale", flat=True)) == {"ko-KR", "en-US"}


@pytest.mark.django_db(transaction=True)
def test_the_demo_reaches_the_sandbox_in_full(worker):
    seed()

    wait_until(all_synced, timeout=60, message="the demo synced")
    demo = Property.objects.get()
    for obj in (demo, *demo.room_types.all(), *demo.rate_plan_models.all(), *demo.rate_plans.all()):
        assert_hub_holds(obj)


@pytest.mark.django_db(transaction=True)
def test_the_demo_opens_two_hub_channels_and_a_cms_channel_with_one_request_pending(worker, settings):
    from hubsandbox import state
    from integration.channels.services import property_channels_refresh
    from integration.models import ChannelOpenRequest, PropertyChannel

    settings.HUB_SANDBOX_CHANNEL_REVIEW_SECONDS = 0  # the sandbox reviews at once, as it does after 30 s
    seed()
    wait_until(all_synced, timeout=60, message="the demo synced")
    demo = Property.objects.get()
    assert ChannelOpenRequest.objects.filter(property=demo).count() == 4

    property_channels_refresh(property=demo)  # what beat does every minute while a request is under review
    wait_until(all_synced, timeout=60, message="the prepared settings and mapping sent")
    statuses = dict(PropertyChannel.objects.filter(property=demo).values_list("channel__channel_id", "status"))
    assert {cid: statuses[cid] for cid in (1, 2, 3, 5)} == {1: "open", 2: "open", 3: "open", 5: "requested"}
    assert state.channel_settings_of(demo.vendor_id, 2)["settings"]["rateplans"] == {
        "ondol-early-bird": False,
        "daecheong-suite-early-bird": False,
        "family-annex-early-bird": False,
    }
    mapped = state.channel_settings_of(demo.vendor_id, 3)["mappings"]
    assert {entry["channel_code"] for entry in mapped["rateplans"]} == {"OND-RO", "DCS-RO"}
    # The sandbox now sells the demo's rooms on its open channels.
    assert state.channel_settings_of(demo.vendor_id, 1)["settings"]["on_sale"] is True

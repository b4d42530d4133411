"""seed_demo: a demo property and an admin with a generated password, idempotent."""

import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

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


def test_first_run_creates_the_demo_and_prints_a_working_password(client):
    output = seed()

    password = printed_password(output)
    assert password
    assert client.login(username="admin", password=password)
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser
    demo = Property.objects.get()
    assert PropertyMembership.objects.get(user=admin, property=demo).role == "manager"


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

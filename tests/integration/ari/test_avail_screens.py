"""The availability levers' screens: a channel rule shows its preview before it is saved, its history can
be undone, the cut-off and lead days mark the days they change; a member of another property sees none."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from integration.models import (
    AriDirtyRange,
    ChannelAvailRule,
    ChannelAvailRuleChange,
    ChannelLeadDays,
    PropertyCutoff,
    SyncState,
)
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days
from tests.login import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(property_a, staff_a):
    rows = ari_property(property_a, room_types=1, packages=0)
    fill_days(rows, [day(n) for n in range(10)], allotment=5)
    channel = SalesChannelFactory(open_for=property_a, name="Yanolja")
    client = Client()
    client.force_login(staff_a)
    return client, rows[0][0], channel


def form(prop, channel, **extra):
    data = {
        "property": prop.pk,
        "room_type": "",
        "channel": channel.pk,
        "kind": "cap",
        "value": "2",
        "date_from": day(1).isoformat(),
        "date_to": day(3).isoformat(),
        "_save": "Save",
    }
    data.update(extra)
    return data


def test_a_rule_is_previewed_then_saved_and_undone(setup, property_a):
    client, room_type, channel = setup
    add_url = reverse("admin:integration_channelavailrule_add")

    preview = client.post(add_url, form(property_a, channel))

    assert preview.status_code == 200
    assert not ChannelAvailRule.objects.exists()
    rows = [(r.channel, r.start, r.end, r.before, r.after) for r in preview.context["preview"].rows]
    assert rows == [(channel, day(1), day(3), 5, 2)]
    assert preview.context["preview"].hub_requests == 1
    assert "재고 요청 1건" in preview.content.decode()

    saved = client.post(add_url, form(property_a, channel, _preview_confirmed="1"))
    assert saved.status_code == 302
    rule = ChannelAvailRule.objects.get()
    assert (rule.kind, rule.value, rule.date_from) == ("cap", 2, day(1))
    state = SyncState.objects.get(kind="ari_avails", object_id=room_type.pk)
    assert AriDirtyRange.objects.filter(state=state, date_from=day(1), date_to=day(3)).exists()

    change = ChannelAvailRuleChange.objects.get()
    history = client.get(reverse("admin:integration_channelavailrulechange_changelist"))
    assert history.status_code == 200
    assert "Yanolja" in history.content.decode()
    client.post(
        reverse("admin:integration_channelavailrulechange_changelist"),
        {"action": "undo", "_selected_action": [change.pk]},
    )
    assert not ChannelAvailRule.objects.exists()


def test_a_bad_rule_is_a_form_error(setup, property_a):
    client, _room_type, channel = setup
    add_url = reverse("admin:integration_channelavailrule_add")

    answer = client.post(
        add_url, form(property_a, channel, value="", date_to=day(0).isoformat(), date_from=day(2).isoformat())
    )

    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert set(errors) == {"value", "date_to"}


def test_another_propertys_rules_are_not_shown(setup, property_b):
    client, _room_type, channel = setup
    other = ChannelAvailRule.objects.create(
        property=property_b, channel=channel, date_from=day(1), date_to=day(2), kind="close"
    )

    answer = client.get(reverse("admin:integration_channelavailrule_change", args=[other.pk]))

    assert answer.status_code == 404


def test_cut_off_and_lead_days_screens_mark_the_days_they_change(setup, property_a):
    client, room_type, channel = setup
    SyncState.objects.all().delete()

    client.post(
        reverse("admin:integration_propertycutoff_add"),
        {"property": property_a.pk, "cutoff_time_0": "18:00", "cutoff_time": "18:00", "channels": [channel.pk]},
    )
    cutoff = PropertyCutoff.objects.get()
    assert cutoff.cutoff_time == datetime.time(18, 0)
    assert list(cutoff.channels.all()) == [channel]
    client.post(
        reverse("admin:integration_channelleaddays_add"),
        {"property": property_a.pk, "channel": channel.pk, "days": "3"},
    )
    assert ChannelLeadDays.objects.get().days == 3

    rows = AriDirtyRange.objects.filter(state__kind="ari_avails", state__object_id=room_type.pk)
    marked = {
        d
        for r in rows
        for d in (r.date_from + datetime.timedelta(days=n) for n in range((r.date_to - r.date_from).days + 1))
    }
    assert marked == {day(0), day(1), day(2)}


def test_a_rate_plan_default_out_of_range_is_a_form_error(setup, property_a):
    client, room_type, _channel = setup
    plan = room_type.rate_plans.get()
    data = {"rate_plan": plan.pk, "mode": "weekday", "monday": "-5", "tuesday": "90000"}

    answer = client.post(reverse("admin:integration_rateplandefault_add"), data)

    assert answer.status_code == 200
    assert set(answer.context["adminform"].form.errors) == {"monday"}
    assert client.post(reverse("admin:integration_rateplandefault_add"), {**data, "monday": "80000"}).status_code == 302


def test_a_close_out_carries_no_number_and_a_cap_needs_one(property_a):
    channel = SalesChannelFactory()
    values = {"property": property_a, "channel": channel, "date_from": day(1), "date_to": day(2)}
    for kind, value in (("close", 3), ("cap", None), ("hold_back", None)):
        with pytest.raises(IntegrityError), transaction.atomic():
            ChannelAvailRule.objects.create(kind=kind, value=value, **values)

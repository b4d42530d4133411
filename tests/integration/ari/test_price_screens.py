"""The prices per channel screen (expected price, commission and net per channel; a rule previewed, applied
and undone; the price guard's confirmation on the field) and the guard in the grid's cell editor and the
bulk edit."""

from decimal import Decimal

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from integration.ari.models_prices import ChannelPriceRule, PriceGuard, PriceMethod, PriceRuleChange
from integration.ari.services.price_rules import channel_commission_set, price_rule_set
from integration.models import RatePlanDay
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days

pytestmark = pytest.mark.django_db


def url(name, prop, *args):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk, *args])


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def priced(property_a):
    rows = ari_property(property_a)
    fill_days(rows, [day(1), day(2)])
    channel = SalesChannelFactory(channel_id=7, name="Booking", open_for=property_a)
    return rows[0][1], channel


def rule_post(client, prop, channel, *, method, value="", plan="", **extra):
    data = {"form": "rule", "channel": channel.pk, "rate_plan": plan, "method": method, "value": value, **extra}
    return client.post(url("ari_prices", prop), data)


def test_the_screen_shows_each_channel_price_expected_commission_and_net(staff_client, property_a, priced):
    _standalone, channel = priced
    channel_commission_set(prop=property_a, channel=channel, typed=Decimal(15))
    price_rule_set(prop=property_a, channel=channel, rate_plan=None, method=PriceMethod.NET, value=None)

    page = staff_client.get(url("ari_prices", property_a))

    assert page.status_code == 200
    (row,) = page.context["rows"]
    price = row[0].plans[0]
    assert (price.common, price.price, price.commission, price.net) == (100000, 117700, 17655, 100045)
    html = page.content.decode()
    assert "117,700" in html
    assert "100,045" in html
    assert "net target" in html
    assert "Not measured yet" in html


def test_the_screen_costs_the_same_queries_for_more_channels(staff_client, property_a, priced):
    staff_client.get(url("ari_prices", property_a))
    with CaptureQueriesContext(connection) as one:
        staff_client.get(url("ari_prices", property_a))
    for n in range(4):
        other = SalesChannelFactory(open_for=property_a)
        price_rule_set(prop=property_a, channel=other, rate_plan=None, method=PriceMethod.PERCENT, value=Decimal(n))
    with CaptureQueriesContext(connection) as five:
        staff_client.get(url("ari_prices", property_a))
    assert len(five) == len(one)


def test_a_rule_is_previewed_applied_and_undone(staff_client, property_a, priced):
    _standalone, channel = priced

    preview = rule_post(staff_client, property_a, channel, method="percent", value="10", preview="1")
    assert preview.context["preview"]["count"] == 2
    assert not ChannelPriceRule.objects.exists()  # a preview saves nothing

    fingerprint = preview.context["preview"]["fingerprint"]
    applied = rule_post(
        staff_client, property_a, channel, method="percent", value="10", apply="1", fingerprint=fingerprint
    )
    assert applied.status_code == 302
    assert ChannelPriceRule.objects.get().value == Decimal(10)
    change = PriceRuleChange.objects.get()
    assert "+10 %" in staff_client.get(url("ari_prices", property_a)).content.decode()

    undo = staff_client.get(url("ari_price_undo", property_a, change.pk))
    assert undo.context["preview"]["count"] == 2
    done = staff_client.post(
        url("ari_price_undo", property_a, change.pk), {"fingerprint": undo.context["preview"]["fingerprint"]}
    )
    assert done.status_code == 302
    assert not ChannelPriceRule.objects.exists()
    assert PriceRuleChange.objects.filter(undo_of=change).exists()


def test_a_stale_preview_applies_nothing(staff_client, property_a, priced):
    _standalone, channel = priced
    response = rule_post(staff_client, property_a, channel, method="percent", value="10", apply="1", fingerprint="old")
    assert response.status_code == 200
    assert not ChannelPriceRule.objects.exists()


def test_the_guard_asks_on_the_rule_field_and_refuses_past_the_floor(staff_client, property_a, priced):
    standalone, channel = priced
    PriceGuard.objects.create(rate_plan=standalone, floor=50000)

    big = rule_post(staff_client, property_a, channel, method="percent", value="80", preview="1")
    assert "confirm to save it" in big.context["forms"]["rule"].errors["confirm_prices"][0]
    low = rule_post(staff_client, property_a, channel, method="amount", value="-60000", preview="1")
    assert "below this rate plan's floor of 50,000 KRW" in low.context["forms"]["rule"].errors["value"][0]

    fingerprint = big.context["preview"]["fingerprint"]
    unconfirmed = rule_post(
        staff_client, property_a, channel, method="percent", value="80", apply="1", fingerprint=fingerprint
    )
    assert unconfirmed.status_code == 200
    assert not ChannelPriceRule.objects.exists()
    confirmed = rule_post(
        staff_client,
        property_a,
        channel,
        method="percent",
        value="80",
        apply="1",
        fingerprint=fingerprint,
        confirm_prices="on",
    )
    assert confirmed.status_code == 302
    assert ChannelPriceRule.objects.get().value == Decimal(80)


def test_bad_input_is_a_form_error(staff_client, property_a, priced):
    _standalone, channel = priced
    for value in ("abc", "2000"):
        response = rule_post(staff_client, property_a, channel, method="percent", value=value, preview="1")
        assert response.status_code == 200
        assert response.context["forms"]["rule"].errors
    guard = staff_client.post(url("ari_prices", property_a), {"form": "guard", "rate_plan": "x", "max_move": "-1"})
    assert guard.status_code == 200
    assert guard.context["forms"]["guard"].errors


def test_the_cell_editor_asks_to_confirm_a_large_move(staff_client, property_a, priced):
    standalone, _channel = priced
    cell = {"kind": "rate", "target": standalone.pk, "date": day(1).isoformat(), "value": "190000"}
    cell.update(channel="", business_day="")

    asked = staff_client.post(url("ari_cell", property_a), cell)
    assert asked.status_code == 400
    assert asked.json()["confirm"] is True
    assert "This moves the price by 90 % (100,000 → 190,000), more than 50 %" in asked.json()["error"]
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(1)).rate == 100000

    saved = staff_client.post(url("ari_cell", property_a), {**cell, "confirm": "1"})
    assert saved.json()["ok"] is True
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(1)).rate == 190000


def test_the_bulk_edit_asks_to_confirm_a_large_move(staff_client, property_a, priced):
    standalone, _channel = priced
    data = {
        "ranges_from": [day(1).isoformat()],
        "ranges_to": [day(2).isoformat()],
        "weekdays": [str(weekday) for weekday in range(7)],
        "targets": [f"rp:{standalone.pk}"],
        "operation": "increase_percent",
        "value": "60",
        "channel": "",
        "preview": "1",
    }
    asked = staff_client.post(url("ari_bulk", property_a), data)
    form = asked.context["form"]
    assert form.asks_price_confirmation
    assert "more than 50 %" in form.errors["confirm_prices"][0]
    assert asked.context["preview"]["blocked"]

    confirmed = staff_client.post(url("ari_bulk", property_a), {**data, "confirm_prices": "on"})
    assert not confirmed.context["preview"]["blocked"]
    applied = staff_client.post(
        url("ari_bulk", property_a),
        {**data, "confirm_prices": "on", "apply": "1", "digest": confirmed.context["preview"]["digest"]},
    )
    assert applied.status_code == 302
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(2)).rate == 160000


def test_the_channel_calendar_shows_the_price_its_rule_gives(staff_client, property_a, priced):
    standalone, channel = priced
    price_rule_set(prop=property_a, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=Decimal(10))

    page = staff_client.get(
        reverse("admin:integration_property_calendar", args=[property_a.pk]),
        {"month": day(1).strftime("%Y-%m"), "channel": channel.pk},
    )

    cell = next(
        cell
        for block in page.context["grid"].room_types
        for row in block.rate_plans
        for cell in row.cells
        if row.rate_plan == standalone and cell.day.date == day(1)
    )
    assert (cell.stored, cell.override, cell.ruled) == (100000, None, 110000)
    assert "vh-ruled" in page.content.decode()

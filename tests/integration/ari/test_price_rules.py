"""Channel prices kept as rules: markups rounded by the property's rule, net targets grossed up by the
commission in use (measured from reconciled settlements once there are enough), the price guard, the
rule's history and undo, and what the hub receives."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from integration.ari.dates import DateRange
from integration.ari.models_prices import (
    ChannelCommission,
    ChannelPriceRule,
    PriceGuard,
    PriceMethod,
    PriceRuleChange,
    PricingSettings,
    Rounding,
)
from integration.ari.resources import rate_plan_push_values
from integration.ari.selectors.prices import Rule, commission_of, expected_net, round_price, rule_price
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation, ari_edit_plan
from integration.ari.services.price_rules import (
    RuleStale,
    channel_commission_set,
    price_rule_plan,
    price_rule_set,
    price_rule_undo,
    price_rule_undo_plan,
)
from integration.ari.services.push import ari_channel_opened
from integration.models import AriDirtyRange, PropertyChannel, SyncAttempt
from integration.sync.services.batch import sync_pending
from tests.factories import PropertyFactory, hub_content
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days

D = Decimal


# --- The arithmetic, with exact numbers -------------------------------------------------------


@pytest.mark.parametrize(
    ("amount", "unit", "rounding", "expected"),
    [
        (D("135801.6"), 100, Rounding.NEAREST, 135800),
        (D("135850"), 100, Rounding.NEAREST, 135900),
        (D("135801.6"), 100, Rounding.UP, 135900),
        (D("135899"), 100, Rounding.DOWN, 135800),
        (D("135801.6"), 1000, Rounding.NEAREST, 136000),
        (D("135801.6"), 1, Rounding.NEAREST, 135802),
    ],
)
def test_prices_round_to_the_property_unit_in_its_direction(amount, unit, rounding, expected):
    assert round_price(amount, unit=unit, rounding=rounding) == expected


def test_markups_in_percent_and_in_krw_are_rounded_by_the_property_rule():
    assert rule_price(Rule(PriceMethod.PERCENT, D(10)), 123456, commission=D(0), unit=100, rounding="nearest") == 135800
    assert rule_price(Rule(PriceMethod.PERCENT, D(-15)), 99999, commission=D(0), unit=100, rounding="down") == 84900
    assert (
        rule_price(Rule(PriceMethod.AMOUNT, D(5050)), 100000, commission=D(0), unit=100, rounding="nearest") == 105100
    )
    assert rule_price(Rule(PriceMethod.AMOUNT, D(-200000)), 100000, commission=D(0), unit=100, rounding="up") == 0


def test_a_net_target_is_grossed_up_by_the_commission_and_rounded_up():
    # 100,000 / (1 - 0.15) = 117,647.06: up to 117,700, which leaves 100,045 after 15 %.
    price = rule_price(Rule(PriceMethod.NET), 100000, commission=D(15), unit=100, rounding="nearest")
    assert price == 117700
    assert expected_net(price, D(15)) == 100045
    assert rule_price(Rule(PriceMethod.NET), 80000, commission=D("12.5"), unit=1000, rounding="down") == 92000
    assert rule_price(Rule(PriceMethod.NET), 80000, commission=D(0), unit=100, rounding="nearest") == 80000


def test_the_measured_commission_is_used_from_enough_bookings_and_drift_warns():
    settings = PricingSettings(commission_sample=20, commission_drift=D(2))
    few = ChannelCommission(typed=D(15), measured=D("18.20"), sample_size=19)
    enough = ChannelCommission(typed=D(15), measured=D("18.20"), sample_size=20)
    close = ChannelCommission(typed=D(15), measured=D("16.00"), sample_size=20)

    assert commission_of(few, settings).in_use == D(15)
    assert commission_of(few, settings).drift == D("3.20")
    assert commission_of(enough, settings).in_use == D("18.20")
    assert commission_of(enough, settings).measured_in_use is True
    assert commission_of(close, settings).drift is None


# --- Rules and the guard ------------------------------------------------------------------------


@pytest.fixture
def priced(db, property_a):
    rows = ari_property(property_a)
    fill_days(rows, [day(1), day(2), day(3)])  # standalone 100,000; package +20,000
    channel = SalesChannelFactory(channel_id=7, open_for=property_a)
    return property_a, rows[0][1], rows[0][2][0], channel


@pytest.fixture
def property_a(db):
    return PropertyFactory(vendor_id="hanok")


def _push(plan, days):
    return rate_plan_push_values(plan, [DateRange(days[0], days[-1])])


def test_a_rule_gives_the_channel_its_price_in_the_push_and_marks_the_days_dirty(priced):
    prop, standalone, package, channel = priced
    PricingSettings.objects.create(property=prop, rounding_unit=1000, rounding=Rounding.NEAREST)

    change = price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D("12.5"))

    _common, channels = _push(standalone, [day(1), day(3)])
    assert channels == {7: [(day(n), {"rate": 113000}) for n in (1, 2, 3)]}  # 112,500 to the nearest 1,000
    assert _push(package, [day(1), day(3)])[1] == {}  # a package follows its standalone plan at the hub
    assert change.cell_count == 3
    assert list(AriDirtyRange.objects.filter(state__object_id=standalone.pk).values_list("date_from", "date_to")) == [
        (day(1), day(3))
    ]


def test_a_common_rate_change_recomputes_the_channel_price(priced):
    prop, standalone, _package, channel = priced
    price_rule_set(prop=prop, channel=channel, rate_plan=standalone, method=PriceMethod.AMOUNT, value=D(5000))
    ari_edit_apply(AriEdit((DateRange(day(2), day(2)),), Operation.SET, 120000, rate_plans=(standalone,)))

    _common, channels = _push(standalone, [day(1), day(3)])
    assert channels[7] == [(day(1), {"rate": 105000}), (day(2), {"rate": 125000}), (day(3), {"rate": 105000})]


def test_a_net_target_uses_the_typed_commission_until_enough_are_measured(priced):
    prop, standalone, _package, channel = priced
    channel_commission_set(prop=prop, channel=channel, typed=D(15))
    price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.NET, value=None)
    assert _push(standalone, [day(1), day(1)])[1][7] == [(day(1), {"rate": 117700})]

    AriDirtyRange.objects.all().delete()
    # Measured over 20 bookings: 20 %; 100,000 / 0.8 = 125,000. The net prices move and are marked again.
    moved = channel_commission_set(
        prop=prop, channel=channel, measured=(D(20), 20, datetime.date(2026, 1, 1), datetime.date(2026, 3, 1))
    )
    assert moved == 3
    assert _push(standalone, [day(1), day(1)])[1][7] == [(day(1), {"rate": 125000})]
    assert AriDirtyRange.objects.filter(state__object_id=standalone.pk).exists()


def test_a_channel_own_rate_wins_over_its_rule(priced):
    prop, standalone, _package, channel = priced
    ari_edit_apply(
        AriEdit((DateRange(day(2), day(2)),), Operation.SET, 99000, rate_plans=(standalone,), channel=channel)
    )
    plan = price_rule_plan(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(10))

    assert [move.date for move in plan.moves] == [day(1), day(3)]
    price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(10))
    assert [v["rate"] for _d, v in _push(standalone, [day(1), day(3)])[1][7]] == [110000, 99000, 110000]


def test_the_guard_refuses_a_rule_past_the_ceiling_and_asks_to_confirm_a_large_move(priced):
    prop, standalone, _package, channel = priced
    PriceGuard.objects.create(rate_plan=standalone, ceiling=150000, max_move=50)

    with pytest.raises(ValidationError) as refused:
        price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(60))
    assert "above this rate plan's ceiling of 150,000 KRW" in refused.value.message_dict["value"][0]

    assert (
        price_rule_plan(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(45)).warnings
        == []
    )  # 45 % is within the default 50 %
    PriceGuard.objects.filter(rate_plan=standalone).update(max_move=40)
    with pytest.raises(ValidationError) as asked:
        price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(45))
    assert asked.value.error_dict["value"][0].code == "confirm"
    assert not ChannelPriceRule.objects.exists()

    price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(45), confirmed=True)
    assert ChannelPriceRule.objects.get().value == D(45)


def test_a_rule_is_undone_as_a_new_change_back_to_what_it_was(priced):
    prop, _standalone, _package, channel = priced
    first = price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(10))
    second = price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.AMOUNT, value=D(3000))
    undo_plan = price_rule_undo_plan(second)

    assert [(m.old, m.new) for m in undo_plan.moves] == [(103000, 110000)] * 3
    back = price_rule_undo(change=second, expected=undo_plan.fingerprint())
    assert back.undo_of == second
    assert (ChannelPriceRule.objects.get().method, ChannelPriceRule.objects.get().value) == (PriceMethod.PERCENT, 10)
    # The first change's undo preview is stale once its prices move again.
    stale = price_rule_undo_plan(first).fingerprint()
    price_rule_set(prop=prop, channel=channel, rate_plan=None, method=PriceMethod.PERCENT, value=D(11))
    with pytest.raises(RuleStale):
        price_rule_undo(change=first, expected=stale)
    assert PriceRuleChange.objects.count() == 4


def test_a_rule_for_a_package_plan_is_refused(priced):
    prop, _standalone, package, channel = priced
    with pytest.raises(ValidationError) as refused:
        price_rule_set(prop=prop, channel=channel, rate_plan=package, method=PriceMethod.PERCENT, value=D(10))
    assert "rate_plan" in refused.value.message_dict


def test_the_guard_in_the_edits_refuses_past_the_floor_and_asks_for_large_moves(priced):
    _prop, standalone, package, _channel = priced
    PriceGuard.objects.create(rate_plan=standalone, floor=60000)
    PriceGuard.objects.create(rate_plan=package, ceiling=170000)
    ranges = (DateRange(day(1), day(1)),)

    low = ari_edit_plan(AriEdit(ranges, Operation.SET, 59000, rate_plans=(standalone,)))
    jump = ari_edit_plan(AriEdit(ranges, Operation.INCREASE_PERCENT, 51, rate_plans=(standalone,)))
    calm = ari_edit_plan(AriEdit(ranges, Operation.INCREASE_PERCENT, 50, rate_plans=(standalone,)))
    # A package's guard reads the price guests pay: 100,000 + 20,000 raised 50 % = 180,000.
    package_high = ari_edit_plan(AriEdit(ranges, Operation.INCREASE_PERCENT, 50, rate_plans=(package,)))

    assert low.errors[0].error == "59,000 is below this rate plan's floor of 60,000 KRW."
    assert jump.warnings[0].warning.startswith("This moves the price by 51 % (100,000 → 151,000)")
    assert not calm.warnings
    assert "above this rate plan's ceiling of 170,000 KRW" in package_high.errors[0].error
    with pytest.raises(ValidationError) as asked:
        ari_edit_apply(AriEdit(ranges, Operation.INCREASE_PERCENT, 51, rate_plans=(standalone,)))
    assert asked.value.error_list[0].code == "confirm"
    ari_edit_apply(AriEdit(ranges, Operation.INCREASE_PERCENT, 51, rate_plans=(standalone,), confirmed=True))


# --- At the hub -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_hub_receives_the_channel_rates_in_one_rates_call_per_rate_plan(hub):
    prop = PropertyFactory(vendor_id="hanok")
    room_type, _standalone_model, _package_model, plans = hub_content(prop)
    standalone = plans[0]
    sync_pending(full=True)
    markup = SalesChannelFactory(channel_id=3, open_for=prop)
    net = SalesChannelFactory(channel_id=5, open_for=prop)
    with transaction.atomic():
        year = (DateRange(day(0), day(364)),)
        ari_edit_apply(AriEdit(year, Operation.SET, 100000, rate_plans=(standalone,)))
    sync_pending()
    before = SyncAttempt.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    with transaction.atomic():
        channel_commission_set(prop=prop, channel=net, typed=D(15))
        price_rule_set(prop=prop, channel=markup, rate_plan=None, method=PriceMethod.PERCENT, value=D(10))
        price_rule_set(prop=prop, channel=net, rate_plan=standalone, method=PriceMethod.NET, value=None)
    sync_pending()

    calls = list(SyncAttempt.objects.filter(pk__gt=before).order_by("pk"))
    assert [call.path for call in calls] == [
        f"/gds/vendor/properties/hanok/roomtypes/{room_type.vendor_id}/rateplans/{standalone.vendor_id}/ari"
    ]
    first, last = day(0).isoformat(), day(364).isoformat()
    assert calls[0].request_body["channels"] == [
        {"channel_id": 3, "rates": [{"from": first, "to": last, "rate": 110000}]},
        {"channel_id": 5, "rates": [{"from": first, "to": last, "rate": 117700}]},
    ]
    assert hub.rates_of("hanok", room_type.vendor_id, standalone.vendor_id, channel_id=5)[day(200)]["rate"] == 117700


def test_a_rule_of_a_channel_that_opens_later_is_sent_when_it_opens(property_a):
    rows = ari_property(property_a)
    fill_days(rows, [day(1), day(2)])
    standalone = rows[0][1]
    channel = SalesChannelFactory(channel_id=9)
    price_rule_set(prop=property_a, channel=channel, rate_plan=None, method=PriceMethod.AMOUNT, value=D(1000))
    assert _push(standalone, [day(1), day(2)])[1] == {}  # not open: nothing for it yet
    AriDirtyRange.objects.all().delete()

    PropertyChannel.objects.create(property=property_a, channel=channel, status="open", on_sale=True)
    ari_channel_opened(property_a, channel)

    assert list(AriDirtyRange.objects.filter(state__object_id=standalone.pk).values_list("date_from", "date_to")) == [
        (day(1), day(2))
    ]
    assert _push(standalone, [day(1), day(2)])[1] == {9: [(day(1), {"rate": 101000}), (day(2), {"rate": 101000})]}


def test_the_database_keeps_one_rule_per_channel_and_plan(priced):
    prop, standalone, _package, channel = priced
    ChannelPriceRule.objects.create(property=prop, channel=channel, method=PriceMethod.PERCENT, value=D(5))
    ChannelPriceRule.objects.create(property=prop, channel=channel, rate_plan=standalone, method=PriceMethod.NET)
    for plan in (None, standalone):
        with pytest.raises(IntegrityError), transaction.atomic():
            ChannelPriceRule.objects.create(property=prop, channel=channel, rate_plan=plan, method=PriceMethod.NET)

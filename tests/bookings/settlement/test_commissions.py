"""A channel's commission measured from reconciled settlement records (1 - net price / total amount over its
last reconciled bookings) after each reconciliation, and the net targets that gross up by it."""

from decimal import Decimal

import pytest

from bookings.settlement.commissions import commission_measure
from bookings.settlement.services import reconciliation_run
from hubsandbox.settlement import FEE_PERCENT
from integration.ari.dates import DateRange
from integration.ari.models_prices import ChannelCommission, PriceMethod, PricingSettings
from integration.ari.resources import rate_plan_push_values
from integration.ari.services.price_rules import channel_commission_set, price_rule_set
from integration.models import AriDirtyRange, SalesChannel
from tests.bookings.settlement.test_settlement import reconcile, sell, selling  # noqa: F401 (fixture)
from tests.integration.ari.factories import day

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_reconciliation_measures_the_channel_commission_and_moves_its_net_prices(selling):  # noqa: F811
    prop = selling.property
    channel = SalesChannel.objects.get(channel_id=1)  # the sandbox sells on channel 1
    PricingSettings.objects.create(property=prop, commission_sample=3)
    channel_commission_set(prop=prop, channel=channel, typed=Decimal(15))
    price_rule_set(prop=prop, channel=channel, rate_plan=selling, method=PriceMethod.NET, value=None)
    assert rate_plan_push_values(selling, [DateRange(day(5), day(5))])[1][1] == [(day(5), {"rate": 117700})]
    for _ in range(3):
        sell(selling)
    AriDirtyRange.objects.all().delete()

    reconciliation_run(reconciliation_id=reconcile(prop).pk)

    row = ChannelCommission.objects.get(property=prop, channel=channel)
    assert (row.measured, row.sample_size) == (Decimal(FEE_PERCENT), 3)
    assert row.sample_first is not None
    assert row.sample_last is not None
    # 10 % measured over 3 bookings replaces the typed 15 %: 100,000 / 0.9 = 111,111.1, up to 111,200.
    assert rate_plan_push_values(selling, [DateRange(day(5), day(5))])[1][1] == [(day(5), {"rate": 111200})]
    assert AriDirtyRange.objects.filter(state__object_id=selling.pk).exists()
    assert commission_measure(prop, 1, sample=2).sample_size == 2

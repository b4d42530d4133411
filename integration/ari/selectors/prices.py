"""Channel prices computed from the common rate by the property's price rules: the rounding rule, each
channel's markup or net target, the commission in use for each channel (measured once there are enough
reconciled bookings, typed until then), and what a channel's price leaves as net."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import cast

from ...channels.selectors import open_channels
from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan
from ..models import ChannelRateDay, RatePlanDay
from ..models_prices import ChannelCommission, ChannelPriceRule, PriceMethod, PricingSettings, Rounding

_ROUNDINGS = {Rounding.NEAREST: ROUND_HALF_UP, Rounding.UP: ROUND_CEILING, Rounding.DOWN: ROUND_FLOOR}


def round_price(amount: Decimal, *, unit: int, rounding: str) -> int:
    """amount in KRW to a multiple of unit, the way rounding says (Rounding)."""
    steps = (amount / unit).quantize(Decimal(1), rounding=_ROUNDINGS[Rounding(rounding)])
    return int(steps) * unit


@dataclass(frozen=True)
class Rule:
    """A channel's price rule as the computation reads it: PriceMethod and its markup."""

    method: str
    value: Decimal = Decimal(0)


def rule_price(rule: Rule, common: int, *, commission: Decimal, unit: int, rounding: str) -> int:
    """The channel's price for a common rate under rule: a markup rounded by the property's rule, or the
    common rate taken as the net wanted and grossed up by the commission (percent), rounded up to the unit
    so that the net is never below the one wanted. Never below 0."""
    if rule.method == PriceMethod.NET:
        gross = Decimal(common) * 100 / (100 - commission)
        return max(0, round_price(gross, unit=unit, rounding=Rounding.UP))
    if rule.method == PriceMethod.PERCENT:
        price = Decimal(common) * (100 + rule.value) / 100
    else:
        price = Decimal(common) + rule.value
    return max(0, round_price(price, unit=unit, rounding=rounding))


def expected_net(price: int, commission: Decimal) -> int:
    """What a booking at price leaves after the commission (percent), to the won."""
    return int((Decimal(price) * (100 - commission) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class Commission:
    """A channel's commission for a property: the one in use (percent), whether it is the measured one,
    the typed and measured ones, the measurement's sample (size and booking dates) and the drift warning."""

    in_use: Decimal
    measured_in_use: bool
    typed: Decimal
    measured: Decimal | None = None
    sample_size: int = 0
    sample_first: datetime.date | None = None
    sample_last: datetime.date | None = None
    #: The measured commission less the typed one, when it passes the property's drift threshold.
    drift: Decimal | None = None


def commission_of(row: ChannelCommission | None, settings: PricingSettings) -> Commission:
    """The commission in use for a channel: the measured one from settings.commission_sample reconciled
    bookings on, the typed one before (0 without a row)."""
    if row is None:
        return Commission(in_use=Decimal(0), measured_in_use=False, typed=Decimal(0))
    measured_in_use = row.measured is not None and row.sample_size >= settings.commission_sample
    drift = None
    if row.measured is not None and abs(row.measured - row.typed) > settings.commission_drift:
        drift = row.measured - row.typed
    return Commission(
        in_use=row.measured if measured_in_use and row.measured is not None else row.typed,
        measured_in_use=measured_in_use,
        typed=row.typed,
        measured=row.measured,
        sample_size=row.sample_size,
        sample_first=row.sample_first,
        sample_last=row.sample_last,
        drift=drift,
    )


def pricing_settings(prop: Property) -> PricingSettings:
    """The property's rounding and commission settings (the defaults, unsaved, when it has none)."""
    return PricingSettings.objects.filter(property=prop).first() or PricingSettings(property=prop)


@dataclass
class PriceBook:
    """A property's price rules in memory: what the push and the screens compute channel prices with."""

    settings: PricingSettings
    #: {(channel pk, rate plan pk or None for all standalone plans): Rule}
    rules: dict[tuple[int, int | None], Rule] = field(default_factory=dict)
    #: {channel pk: Commission}
    commissions: dict[int, Commission] = field(default_factory=dict)

    def rule_for(self, channel_pk: int, plan: RatePlan) -> Rule | None:
        """The rule that prices plan on the channel: the plan's own, else the channel's rule for all plans;
        none for a package plan (its price stands on its standalone plan's)."""
        if plan.model.type == RatePlanType.PACKAGE:
            return None
        return self.rules.get((channel_pk, plan.pk)) or self.rules.get((channel_pk, None))

    def commission(self, channel_pk: int) -> Commission:
        return self.commissions.get(channel_pk) or commission_of(None, self.settings)

    def price(self, channel_pk: int, rule: Rule, common: int) -> int:
        """The channel's price for a common rate under rule."""
        return rule_price(
            rule,
            common,
            commission=self.commission(channel_pk).in_use,
            unit=self.settings.rounding_unit,
            rounding=self.settings.rounding,
        )


def price_book(prop: Property) -> PriceBook:
    """The property's price rules and commissions (three queries)."""
    settings = pricing_settings(prop)
    book = PriceBook(settings)
    for channel_id, plan_id, method, value in ChannelPriceRule.objects.filter(property=prop).values_list(
        "channel_id", "rate_plan_id", "method", "value"
    ):
        book.rules[(channel_id, plan_id)] = Rule(method, value)
    for row in ChannelCommission.objects.filter(property=prop):
        book.commissions[row.channel_id] = commission_of(row, settings)
    return book


def channel_rule_rates(
    rate_plan: RatePlan, common: dict[datetime.date, int], *, book: PriceBook | None = None
) -> dict[int, dict[datetime.date, int]]:
    """{hub channel id: {day: price}}: what each open channel with a rule for rate_plan sells it at on the
    days of common (day: the common rate), by its rule (a channel's own rate on a day is not read here)."""
    if rate_plan.model.type == RatePlanType.PACKAGE or not common:
        return {}
    book = book or price_book(rate_plan.property)
    prices: dict[int, dict[datetime.date, int]] = {}
    for channel_pk, hub_id in open_channels(rate_plan.property).values_list("pk", "channel_id"):
        rule = book.rule_for(channel_pk, rate_plan)
        if rule is not None:
            prices[hub_id] = {day: book.price(channel_pk, rule, rate) for day, rate in common.items()}
    return prices


def common_rates(rate_plans: Iterable[RatePlan], first: datetime.date, last: datetime.date) -> dict:
    """{rate plan pk: {day: common rate}} of standalone plans from first to last (days with a rate)."""
    rows = RatePlanDay.objects.filter(
        rate_plan__in=list(rate_plans), date__range=(first, last), rate__isnull=False
    ).values_list("rate_plan_id", "date", "rate")
    rates: dict[int, dict[datetime.date, int]] = {}
    for plan_id, day, rate in rows:
        rates.setdefault(plan_id, {})[day] = cast(int, rate)  # the filter keeps days with a rate
    return rates


def channel_override_days(
    channel_pk: int, rate_plans: Iterable[RatePlan], first: datetime.date, last: datetime.date
) -> set[tuple[int, datetime.date]]:
    """{(rate plan pk, day)} where the channel has its own rate (which wins over its rule)."""
    return set(
        ChannelRateDay.objects.filter(
            channel_id=channel_pk, rate_plan__in=list(rate_plans), date__range=(first, last), rate__isnull=False
        ).values_list("rate_plan_id", "date")
    )


@dataclass(frozen=True)
class PlanPrice:
    """A standalone plan on a channel for its next common rate: the date, the common rate, the channel's
    price, the commission it is expected to take and the net it leaves."""

    rate_plan: RatePlan
    date: datetime.date | None
    common: int | None
    price: int | None
    commission: int | None
    net: int | None


@dataclass(frozen=True)
class ChannelPrices:
    """One open channel on the prices screen: its rules, its commission and its plans' expected prices."""

    channel: object
    rules: list[tuple[RatePlan | None, Rule]]
    commission: Commission
    plans: list[PlanPrice]


def _plan_price(book: PriceBook, channel_pk: int, plan: RatePlan, rate: tuple[datetime.date, int] | None) -> PlanPrice:
    """plan on the channel for its next common rate (rate: its day and amount; None: none within reach)."""
    if rate is None:
        return PlanPrice(plan, None, None, None, None, None)
    day, common = rate
    rule = book.rule_for(channel_pk, plan)
    price = common if rule is None else book.price(channel_pk, rule, common)
    net = expected_net(price, book.commission(channel_pk).in_use)
    return PlanPrice(plan, day, common, price, price - net, net)


def channel_price_rows(prop: Property, *, first: datetime.date, days: int = 31) -> list[ChannelPrices]:
    """Each channel open for prop with its rules, commission and, for each standalone plan's first common
    rate from first on (within days), the price, expected commission and expected net (a fixed number of
    queries, whatever the channels and plans)."""
    book = price_book(prop)
    plans = list(
        RatePlan.objects.filter(property=prop, model__type=RatePlanType.STANDALONE)
        .select_related("model", "room_type")
        .order_by("room_type__name", "pk")
    )
    by_pk = {plan.pk: plan for plan in plans}
    rates = common_rates(plans, first, first + datetime.timedelta(days=days - 1))
    next_rate = {pk: min(days_.items()) for pk, days_ in rates.items()}
    rows = []
    for channel in open_channels(prop):
        commission = book.commission(channel.pk)
        prices = [_plan_price(book, channel.pk, plan, next_rate.get(plan.pk)) for plan in plans]
        rules = sorted(
            (
                (by_pk.get(plan_pk) if plan_pk else None, rule)
                for (ch, plan_pk), rule in book.rules.items()
                if ch == channel.pk
            ),
            key=lambda item: (item[0] is not None, item[0].pk if item[0] else 0),
        )
        rows.append(ChannelPrices(channel, rules, commission, prices))
    return rows

"""Changing a channel's price rule (a markup or a net target over the common rate): its preview (each
channel price it moves, with the price guard's refusals and confirmations), its apply with its history and
undo, and the channel commissions (typed by staff, measured from reconciled settlement records) that net
targets gross up by. Every change marks the channel prices it moves dirty, so the outbox sends each rate
plan's rates once."""

import datetime
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ...channels.models import SalesChannel
from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan
from ...content.names import display_name
from ...sync.models import ResourceKind
from ..dates import ari_window
from ..models_prices import (
    ChannelCommission,
    ChannelPriceRule,
    PriceGuard,
    PriceMethod,
    PriceRuleChange,
    PricingSettings,
)
from ..selectors.prices import PriceBook, Rule, channel_override_days, common_rates, price_book
from .edits import User
from .guard import NO_GUARD, guard_refusal, guard_warning, price_guards
from .push import ari_mark_dirty

#: The largest markup: +1000 % or 10,000,000 KRW (a discount down to -90 % or the price itself).
MAX_PERCENT = Decimal(1000)
MIN_PERCENT = Decimal(-90)
MAX_AMOUNT = Decimal(10_000_000)


@dataclass
class PriceMove:
    """One channel price (a rate plan on a day) before and after a rule change; error: why the change
    cannot apply (the guard's floor or ceiling); warning: what staff must confirm (a large move)."""

    rate_plan: RatePlan
    date: datetime.date
    old: int
    new: int
    error: str = ""
    warning: str = ""


@dataclass
class RulePlan:
    """What a change of a channel's rule would do to its prices over the hub's window."""

    moves: list[PriceMove] = field(default_factory=list)

    @property
    def errors(self) -> list[PriceMove]:
        return [move for move in self.moves if move.error]

    @property
    def warnings(self) -> list[PriceMove]:
        return [move for move in self.moves if move.warning and not move.error]

    def fingerprint(self) -> str:
        """What the preview showed: its apply refuses to write anything else."""
        cells = [(m.rate_plan.pk, m.date.isoformat(), m.old, m.new, m.error) for m in self.moves]
        return hashlib.sha256(json.dumps(cells).encode()).hexdigest()


class RuleStale(Exception):
    """The prices a rule change moves are no longer those its preview showed."""

    def __init__(self, plan: RulePlan) -> None:
        super().__init__("The prices changed since the preview.")
        self.plan = plan


def price_rule_validate(*, prop: Property, rate_plan: RatePlan | None, method: str, value: Decimal | None) -> dict:
    """Field errors of a rule (method "" removes it), as a dict for a form."""
    if rate_plan is not None and (rate_plan.property_id != prop.pk):
        return {"rate_plan": _("Choose a rate plan of this property.")}
    if rate_plan is not None and rate_plan.model.type == RatePlanType.PACKAGE:
        return {"rate_plan": _("A package's price follows its standalone plan: give the rule to that plan.")}
    if method and method not in PriceMethod.values:
        return {"method": _("Choose a method.")}
    if method == PriceMethod.PERCENT and (value is None or not MIN_PERCENT <= value <= MAX_PERCENT):
        return {"value": _("Give a markup from %(min)s to %(max)s %%.") % {"min": MIN_PERCENT, "max": MAX_PERCENT}}
    if method == PriceMethod.AMOUNT and (value is None or value != value.to_integral() or abs(value) > MAX_AMOUNT):
        return {"value": _("Give a whole amount of KRW up to %(max)s.") % {"max": f"{MAX_AMOUNT:,}"}}
    return {}


def _plans_ruled(prop: Property, rate_plan: RatePlan | None) -> list[RatePlan]:
    """The standalone plans a rule for rate_plan (None: all plans) prices."""
    if rate_plan is not None:
        return [rate_plan]
    return list(
        RatePlan.objects.filter(property=prop, model__type=RatePlanType.STANDALONE)
        .select_related("model")
        .order_by("pk")
    )


def _prices(book: PriceBook, channel: SalesChannel, plan: RatePlan, rate: int) -> int:
    """The channel's price of plan for a common rate under book (the common rate without a rule)."""
    rule = book.rule_for(channel.pk, plan)
    return rate if rule is None else book.price(channel.pk, rule, rate)


def price_rule_plan(
    *, prop: Property, channel: SalesChannel, rate_plan: RatePlan | None, method: str, value: Decimal | None
) -> RulePlan:
    """Each channel price over the hub's window that setting the rule (method "" removes it) moves, old and
    new, checked against each rate plan's guard. Days where the channel has its own rate keep it."""
    before = price_book(prop)
    after = price_book(prop)
    key = (channel.pk, rate_plan.pk if rate_plan is not None else None)
    if method:
        after.rules[key] = Rule(method, value if value is not None and method != PriceMethod.NET else Decimal(0))
    else:
        after.rules.pop(key, None)
    return _moves(prop, channel, before, after)


def _moves(prop: Property, channel: SalesChannel, before: PriceBook, after: PriceBook) -> RulePlan:
    plans = _plans_ruled(prop, None)
    first, last = ari_window()
    rates = common_rates(plans, first, last)
    own = channel_override_days(channel.pk, plans, first, last)
    guards = price_guards(plans)
    plan = RulePlan()
    for rate_plan in plans:
        guard = guards.get(rate_plan.pk, NO_GUARD)
        for day, rate in sorted(rates.get(rate_plan.pk, {}).items()):
            if (rate_plan.pk, day) in own:
                continue
            old, new = _prices(before, channel, rate_plan, rate), _prices(after, channel, rate_plan, rate)
            if old != new:
                refusal = guard_refusal(guard, new)
                plan.moves.append(
                    PriceMove(rate_plan, day, old, new, refusal, "" if refusal else guard_warning(guard, old, new))
                )
    return plan


@transaction.atomic
def price_rule_set(
    *,
    prop: Property,
    channel: SalesChannel,
    rate_plan: RatePlan | None,
    method: str,
    value: Decimal | None,
    user: User | None = None,
    confirmed: bool = False,
    expected: str | None = None,
    undo_of: PriceRuleChange | None = None,
) -> PriceRuleChange | None:
    """Set (method "" removes) the channel's price rule for rate_plan (None: all its standalone plans) as
    one change by user, and mark the channel prices it moves dirty. Raises ValidationError (by field, code
    "confirm" when only confirming large moves would apply it) and RuleStale when expected (the preview's
    fingerprint) no longer matches. Returns the change (None when the rule stays as it was)."""
    errors = price_rule_validate(prop=prop, rate_plan=rate_plan, method=method, value=value)
    if errors:
        raise ValidationError(errors)
    # One rule change of a property at a time: the preview's prices stay those applied.
    Property.objects.select_for_update(of=("self",)).filter(pk=prop.pk).first()
    plan = price_rule_plan(prop=prop, channel=channel, rate_plan=rate_plan, method=method, value=value)
    _check(plan, expected=expected, confirmed=confirmed)
    rules = ChannelPriceRule.objects.filter(property=prop, channel=channel, rate_plan=rate_plan)
    old = rules.first()
    old_rule = (old.method, old.value) if old else ("", None)
    new_value = None if not method else (value if method != PriceMethod.NET else Decimal(0))
    if old_rule == (method, new_value) or (not old and not method):
        return None
    if not method:
        rules.delete()
    elif old is None:
        ChannelPriceRule.objects.create(
            property=prop, channel=channel, rate_plan=rate_plan, method=method, value=new_value or Decimal(0)
        )
    else:
        rules.update(method=method, value=new_value, updated_at=timezone.now())
    _mark(plan)
    return PriceRuleChange.objects.create(
        property=prop,
        channel=channel,
        rate_plan=rate_plan,
        user=user if user is not None and user.is_authenticated else None,
        old_method=old_rule[0],
        old_value=old_rule[1],
        new_method=method,
        new_value=new_value,
        undo_of=undo_of,
        cell_count=len(plan.moves),
    )


def _check(plan: RulePlan, *, expected: str | None, confirmed: bool) -> None:
    """Raise RuleStale when plan is not the one previewed (expected), ValidationError when the guard refuses
    a price or asks for a confirmation not given."""
    if expected is not None and plan.fingerprint() != expected:
        raise RuleStale(plan)
    if plan.errors:
        refused = [f"{move.date} · {display_name(move.rate_plan)}: {move.error}" for move in plan.errors[:5]]
        raise ValidationError({"value": refused})
    if plan.warnings and not confirmed:
        raise ValidationError({"value": ValidationError(plan.warnings[0].warning, code="confirm")})


def price_rule_undo_plan(change: PriceRuleChange) -> RulePlan:
    """What undoing change (setting its channel's rule back to what it was) would move now."""
    return price_rule_plan(
        prop=change.property,
        channel=change.channel,
        rate_plan=change.rate_plan,
        method=change.old_method,
        value=change.old_value,
    )


def price_rule_undo(*, change: PriceRuleChange, user: User | None = None, expected: str) -> PriceRuleChange | None:
    """Set change's rule back to what it was before, as a new change (its preview's fingerprint:
    expected). The undo is confirmed by its preview; the floor and ceiling still apply."""
    return price_rule_set(
        prop=change.property,
        channel=change.channel,
        rate_plan=change.rate_plan,
        method=change.old_method,
        value=change.old_value,
        user=user,
        confirmed=True,
        expected=expected,
        undo_of=change,
    )


def _mark(plan: RulePlan) -> None:
    """Mark the moved channel prices dirty: one outbox row per rate plan, its changed days as ranges."""
    dates: dict[RatePlan, list[datetime.date]] = defaultdict(list)
    for move in plan.moves:
        dates[move.rate_plan].append(move.date)
    for rate_plan, days in dates.items():
        ari_mark_dirty(rate_plan, kind=ResourceKind.ARI_RATES, dates=days)


# --- Commissions ------------------------------------------------------------------------------


@transaction.atomic
def channel_commission_set(
    *,
    prop: Property,
    channel: SalesChannel,
    typed: Decimal | None = None,
    measured: tuple[Decimal | None, int, datetime.date | None, datetime.date | None] | None = None,
) -> int:
    """Record the commission staff typed for the channel, or the one measured from its reconciled
    bookings (measured: percent, sample size, first and last booking date), and mark the prices of its net
    targets dirty where the commission in use changes them. Returns how many channel prices moved."""
    Property.objects.select_for_update(of=("self",)).filter(pk=prop.pk).first()
    before = price_book(prop)
    row, _created = ChannelCommission.objects.get_or_create(property=prop, channel=channel)
    if typed is not None:
        row.typed = typed
    if measured is not None:
        row.measured, row.sample_size, row.sample_first, row.sample_last = measured
        row.measured_at = timezone.now()
    row.save()
    after = price_book(prop)
    if before.commission(channel.pk).in_use == after.commission(channel.pk).in_use:
        return 0
    plan = _moves(prop, channel, before, after)
    _mark(plan)
    return len(plan.moves)


@transaction.atomic
def pricing_settings_save(*, settings: PricingSettings) -> int:
    """Save a property's rounding and commission settings, and mark the channel prices the change moves
    (a new rounding unit, or a commission that now is measured). Returns how many moved."""
    prop = settings.property
    Property.objects.select_for_update(of=("self",)).filter(pk=prop.pk).first()
    before = price_book(prop)
    settings.save()
    after = price_book(prop)
    moved = 0
    for channel in SalesChannel.objects.filter(pk__in={channel_pk for channel_pk, _plan in after.rules}):
        plan = _moves(prop, channel, before, after)
        _mark(plan)
        moved += len(plan.moves)
    return moved


def price_guard_save(*, rate_plan: RatePlan, floor: int | None, ceiling: int | None, max_move: int) -> PriceGuard:
    """Set a rate plan's price guard (it applies to the changes made from now on)."""
    guard, _created = PriceGuard.objects.update_or_create(
        rate_plan=rate_plan, defaults={"floor": floor, "ceiling": ceiling, "max_move": max_move}
    )
    return guard

"""The price guard of rate plans: a floor and a ceiling no price may pass, and the share of its current value
a price may move before staff must confirm the change. Every way a price changes asks it (a grid cell, a bulk
edit, a CSV import, a channel's price rule)."""

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.utils.translation import gettext as _

from ...content.models import RatePlan
from ..models_prices import PriceGuard

#: The share (percent) a price may move without a confirmation when its rate plan has no guard of its own.
DEFAULT_MAX_MOVE = 50


@dataclass(frozen=True)
class Guard:
    """A rate plan's guard as the checks read it (None: no floor or no ceiling)."""

    floor: int | None = None
    ceiling: int | None = None
    max_move: int = DEFAULT_MAX_MOVE


#: The guard of a rate plan without its own.
NO_GUARD = Guard()


def price_guards(rate_plans: Iterable[RatePlan]) -> dict[int, Guard]:
    """{rate plan id: its Guard} for the rate plans that have one, in one query."""
    rows = PriceGuard.objects.filter(rate_plan__in=list(rate_plans)).values_list(
        "rate_plan_id", "floor", "ceiling", "max_move"
    )
    return {plan_id: Guard(floor, ceiling, max_move) for plan_id, floor, ceiling, max_move in rows}


def guard_refusal(guard: Guard, price: int) -> str:
    """Why price may not be set under guard ("" when it may)."""
    if guard.floor is not None and price < guard.floor:
        return _("%(price)s is below this rate plan's floor of %(floor)s KRW.") % {
            "price": f"{price:,}",
            "floor": f"{guard.floor:,}",
        }
    if guard.ceiling is not None and price > guard.ceiling:
        return _("%(price)s is above this rate plan's ceiling of %(ceiling)s KRW.") % {
            "price": f"{price:,}",
            "ceiling": f"{guard.ceiling:,}",
        }
    return ""


def move_percent(old: int | None, new: int) -> int | None:
    """How far new moves from old, in whole percent of old (None when there is no old price to move from)."""
    if not old:
        return None
    return int((Decimal(abs(new - old)) * 100 / old).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def guard_warning(guard: Guard, old: int | None, new: int) -> str:
    """The confirmation a move of a price from old to new needs under guard ("" when it needs none)."""
    moved = move_percent(old, new)
    if moved is None or moved <= guard.max_move:
        return ""
    return _("This moves the price by %(moved)s %% (%(old)s → %(new)s), more than %(max)s %%: confirm to save it.") % {
        "moved": moved,
        "old": f"{old:,}",
        "new": f"{new:,}",
        "max": guard.max_move,
    }

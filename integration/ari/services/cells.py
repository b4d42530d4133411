"""One cell of the rates and availability grid saved through the edits (bulk), refused when the cell
changed since staff saw it."""

import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ...channels.models import SalesChannel
from ...content.models import RatePlan, RoomType
from ..dates import DateRange
from ..models import AriChangeSet, AriChangeSource
from ..selectors.grid import CellSeen, ari_cell_seen
from ..selectors.rates import rate_plan_has_rate
from .bulk import ari_change_set_finish, ari_change_set_start, ari_edit_apply, ari_edit_lock
from .edits import AriEdit, AriPlan, Operation, User, ari_edit_plan, ari_edit_validate


class AriCellStale(ValidationError):
    """The cell no longer holds what staff saw: now is what it holds."""

    def __init__(self, message: str, *, now: CellSeen) -> None:
        super().__init__(message, code="stale")
        self.now = now


@transaction.atomic
def ari_cell_save(
    *,
    target: RatePlan | RoomType,
    day: datetime.date,
    value: int | None,
    business_day: bool | None = None,
    channel: SalesChannel | None = None,
    user: User | None = None,
    seen: CellSeen | None = None,
    confirmed: bool = False,
) -> list[AriPlan]:
    """Save one cell of the grid as one-day edits of integration.ari, together or not at all, recorded as
    one change (a grid cell edit by user).

    target is a RatePlan (value: the rate, for a package the price guests pay; business_day: True, False
    or None to leave it) or a RoomType (value: the rooms to sell). With a channel, value is the channel's
    own rate or cap, and None clears it. seen (CellSeen) is what the cell showed: when the cell holds
    something else now, nothing is saved and AriCellStale says what it holds. Rooms to sell far above the
    room type's rooms, and a price moving more than its rate plan's guard allows, need confirmed. Raises
    ValidationError with the message to show on the cell (code "confirm" when confirming would save it).
    """
    if seen is not None:
        _check_seen(target, day, channel, seen)
    ranges = (DateRange(day, day),)
    if channel is not None and value is None:
        edits = [_clear_edit(target, ranges, channel)]
    elif isinstance(target, RoomType):
        operation = Operation.SET_AVAILABILITY
        edits = [AriEdit(ranges, operation, value, room_types=(target,), channel=channel, confirmed=confirmed)]
    else:
        edits = _rate_edits(target, ranges, value, business_day, channel, confirmed)
    change_set = ari_change_set_start(prop=target.property, source=AriChangeSource.CELL, user=user)
    plans = [_cell_edit_apply(edit, change_set) for edit in edits]
    ari_change_set_finish(change_set)
    return plans


def _check_seen(target: RatePlan | RoomType, day: datetime.date, channel: SalesChannel | None, seen: CellSeen) -> None:
    """Lock the cell, then raise AriCellStale when it no longer shows seen."""
    room_type = target if isinstance(target, RoomType) else target.room_type
    ari_edit_lock(AriEdit((DateRange(day, day),), Operation.SET, room_types=(room_type,), channel=channel), [day])
    now = ari_cell_seen(target, day, channel=channel)
    if now != seen:
        raise AriCellStale(_stale_message(now), now=now)


def _clear_edit(target: RatePlan | RoomType, ranges: tuple[DateRange, ...], channel: SalesChannel) -> AriEdit:
    """The edit clearing the channel's own value of the cell."""
    if isinstance(target, RoomType):
        return AriEdit(ranges, Operation.CLEAR_CHANNEL, None, room_types=(target,), channel=channel)
    return AriEdit(ranges, Operation.CLEAR_CHANNEL, None, rate_plans=(target,), channel=channel)


def _rate_edits(
    plan: RatePlan,
    ranges: tuple[DateRange, ...],
    value: int | None,
    business_day: bool | None,
    channel: SalesChannel | None,
    confirmed: bool,
) -> list[AriEdit]:
    """The edits of a rate cell: its rate (or price), then its business day (common values only)."""
    edits = []
    if value is not None:
        edits.append(AriEdit(ranges, Operation.SET, value, rate_plans=(plan,), channel=channel, confirmed=confirmed))
    elif business_day is None or rate_plan_has_rate(plan, ranges[0].start):
        # A common rate is never removed (the hub has no "no rate"): closing the day stops the sale.
        raise ValidationError(_("Give a rate of 0 or more; to stop selling the day, close it."))
    if business_day is not None and channel is None:
        operation = Operation.OPEN if business_day else Operation.CLOSE
        edits.append(AriEdit(ranges, operation, None, rate_plans=(plan,)))
    return edits


def _cell_edit_apply(edit: AriEdit, change_set: AriChangeSet) -> AriPlan:
    """Apply one edit of the cell, raising the message to show on the cell when it cannot."""
    errors = ari_edit_validate(edit)
    if "confirm" in errors:
        raise ValidationError(errors["confirm"], code="confirm")
    if errors:
        raise ValidationError(list(errors.values()))
    # The cell's own reason (ari_edit_apply would prefix it with the date the cell already shows).
    plan = ari_edit_plan(edit)
    if plan.errors:
        raise ValidationError([change.error for change in plan.errors])
    if plan.warnings and not edit.confirmed:
        raise ValidationError(plan.warnings[0].warning, code="confirm")
    return ari_edit_apply(edit, change_set=change_set)


def _stale_message(now: CellSeen) -> str:
    shown = "—" if now.value is None else f"{now.value:,}"
    if now.open is False:
        shown = _("%(value)s, closed for sale") % {"value": shown}
    return _("Someone changed this cell after you opened it: it now holds %(value)s. Check it, then save again.") % {
        "value": shown
    }

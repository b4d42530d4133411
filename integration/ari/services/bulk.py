"""Applying edits (integration.ari.services.edits): every cell of an edit or none, checked against the
preview it was shown as, the history of every cell it changes (one change set per screen action), and the
dirty ranges that the sync to the hub picks up."""

import datetime
from collections import defaultdict
from collections.abc import Sequence
from typing import cast

from django.core.exceptions import ValidationError
from django.db import transaction

from core.db.transactions import retried_on_conflict

from ...channels.models import SalesChannel
from ...content.models import Property, RatePlan, RoomType
from ...sync.models import ResourceKind
from ..models import (
    AriCellChange,
    AriChangeSet,
    AriChangeSource,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
)
from .edits import AriEdit, AriPlan, AriStale, CellChange, Operation, User, ari_edit_plan
from .push import ari_mark_dirty


@transaction.atomic
def ari_edit_apply(edit: AriEdit, *, change_set: AriChangeSet | None = None, expected: str | None = None) -> AriPlan:
    """Apply the edit as one change: every cell or none. Raises ValidationError naming the first bad
    cells when any cell cannot change (code "confirm" when only confirming prices that move more than their
    guard allows would apply it), and AriStale when expected (the fingerprint of the plan a preview
    showed) no longer matches the cells. Records each changed cell in change_set (a change of its own
    when None) and marks what changed for the hub, in the same transaction."""
    if expected is not None:
        ari_edit_lock(edit, edit.dates())
    plan = ari_edit_plan(edit)
    if expected is not None and plan.fingerprint() != expected:
        raise AriStale(plan)
    _refuse(edit, plan)
    if edit.operation == Operation.CLEAR_CHANNEL:
        _write_clear(edit, plan.changed)
    elif edit.operation == Operation.SET_AVAILABILITY:
        _write_availability(edit, plan.changed)
    else:
        _write_rates(edit, plan.changed)
    own = change_set is None
    if change_set is None:
        target = (edit.rate_plans or edit.room_types)[0]
        change_set = AriChangeSet.objects.create(property_id=target.property_id, source=AriChangeSource.PROGRAM)
    _record_and_mark(change_set, edit.channel, plan.changed, closes=edit.operation == Operation.CLOSE)
    if own:
        ari_change_set_finish(change_set)
    return plan


def ari_changes_write(change_set: AriChangeSet, changes: list[CellChange]) -> None:
    """Write cells of the common values whose new values were planned elsewhere (a copy of a period:
    rates, differences, business days, rooms to sell), record them in change_set and mark them for the
    hub. Call inside the transaction that locked and checked them (ari_edit_lock)."""
    common = AriEdit((), Operation.SET)
    rooms = [change for change in changes if change.field == "allotment"]
    if rooms:
        _write_availability(common, rooms)
    # One field per write: a new row takes the defaults of the others (an upsert sets only its fields).
    for field_name in ("rate", "rate_modify", "business_day"):
        rates = [change for change in changes if change.field == field_name]
        if rates:
            _write_rates(common, rates)
    closes = any(change.field == "business_day" and change.new is False for change in changes)
    _record_and_mark(change_set, None, changes, closes=closes)


def _record_and_mark(
    change_set: AriChangeSet, channel: SalesChannel | None, changes: list[CellChange], *, closes: bool
) -> None:
    """Record the written cells in change_set and mark their days of each rate plan or room type for the hub
    (closes: the change closes days for sale, which the hub gets ahead of other changes)."""
    _record(change_set, channel, changes)
    for target, dates in _dates_by_target(changes).items():
        kind = ResourceKind.ARI_AVAILS if isinstance(target, RoomType) else ResourceKind.ARI_RATES
        ari_mark_dirty(target, kind=kind, dates=dates, closes=closes)


def _refuse(edit: AriEdit, plan: AriPlan) -> None:
    """Raise ValidationError naming the first cells that cannot change, or (code "confirm") the first
    large price moves the edit did not confirm."""
    if plan.errors:
        raise ValidationError([f"{change.date}: {change.error}" for change in plan.errors[:10]])
    if plan.warnings and not edit.confirmed:
        raise ValidationError(
            [ValidationError(f"{change.date}: {change.warning}", code="confirm") for change in plan.warnings[:10]]
        )


@retried_on_conflict
@transaction.atomic
def ari_change_apply(
    *, prop: Property, edit: AriEdit, source: str, user: User | None = None, expected: str | None = None
) -> tuple[AriPlan, AriChangeSet | None]:
    """Apply edit (see ari_edit_apply, expected included) as one change of prop that user made through
    source. Returns the plan and the change (None when no cell changed)."""
    change_set = ari_change_set_start(prop=prop, source=source, user=user)
    plan = ari_edit_apply(edit, change_set=change_set, expected=expected)
    return plan, ari_change_set_finish(change_set)


def ari_change_set_start(
    *,
    prop: Property,
    source: str,
    user: User | None = None,
    description: str = "",
    undo_of: AriChangeSet | None = None,
) -> AriChangeSet:
    """A new change of prop's rates and availability that the edits applied with it record their cells
    in. Call inside the transaction of the edits, then ari_change_set_finish."""
    return AriChangeSet.objects.create(
        property=prop,
        source=source,
        user=user if user is not None and user.is_authenticated else None,
        description=description[:300],
        undo_of=undo_of,
    )


def ari_change_set_finish(change_set: AriChangeSet) -> AriChangeSet | None:
    """Drop the change when its edits changed no cell (a value saved as it was); else return it."""
    if change_set.cell_count == 0:
        change_set.delete()
        return None
    return change_set


def _record(change_set: AriChangeSet, channel: SalesChannel | None, changes: list[CellChange]) -> None:
    """One history row per changed cell: bounded, written in one statement per thousand cells."""
    channel_id = channel.pk if channel is not None else None
    rows = [
        AriCellChange(
            change_set_id=change_set.pk,
            channel_id=channel_id,
            date=change.date,
            field=change.field,
            old=None if change.old is None else int(change.old),
            new=None if change.new is None else int(change.new),
            **{"room_type_id" if isinstance(change.target, RoomType) else "rate_plan_id": change.target.pk},
        )
        for change in changes
    ]
    AriCellChange.objects.bulk_create(rows, batch_size=1000)
    change_set.cell_count += len(rows)
    AriChangeSet.objects.filter(pk=change_set.pk).update(cell_count=change_set.cell_count)


def ari_edit_lock(edit: AriEdit, dates: Sequence[datetime.date]) -> None:
    """Lock the stored cells an edit reads (with the standalone rates that package prices stand on) until
    its transaction ends, so that the check against the preview and the write see the same values.
    Each table's rows are locked in the order of their own key columns (room type days by room type, then
    date, as bookings take them), and only its own rows: a join of the default ordering would lock the
    room type and property rows too (bookings of the property would wait on them)."""
    room_types = {room_type.pk for room_type in edit.room_types} | {plan.room_type_id for plan in edit.rate_plans}
    span = {"date__in": dates}
    locks = [
        RatePlanDay.objects.filter(rate_plan__room_type__in=room_types, **span).order_by("rate_plan_id", "date"),
        RoomTypeDay.objects.filter(room_type__in=room_types, **span).order_by("room_type_id", "date"),
    ]
    if edit.channel is not None:
        locks.append(
            ChannelRateDay.objects.filter(channel=edit.channel, rate_plan__room_type__in=room_types, **span).order_by(
                "rate_plan_id", "date"
            )
        )
        locks.append(
            ChannelAvailDay.objects.filter(channel=edit.channel, room_type__in=room_types, **span).order_by(
                "room_type_id", "date"
            )
        )
    for queryset in locks:
        list(queryset.select_for_update(of=("self",)).values_list("pk", flat=True))


def _dates_by_target(changes: list[CellChange]) -> dict[RatePlan | RoomType, list[datetime.date]]:
    dates = defaultdict(list)
    for change in changes:
        dates[change.target].append(change.date)
    return dates


def _write_clear(edit: AriEdit, changes: list[CellChange]) -> None:
    for target, dates in _dates_by_target(changes).items():
        if isinstance(target, RoomType):
            ChannelAvailDay.objects.filter(channel=edit.channel, room_type=target, date__in=dates).update(cap=None)
        else:
            ChannelRateDay.objects.filter(channel=edit.channel, rate_plan=target, date__in=dates).update(
                rate=None, rate_modify=None
            )


def _write_rates(edit: AriEdit, changes: list[CellChange]) -> None:
    if edit.channel is None:
        rows = [
            RatePlanDay(rate_plan=cast(RatePlan, change.target), date=change.date, **{change.field: change.new})
            for change in changes
        ]
        fields = sorted({change.field for change in changes})
        RatePlanDay.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["rate_plan", "date"], update_fields=fields, batch_size=1000
        )
        return
    channel_rows = [
        ChannelRateDay(
            rate_plan=cast(RatePlan, change.target),
            channel=edit.channel,
            date=change.date,
            **{change.field: change.new},
        )
        for change in changes
        if change.field != "business_day"
    ]
    fields = sorted({change.field for change in changes if change.field != "business_day"})
    if channel_rows:
        ChannelRateDay.objects.bulk_create(
            channel_rows,
            update_conflicts=True,
            unique_fields=["rate_plan", "channel", "date"],
            update_fields=fields,
            batch_size=1000,
        )


def _write_availability(edit: AriEdit, changes: list[CellChange]) -> None:
    if edit.channel is not None:
        ChannelAvailDay.objects.bulk_create(
            [
                ChannelAvailDay(
                    room_type=cast(RoomType, change.target), channel=edit.channel, date=change.date, cap=change.new
                )
                for change in changes
            ],
            update_conflicts=True,
            unique_fields=["room_type", "channel", "date"],
            update_fields=["cap"],
            batch_size=1000,
        )
        return
    existing = {
        (day.room_type_id, day.date): day
        for day in RoomTypeDay.objects.select_for_update(of=("self",))
        .filter(room_type__in={change.target for change in changes}, date__in={change.date for change in changes})
        .order_by("room_type_id", "date")
    }
    new_rows, updated = [], []
    for change in changes:
        row = existing.get((change.target.pk, change.date))
        rooms = cast(int, change.new)  # an allotment set (validated: an amount of 0 or more)
        if row is None:
            new_rows.append(
                RoomTypeDay(room_type=cast(RoomType, change.target), date=change.date, allotment=rooms, available=rooms)
            )
        else:
            # Held and taken rooms stay as bookings left them; what is left follows the allotment.
            row.allotment = rooms
            row.available = rooms - row.held - row.taken
            updated.append(row)
    RoomTypeDay.objects.bulk_create(new_rows, batch_size=1000)
    RoomTypeDay.objects.bulk_update(updated, ["allotment", "available"], batch_size=1000)

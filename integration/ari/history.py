"""The history of rates and availability: what a cell held before each change (recorded by the edits of
integration.ari.services), and the undo of a whole change (a bulk edit, an import, a cell edit) as a new
change that restores the previous values through the same edits, so the hub receives it like any edit."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.retention import purge_older_than

from ..content.models import RoomType
from .dates import ari_window, ranges_of
from .models import (
    AriChangeSet,
    AriChangeSource,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
    SalesChannel,
)
from .selectors import standalone_rates
from .services import (
    AriEdit,
    AriPlan,
    AriStale,
    CellChange,
    Operation,
    ari_change_set_finish,
    ari_change_set_start,
    ari_edit_apply,
    ari_edit_lock,
    ari_edit_plan,
)


@dataclass
class AriUndoPlan:
    """What undoing a change would do: the cells it restores (old: what they hold now, new: what they
    held before the change), the cells it leaves with the reason, and the edits that restore them (in
    the order they must run: standalone rates before the package prices that stand on them)."""

    change_set: object
    plan: AriPlan = field(default_factory=AriPlan)
    #: (AriCellChange, reason) of each cell left as it is.
    skipped: list = field(default_factory=list)
    edits: list = field(default_factory=list, repr=False)

    def fingerprint(self):
        """What the preview showed (see AriPlan.fingerprint); the cells left count too."""
        skipped = ",".join(str(cell.pk) for cell, _reason in self.skipped)
        return f"{self.plan.fingerprint()}:{skipped}"


def _key(cell):
    return (cell.rate_plan_id, cell.room_type_id, cell.channel_id, cell.date, cell.field)


def _current_values(cells):
    """{key: what the cell holds now} for each cell of a change (business days as 1 or 0): one query per
    table the change touched, over its dates."""
    if not cells:
        return {}
    span = {"date__gte": min(cell.date for cell in cells), "date__lte": max(cell.date for cell in cells)}
    plans = {cell.rate_plan_id for cell in cells if cell.rate_plan_id}
    room_types = {cell.room_type_id for cell in cells if cell.room_type_id}
    channels = {cell.channel_id for cell in cells if cell.channel_id}
    now = {}
    for plan_id, date, rate, modify, business_day in RatePlanDay.objects.filter(
        rate_plan__in=plans, **span
    ).values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day"):
        now[(plan_id, None, None, date, "rate")] = rate
        now[(plan_id, None, None, date, "rate_modify")] = modify
        now[(plan_id, None, None, date, "business_day")] = int(business_day)
    for room_type_id, date, allotment in RoomTypeDay.objects.filter(room_type__in=room_types, **span).values_list(
        "room_type_id", "date", "allotment"
    ):
        now[(None, room_type_id, None, date, "allotment")] = allotment
    if channels:
        for plan_id, channel_id, date, rate, modify in ChannelRateDay.objects.filter(
            rate_plan__in=plans, channel__in=channels, **span
        ).values_list("rate_plan_id", "channel_id", "date", "rate", "rate_modify"):
            now[(plan_id, None, channel_id, date, "rate")] = rate
            now[(plan_id, None, channel_id, date, "rate_modify")] = modify
        for room_type_id, channel_id, date, cap in ChannelAvailDay.objects.filter(
            room_type__in=room_types, channel__in=channels, **span
        ).values_list("room_type_id", "channel_id", "date", "cap"):
            now[(None, room_type_id, channel_id, date, "cap")] = cap
    return now


def ari_undo_plan(change_set):
    """The undo of change_set, planned against the current values: each of its cells goes back to what
    it held before, unless a later change set it to something else or the day is past (then it is left,
    as is a common rate that had none: the hub keeps a rate once given)."""
    cells = {}
    for cell in change_set.cells.select_related("rate_plan__model", "rate_plan__room_type", "room_type", "channel"):
        key = _key(cell)
        if key in cells:  # the same cell twice in one change: back to the first value, from the last
            cell.old = cells[key].old
        cells[key] = cell
    cells = list(cells.values())
    for cell in cells:
        if cell.room_type_id:
            cell.room_type.property = change_set.property
        else:
            cell.rate_plan.property = change_set.property
    now = _current_values(cells)
    undo = AriUndoPlan(change_set)
    restores = []
    first, last = ari_window()
    for cell in cells:
        current = now.get(_key(cell), 1 if cell.field == "business_day" else None)
        if not first <= cell.date <= last:
            undo.skipped.append((cell, _("The hub no longer takes this day; left as it is.")))
        elif current != cell.new:
            undo.skipped.append((cell, _("Changed again since; left as it is now.")))
        elif cell.old is None and cell.field in ("rate", "rate_modify") and cell.channel_id is None:
            undo.skipped.append((cell, _("The hub keeps a rate once given; it stays (close the day to stop selling).")))
        else:
            restores.append((cell, current))
    bases = _bases_after(restores, change_set)
    groups = defaultdict(list)
    for cell, current in restores:
        restore = cell.old
        if cell.field == "business_day":
            restore = 1 if cell.old is None else cell.old
            operation, value = (Operation.OPEN if restore else Operation.CLOSE), None
        elif cell.field == "allotment":
            restore = cell.old or 0
            operation, value = Operation.SET_AVAILABILITY, restore
        elif cell.old is None:
            operation, value = Operation.CLEAR_CHANNEL, None
        elif cell.field == "cap":
            operation, value = Operation.SET_AVAILABILITY, restore
        elif cell.field == "rate_modify":
            base = bases.get((cell.rate_plan.room_type_id, cell.date))
            if base is None:
                undo.skipped.append((cell, _("The standalone plan has no rate on this day.")))
                continue
            operation, value = Operation.SET, base + cell.old
        else:
            operation, value = Operation.SET, restore
        undo.plan.changes.append(
            CellChange(cell.target, cell.date, cell.field, _shown(cell, current), _shown(cell, restore))
        )
        # Standalone rates run before package prices, which are set as the standalone rate plus the difference.
        order = 1 if cell.field == "rate_modify" else 0
        groups[(order, operation, cell.target, cell.channel, value)].append(cell.date)
    for (_order, operation, target, channel, value), dates in sorted(groups.items(), key=lambda item: item[0][0]):
        targets = {"room_types": (target,)} if isinstance(target, RoomType) else {"rate_plans": (target,)}
        edit = AriEdit(tuple(ranges_of(dates)), operation, value, channel=channel, confirmed=True, **targets)
        undo.edits.append(edit)
        if operation == Operation.SET_AVAILABILITY and channel is None:
            # Rooms booked since the change may leave fewer to give back than it took.
            errors = {(change.target.pk, change.date): change.error for change in ari_edit_plan(edit).errors}
            for change in undo.plan.changes:
                if change.target == target and change.field == "allotment":
                    change.error = errors.get((target.pk, change.date), change.error)
    return undo


def _shown(cell, value):
    """A stored value as the edits see it (a business day as True or False)."""
    return bool(value) if cell.field == "business_day" else value


def _bases_after(restores, change_set):
    """The standalone rates once the undo is done: today's, with the ones it restores."""
    packages = [cell for cell, _current in restores if cell.field == "rate_modify"]
    if not packages:
        return {}
    bases = standalone_rates(
        {cell.rate_plan.room_type_id for cell in packages},
        min(cell.date for cell in packages),
        max(cell.date for cell in packages),
    )
    for cell, _current in restores:
        if cell.field == "rate" and cell.channel_id is None and cell.old is not None:
            bases[(cell.rate_plan.room_type_id, cell.date)] = cell.old
    return bases


@transaction.atomic
def ari_change_set_undo(*, change_set, user=None, expected):
    """Undo change_set as a new change by user that restores the previous values, when the undo's plan
    still is the one previewed (expected: its fingerprint; else AriStale with the plan as it is now).
    Raises ValidationError when a cell cannot go back (rooms booked since). Returns the new change."""
    cells = list(change_set.cells.values_list("room_type_id", "rate_plan__room_type_id", "channel_id", "date"))
    room_types = tuple(
        RoomType.objects.filter(pk__in={room_type or plan_room_type for room_type, plan_room_type, *_ in cells})
    )
    dates = sorted({date for *_, date in cells})
    for channel_id in {None, *(channel for _rt, _prt, channel, _date in cells if channel)}:
        channel = None if channel_id is None else SalesChannel(pk=channel_id)
        ari_edit_lock(AriEdit((), Operation.SET, room_types=room_types, channel=channel), dates)
    undo = ari_undo_plan(change_set)
    if undo.fingerprint() != expected:
        raise AriStale(undo)
    if undo.plan.errors:
        raise ValidationError([f"{change.date}: {change.error}" for change in undo.plan.errors[:10]])
    new = ari_change_set_start(prop=change_set.property, source=AriChangeSource.UNDO, user=user, undo_of=change_set)
    for edit in undo.edits:
        ari_edit_apply(edit, change_set=new)
    return ari_change_set_finish(new)


def ari_history_purge(*, now=None):
    """Delete the changes older than ARI_HISTORY_DAYS (0 keeps them), their cells with them: the history
    stays bounded. Returns how many rows."""
    return purge_older_than(AriChangeSet.objects.all(), days=settings.ARI_HISTORY_DAYS, now=now)

"""The history of rates and availability: what a cell held before each change (recorded by the edits,
integration.ari.services.bulk), and the undo of a whole change (a bulk edit, an import, a cell edit) as a
new change that restores the previous values through the same edits, so the hub receives it like any
edit."""

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from typing import cast

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from core.background.retention import purge_older_than

from ...channels.models import SalesChannel
from ...content.models import RatePlan, RoomType
from ..dates import ari_window, ranges_of
from ..models import AriCellChange, AriChangeSet, AriChangeSource
from ..selectors.history import CellKey, ari_current_values
from ..selectors.rates import standalone_rates
from .bulk import ari_change_set_finish, ari_change_set_start, ari_edit_apply, ari_edit_lock
from .edits import AriEdit, AriPlan, AriStale, CellChange, CellValue, Operation, User, ari_edit_plan


@dataclass
class AriUndoPlan:
    """What undoing a change would do: the cells it restores (old: what they hold now, new: what they
    held before the change), the cells it leaves with the reason, and the edits that restore them (in
    the order they must run: standalone rates before the package prices that stand on them)."""

    change_set: AriChangeSet
    plan: AriPlan = field(default_factory=AriPlan)
    #: (AriCellChange, reason) of each cell left as it is.
    skipped: list[tuple[AriCellChange, str]] = field(default_factory=list)
    edits: list[AriEdit] = field(default_factory=list, repr=False)

    def fingerprint(self) -> str:
        """What the preview showed (see AriPlan.fingerprint); the cells left count too."""
        skipped = ",".join(str(cell.pk) for cell, _reason in self.skipped)
        return f"{self.plan.fingerprint()}:{skipped}"


#: The edit that puts cells back: (operation, value).
_Step = tuple[str, int | None]
#: Restored cells grouped into one edit: (run order, operation, target, channel, value).
_GroupKey = tuple[int, str, RatePlan | RoomType, SalesChannel | None, int | None]


def _key(cell: AriCellChange) -> CellKey:
    return (cell.rate_plan_id, cell.room_type_id, cell.channel_id, cell.date, cell.field)


def ari_undo_plan(change_set: AriChangeSet) -> AriUndoPlan:
    """The undo of change_set, planned against the current values: each of its cells goes back to what
    it held before, unless a later change set it to something else or the day is past (then it is left,
    as is a common rate that had none: the hub keeps a rate once given)."""
    cells = _cells_once(change_set)
    now = ari_current_values(cells)
    undo = AriUndoPlan(change_set)
    restores = []
    for cell in cells:
        current = now.get(_key(cell), 1 if cell.field == "business_day" else None)
        reason = _left_because(cell, current)
        if reason:
            undo.skipped.append((cell, reason))
        else:
            restores.append((cell, current))
    bases = _bases_after(restores)
    groups: dict[_GroupKey, list[datetime.date]] = defaultdict(list)
    for cell, current in restores:
        step = _restore_step(cell, bases)
        if step is None:
            undo.skipped.append((cell, _("The standalone plan has no rate on this day.")))
            continue
        operation, value = step
        restore = _restored_value(cell)
        undo.plan.changes.append(
            CellChange(cell.target, cell.date, cell.field, _shown(cell, current), _shown(cell, restore))
        )
        # Standalone rates run before package prices, which are set as the standalone rate plus the difference.
        order = 1 if cell.field == "rate_modify" else 0
        groups[(order, operation, cell.target, cell.channel, value)].append(cell.date)
    for key, dates in sorted(groups.items(), key=lambda item: item[0][0]):
        undo.edits.append(_undo_edit(undo, key, dates))
    return undo


def _cells_once(change_set: AriChangeSet) -> list[AriCellChange]:
    """The cells of change_set, each once (the same cell twice in one change goes back to its first value,
    from its last), with their rows."""
    cells: dict[CellKey, AriCellChange] = {}
    for cell in change_set.cells.select_related("rate_plan__model", "rate_plan__room_type", "room_type", "channel"):
        key = _key(cell)
        if key in cells:
            cell.old = cells[key].old
        cells[key] = cell
    for cell in cells.values():
        if cell.room_type is not None:
            cell.room_type.property = change_set.property
        else:
            _plan(cell).property = change_set.property
    return list(cells.values())


def _plan(cell: AriCellChange) -> RatePlan:
    """The rate plan of a rate cell (a cell has a rate plan or a room type)."""
    return cast(RatePlan, cell.rate_plan)


def _left_because(cell: AriCellChange, current: int | None) -> str:
    """Why the undo leaves cell as it is (holding current), or "" when it puts it back."""
    first, last = ari_window()
    if not first <= cell.date <= last:
        return _("The hub no longer takes this day; left as it is.")
    if current != cell.new:
        return _("Changed again since; left as it is now.")
    if cell.old is None and cell.field in ("rate", "rate_modify") and cell.channel_id is None:
        return _("The hub keeps a rate once given; it stays (close the day to stop selling).")
    return ""


def _restored_value(cell: AriCellChange) -> int | None:
    """What the cell holds once put back (a business day without a row was open; no rooms: 0)."""
    if cell.field == "business_day":
        return 1 if cell.old is None else cell.old
    if cell.field == "allotment":
        return cell.old or 0
    return cell.old


def _restore_step(cell: AriCellChange, bases: dict[tuple[int, datetime.date], int]) -> _Step | None:
    """The operation and value that put cell back; None for a package price whose standalone plan has no
    rate that day (once the undo is done)."""
    restore = _restored_value(cell)
    if cell.field == "business_day":
        return (Operation.OPEN if restore else Operation.CLOSE), None
    if cell.field == "allotment" or (cell.field == "cap" and restore is not None):
        return Operation.SET_AVAILABILITY, restore
    if restore is None:
        return Operation.CLEAR_CHANNEL, None
    if cell.field == "rate_modify":
        base = bases.get((_plan(cell).room_type_id, cell.date))
        return None if base is None else (Operation.SET, base + restore)
    return Operation.SET, restore


def _undo_edit(undo: AriUndoPlan, key: _GroupKey, dates: list[datetime.date]) -> AriEdit:
    """The edit putting back one group of cells. Rooms booked since the change may leave fewer rooms to
    give back than it took: those cells of undo's plan get the edit's error."""
    _order, operation, target, channel, value = key
    ranges = tuple(ranges_of(dates))
    if isinstance(target, RoomType):
        edit = AriEdit(ranges, operation, value, room_types=(target,), channel=channel, confirmed=True)
    else:
        edit = AriEdit(ranges, operation, value, rate_plans=(target,), channel=channel, confirmed=True)
    if operation == Operation.SET_AVAILABILITY and channel is None:
        errors = {(change.target.pk, change.date): change.error for change in ari_edit_plan(edit).errors}
        for change in undo.plan.changes:
            if change.target == target and change.field == "allotment":
                change.error = errors.get((target.pk, change.date), change.error)
    return edit


def _shown(cell: AriCellChange, value: int | None) -> CellValue:
    """A stored value as the edits see it (a business day as True or False)."""
    return bool(value) if cell.field == "business_day" else value


def _bases_after(restores: list[tuple[AriCellChange, int | None]]) -> dict[tuple[int, datetime.date], int]:
    """The standalone rates once the undo is done: today's, with the ones it restores."""
    packages = [cell for cell, _current in restores if cell.field == "rate_modify"]
    if not packages:
        return {}
    bases = standalone_rates(
        {_plan(cell).room_type_id for cell in packages},
        min(cell.date for cell in packages),
        max(cell.date for cell in packages),
    )
    for cell, _current in restores:
        if cell.field == "rate" and cell.channel_id is None and cell.old is not None:
            bases[(_plan(cell).room_type_id, cell.date)] = cell.old
    return bases


@transaction.atomic
def ari_change_set_undo(*, change_set: AriChangeSet, user: User | None = None, expected: str) -> AriChangeSet | None:
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


def ari_history_purge(*, now: datetime.datetime | None = None) -> int:
    """Delete the changes older than ARI_HISTORY_DAYS (0 keeps them), their cells with them: the history
    stays bounded. Returns how many rows."""
    return purge_older_than(AriChangeSet.objects.all(), days=settings.ARI_HISTORY_DAYS, now=now)

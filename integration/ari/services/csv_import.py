"""Importing a rates and availability CSV file (the format: integration.ari.csv_parse): a dry run that
marks every row change, unchanged or error with the reasons, then the apply in one transaction through
the same edits as the grid (integration.ari.services.edits and bulk)."""

import datetime
import hashlib
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ...channels.models import SalesChannel
from ...content.models import Property, RatePlan, RoomType
from ..csv_parse import AriCsvRow, AriRowStatus, CsvCell, ari_csv_cells
from ..dates import ranges_of
from ..models import AriChangeSet, AriChangeSource, ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomTypeDay
from ..selectors.rates import standalone_rates
from .bulk import ari_change_set_finish, ari_change_set_start, ari_edit_apply
from .edits import AriEdit, AriPlan, CellChange, CellValue, Operation, User, ari_edit_plan, ari_edit_validate

#: progress(share done, 0 to 1).
Progress = Callable[[float], None]


@dataclass
class AriCsvPlan:
    """Every row's status, and the edits that apply the changes (in order, in one transaction); once
    applied, the change they were recorded as."""

    rows: list[AriCsvRow]
    steps: list[AriEdit] = field(default_factory=list, repr=False)
    applied: bool = False
    change_set: AriChangeSet | None = None
    #: Why the apply failed although the plan had no error (the data changed in between).
    error: str = ""
    #: Not applied: the rows no longer show what the preview showed (someone changed those days since).
    stale: bool = False

    @property
    def has_errors(self) -> bool:
        return bool(self.error) or any(row.status == AriRowStatus.ERROR for row in self.rows)

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    def fingerprint(self) -> str:
        """A digest of what the preview shows of every row (status, reasons, old and new values): the
        apply compares it with the preview's, so that it never writes over a change made after that
        preview without showing it first."""
        shown = [(row.line, row.status, [str(text) for text in row.problems + row.changes]) for row in self.rows]
        return hashlib.sha256(json.dumps(shown).encode()).hexdigest()

    @property
    def counts(self) -> dict[str, int]:
        """{status: number of rows}, every status present."""
        return {status: self.count(status) for status in AriRowStatus.values}


def ari_csv_plan(prop: Property, rows: Iterable[AriCsvRow], *, progress: Progress | None = None) -> AriCsvPlan:
    """The dry run: every row of prop's file marked change, unchanged or error (with the reasons and the
    old and new values); nothing is written. progress(share done, 0 to 1), when given, is called often as
    the work goes (reading the rows is the first half, planning the edits the second)."""
    return _plan(prop, list(rows), progress=progress)


def ari_csv_apply(
    prop: Property,
    rows: Iterable[AriCsvRow],
    *,
    user: User | None = None,
    file_name: str = "",
    expected: str | None = None,
) -> AriCsvPlan:
    """Plan the rows again against the current data and, when no row has an error, apply every change in
    one transaction (plan.applied), recorded as one change (a CSV import of file_name by user); with any
    error row nothing is written, nor when expected (the fingerprint of the preview the user saw) no
    longer matches (plan.stale: the plan is then the new preview)."""
    with transaction.atomic():
        plan = _plan(prop, list(rows))
        if plan.has_errors:
            return plan
        if expected is not None and plan.fingerprint() != expected:
            plan.stale = True
            return plan
        try:
            change_set = ari_change_set_start(prop=prop, source=AriChangeSource.CSV, user=user, description=file_name)
            for edit in plan.steps:
                ari_edit_apply(edit, change_set=change_set)
            plan.change_set = ari_change_set_finish(change_set)
        except (ValidationError, IntegrityError) as error:
            # The data changed between the plan and the write (a booking took rooms): nothing is kept.
            transaction.set_rollback(True)
            messages = error.messages if isinstance(error, ValidationError) else []
            plan.error = " ".join(messages) or _("Bookings changed the stock meanwhile; upload the file again.")
            return plan
        plan.applied = True
    return plan


def _plan(prop: Property, rows: list[AriCsvRow], *, progress: Progress | None = None) -> AriCsvPlan:
    for row in rows:
        row.problems, row.changes, row.status = [], [], AriRowStatus.ERROR
    report = progress or (lambda share: None)
    cells = ari_csv_cells(prop, rows, progress=lambda done: report(done / len(rows) / 2))
    _load_old_values(prop, cells)
    steps = _Steps(lambda planned: report(0.5 + min(planned / max(len(cells), 1), 1) / 2))
    _plan_availability(cells, steps)
    _plan_rates(cells, steps)
    report(1.0)
    for row in rows:
        if row.problems:
            row.status = AriRowStatus.ERROR
        elif row.changes:
            row.status = AriRowStatus.CHANGE
        else:
            row.status = AriRowStatus.UNCHANGED
    return AriCsvPlan(rows=rows, steps=steps)


class _Steps(list[AriEdit]):
    """The edits of a plan, in order; counts the cells planned, for the progress."""

    def __init__(self, progress: Callable[[int], None]) -> None:
        super().__init__()
        self.progress, self.planned = progress, 0

    def add(self, edit: AriEdit, cells: Sequence[CsvCell]) -> None:
        self.append(edit)
        self.planned += len(cells)
        self.progress(self.planned)


def _load_old_values(prop: Property, cells: list[CsvCell]) -> None:
    """The stored value of each cell (and business day of each common rate cell): four queries over the
    file's dates."""
    if not cells:
        return
    span = {"date__gte": min(cell.day for cell in cells), "date__lte": max(cell.day for cell in cells)}
    rate_days = {
        (plan_id, day): (rate, modify, business_day)
        for plan_id, day, rate, modify, business_day in RatePlanDay.objects.filter(
            rate_plan__property=prop, **span
        ).values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day")
    }
    allotments = {
        (room_type_id, day): allotment
        for room_type_id, day, allotment in RoomTypeDay.objects.filter(room_type__property=prop, **span).values_list(
            "room_type_id", "date", "allotment"
        )
    }
    channel_values = _channel_values(prop, span) if any(cell.channel for cell in cells) else ({}, {})
    for cell in cells:
        _set_old(cell, rate_days, allotments, *channel_values)


def _channel_values(
    prop: Property, span: dict[str, datetime.date]
) -> tuple[dict[Any, int | None], dict[Any, int | None]]:
    """The channels' own values over span: {(rate plan id, channel id, date): rate or difference},
    {(room type id, channel id, date): cap}."""
    channel_rates = {
        (plan_id, channel_id, day): rate if rate is not None else modify
        for plan_id, channel_id, day, rate, modify in ChannelRateDay.objects.filter(
            rate_plan__property=prop, **span
        ).values_list("rate_plan_id", "channel_id", "date", "rate", "rate_modify")
    }
    caps = {
        (room_type_id, channel_id, day): cap
        for room_type_id, channel_id, day, cap in ChannelAvailDay.objects.filter(
            room_type__property=prop, **span
        ).values_list("room_type_id", "channel_id", "date", "cap")
    }
    return channel_rates, caps


def _set_old(
    cell: CsvCell,
    rate_days: Mapping[Any, tuple[int | None, int | None, bool | None]],
    allotments: Mapping[Any, int],
    channel_rates: Mapping[Any, int | None],
    caps: Mapping[Any, int | None],
) -> None:
    """Set cell's stored value (and business day) from the values read."""
    availability = isinstance(cell.target, RoomType)
    if cell.channel is not None:
        key = (cell.target.pk, cell.channel.pk, cell.day)
        cell.old = (caps if availability else channel_rates).get(key)
    elif availability:
        cell.old = allotments.get((cell.target.pk, cell.day))
    else:
        rate, modify, business_day = rate_days.get((cell.target.pk, cell.day), (None, None, None))
        cell.old = modify if cell.package else rate
        cell.old_business_day = business_day


def _fmt(value: int | None, *, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+,}" if signed else f"{value:,}"


def _yes_no(value: CellValue) -> str:
    if value is None:
        return "—"
    return _("open") if value else _("closed")


def _describe(
    label: str, *, signed: bool = False, show: Callable[[Any], str] | None = None
) -> Callable[[CellChange], str]:
    """A function describing one CellChange of a row, e.g. "rate: 100,000 → 120,000"."""
    show = show or (lambda value: _fmt(value, signed=signed))

    def describe(change: CellChange) -> str:
        return _("%(what)s: %(old)s → %(new)s") % {"what": label, "old": show(change.old), "new": show(change.new)}

    return describe


def _group(cells: Iterable[CsvCell], key: Callable[[CsvCell], Any]) -> dict[Any, list[CsvCell]]:
    """{key(cell): [cells]}, in the order of the file."""
    groups = defaultdict(list)
    for cell in cells:
        groups[key(cell)].append(cell)
    return groups


def _edit(
    cells: Iterable[CsvCell],
    operation: str,
    value: int | None,
    *,
    rate_plans: tuple[RatePlan, ...] = (),
    room_types: tuple[RoomType, ...] = (),
    channel: SalesChannel | None = None,
) -> AriEdit:
    """The edit of integration.ari that sets the cells' days of one target. A file's rooms to sell and
    large price moves are taken as confirmed: the file was written on purpose, and its preview lists every
    change (with the guard's warning)."""
    return AriEdit(
        ranges=tuple(ranges_of(cell.day for cell in cells)),
        operation=operation,
        value=value,
        rate_plans=rate_plans,
        room_types=room_types,
        channel=channel,
        confirmed=True,
    )


def _attach(
    cells: Iterable[CsvCell], plan: AriPlan, describe: Callable[[CellChange], str], edit: AriEdit | None = None
) -> None:
    """Record a plan's cell changes and errors (and the edit's own errors) on the rows of cells."""
    by_cell = {(change.target.pk, change.date): change for change in plan.changes}
    errors = [str(message) for message in ari_edit_validate(edit).values()] if edit is not None else []
    for cell in cells:
        cell.row.problems.extend(errors)
        change = by_cell.get((cell.target.pk, cell.day))
        if change is None:
            continue
        if change.error:
            cell.row.problems.append(change.error)
        elif change.old != change.new:
            # A price moving past its guard's share: the preview says so; applying the file confirms it.
            warning = f" ({change.warning})" if change.warning else ""
            cell.row.changes.append(describe(change) + warning)


def _plan_edit(
    cells: Sequence[CsvCell],
    steps: _Steps,
    describe: Callable[[CellChange], str],
    operation: str,
    value: int | None,
    **targets: Any,
) -> None:
    """Plan one edit of integration.ari for cells, and add its apply to the steps."""
    edit = _edit(cells, operation, value, **targets)
    _attach(cells, ari_edit_plan(edit), describe, edit)
    steps.add(edit, cells)


def _plan_clear(
    cells: Sequence[CsvCell],
    steps: _Steps,
    describe: Callable[[CellChange], str],
    *,
    channel: SalesChannel | None,
    rate_plans: tuple[RatePlan, ...] = (),
    room_types: tuple[RoomType, ...] = (),
) -> None:
    """Plan clearing a channel's own values on the cells' days, and add it to the steps."""
    edit = AriEdit(
        ranges=tuple(ranges_of(cell.day for cell in cells)),
        operation=Operation.CLEAR_CHANNEL,
        channel=channel,
        rate_plans=tuple(rate_plans),
        room_types=tuple(room_types),
    )
    _attach(cells, ari_edit_plan(edit), describe, edit)
    steps.add(edit, cells)


def _plan_availability(cells: list[CsvCell], steps: _Steps) -> None:
    changed = [cell for cell in cells if isinstance(cell.target, RoomType) and cell.value != cell.old]
    for (room_type, channel, value), group in _group(
        changed, lambda cell: (cell.target, cell.channel, cell.value)
    ).items():
        if channel is None:
            describe = _describe(_("rooms to sell"))
            _plan_edit(group, steps, describe, Operation.SET_AVAILABILITY, value, room_types=(room_type,))
        elif value is None:
            _plan_clear(group, steps, _describe(_("channel cap")), channel=channel, room_types=(room_type,))
        else:
            describe = _describe(_("channel cap"))
            targets = {"room_types": (room_type,), "channel": channel}
            _plan_edit(group, steps, describe, Operation.SET_AVAILABILITY, value, **targets)


def _plan_rates(cells: list[CsvCell], steps: _Steps) -> None:
    rates = [cell for cell in cells if not isinstance(cell.target, RoomType)]
    # Business days first: they depend on no rate.
    _plan_business_days(rates, steps)
    changed = [cell for cell in rates if cell.value != cell.old and (cell.value is not None or cell.channel)]
    _plan_standalone_rates([cell for cell in changed if not cell.package], steps)
    _plan_packages(rates, [cell for cell in changed if cell.package], steps)


def _plan_business_days(rates: list[CsvCell], steps: _Steps) -> None:
    business = [cell for cell in rates if cell.business_day is not None and cell.business_day != cell.old_business_day]
    describe = _describe(_("open for sale"), show=_yes_no)
    for (plan, open_), group in _group(business, lambda cell: (cell.target, cell.business_day)).items():
        _plan_edit(group, steps, describe, Operation.OPEN if open_ else Operation.CLOSE, None, rate_plans=(plan,))


def _plan_standalone_rates(standalone: list[CsvCell], steps: _Steps) -> None:
    for (plan, channel, value), group in _group(
        standalone, lambda cell: (cell.target, cell.channel, cell.value)
    ).items():
        label = _("rate") if channel is None else _("channel rate")
        if value is None:
            _plan_clear(group, steps, _describe(label), channel=channel, rate_plans=(plan,))
        else:
            _plan_edit(group, steps, _describe(label), Operation.SET, value, rate_plans=(plan,), channel=channel)


def _plan_packages(rates: list[CsvCell], packages: list[CsvCell], steps: _Steps) -> None:
    """Package cells, planned last. The file gives their difference; the edit takes the price guests pay,
    which is the difference plus the standalone rate as it will be once the file's rates are written (the
    steps apply the standalone rates first, so the edit stores exactly the file's difference)."""
    if not packages:
        return
    groups = _package_groups(packages, _package_bases(rates, packages))
    for (plan, channel, price), group in groups.items():
        if price is None:
            describe = _describe(_("channel difference"), signed=True)
            _plan_clear(group, steps, describe, channel=channel, rate_plans=(plan,))
            continue
        edit = _edit(group, Operation.SET, price, rate_plans=(plan,), channel=channel)
        errors = [str(message) for message in ari_edit_validate(edit).values()]
        for cell in group:
            cell.row.problems.extend(errors)
        steps.add(edit, group)


def _package_bases(rates: list[CsvCell], packages: list[CsvCell]) -> dict[tuple[int, datetime.date], int]:
    """The standalone rates the packages stand on once the file's rates are written."""
    bases = standalone_rates(
        {cell.target.room_type_id for cell in packages},
        min(cell.day for cell in packages),
        max(cell.day for cell in packages),
    )
    for cell in rates:
        if not cell.package and cell.channel is None and cell.value is not None and not cell.row.problems:
            bases[(cell.target.room_type_id, cell.day)] = cell.value
    return bases


def _package_groups(
    packages: list[CsvCell], bases: dict[tuple[int, datetime.date], int]
) -> dict[tuple[RatePlan, SalesChannel | None, int | None], list[CsvCell]]:
    """{(plan, channel, price or None to clear): cells}, each cell's change or problem recorded on its row."""
    groups: dict[tuple[RatePlan, SalesChannel | None, int | None], list[CsvCell]] = defaultdict(list)
    for cell in packages:
        if cell.value is None:  # a channel's own difference cleared
            groups[(cell.target, cell.channel, None)].append(cell)
            continue
        base = bases.get((cell.target.room_type_id, cell.day))
        if base is None:
            cell.row.problems.append(
                _("The standalone plan has no rate on this day, saved or in this file: give it one first.")
            )
        elif base + cell.value < 0:
            cell.row.problems.append(
                _("The price would fall below 0: the standalone rate is %(base)s.") % {"base": _fmt(base)}
            )
        else:
            groups[(cell.target, cell.channel, base + cell.value)].append(cell)
            cell.row.changes.append(_package_change(cell, base + cell.value))
    return groups


def _package_change(cell: CsvCell, price: int) -> str:
    """What a package cell changes, e.g. "difference: +10,000 → +20,000 (price 120,000)"."""
    label = _("difference") if cell.channel is None else _("channel difference")
    return _("%(what)s: %(old)s → %(new)s (price %(price)s)") % {
        "what": label,
        "old": _fmt(cell.old, signed=True),
        "new": _fmt(cell.value, signed=True),
        "price": _fmt(price),
    }

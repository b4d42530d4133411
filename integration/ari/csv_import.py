"""Rates and availability as a CSV file: the export of a property's values for a date range, and the
import of such a file with a dry run (every row: change, unchanged or error with the reasons) before it
applies in one transaction through the same edits as the grid (integration.ari).

The file, UTF-8, one cell per line, header first::

    kind,room_type,rate_plan,channel,date,value,business_day
    availability,deluxe,,,2026-12-24,5,
    availability,deluxe,,3,2026-12-24,2,
    rate,deluxe,deluxe-room-only,,2026-12-24,120000,1
    rate_modify,deluxe,deluxe-breakfast,,2026-12-24,20000,1
    rate,deluxe,deluxe-room-only,3,2026-12-24,150000,

- kind: ``availability`` (the rooms to sell of a room type; with a channel, that channel's cap),
  ``rate`` (the rate of a standalone plan) or ``rate_modify`` (the difference of a package plan from the
  standalone plan's rate that day, may be negative). As in the hub's bodies, a package plan takes
  ``rate_modify`` and a standalone plan ``rate``: the other kind is a row error. The price guests pay for
  a package is the standalone rate plus the difference, whichever rows of the file set them.
- room_type, rate_plan: vendor ids of this property (rate_plan empty for availability).
- channel: a sales channel's hub channel id; empty for the values common to every channel. On a
  channel row an empty value clears the channel's own value (it sells at the common one again).
- date: YYYY-MM-DD, from today (Korea time) to the end of the hub's window.
- value: a whole number, 0 or more (a difference may be negative). On a common rate row an empty value
  leaves the rate as it is (to change only the business day).
- business_day: 1 or 0 (also true/false, yes/no, y/n), common rate rows only; empty leaves it as it is.
"""

import csv
import datetime
import re
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .ari import (
    AriEdit,
    Operation,
    ari_edit_apply,
    ari_edit_plan,
    ari_edit_validate,
    ari_window,
    ranges_of,
    rate_plans_of,
    standalone_rates,
)
from .choices import RatePlanType
from .csv_files import csv_records
from .models import ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomType, RoomTypeDay, SalesChannel

ARI_CSV_COLUMNS = ("kind", "room_type", "rate_plan", "channel", "date", "value", "business_day")
_REQUIRED_COLUMNS = ("kind", "room_type", "date", "value")
#: A year of 50 rate plans with three channels fits; larger files are split by date range.
ARI_CSV_MAX_BYTES = 8 * 1024 * 1024
#: The largest rate, difference or count a file or form may give (the database holds 32-bit numbers).
ARI_VALUE_MAX = 1_000_000_000

KIND_AVAILABILITY = "availability"
KIND_RATE = "rate"
KIND_RATE_MODIFY = "rate_modify"
ARI_CSV_KINDS = (KIND_AVAILABILITY, KIND_RATE, KIND_RATE_MODIFY)

_TRUE = {"1", "true", "yes", "y", "open"}
_FALSE = {"0", "false", "no", "n", "closed"}
_DATE = re.compile(r"(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})")
_NUMBER = re.compile(r"[+-]?\d+")


class AriRowStatus(models.TextChoices):
    """What importing a row does."""

    CHANGE = "change", gettext_lazy("Change")
    UNCHANGED = "unchanged", gettext_lazy("Unchanged")
    ERROR = "error", gettext_lazy("Error")


@dataclass
class AriCsvRow:
    """One data line of the file as written, and what importing it does (problems say why it cannot)."""

    line: int
    kind: str
    room_type: str
    rate_plan: str = ""
    channel: str = ""
    date: str = ""
    value: str = ""
    business_day: str = ""
    extra: list = field(default_factory=list)
    status: str = AriRowStatus.ERROR
    problems: list = field(default_factory=list)
    changes: list = field(default_factory=list)

    def get_status_display(self):
        return AriRowStatus(self.status).label


@dataclass
class _Cell:
    """A row once read: what it names and the values it gives (None: not given)."""

    row: AriCsvRow
    target: object  # a RoomType (availability) or a RatePlan
    channel: object
    day: datetime.date
    value: int | None
    business_day: bool | None
    package: bool = False
    old: object = None
    old_business_day: bool | None = None


@dataclass
class AriCsvPlan:
    """Every row's status, and the steps that apply the changes (run in order in one transaction)."""

    rows: list
    steps: list = field(default_factory=list, repr=False)
    applied: bool = False
    #: Why the apply failed although the plan had no error (the data changed in between).
    error: str = ""

    @property
    def has_errors(self):
        return bool(self.error) or any(row.status == AriRowStatus.ERROR for row in self.rows)

    def count(self, status):
        return sum(1 for row in self.rows if row.status == status)

    @property
    def counts(self):
        """{status: number of rows}, every status present."""
        return {status: self.count(status) for status in AriRowStatus.values}


# --- Export -----------------------------------------------------------------------------------


class _Echo:
    """A file-like object whose write returns the line, for csv.writer in a streaming response."""

    def write(self, value):
        return value


def ari_csv_export(prop, *, first, last):
    """The lines of the CSV file of prop's rates and availability from first to last (both included):
    the header, then every stored value (common, and each channel's own), grouped by room type and plan.

    A generator for a streaming response; four queries, however long the range."""
    writer = csv.writer(_Echo())
    # A byte order mark, so that Excel opens the file as UTF-8.
    yield "\ufeff" + writer.writerow(ARI_CSV_COLUMNS)
    span = {"date__gte": first, "date__lte": last}
    for room_type, day, allotment in (
        RoomTypeDay.objects.filter(room_type__property=prop, **span)
        .order_by("room_type__name", "room_type_id", "date")
        .values_list("room_type__vendor_id", "date", "allotment")
        .iterator()
    ):
        yield writer.writerow((KIND_AVAILABILITY, room_type, "", "", day.isoformat(), allotment, ""))
    for room_type, channel_id, day, cap in (
        ChannelAvailDay.objects.filter(room_type__property=prop, cap__isnull=False, **span)
        .order_by("room_type__name", "room_type_id", "channel__channel_id", "date")
        .values_list("room_type__vendor_id", "channel__channel_id", "date", "cap")
        .iterator()
    ):
        yield writer.writerow((KIND_AVAILABILITY, room_type, "", channel_id, day.isoformat(), cap, ""))
    for room_type, plan, plan_type, day, rate, modify, business_day in (
        RatePlanDay.objects.filter(rate_plan__property=prop, **span)
        .order_by("rate_plan__room_type__name", "-rate_plan__model__type", "rate_plan__model__name", "date")
        .values_list(
            "rate_plan__room_type__vendor_id",
            "rate_plan__vendor_id",
            "rate_plan__model__type",
            "date",
            "rate",
            "rate_modify",
            "business_day",
        )
        .iterator()
    ):
        package = plan_type == RatePlanType.PACKAGE
        value = modify if package else rate
        kind = KIND_RATE_MODIFY if package else KIND_RATE
        yield writer.writerow(
            (kind, room_type, plan, "", day.isoformat(), "" if value is None else value, int(business_day))
        )
    for room_type, plan, plan_type, channel_id, day, rate, modify in (
        ChannelRateDay.objects.filter(rate_plan__property=prop, **span)
        .exclude(rate__isnull=True, rate_modify__isnull=True)
        .order_by(
            "rate_plan__room_type__name",
            "-rate_plan__model__type",
            "rate_plan__model__name",
            "channel__channel_id",
            "date",
        )
        .values_list(
            "rate_plan__room_type__vendor_id",
            "rate_plan__vendor_id",
            "rate_plan__model__type",
            "channel__channel_id",
            "date",
            "rate",
            "rate_modify",
        )
        .iterator()
    ):
        package = plan_type == RatePlanType.PACKAGE
        kind = KIND_RATE_MODIFY if package else KIND_RATE
        yield writer.writerow((kind, room_type, plan, channel_id, day.isoformat(), modify if package else rate, ""))


# --- Reading a file ---------------------------------------------------------------------------


def ari_csv_read(content):
    """Rows of a rates and availability file (bytes or text, UTF-8) as AriCsvRow, before any check.

    Raises ValidationError when the file as a whole is unusable: not UTF-8 text, not CSV, too large, a
    wrong header, or no rows.
    """
    records = csv_records(content, columns=ARI_CSV_COLUMNS, required=_REQUIRED_COLUMNS, max_bytes=ARI_CSV_MAX_BYTES)
    return [AriCsvRow(line=record.line, **record.cells, extra=record.extra) for record in records]


# --- Planning and applying --------------------------------------------------------------------


def ari_csv_plan(prop, rows):
    """The dry run: every row of prop's file marked change, unchanged or error (with the reasons and the
    old and new values); nothing is written."""
    return _plan(prop, list(rows))


def ari_csv_apply(prop, rows):
    """Plan the rows again against the current data and, when no row has an error, apply every change in
    one transaction (plan.applied); with any error row nothing is written."""
    with transaction.atomic():
        plan = _plan(prop, list(rows))
        if plan.has_errors:
            return plan
        try:
            for step in plan.steps:
                step()
        except (ValidationError, IntegrityError) as error:
            # The data changed between the plan and the write (a booking took rooms): nothing is kept.
            transaction.set_rollback(True)
            messages = error.messages if isinstance(error, ValidationError) else []
            plan.error = " ".join(messages) or _("Bookings changed the stock meanwhile; upload the file again.")
            return plan
        plan.applied = True
    return plan


def _plan(prop, rows):
    for row in rows:
        row.problems, row.changes, row.status = [], [], AriRowStatus.ERROR
    cells = _read_cells(prop, rows)
    _load_old_values(prop, cells)
    steps = []
    _plan_availability(cells, steps)
    _plan_rates(cells, steps)
    for row in rows:
        if row.problems:
            row.status = AriRowStatus.ERROR
        elif row.changes:
            row.status = AriRowStatus.CHANGE
        else:
            row.status = AriRowStatus.UNCHANGED
    return AriCsvPlan(rows=rows, steps=steps)


def _number(text):
    text = text.replace(",", "").replace(" ", "")
    return int(text) if _NUMBER.fullmatch(text) else None


def _date(text):
    match = _DATE.fullmatch(text)
    if not match:
        return None
    try:
        return datetime.date(*(int(part) for part in match.groups()))
    except ValueError:
        return None


def _read_cells(prop, rows):
    """Each row's names resolved and values parsed; problems found in a row alone are recorded on it."""
    room_types = {room_type.vendor_id: room_type for room_type in RoomType.objects.filter(property=prop)}
    for room_type in room_types.values():
        room_type.property = prop
    plans = {plan.vendor_id: plan for plan in rate_plans_of(prop)}
    channels = {str(channel.channel_id): channel for channel in SalesChannel.objects.all()}
    first, last = ari_window()
    cells, seen = [], {}
    for row in rows:
        problems = row.problems
        if row.extra:
            problems.append(_("The line has more values than the header has columns."))
        kind = row.kind.lower()
        if kind not in ARI_CSV_KINDS:
            problems.append(
                _("Unknown kind “%(kind)s”: use one of %(kinds)s.")
                % {"kind": row.kind, "kinds": ", ".join(ARI_CSV_KINDS)}
            )
        room_type = room_types.get(row.room_type)
        if not row.room_type:
            problems.append(_("Give the room type's vendor id."))
        elif room_type is None:
            problems.append(_("Unknown room type “%(id)s” in this property.") % {"id": row.room_type})
        target = room_type
        if kind == KIND_AVAILABILITY and row.rate_plan:
            problems.append(_("An availability row names no rate plan: leave rate_plan empty."))
        if kind in (KIND_RATE, KIND_RATE_MODIFY):
            target = _rate_plan_of_row(row, kind, plans, room_type, problems)
        channel = None
        if row.channel:
            channel = channels.get(row.channel)
            if channel is None:
                problems.append(_("Unknown sales channel “%(id)s”.") % {"id": row.channel})
        day = _date(row.date)
        if day is None:
            problems.append(_("“%(date)s” is not a date: write it as YYYY-MM-DD.") % {"date": row.date})
        elif not first <= day <= last:
            problems.append(
                _("%(date)s is outside the hub's window (%(first)s to %(last)s).")
                % {"date": day, "first": first, "last": last}
            )
        value = _row_value(row, kind, channel, problems)
        business_day = _row_business_day(row, kind, channel, problems)
        if kind in (KIND_RATE, KIND_RATE_MODIFY) and not row.channel and value is None and business_day is None:
            problems.append(_("Give a value, a business day or both."))
        if problems or target is None:
            continue
        key = (kind == KIND_AVAILABILITY, target.pk, channel.pk if channel else None, day)
        if key in seen:
            problems.append(_("Line %(line)s already gives this cell.") % {"line": seen[key]})
            continue
        seen[key] = row.line
        package = kind != KIND_AVAILABILITY and target.model.type == RatePlanType.PACKAGE
        cells.append(_Cell(row, target, channel, day, value, business_day, package=package))
    return cells


def _rate_plan_of_row(row, kind, plans, room_type, problems):
    if not row.rate_plan:
        problems.append(_("Give the rate plan's vendor id."))
        return None
    plan = plans.get(row.rate_plan)
    if plan is None:
        problems.append(_("Unknown rate plan “%(id)s” in this property.") % {"id": row.rate_plan})
        return None
    if room_type is not None and plan.room_type_id != room_type.pk:
        problems.append(
            _("Rate plan “%(plan)s” is not a plan of room type “%(room_type)s”.")
            % {"plan": row.rate_plan, "room_type": row.room_type}
        )
        return None
    package = plan.model.type == RatePlanType.PACKAGE
    if package and kind == KIND_RATE:
        problems.append(
            _(
                "“%(plan)s” is a package plan: give its difference from the standalone rate as kind rate_modify, "
                "not a rate."
            )
            % {"plan": row.rate_plan}
        )
        return None
    if not package and kind == KIND_RATE_MODIFY:
        problems.append(
            _("“%(plan)s” is the standalone plan: give its rate as kind rate, not a difference (rate_modify).")
            % {"plan": row.rate_plan}
        )
        return None
    return plan


def _row_value(row, kind, channel, problems):
    if not row.value:
        if kind == KIND_AVAILABILITY and channel is None:
            problems.append(_("Give the number of rooms to sell."))
        return None
    value = _number(row.value)
    if value is None:
        problems.append(_("“%(value)s” is not a whole number.") % {"value": row.value})
    elif value < 0 and kind != KIND_RATE_MODIFY:
        problems.append(_("The value must be 0 or more, not %(value)s.") % {"value": value})
    elif abs(value) > ARI_VALUE_MAX:
        problems.append(_("The value must not exceed %(max)s.") % {"max": f"{ARI_VALUE_MAX:,}"})
    else:
        return value
    return None


def _row_business_day(row, kind, channel, problems):
    if not row.business_day:
        return None
    if kind == KIND_AVAILABILITY:
        problems.append(_("Only rate rows have a business day."))
        return None
    if channel is not None:
        problems.append(_("Days open and close for every channel at once: leave business_day empty on channel rows."))
        return None
    text = row.business_day.lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    problems.append(_("“%(value)s” is not a business day: write 1 (open) or 0 (closed).") % {"value": row.business_day})
    return None


def _load_old_values(prop, cells):
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
    channel_rates, caps = {}, {}
    if any(cell.channel for cell in cells):
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
    for cell in cells:
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


def _fmt(value, *, signed=False):
    if value is None:
        return "—"
    return f"{value:+,}" if signed else f"{value:,}"


def _yes_no(value):
    if value is None:
        return "—"
    return _("open") if value else _("closed")


def _describe(label, *, signed=False, show=None):
    """A function describing one CellChange of a row, e.g. "rate: 100,000 → 120,000"."""
    show = show or (lambda value: _fmt(value, signed=signed))

    def describe(change):
        return _("%(what)s: %(old)s → %(new)s") % {"what": label, "old": show(change.old), "new": show(change.new)}

    return describe


def _group(cells, key):
    """{key(cell): [cells]}, in the order of the file."""
    groups = defaultdict(list)
    for cell in cells:
        groups[key(cell)].append(cell)
    return groups


def _edit(cells, operation, value, *, rate_plans=(), room_types=(), channel=None):
    """The edit of integration.ari that sets the cells' days of one target."""
    return AriEdit(
        ranges=tuple(ranges_of(cell.day for cell in cells)),
        operation=operation,
        value=value,
        rate_plans=rate_plans,
        room_types=room_types,
        channel=channel,
    )


def _attach(cells, plan, describe, edit=None):
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
            cell.row.changes.append(describe(change))


def _plan_edit(cells, steps, describe, operation, value, **targets):
    """Plan one edit of integration.ari for cells, and add its apply to the steps."""
    edit = _edit(cells, operation, value, **targets)
    _attach(cells, ari_edit_plan(edit), describe, edit)
    steps.append(lambda: ari_edit_apply(edit))


def _plan_clear(cells, steps, describe, *, channel, rate_plans=(), room_types=()):
    """Plan clearing a channel's own values on the cells' days, and add it to the steps."""
    edit = AriEdit(
        ranges=tuple(ranges_of(cell.day for cell in cells)),
        operation=Operation.CLEAR_CHANNEL,
        channel=channel,
        rate_plans=tuple(rate_plans),
        room_types=tuple(room_types),
    )
    _attach(cells, ari_edit_plan(edit), describe, edit)
    steps.append(lambda: ari_edit_apply(edit))


def _plan_availability(cells, steps):
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


def _plan_rates(cells, steps):
    rates = [cell for cell in cells if not isinstance(cell.target, RoomType)]
    # Business days first: they depend on no rate.
    business = [cell for cell in rates if cell.business_day is not None and cell.business_day != cell.old_business_day]
    describe = _describe(_("open for sale"), show=_yes_no)
    for (plan, open_), group in _group(business, lambda cell: (cell.target, cell.business_day)).items():
        _plan_edit(group, steps, describe, Operation.OPEN if open_ else Operation.CLOSE, None, rate_plans=(plan,))

    changed = [cell for cell in rates if cell.value != cell.old and (cell.value is not None or cell.channel)]
    standalone = [cell for cell in changed if not cell.package]
    for (plan, channel, value), group in _group(
        standalone, lambda cell: (cell.target, cell.channel, cell.value)
    ).items():
        label = _("rate") if channel is None else _("channel rate")
        if value is None:
            _plan_clear(group, steps, _describe(label), channel=channel, rate_plans=(plan,))
        else:
            _plan_edit(group, steps, _describe(label), Operation.SET, value, rate_plans=(plan,), channel=channel)
    _plan_packages(rates, [cell for cell in changed if cell.package], steps)


def _plan_packages(rates, packages, steps):
    """Package cells, planned last. The file gives their difference; the edit takes the price guests pay,
    which is the difference plus the standalone rate as it will be once the file's rates are written (the
    steps apply the standalone rates first, so the edit stores exactly the file's difference)."""
    if not packages:
        return
    bases = standalone_rates(
        {cell.target.room_type_id for cell in packages},
        min(cell.day for cell in packages),
        max(cell.day for cell in packages),
    )
    for cell in rates:
        if not cell.package and cell.channel is None and cell.value is not None and not cell.row.problems:
            bases[(cell.target.room_type_id, cell.day)] = cell.value
    groups = defaultdict(list)
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
            label = _("difference") if cell.channel is None else _("channel difference")
            cell.row.changes.append(
                _("%(what)s: %(old)s → %(new)s (price %(price)s)")
                % {
                    "what": label,
                    "old": _fmt(cell.old, signed=True),
                    "new": _fmt(cell.value, signed=True),
                    "price": _fmt(base + cell.value),
                }
            )
    for (plan, channel, price), group in groups.items():
        if price is None:
            describe = _describe(_("channel difference"), signed=True)
            _plan_clear(group, steps, describe, channel=channel, rate_plans=(plan,))
            continue
        edit = _edit(group, Operation.SET, price, rate_plans=(plan,), channel=channel)
        errors = [str(message) for message in ari_edit_validate(edit).values()]
        for cell in group:
            cell.row.problems.extend(errors)
        steps.append(lambda edit=edit: ari_edit_apply(edit))

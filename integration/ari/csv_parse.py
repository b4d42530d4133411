"""Rates and availability as a CSV file: its format, and reading a file into rows and the cells they name
(each row's own problems recorded on it). The export writes this format (csv_export), the import plans and
applies it (csv_import).

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

import datetime
import re
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.files.csv_files import csv_records

from ..channels.models import SalesChannel
from ..channels.selectors import open_channels
from ..content.choices import RatePlanType
from ..content.models import RoomType
from ..content.validators import validate_vendor_id
from .dates import ari_window
from .selectors.rates import rate_plans_of

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
class CsvCell:
    """A row once read: what it names and the values it gives (None: not given)."""

    row: AriCsvRow
    target: Any  # a RoomType (availability) or a RatePlan
    channel: SalesChannel | None
    day: datetime.date
    value: int | None
    business_day: bool | None
    package: bool = False
    old: int | None = None
    old_business_day: bool | None = None


#: Columns an import ignores: those the error file adds (where the line was, what was wrong), so that a
#: corrected error file uploads as it is.
ARI_CSV_IGNORED = ("source_line", "error")


def ari_csv_read(content, *, first_only=False, progress=None):
    """Rows of a rates and availability file (bytes or text, UTF-8) as AriCsvRow, before any check
    (first_only: the first row only, to check the file as a whole quickly; progress(share read), when
    given, is called as it reads).

    Raises ValidationError when the file as a whole is unusable: not UTF-8 text, not CSV, too large, a
    wrong header, or no rows.
    """
    records = csv_records(
        content,
        columns=ARI_CSV_COLUMNS,
        required=_REQUIRED_COLUMNS,
        max_bytes=ARI_CSV_MAX_BYTES,
        ignored=ARI_CSV_IGNORED,
        first_only=first_only,
        progress=(lambda share: progress(share / 2)) if progress else None,
    )
    rows = []
    for record in records:
        rows.append(AriCsvRow(line=record.line, **record.cells, extra=record.extra))
        if progress is not None and not len(rows) % PROGRESS_ROWS:
            progress(0.5 + len(rows) / len(records) / 2)
    return rows


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


#: Rows read between two calls of ari_csv_cells' progress.
PROGRESS_ROWS = 10_000


def ari_csv_cells(prop, rows, *, progress=None):
    """Each row's names resolved and values parsed; problems found in a row alone are recorded on it.
    progress(rows done), when given, is called every PROGRESS_ROWS rows."""
    names = _Names.of(prop)
    cells: list[CsvCell] = []
    # The line that first gave each cell: (a room type's availability?, target id, channel id, day).
    seen: dict[tuple[bool, int, int | None, datetime.date], int] = {}
    for number, row in enumerate(rows):
        if progress is not None and number and not number % PROGRESS_ROWS:
            progress(number)
        cell = _row_cell(row, names)
        if cell is None:
            continue
        key = (isinstance(cell.target, RoomType), cell.target.pk, cell.channel.pk if cell.channel else None, cell.day)
        if key in seen:
            row.problems.append(_("Line %(line)s already gives this cell.") % {"line": seen[key]})
            continue
        seen[key] = row.line
        cells.append(cell)
    return cells


@dataclass(frozen=True)
class _Names:
    """What a property's file may name: room types and rate plans by vendor id, open channels by hub
    channel id, and the hub's window."""

    room_types: dict
    plans: dict
    channels: dict
    window: tuple

    @classmethod
    def of(cls, prop):
        room_types = {room_type.vendor_id: room_type for room_type in RoomType.objects.filter(property=prop)}
        for room_type in room_types.values():
            room_type.property = prop
        plans = {plan.vendor_id: plan for plan in rate_plans_of(prop)}
        channels = {str(channel.channel_id): channel for channel in open_channels(prop)}
        return cls(room_types, plans, channels, ari_window())


def _row_cell(row, names):
    """The cell a row gives, or None when the row has problems (recorded on it)."""
    problems = row.problems
    if row.extra:
        problems.append(_("The line has more values than the header has columns."))
    kind = row.kind.lower()
    if kind not in ARI_CSV_KINDS:
        problems.append(
            _("Unknown kind “%(kind)s”: use one of %(kinds)s.") % {"kind": row.kind, "kinds": ", ".join(ARI_CSV_KINDS)}
        )
    target = _row_target(row, kind, names, problems)
    channel = _row_channel(row, names, problems)
    day = _row_date(row, names.window, problems)
    value = _row_value(row, kind, channel, problems)
    business_day = _row_business_day(row, kind, channel, problems)
    # Only a row that gives neither: one that gave a bad one has been told what is wrong with it.
    if kind in (KIND_RATE, KIND_RATE_MODIFY) and not (row.channel or row.value or row.business_day):
        problems.append(_("Give a value, a business day or both."))
    if problems or target is None:
        return None
    package = kind != KIND_AVAILABILITY and target.model.type == RatePlanType.PACKAGE
    return CsvCell(row, target, channel, day, value, business_day, package=package)


def _row_target(row, kind, names, problems):
    """The room type (availability) or rate plan (rates) a row names."""
    room_type = names.room_types.get(row.room_type)
    if not row.room_type:
        problems.append(_("Give the room type's vendor id."))
    elif room_type is None:
        problems.append(_unknown(row.room_type, _("Unknown room type “%(id)s” in this property.")))
    if kind == KIND_AVAILABILITY and row.rate_plan:
        problems.append(_("An availability row names no rate plan: leave rate_plan empty."))
    if kind in (KIND_RATE, KIND_RATE_MODIFY):
        return _rate_plan_of_row(row, kind, names.plans, room_type, problems)
    return room_type


def _row_channel(row, names, problems):
    if not row.channel:
        return None
    channel = names.channels.get(row.channel)
    if channel is None:
        problems.append(_("Sales channel “%(id)s” is not open for this property.") % {"id": row.channel})
    return channel


def _row_date(row, window, problems):
    day = _date(row.date)
    first, last = window
    if day is None:
        problems.append(_("“%(date)s” is not a date: write it as YYYY-MM-DD.") % {"date": row.date})
    elif not first <= day <= last:
        problems.append(
            _("%(date)s is outside the hub's window (%(first)s to %(last)s).")
            % {"date": day, "first": first, "last": last}
        )
    return day


def _unknown(vendor_id, message):
    """The problem of a vendor id that names nothing here: the vendor id rule's message when it breaks the
    rule (ids stored before the rule are still found), else message."""
    try:
        validate_vendor_id(vendor_id)
    except ValidationError as error:
        return f"“{vendor_id}”: {error.messages[0]}"
    return message % {"id": vendor_id}


def _rate_plan_of_row(row, kind, plans, room_type, problems):
    if not row.rate_plan:
        problems.append(_("Give the rate plan's vendor id."))
        return None
    plan = plans.get(row.rate_plan)
    if plan is None:
        problems.append(_unknown(row.rate_plan, _("Unknown rate plan “%(id)s” in this property.")))
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

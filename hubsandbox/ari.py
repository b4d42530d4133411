"""Rates, business days and availability at the sandbox hub (operations 14 and 15; decision 0006).

POST .../roomtypes/{rid}/rateplans/{rpid}/ari
    {"rates": [{"from", "to", "rate" | "rate_modify", "business_day"}, ...],
     "channels": [{"channel_id", "rates": [...]}, ...]}
POST .../roomtypes/{rid}/ari/avails
    {"avails": [{"from", "to", "count"}, ...], "channels": [{"channel_id", "avails": [...]}, ...]}

Both answer {"accepted": N}, N being the number of entries (common and per channel). The ids of the
path are looked up first (404), then the body is checked as a whole (400 naming the field) before
anything is stored, so that a refused request stores nothing.

Entries are inclusive date ranges; the hub keeps one value per day, per channel (the common values
under COMMON_CHANNEL). Entries apply in request order, common entries first, so a later entry
overwrites an earlier one on the days both cover. An entry that carries only business_day leaves the
day's stored rate as it was; a day holds either rate or rate_modify, whichever was sent last.
"""

import datetime
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from . import selectors
from .hubs import current_hub
from .models import COMMON_CHANNEL, RateplanModelType, SandboxAvailDay, SandboxRateDay, SandboxRateplan, SandboxRoomtype
from .validation import Field, ValidationError, array, boolean, date_string, integer, obj

KOREA = ZoneInfo("Asia/Seoul")
#: Dates from today (Korea time) to today + WINDOW_DAYS are accepted (decision 0006).
WINDOW_DAYS = 730
#: At most this many entries per request, common and per channel together (decision 0006).
MAX_ENTRIES = 1000
#: Sandbox limits (OURS, decision 0021): amounts are stored as doubles, exact to well beyond this magnitude; counts
#: and channel ids as 32-bit database integers.
MAX_AMOUNT = 10**15
MAX_INTEGER = 2**31 - 1

RATES = "rates"
AVAILS = "avails"
RATE_FIELDS = ("rate", "rate_modify", "business_day")


def korea_today() -> datetime.date:
    """Today's date in Korea, whatever the server's time zone (follows django.utils.timezone.now)."""
    return timezone.now().astimezone(KOREA).date()


def window(today: datetime.date | None = None) -> tuple[datetime.date, datetime.date]:
    """The first and the last date the hub accepts."""
    first = today or korea_today()
    return first, first + datetime.timedelta(days=WINDOW_DAYS)


def days(first: datetime.date, last: datetime.date) -> Iterator[datetime.date]:
    """Every day from first to last, both included."""
    for offset in range((last - first).days + 1):
        yield first + datetime.timedelta(days=offset)


# --- Validation --------------------------------------------------------------------------------


def _fail(path: str, problem: str):
    raise ValidationError(f"{path}: {problem}")


def amount(*, minimum: float | None):
    """A JSON number (not a boolean) >= minimum if given, of magnitude <= MAX_AMOUNT; 2.0 becomes 2."""
    problem = "must be a number" if minimum is None else f"must be a number >= {minimum}"

    def check(value, path):
        if isinstance(value, bool) or not isinstance(value, int | float):
            _fail(path, problem)
        if minimum is not None and value < minimum:
            _fail(path, problem)
        if not abs(value) <= MAX_AMOUNT:  # written so, it also refuses infinity (1e400) and NaN
            _fail(path, f"must be at most {MAX_AMOUNT} in magnitude")
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return value

    return check


def bounded_integer(*, minimum: int):
    """An integer from minimum to MAX_INTEGER (2.0 is the integer 2)."""
    at_least = integer(minimum=minimum)

    def check(value, path):
        value = at_least(value, path)
        if value > MAX_INTEGER:
            _fail(path, f"must be at most {MAX_INTEGER}")
        return value

    return check


def _entry(fields: dict[str, Field], *, required: tuple[str, ...], first: datetime.date, last: datetime.date):
    """An entry: its fields, then from <= to and both within the window."""
    shape = obj({"from": Field(date_string), "to": Field(date_string)} | fields, required=("from", "to", *required))

    def check(value, path):
        entry = shape(value, path)
        start, end = datetime.date.fromisoformat(entry["from"]), datetime.date.fromisoformat(entry["to"])
        if end < start:
            _fail(f"{path}.to", "must not be before from")
        for key, day in (("from", start), ("to", end)):
            if not first <= day <= last:
                _fail(
                    f"{path}.{key}",
                    f"must be from {first} (today in Korea) to {last} (today + {WINDOW_DAYS} days), got {day}",
                )
        entry["from"], entry["to"] = start, end
        return entry

    return check


def rate_entry(*, package: bool, first: datetime.date, last: datetime.date):
    """{"from", "to", "rate" | "rate_modify", "business_day"}: rate_modify on package plans only,
    rate on standalone plans only, and at least one of the three."""
    shape = _entry(
        {
            "rate": Field(amount(minimum=0)),
            "rate_modify": Field(amount(minimum=None)),
            "business_day": Field(boolean),
        },
        required=(),
        first=first,
        last=last,
    )

    def check(value, path):
        entry = shape(value, path)
        if package and "rate" in entry:
            _fail(f"{path}.rate", "not allowed on a rate plan whose model is a package (send rate_modify)")
        if not package and "rate_modify" in entry:
            _fail(f"{path}.rate_modify", "allowed only on a rate plan whose model is a package (send rate)")
        if not any(key in entry for key in RATE_FIELDS):
            _fail(path, f"must carry at least one of {', '.join(RATE_FIELDS)}")
        return entry

    return check


def avail_entry(*, first: datetime.date, last: datetime.date):
    """{"from", "to", "count"}: count an integer >= 0."""
    return _entry({"count": Field(bounded_integer(minimum=0))}, required=("count",), first=first, last=last)


@dataclass(frozen=True)
class AriBody:
    """A checked body: the entries of each channel in request order (COMMON_CHANNEL first) and their number."""

    entries: dict[int, list[dict]]
    count: int


def validate_ari(body: dict, *, section: str, entry) -> AriBody:
    """{section: [entry...], "channels"?: [{"channel_id", section: [entry...]}]}: each channel at most
    once, at most MAX_ENTRIES entries in all."""
    channel = obj(
        {"channel_id": Field(bounded_integer(minimum=1)), section: Field(array(entry))},
        required=("channel_id", section),
    )
    cleaned = obj({section: Field(array(entry)), "channels": Field(array(channel))}, required=(section,))(body, "")
    entries = {COMMON_CHANNEL: cleaned[section]}
    for index, item in enumerate(cleaned.get("channels", [])):
        if item["channel_id"] in entries:
            _fail(f"channels[{index}].channel_id", f"channel {item['channel_id']} appears more than once")
        entries[item["channel_id"]] = item[section]
    count = sum(map(len, entries.values()))
    if count > MAX_ENTRIES:
        problem = f"at most {MAX_ENTRIES} entries per request, counting those of channels[].{section}; got {count}"
        _fail(section, problem)
    return AriBody(entries=entries, count=count)


# --- Writes ------------------------------------------------------------------------------------


def _locked_rateplan(property_id: str, roomtype_id: str, rateplan_id: str) -> SandboxRateplan:
    prop = selectors.property_get(property_id)
    rateplan = selectors.rateplan_get(selectors.roomtype_get(prop, roomtype_id), rateplan_id)
    _lock(SandboxRateplan, rateplan.pk)
    return rateplan


def _lock(model, pk: int) -> None:
    """Locks one row until the transaction ends: one request at a time per rate plan or room type, so
    that each request's values land as a whole."""
    model.objects.select_for_update().order_by().filter(pk=pk).values_list("pk", flat=True).get()


def rates_store(*, property_id: str, roomtype_id: str, rateplan_id: str, body: dict) -> int:
    """POST .../rateplans/{rpid}/ari: stores each day's values; returns the number of entries."""
    with transaction.atomic():
        rateplan = _locked_rateplan(property_id, roomtype_id, rateplan_id)
        first, last = window()
        package = rateplan.rateplan_model.type == RateplanModelType.PACKAGE
        checked = validate_ari(body, section=RATES, entry=rate_entry(package=package, first=first, last=last))
        cells: dict[tuple[int, datetime.date], dict] = defaultdict(dict)
        for channel_id, entries in checked.entries.items():
            for entry in entries:
                values = {key: entry[key] for key in RATE_FIELDS if key in entry}
                for day in days(entry["from"], entry["to"]):
                    cell = cells[channel_id, day]
                    if "rate" in values or "rate_modify" in values:
                        # A day holds rate or rate_modify: the one sent last.
                        cell["rate"] = cell["rate_modify"] = None
                    cell.update(values)
        # Days whose cells set the same fields are written together, updating only those fields.
        by_fields: dict[tuple[str, ...], list[SandboxRateDay]] = defaultdict(list)
        for (channel_id, day), cell in cells.items():
            by_fields[tuple(sorted(cell))].append(
                SandboxRateDay(rateplan=rateplan, channel_id=channel_id, date=day, **cell)
            )
        for fields, rows in by_fields.items():
            SandboxRateDay.objects.bulk_create(
                rows,
                update_conflicts=True,
                unique_fields=["rateplan", "channel_id", "date"],
                update_fields=list(fields),
            )
    return checked.count


def avails_store(*, property_id: str, roomtype_id: str, body: dict) -> int:
    """POST .../roomtypes/{rid}/ari/avails: stores each day's count; returns the number of entries."""
    with transaction.atomic():
        roomtype = selectors.roomtype_get(selectors.property_get(property_id), roomtype_id)
        _lock(SandboxRoomtype, roomtype.pk)
        first, last = window()
        checked = validate_ari(body, section=AVAILS, entry=avail_entry(first=first, last=last))
        cells: dict[tuple[int, datetime.date], int] = {}
        for channel_id, entries in checked.entries.items():
            for entry in entries:
                for day in days(entry["from"], entry["to"]):
                    cells[channel_id, day] = entry["count"]
        SandboxAvailDay.objects.bulk_create(
            [
                SandboxAvailDay(roomtype=roomtype, channel_id=channel_id, date=day, count=count)
                for (channel_id, day), count in cells.items()
            ],
            update_conflicts=True,
            unique_fields=["roomtype", "channel_id", "date"],
            update_fields=["count"],
        )
    return checked.count


def forget_all() -> None:
    """Deletes every stored rate, business day and availability (state.reset())."""
    SandboxRateDay.objects.all().delete()
    SandboxAvailDay.objects.all().delete()


# --- Reads -------------------------------------------------------------------------------------


def _number(value: float | None):
    """A stored amount as it was sent: integral values as int."""
    return int(value) if value is not None and value.is_integer() else value


def rate_days(property_id: str, roomtype_id: str, rateplan_id: str, channel_id: int | None = None) -> dict:
    """{date: {"rate" | "rate_modify": x, "business_day": b}} of one rate plan and channel (None: the
    common values), in date order; a key is absent when no entry has set it for that day."""
    rows = SandboxRateDay.objects.filter(
        rateplan__property__hub=current_hub(),
        rateplan__property__vendor_id=property_id,
        rateplan__roomtype__vendor_id=roomtype_id,
        rateplan__vendor_id=rateplan_id,
        channel_id=COMMON_CHANNEL if channel_id is None else channel_id,
    ).order_by("date")
    result = {}
    for row in rows:
        values = {"rate": _number(row.rate), "rate_modify": _number(row.rate_modify), "business_day": row.business_day}
        result[row.date] = {key: value for key, value in values.items() if value is not None}
    return result


def avail_days(property_id: str, roomtype_id: str, channel_id: int | None = None) -> dict:
    """{date: count} of one room type and channel (None: the common counts), in date order."""
    rows = SandboxAvailDay.objects.filter(
        roomtype__property__hub=current_hub(),
        roomtype__property__vendor_id=property_id,
        roomtype__vendor_id=roomtype_id,
        channel_id=COMMON_CHANNEL if channel_id is None else channel_id,
    ).order_by("date")
    return dict(rows.values_list("date", "count"))

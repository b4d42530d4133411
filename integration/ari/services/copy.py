"""Copying a period of rates and availability onto another (December 2026 onto December 2027): the days
keep their weekday (the period moves by whole weeks: its first Monday lands on the first Monday of where
staff want it). A copy is one change like a bulk edit: previewed cell by cell,
recorded in the history, undone like any change, and sent to the hub as one update per rate plan or room
type."""

import datetime
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.db.transactions import retried_on_conflict

from ...content.choices import RatePlanType
from ...content.models import Property, RatePlan, RoomType
from ..dates import DateRange, ari_window
from ..models import AriChangeSet, AriChangeSource, RatePlanDay, RoomTypeDay
from .bulk import ari_change_set_finish, ari_change_set_start, ari_changes_write, ari_edit_lock
from .edits import AriEdit, AriPlan, AriStale, CellChange, Operation, User

#: The longest period one copy takes, in days (a year, leap day included).
MAX_COPY_DAYS = 366


def first_monday(day: datetime.date) -> datetime.date:
    """The first Monday on or after day."""
    return day + datetime.timedelta(days=-day.weekday() % 7)


def aligned_shift(source_first: datetime.date, target_first: datetime.date) -> datetime.timedelta:
    """How far a copy moves its days: from the source's first Monday to the target's (both on or after
    their first day), a whole number of weeks, so that every day keeps its weekday. December 2026 onto
    December 2027: Monday 7 December 2026 onto Monday 6 December 2027, 52 weeks; a leap day in between
    changes nothing (March 2027 onto March 2028: Monday 1 March 2027 onto Monday 6 March 2028, 53 weeks)."""
    return first_monday(target_first) - first_monday(source_first)


@dataclass(frozen=True)
class AriCopy:
    """Copy the common values of source's days onto the days shift (aligned_shift) later: rates, package
    differences and business days of rate_plans, rooms to sell of room_types. target_first is where staff
    want the copy: the source's first Monday lands on the first Monday on or after it."""

    source: DateRange
    target_first: datetime.date
    rate_plans: tuple[RatePlan, ...] = ()
    room_types: tuple[RoomType, ...] = ()

    @property
    def shift(self) -> datetime.timedelta:
        return aligned_shift(self.source.start, self.target_first)

    @property
    def target(self) -> DateRange:
        """The days the copy writes."""
        return DateRange(self.source.start + self.shift, self.source.end + self.shift)

    def description(self) -> str:
        """How the history names the copy (dates, language-neutral)."""
        return f"{self.source.start} ~ {self.source.end} → {self.target.start} ~ {self.target.end}"


@dataclass
class AriCopyPlan(AriPlan):
    """What a copy would change (AriPlan), and how many of the chosen rows' source days hold no value
    (nothing to copy: the target day is left as it is)."""

    missing: int = 0


def ari_copy_validate(copy: AriCopy) -> dict[str, str]:
    """Field errors of the copy itself, as a dict for a form."""
    errors = {}
    if copy.source.start > copy.source.end:
        errors["source_to"] = _("The period must not end before it starts.")
    elif (copy.source.end - copy.source.start).days + 1 > MAX_COPY_DAYS:
        errors["source_to"] = _("Copy at most %(days)s days at once.") % {"days": MAX_COPY_DAYS}
    else:
        first, last = ari_window()
        target = copy.target
        if target.start < first or target.end > last:
            errors["target_from"] = _(
                "With the weekdays kept the copy would fill %(start)s to %(end)s; the hub takes dates from "
                "today (Korea time) to %(last)s."
            ) % {"start": target.start, "end": target.end, "last": last}
        elif target.start <= copy.source.end and copy.source.start <= target.end:
            errors["target_from"] = _("The copy must not overlap the period it copies.")
    if not copy.rate_plans and not copy.room_types:
        errors["targets"] = _("Choose the rate plans and room types to copy.")
    return errors


def ari_copy_plan(copy: AriCopy) -> AriCopyPlan:
    """The cells the copy changes (old: the target day's value, new: the source day's), an error on each
    it cannot change, in three queries per table read."""
    plan = AriCopyPlan()
    _rate_changes(copy, plan)
    _availability_changes(copy, plan)
    return plan


def _span(date_range: DateRange) -> dict[str, datetime.date]:
    return {"date__gte": date_range.start, "date__lte": date_range.end}


def _rate_changes(copy: AriCopy, plan: AriCopyPlan) -> None:
    """A rate plan's rate (standalone) or difference from the standalone rate (package), and its business
    day: a package keeps its difference, so its price follows the standalone rate of the target day."""
    if not copy.rate_plans:
        return
    source = {
        (row.rate_plan_id, row.date): row
        for row in RatePlanDay.objects.filter(rate_plan__in=copy.rate_plans, **_span(copy.source))
    }
    target = {
        (row.rate_plan_id, row.date): row
        for row in RatePlanDay.objects.filter(rate_plan__in=copy.rate_plans, **_span(copy.target))
    }
    for rate_plan in copy.rate_plans:
        field_name = "rate_modify" if rate_plan.model.type == RatePlanType.PACKAGE else "rate"
        for day in copy.source.days():
            row = source.get((rate_plan.pk, day))
            value = getattr(row, field_name) if row else None
            if value is None:
                plan.missing += 1
                continue
            assert row is not None  # a value comes from a row
            new_day = day + copy.shift
            old = target.get((rate_plan.pk, new_day))
            plan.changes.append(CellChange(rate_plan, new_day, field_name, getattr(old, field_name, None), value))
            if old is not None or not row.business_day:
                # A day without a row sells (the default): an open day onto it changes nothing.
                was_open = old.business_day if old else None
                plan.changes.append(CellChange(rate_plan, new_day, "business_day", was_open, row.business_day))


def _availability_changes(copy: AriCopy, plan: AriCopyPlan) -> None:
    """A room type's rooms to sell; refused on a target day with more rooms booked than it would sell."""
    if not copy.room_types:
        return
    source = {
        (row.room_type_id, row.date): row.allotment
        for row in RoomTypeDay.objects.filter(room_type__in=copy.room_types, **_span(copy.source))
    }
    target = {
        (row.room_type_id, row.date): row
        for row in RoomTypeDay.objects.filter(room_type__in=copy.room_types, **_span(copy.target))
    }
    for room_type in copy.room_types:
        for day in copy.source.days():
            rooms = source.get((room_type.pk, day))
            if rooms is None:
                plan.missing += 1
                continue
            new_day = day + copy.shift
            old = target.get((room_type.pk, new_day))
            change = CellChange(room_type, new_day, "allotment", old.allotment if old else None, rooms)
            booked = old.held + old.taken if old else 0
            if rooms < booked:
                change.error = ngettext(
                    "%(count)d room is already booked on this day.",
                    "%(count)d rooms are already booked on this day.",
                    booked,
                ) % {"count": booked}
            plan.changes.append(change)


@retried_on_conflict
@transaction.atomic
def ari_copy_apply(
    *, prop: Property, copy: AriCopy, user: User | None = None, expected: str
) -> tuple[AriCopyPlan, AriChangeSet | None]:
    """Apply the copy as one change of prop by user, when its cells still are what the preview showed
    (expected: the plan's fingerprint; else AriStale with the plan as it is now). Raises ValidationError
    naming the first cells it cannot change. Returns the plan and the change (None when no cell changed)."""
    targets = AriEdit((), Operation.SET, rate_plans=copy.rate_plans, room_types=copy.room_types)
    ari_edit_lock(targets, list(copy.target.days()))
    plan = ari_copy_plan(copy)
    if plan.fingerprint() != expected:
        raise AriStale(plan)
    if plan.errors:
        raise ValidationError([f"{change.date}: {change.error}" for change in plan.errors[:10]])
    change_set = ari_change_set_start(prop=prop, source=AriChangeSource.COPY, user=user, description=copy.description())
    ari_changes_write(change_set, plan.changed)
    return plan, ari_change_set_finish(change_set)

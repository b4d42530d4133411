"""Each channel's availability from the common stock and the rules over it: the channel rules (close,
cap, hold back over dates), the per-day caps, the same-day cut-off and the lead days. Worked out at every
push, so a booking or an edit of the common stock recomputes every channel's count; and the use cases
that change the rules (with their preview, history and undo), which mark the days they touch dirty."""

import datetime
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from core.dates import KOREA, korea_today

from ...channels.models import SalesChannel
from ...channels.selectors import open_channel_ids
from ...content.models import Property, RoomType
from ...sync.models import ResourceKind
from ..dates import DateRange, ari_window, clamp_ranges, dates_within, merge_ranges
from ..models import ChannelAvailDay, RoomTypeDay
from ..models_avail import (
    ChannelAvailRule,
    ChannelAvailRuleChange,
    ChannelAvailRuleKind,
    ChannelLeadDays,
    PropertyCutoff,
)
from .push import ari_mark_dirty

#: Who changed a rule: the project's user model (integration does not import accounts).
User = Any

#: The fields of a rule that its history keeps (before and after) and its undo restores.
RULE_FIELDS = ("room_type_id", "channel_id", "date_from", "date_to", "kind", "value")


@dataclass(frozen=True)
class Rule:
    """A channel rule as the count works it out: on channel, from start to end, kind and value."""

    channel_id: int
    start: datetime.date
    end: datetime.date
    kind: str
    value: int | None

    def covers(self, day: datetime.date) -> bool:
        return self.start <= day <= self.end


@dataclass(frozen=True)
class AvailRules:
    """Everything that decides one room type's channel counts beside the common stock, keyed by the
    channels' hub ids. cutoff: None before the cut-off (or without one), else the channels today is closed
    on (empty: every channel, so the common count of today is 0). channels: the channels that get their
    own entries (an open channel with a rule, a lead time or a cap, or whose rule was removed: the hub
    must hear it sells from the common stock again)."""

    today: datetime.date
    rules: tuple[Rule, ...] = ()
    lead_days: dict[int, int] = field(default_factory=dict)
    cutoff: frozenset[int] | None = None
    channels: frozenset[int] = frozenset()


def channel_count(left: int, channel_id: int, day: datetime.date, cap: int | None, rules: AvailRules) -> int:
    """What channel_id may sell on day when left rooms are left: 0 when closed (a close rule, within its
    lead days, or today after the cut-off), else left less every room held back on it, and no more than
    its smallest cap (a rule's or the day's own)."""
    if day < rules.today + datetime.timedelta(days=rules.lead_days.get(channel_id, 0)):
        return 0
    if day == rules.today and rules.cutoff is not None and (not rules.cutoff or channel_id in rules.cutoff):
        return 0
    count = left
    held_back = 0
    for rule in rules.rules:
        if rule.channel_id != channel_id or not rule.covers(day):
            continue
        if rule.kind == ChannelAvailRuleKind.CLOSE:
            return 0
        if rule.kind == ChannelAvailRuleKind.HOLD_BACK:
            held_back += rule.value or 0
        elif rule.kind == ChannelAvailRuleKind.CAP:
            count = min(count, rule.value or 0)
    if cap is not None:
        count = min(count, cap)
    return max(0, min(count, left - held_back))


def common_count(available: int, day: datetime.date, rules: AvailRules) -> int:
    """The common count of day: 0 today after a cut-off on every channel, else what is left."""
    return 0 if day == rules.today and rules.cutoff is not None and not rules.cutoff else available


def room_type_counts(
    available: dict[datetime.date, int], caps: dict[tuple[int, datetime.date], int | None], rules: AvailRules
) -> tuple[list[tuple[datetime.date, dict]], dict[int, list[tuple[datetime.date, dict]]]]:
    """The counts to push of a room type's days (available: what is left per day, caps: the day caps per
    (channel, day)): the common ones and each channel's, in the shape of the push's values."""
    common = {day: common_count(left, day, rules) for day, left in sorted(available.items())}
    channels: dict[int, list[tuple[datetime.date, dict]]] = {}
    for channel_id in sorted(rules.channels | {channel_id for channel_id, _day in caps}):
        channels[channel_id] = [
            (day, {"count": channel_count(left, channel_id, day, caps.get((channel_id, day)), rules)})
            for day, left in common.items()
        ]
    return [(day, {"count": count}) for day, count in common.items()], channels


def room_type_availability(
    room_type: RoomType, ranges: Sequence[DateRange], *, now: datetime.datetime | None = None
) -> tuple[dict[datetime.date, int], dict[tuple[int, datetime.date], int | None], AvailRules]:
    """What is left of room_type on the days of ranges ({day: rooms}), the open channels' day caps
    ({(channel id, day): cap}) and the rules that apply now: what its availability push sends."""
    days = RoomTypeDay.objects.filter(dates_within(ranges), room_type=room_type).order_by("date")
    available = dict(days.values_list("date", "available"))
    open_ids = open_channel_ids(room_type.property)
    # No channel open: no channel's caps to read.
    caps = (
        ChannelAvailDay.objects.filter(
            dates_within(ranges), room_type=room_type, channel__channel_id__in=open_ids
        ).values_list("channel__channel_id", "date", "cap")
        if open_ids
        else []
    )
    rules = avail_rules_read(room_type, ranges, open_ids, now=now)
    return available, {(channel_id, day): cap for channel_id, day, cap in caps}, rules


def avail_rules_read(
    room_type: RoomType, ranges: Sequence[DateRange], open_ids: set[int], *, now: datetime.datetime | None = None
) -> AvailRules:
    """The rules of room_type over ranges that apply now, for the channels open_ids (hub ids); four queries
    (a property has a few rules, read whole and narrowed here: every availability push reads them); one, the
    cut-off, when no channel is open."""
    prop = room_type.property
    moment = (now or timezone.now()).astimezone(KOREA)
    rules, lead_days, changed = [], {}, set()
    # No channel open: no channel's rules to read (the cut-off still closes today for all).
    if open_ids:
        rules = [
            Rule(*row)
            for row in ChannelAvailRule.objects.filter(
                Q(room_type=room_type) | Q(room_type__isnull=True), property=prop, channel__channel_id__in=open_ids
            ).values_list("channel__channel_id", "date_from", "date_to", "kind", "value")
        ]
        lead_days = dict(
            ChannelLeadDays.objects.filter(property=prop, channel__channel_id__in=open_ids).values_list(
                "channel__channel_id", "days"
            )
        )
        changed = set(
            ChannelAvailRuleChange.objects.filter(property=prop, channel__channel_id__in=open_ids)
            .values_list("channel__channel_id", flat=True)
            .distinct()
        )
    cutoff = list(PropertyCutoff.objects.filter(property=prop).values_list("cutoff_time", "channels__channel_id"))
    # The channels a rule decides, or decided (its change is in the history): the hub must hear them.
    managed = {rule.channel_id for rule in rules} | set(lead_days) | {c for _t, c in cutoff if c is not None}
    managed |= changed
    return AvailRules(
        today=moment.date(),
        rules=tuple(rule for rule in rules if any(r.start <= rule.end and rule.start <= r.end for r in ranges)),
        lead_days=lead_days,
        cutoff=_cutoff_closed(cutoff, open_ids, moment),
        channels=frozenset(open_ids & managed),
    )


def _cutoff_closed(
    cutoff: Sequence[tuple[datetime.time | None, int | None]], open_ids: set[int], moment: datetime.datetime
) -> frozenset[int] | None:
    """None when today still sells (no cut-off, or before it at moment, Korea time); else the hub ids of the
    channels today is closed on (empty: every channel). cutoff: the property's (time, chosen channel) rows."""
    time = cutoff[0][0] if cutoff else None
    if time is None or moment.time() < time:
        return None
    chosen = {channel_id for _time, channel_id in cutoff if channel_id is not None}
    if not chosen:
        return frozenset()
    # Chosen channels none of which is open: nothing closes (an empty set would mean every channel).
    return frozenset(chosen & open_ids) or None


# --- Changing the rules ------------------------------------------------------------------------


def rule_values(rule: ChannelAvailRule) -> dict[str, Any]:
    """A rule's fields as its history keeps them (dates as ISO text)."""
    values = {name: getattr(rule, name) for name in RULE_FIELDS}
    values["date_from"] = rule.date_from.isoformat()
    values["date_to"] = rule.date_to.isoformat()
    return values


@dataclass(frozen=True)
class PreviewRow:
    """A run of days on which a channel's count of a room type changes from before to after."""

    room_type: RoomType
    channel: SalesChannel
    start: datetime.date
    end: datetime.date
    before: int
    after: int


@dataclass
class RulePreview:
    """What saving (or removing) a rule changes: each channel's counts, and the hub requests it costs (one
    availability request per room type)."""

    rows: list[PreviewRow]
    room_types: list[RoomType]

    @property
    def hub_requests(self) -> int:
        return len(self.room_types)


def avail_rule_preview(
    prop: Property, *, before: ChannelAvailRule | None, after: ChannelAvailRule | None
) -> RulePreview:
    """What replacing rule before by after changes (before None: a new rule; after None: a removal), for
    the open channels, within the hub's window, on the room types either covers."""
    ranges = _ranges_of(before, after)
    room_types = _room_types_of(prop, before, after)
    open_channels = {c.channel_id: c for c in SalesChannel.objects.filter(channel_id__in=open_channel_ids(prop))}
    rows: list[PreviewRow] = []
    for room_type in room_types:
        if not ranges:
            break
        available, caps, rules = room_type_availability(room_type, ranges)
        without = tuple(r for r in rules.rules if before is None or not _is(r, before))
        old_rules = replace(rules, rules=(*without, *_as_rules(before, room_type)), channels=frozenset(open_channels))
        new_rules = replace(rules, rules=(*without, *_as_rules(after, room_type)), channels=frozenset(open_channels))
        _common, old = room_type_counts(available, caps, old_rules)
        _common, new = room_type_counts(available, caps, new_rules)
        for channel_id, channel in sorted(open_channels.items()):
            rows.extend(_changed_runs(room_type, channel, old.get(channel_id, []), new.get(channel_id, [])))
    return RulePreview(rows=rows, room_types=room_types if ranges else [])


def _is(rule: Rule, model: ChannelAvailRule) -> bool:
    """Whether rule is the saved state of model (what a preview of its change takes out)."""
    return (
        model.pk is not None
        and rule.channel_id == model.channel.channel_id
        and (rule.start, rule.end, rule.kind, rule.value) == (model.date_from, model.date_to, model.kind, model.value)
    )


def _as_rules(model: ChannelAvailRule | None, room_type: RoomType) -> tuple[Rule, ...]:
    if model is None or (model.room_type_id is not None and model.room_type_id != room_type.pk):
        return ()
    return (Rule(model.channel.channel_id, model.date_from, model.date_to, model.kind, model.value),)


def _changed_runs(room_type: RoomType, channel: SalesChannel, old: list, new: list) -> list[PreviewRow]:
    rows: list[PreviewRow] = []
    for (day, before), (_day, after) in zip(old, new, strict=True):
        b, a = before["count"], after["count"]
        if b == a:
            continue
        last = rows[-1] if rows else None
        if last and (last.before, last.after) == (b, a) and last.end + datetime.timedelta(days=1) == day:
            rows[-1] = replace(last, end=day)
        else:
            rows.append(PreviewRow(room_type, channel, day, day, b, a))
    return rows


def _ranges_of(*rules: ChannelAvailRule | None) -> list[DateRange]:
    """The days of the rules within the hub's window."""
    return clamp_ranges(merge_ranges(DateRange(r.date_from, r.date_to) for r in rules if r is not None), ari_window())


def _room_types_of(prop: Property, *rules: ChannelAvailRule | None) -> list[RoomType]:
    """The room types the rules cover (every one of prop for a rule without a room type)."""
    ids = {r.room_type_id for r in rules if r is not None}
    room_types = RoomType.objects.filter(property=prop).select_related("property").order_by("pk")
    return list(room_types if None in ids else room_types.filter(pk__in=[pk for pk in ids if pk is not None]))


def _mark(prop: Property, *rules: ChannelAvailRule | None) -> None:
    """Mark dirty the days of the rules on the room types they cover: one availability push each."""
    days = [day for date_range in _ranges_of(*rules) for day in date_range.days()]
    if not days:
        return
    for room_type in _room_types_of(prop, *rules):
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=days)


def _record(
    prop: Property,
    rule: ChannelAvailRule | None,
    before: ChannelAvailRule | None,
    after: ChannelAvailRule | None,
    *,
    user: User | None,
    undo_of: ChannelAvailRuleChange | None = None,
) -> ChannelAvailRuleChange:
    subject = after or before
    return ChannelAvailRuleChange.objects.create(
        property=prop,
        user=user if user is not None and user.is_authenticated else None,
        rule=rule,
        channel=subject.channel if subject else None,
        before=rule_values(before) if before else None,
        after=rule_values(after) if after else None,
        undo_of=undo_of,
    )


@transaction.atomic
def avail_rule_save(
    *, rule: ChannelAvailRule, user: User | None = None, undo_of: ChannelAvailRuleChange | None = None
) -> ChannelAvailRuleChange:
    """Save a new or changed rule, record the change and mark dirty the days it covered and covers."""
    before = ChannelAvailRule.objects.select_related("channel").filter(pk=rule.pk).first() if rule.pk else None
    if rule.kind == ChannelAvailRuleKind.CLOSE:
        rule.value = None
    rule.save()
    _mark(rule.property, before, rule)
    return _record(rule.property, rule, before, rule, user=user, undo_of=undo_of)


@transaction.atomic
def avail_rule_delete(
    *, rule: ChannelAvailRule, user: User | None = None, undo_of: ChannelAvailRuleChange | None = None
) -> ChannelAvailRuleChange:
    """Remove a rule, record it and mark its days dirty (its channels sell from the common stock again)."""
    prop = rule.property
    _mark(prop, rule)
    change = _record(prop, None, rule, None, user=user, undo_of=undo_of)
    rule.delete()
    return change


class RuleUndoConflict(Exception):
    """The rule changed again (or is gone) since the change to undo: undoing would overwrite that."""


@transaction.atomic
def avail_rule_change_undo(*, change: ChannelAvailRuleChange, user: User | None = None) -> ChannelAvailRuleChange:
    """Put the rule back as it was before change: remove an added rule, restore a removed one, give a
    changed one its former values. Raises RuleUndoConflict when the rule no longer reads as change left it."""
    current = None
    if change.rule_id:
        current = ChannelAvailRule.objects.select_for_update(of=("self",)).filter(pk=change.rule_id).first()
    if change.after is not None and (current is None or rule_values(current) != change.after):
        raise RuleUndoConflict
    if change.before is None:
        assert current is not None  # an addition's rule is there (checked above)
        return avail_rule_delete(rule=current, user=user, undo_of=change)
    rule = current or ChannelAvailRule(property=change.property)
    for name, value in change.before.items():
        setattr(rule, name, datetime.date.fromisoformat(value) if name.startswith("date_") else value)
    return avail_rule_save(rule=rule, user=user, undo_of=change)


# --- Cut-off and lead days -------------------------------------------------------------------


def _room_types_dirty(prop_ids: Iterable[int], days: Iterable[datetime.date]) -> int:
    """Mark days dirty on every room type of the properties; returns how many room types."""
    days = list(days)
    count = 0
    for room_type in RoomType.objects.filter(property_id__in=list(prop_ids)).select_related("property"):
        ari_mark_dirty(room_type, kind=ResourceKind.ARI_AVAILS, dates=days)
        count += 1
    return count


def cutoffs_due(*, now: datetime.datetime | None = None) -> list[int]:
    """The cut-offs whose time has come today (Korea time) and whose close is not yet queued."""
    moment = (now or timezone.now()).astimezone(KOREA)
    return list(
        PropertyCutoff.objects.filter(cutoff_time__isnull=False, cutoff_time__lte=moment.time())
        .filter(Q(pushed_on__isnull=True) | Q(pushed_on__lt=moment.date()))
        .values_list("pk", flat=True)
    )


def cutoff_push(cutoff_id: int, *, now: datetime.datetime | None = None) -> bool:
    """Queue today's close at the hub for one property whose cut-off has passed (its availability of
    today, every room type), once a day; False when already done or not due."""
    today = (now or timezone.now()).astimezone(KOREA).date()
    with transaction.atomic():
        cutoff = PropertyCutoff.objects.select_for_update(of=("self",)).filter(pk=cutoff_id).first()
        if cutoff is None or cutoff.pushed_on == today or cutoff.pk not in cutoffs_due(now=now):
            return False
        cutoff.pushed_on = today
        cutoff.save(update_fields=["pushed_on"])
        _room_types_dirty([cutoff.property_id], [today])
    return True


def _channel_entries_kept(prop: Property, channel_ids: Iterable[int], days: Sequence[datetime.date]) -> None:
    """Keep channels' own entries at the hub on days that no rule may decide for them any more (lead days
    removed, a cut-off changed): an empty cap per room type and day, as a cleared cap leaves it. Without it
    the push of these days would carry no entry for the channel and the hub would keep it closed (decision
    0006: a channel whose lever is gone must hear that it sells from the common stock again)."""
    room_type_ids = list(RoomType.objects.filter(property=prop).values_list("pk", flat=True))
    ChannelAvailDay.objects.bulk_create(
        [
            ChannelAvailDay(room_type_id=room_type_id, channel_id=channel_id, date=day, cap=None)
            for room_type_id in room_type_ids
            for channel_id in channel_ids
            for day in days
        ],
        ignore_conflicts=True,  # a day with a cap of its own keeps it
        batch_size=1000,
    )


@transaction.atomic
def cutoff_settings_changed(prop: Property) -> None:
    """A property's cut-off changed: today goes to the hub again (open or closed as the new one says), with
    an entry of its own for every open channel, so that a channel no longer closed by it hears so."""
    PropertyCutoff.objects.filter(property=prop).update(pushed_on=None)
    today = korea_today()
    open_channels = SalesChannel.objects.filter(channel_id__in=open_channel_ids(prop)).values_list("pk", flat=True)
    _channel_entries_kept(prop, list(open_channels), [today])
    _room_types_dirty([prop.pk], [today])


def _lead_days_changed(prop: Property, channel_id: int, *, old: int, new: int) -> None:
    """A channel's lead days changed: the days between the old and the new limit go to the hub again; those
    that open keep an entry of the channel's own, so that the hub hears they sell again."""
    today = korea_today()
    days = [today + datetime.timedelta(days=offset) for offset in range(min(old, new), max(old, new))]
    if new < old:
        _channel_entries_kept(prop, [channel_id], days)
    if days:
        _room_types_dirty([prop.pk], days)


@transaction.atomic
def lead_days_save(*, lead: ChannelLeadDays) -> None:
    """Save a channel's lead days; the days that close or open with it go to the hub."""
    old = ChannelLeadDays.objects.filter(pk=lead.pk).values_list("days", flat=True).first() if lead.pk else None
    lead.save()
    _lead_days_changed(lead.property, lead.channel_id, old=old or 0, new=lead.days)


@transaction.atomic
def lead_days_delete(*, lead: ChannelLeadDays) -> None:
    """Remove a channel's lead days: the days they closed open again at the hub."""
    _lead_days_changed(lead.property, lead.channel_id, old=lead.days, new=0)
    lead.delete()


def lead_days_push(*, today: datetime.date | None = None) -> int:
    """The nightly push of the lead days: each night the day that comes within a channel's lead days
    (today + days - 1) closes on it; marks that day dirty on the room types of its properties."""
    today = today or korea_today()
    by_day: dict[datetime.date, set[int]] = defaultdict(set)
    for property_id, days in ChannelLeadDays.objects.filter(days__gt=0).values_list("property_id", "days"):
        by_day[today + datetime.timedelta(days=days - 1)].add(property_id)
    count = 0
    for day, property_ids in sorted(by_day.items()):
        with transaction.atomic():
            count += _room_types_dirty(property_ids, [day])
    return count

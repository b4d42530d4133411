"""Each channel's availability from the common stock and its rules: closed, capped, held back, the lead
days and the same-day cut-off (Korea time), worked out at every push; rule changes with preview, history
and undo, marking exactly the days they touch."""

import datetime

import pytest
from django.db import transaction

from core.dates import KOREA
from integration.ari.dates import DateRange, merge_ranges
from integration.ari.resources import room_type_push_values
from integration.ari.services import avail_rules
from integration.ari.services.avail_rules import (
    RuleUndoConflict,
    avail_rule_change_undo,
    avail_rule_delete,
    avail_rule_preview,
    avail_rule_save,
    cutoff_push,
    cutoffs_due,
    lead_days_push,
)
from integration.ari.services.inventory import inventory_hold
from integration.models import (
    AriDirtyRange,
    ChannelAvailDay,
    ChannelAvailRule,
    ChannelAvailRuleChange,
    ChannelLeadDays,
    PropertyCutoff,
    SyncState,
)
from tests.factories import PropertyFactory
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days

pytestmark = pytest.mark.django_db


@pytest.fixture
def stock():
    prop = PropertyFactory()
    rows = ari_property(prop, room_types=2, packages=0)
    fill_days(rows, [day(n) for n in range(10)], allotment=5)
    channels = [SalesChannelFactory(open_for=prop) for _ in range(3)]
    return prop, [row[0] for row in rows], channels


def counts(room_type, first=0, last=9):
    """{channel id: [count per day]} and the common counts the push sends for days first..last."""
    common, channels = room_type_push_values(room_type, [DateRange(day(first), day(last))])
    return [v["count"] for _d, v in common], {cid: [v["count"] for _d, v in values] for cid, values in channels.items()}


def rule(prop, channel, kind, value=None, *, first=2, last=4, room_type=None):
    with transaction.atomic():
        avail_rule_save(
            rule=ChannelAvailRule(
                property=prop,
                room_type=room_type,
                channel=channel,
                date_from=day(first),
                date_to=day(last),
                kind=kind,
                value=value,
            )
        )
    return ChannelAvailRule.objects.latest("pk")


def dirty(room_type):
    """The ranges of days marked for room_type's availability push, merged."""
    rows = AriDirtyRange.objects.filter(state__kind="ari_avails", state__object_id=room_type.pk)
    return [(r.start, r.end) for r in merge_ranges(DateRange(r.date_from, r.date_to) for r in rows)]


def test_close_cap_and_hold_back_give_each_channel_exactly_its_count(stock):
    prop, (room, other), (closed, capped, held) = stock
    rule(prop, closed, "close")
    rule(prop, capped, "cap", 2, first=3, last=5)
    rule(prop, held, "hold_back", 4, first=0, last=1, room_type=room)

    common, channels = counts(room)

    assert common == [5] * 10  # the common stock is untouched
    assert channels[closed.channel_id] == [5, 5, 0, 0, 0, 5, 5, 5, 5, 5]
    assert channels[capped.channel_id] == [5, 5, 5, 2, 2, 2, 5, 5, 5, 5]
    assert channels[held.channel_id] == [1, 1, 5, 5, 5, 5, 5, 5, 5, 5]
    # A rule of one room type leaves the others alone; a rule of every room type reaches them.
    _common, others = counts(other)
    assert others[held.channel_id] == [5] * 10
    assert others[closed.channel_id] == [5, 5, 0, 0, 0, 5, 5, 5, 5, 5]


def test_a_booking_recomputes_every_channel_from_the_rules(stock):
    prop, (room, _other), (capped, held, _third) = stock
    rule(prop, capped, "cap", 3, first=0, last=9)
    rule(prop, held, "hold_back", 2, first=0, last=9)
    with transaction.atomic():
        inventory_hold(room_type=room, dates=[day(1)], rooms=2)  # 5 -> 3 left on day 1
        inventory_hold(room_type=room, dates=[day(2)], rooms=4)  # 5 -> 1 left on day 2

    common, channels = counts(room, 0, 2)

    assert common == [5, 3, 1]
    assert channels[capped.channel_id] == [3, 3, 1]
    assert channels[held.channel_id] == [3, 1, 0]  # never below 0


def test_rules_and_day_caps_combine_to_the_smallest(stock):
    prop, (room, _other), (channel, _second, _third) = stock
    rule(prop, channel, "cap", 4, first=0, last=9)
    rule(prop, channel, "hold_back", 1, first=0, last=9)
    rule(prop, channel, "hold_back", 1, first=0, last=0)
    ChannelAvailDay.objects.create(room_type=room, channel=channel, date=day(1), cap=2)

    _common, channels = counts(room, 0, 2)

    assert channels[channel.channel_id] == [3, 2, 4]  # 5-1-1; the day's cap 2; the cap 4 of 5-1


def test_a_rule_of_a_channel_not_open_sends_nothing_for_it(stock):
    prop, (room, _other), _channels = stock
    closed_channel = SalesChannelFactory()  # not open for the property
    rule(prop, closed_channel, "close")

    _common, channels = counts(room)

    assert closed_channel.channel_id not in channels


def test_a_rule_change_marks_its_days_on_each_room_type_it_covers(stock):
    prop, (room, other), (channel, _second, _third) = stock
    SyncState.objects.all().delete()

    saved = rule(prop, channel, "close", first=2, last=4, room_type=room)
    assert dirty(room) == [(day(2), day(4))]
    assert dirty(other) == []

    saved.date_from, saved.date_to = day(6), day(7)
    with transaction.atomic():
        avail_rule_save(rule=saved)
    # Both the days it covered (they open again) and those it covers now.
    assert dirty(room) == [(day(2), day(4)), (day(6), day(7))]


def test_a_removed_rule_still_sends_its_channel_as_the_common_stock(stock):
    prop, (room, _other), (channel, _second, _third) = stock
    saved = rule(prop, channel, "close")
    with transaction.atomic():
        avail_rule_delete(rule=saved)

    _common, channels = counts(room)

    assert channels[channel.channel_id] == [5] * 10  # the hub hears the close is over


def test_preview_shows_each_channel_before_and_after_and_one_request_per_room_type(stock):
    prop, (room, other), (channel, _second, _third) = stock
    new = ChannelAvailRule(property=prop, channel=channel, date_from=day(2), date_to=day(3), kind="cap", value=1)

    preview = avail_rule_preview(prop, before=None, after=new)

    assert [(r.room_type, r.channel, r.start, r.end, r.before, r.after) for r in preview.rows] == [
        (room, channel, day(2), day(3), 5, 1),
        (other, channel, day(2), day(3), 5, 1),
    ]
    assert preview.hub_requests == 2
    assert not ChannelAvailRule.objects.exists()  # a preview writes nothing


def test_history_and_undo_of_an_addition_a_change_and_a_removal(stock, admin_user):
    prop, (room, _other), (channel, _second, _third) = stock
    saved = rule(prop, channel, "cap", 2)
    added = ChannelAvailRuleChange.objects.latest("pk")
    saved.value = 1
    with transaction.atomic():
        avail_rule_save(rule=saved, user=admin_user)
    changed = ChannelAvailRuleChange.objects.latest("pk")
    assert (changed.before["value"], changed.after["value"], changed.user) == (2, 1, admin_user)

    # The addition cannot be undone while the rule reads otherwise (the change after it).
    with pytest.raises(RuleUndoConflict), transaction.atomic():
        avail_rule_change_undo(change=added)

    avail_rule_change_undo(change=changed)
    assert ChannelAvailRule.objects.get().value == 2
    with transaction.atomic():
        avail_rule_delete(rule=ChannelAvailRule.objects.get())
    removed = ChannelAvailRuleChange.objects.latest("pk")
    avail_rule_change_undo(change=removed)
    restored = ChannelAvailRule.objects.get()
    assert (restored.kind, restored.value, restored.date_from) == ("cap", 2, day(2))
    assert counts(room)[1][channel.channel_id][2] == 2


def test_lead_days_close_the_first_days_on_that_channel_only(stock):
    prop, (room, _other), (channel, other_channel, _third) = stock
    ChannelLeadDays.objects.create(property=prop, channel=channel, days=3)

    _common, channels = counts(room, 0, 4)

    assert channels[channel.channel_id] == [0, 0, 0, 5, 5]
    assert other_channel.channel_id not in channels


def test_the_nightly_lead_days_push_marks_the_day_that_came_within_them(stock):
    prop, (room, other), (channel, _second, _third) = stock
    ChannelLeadDays.objects.create(property=prop, channel=channel, days=3)
    SyncState.objects.all().delete()

    assert lead_days_push() == 2

    assert dirty(room) == dirty(other) == [(day(2), day(2))]


def korea(hour, minute, second=0, days=0):
    date = day(days)
    return datetime.datetime(date.year, date.month, date.day, hour, minute, second, tzinfo=KOREA)


def test_the_cut_off_closes_today_from_its_minute_in_korea_time(stock):
    prop, (room, _other), _channels = stock
    PropertyCutoff.objects.create(property=prop, cutoff_time=datetime.time(18, 0))

    # Just before 18:00 in Korea (09:00 UTC) today sells; at 18:00:00 it does not, tomorrow still does.
    for now, expected in ((korea(17, 59, 59), [5, 5]), (korea(18, 0), [0, 5])):
        rules = avail_rules.avail_rules_read(room, [DateRange(day(0), day(1))], set(), now=now)
        common, _channels = avail_rules.room_type_counts({day(0): 5, day(1): 5}, {}, rules)
        assert [v["count"] for _d, v in common] == expected, now
    # The same moment written in UTC is judged in Korea time.
    utc_just_before = korea(17, 59, 59).astimezone(datetime.UTC)
    rules = avail_rules.avail_rules_read(room, [DateRange(day(0), day(0))], set(), now=utc_just_before)
    assert rules.cutoff is None


def test_a_cut_off_on_chosen_channels_closes_today_only_there(stock):
    prop, (room, _other), (chosen, other, _third) = stock
    cutoff = PropertyCutoff.objects.create(property=prop, cutoff_time=datetime.time(18, 0))
    cutoff.channels.set([chosen])
    open_ids = {chosen.channel_id, other.channel_id}

    rules = avail_rules.avail_rules_read(room, [DateRange(day(0), day(1))], open_ids, now=korea(18, 30))
    common, channels = avail_rules.room_type_counts({day(0): 5, day(1): 5}, {}, rules)

    assert [v["count"] for _d, v in common] == [5, 5]
    assert [v["count"] for _d, v in channels[chosen.channel_id]] == [0, 5]
    assert other.channel_id not in channels
    # Chosen channels none of which is open close nothing (not every channel).
    rules = avail_rules.avail_rules_read(room, [DateRange(day(0), day(1))], {other.channel_id}, now=korea(18, 30))
    assert rules.cutoff is None


def test_the_cut_off_job_marks_today_once_when_its_time_has_come(stock):
    prop, (room, other), _channels = stock
    cutoff = PropertyCutoff.objects.create(property=prop, cutoff_time=datetime.time(18, 0))
    SyncState.objects.all().delete()

    assert cutoffs_due(now=korea(17, 59, 59)) == []
    assert cutoffs_due(now=korea(18, 0)) == [cutoff.pk]
    assert cutoff_push(cutoff.pk, now=korea(18, 0)) is True
    assert dirty(room) == dirty(other) == [(day(0), day(0))]
    # Once a day: the next run of the job finds nothing due.
    assert cutoffs_due(now=korea(18, 1)) == []
    assert cutoff_push(cutoff.pk, now=korea(18, 1)) is False

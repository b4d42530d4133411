"""The sender and the request budget (decision 0022): with the property's budget spent nothing is sent and
nothing failed; the row waits, saying why, until the slot frees, queued for then; an availability send is
held by the availability budget only; the sweeper leaves a waiting row alone until then."""

import datetime
import time
from types import SimpleNamespace

import pytest
from django.db import transaction
from django.utils import timezone, translation

from core.dates import korea_today
from integration.ari.dates import DateRange
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.ari.services.inventory import inventory_hold
from integration.content.resources import path_params
from integration.hub import budget, payloads
from integration.hub.budget import SPAN_SECONDS, budget_take
from integration.hub.endpoints import ARI_RATES, BUDGET_CONTENT, BUDGET_RATES
from integration.models import SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from integration.sync.services import outbox, sender
from integration.sync.services.batch import sync_pending
from integration.sync.services.outbox import sync_retries_now, sync_state_ensure, sync_sweep
from integration.sync.services.sender import Outcome, sync_send
from tests.factories import PropertyFactory, RoomTypeFactory, hub_content, korean

pytestmark = pytest.mark.django_db(transaction=True)

DAYS = (DateRange(korea_today(), korea_today() + datetime.timedelta(days=29)),)


@pytest.fixture
def published(monkeypatch):
    """The sends queued (state id, countdown), in order, instead of reaching a broker."""
    sent: list[tuple[int, float | None]] = []

    def publish_many(_task, args):
        sent.extend((a[0], None) for a in args)
        return len(args)

    monkeypatch.setattr(
        outbox, "queue_after_commit", lambda _task, state_id, **kw: sent.append((state_id, kw["countdown"]))
    )
    monkeypatch.setattr(outbox, "publish_many", publish_many)
    return sent


def hanok():
    prop = PropertyFactory(vendor_id="hanok")
    korean(prop, name="한옥")
    return prop


def spend(settings, kind, property_id="hanok"):
    """Take every slot of the property's budget of kind at the sandbox hub."""
    while budget_take(settings.HUB_BASE_URL, property_id, kind) == 0.0:
        pass


def test_a_spent_budget_sends_nothing_fails_nothing_and_waits_for_its_slot(hub, hub_budget, settings, published):
    state = sync_state_ensure(hanok())
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 10
    spend(settings, BUDGET_CONTENT)

    assert sync_send(state.pk) is Outcome.BUDGET

    assert hub.request_log().count() == 0
    assert SyncAttempt.objects.count() == 0
    state.refresh_from_db()
    assert (state.status, state.failures, state.last_status_code) == (SyncStatus.PENDING, 0, None)
    assert state.next_attempt_at is not None
    assert 55 < (state.next_attempt_at - timezone.now()).total_seconds() <= SPAN_SECONDS + 6
    assert state.last_error == "Waiting for the property's request budget (10 a minute for content)."
    (queued, countdown), *_others = published
    assert queued == state.pk
    assert 55 < countdown <= SPAN_SECONDS + 6  # the oldest slot frees, then a jitter of a slot's share (6 s)
    with translation.override("ko"):
        assert sync_send(state.pk) is Outcome.BUDGET
    state.refresh_from_db()
    assert state.last_error == "숙소의 요청 한도를 기다리는 중입니다(콘텐츠: 분당 10건)."


def test_the_rows_waiting_for_one_slot_come_back_at_different_moments(hub, hub_budget, settings, published):
    prop = hanok()
    room_types = [RoomTypeFactory(property=prop) for _n in range(8)]
    for room_type in room_types:
        korean(room_type)
    sync_state_ensure(prop)
    SyncState.objects.filter(kind="property").update(known_to_hub=True)
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 10
    spend(settings, BUDGET_CONTENT)

    assert {sync_send(sync_state_ensure(room_type).pk) for room_type in room_types} == {Outcome.BUDGET}

    countdowns = sorted(countdown for _queued, countdown in published)
    assert len(countdowns) == 8
    assert countdowns[0] > 55
    assert countdowns[-1] <= SPAN_SECONDS + 6
    # Not all at the moment the oldest slot frees, spread over a slot's share of the minute (6 s): eight
    # random moments fall within one second of each other about once in ten million runs.
    assert countdowns[-1] - countdowns[0] > 1


def test_the_sweeper_and_a_healed_hub_leave_a_row_waiting_for_its_budget_alone(hub, hub_budget, settings, published):
    state = sync_state_ensure(hanok())
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 1
    spend(settings, BUDGET_CONTENT)
    assert sync_send(state.pk) is Outcome.BUDGET
    state.refresh_from_db()
    due = state.next_attempt_at
    published.clear()
    SyncState.objects.filter(pk=state.pk).update(queued_at=None)  # as if its message were lost

    sync_sweep()
    sync_retries_now(state.environment)

    state.refresh_from_db()
    assert state.next_attempt_at == due  # not probed now
    assert all(countdown and countdown > 55 for queued, countdown in published if queued == state.pk)


def test_the_in_process_batch_waits_for_the_slot_instead(hub, hub_budget, settings, monkeypatch):
    """manage.py hub_sync (schedule=False) sleeps until the slot frees, renews its lease, then sends."""
    state = sync_state_ensure(hanok())
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 1
    spend(settings, BUDGET_CONTENT)
    slept: list[float] = []
    real_time = time.time
    monkeypatch.setattr(sender, "time", SimpleNamespace(sleep=slept.append, monotonic=time.monotonic))
    # The slot frees once the sleep has passed: the budget's clock moved on by what was slept.
    monkeypatch.setattr(budget, "time", SimpleNamespace(time=lambda: real_time() + sum(slept)))
    renewed = []
    monkeypatch.setattr(sender, "lease_duration", lambda: renewed.append(1) or datetime.timedelta(seconds=45))

    assert sync_send(state.pk, schedule=False) is Outcome.SENT
    assert len(slept) == 1
    assert 55 < slept[0] <= SPAN_SECONDS
    assert len(renewed) == 2  # the claim's lease, then the one renewed after the wait
    assert hub.request_log(method="POST").count() == 1


def test_a_plan_the_hub_has_begun_to_take_waits_for_its_next_slot_in_the_worker(
    content, hub, settings, published, monkeypatch
):
    """Rates in two calls (over MAX_ARI_ENTRIES), a budget of one a minute: the worker sends the first, waits
    for the slot of the second rather than give up and send the first again at its next try."""
    _room_type, (standalone, _package) = content
    edit(
        ranges=(DateRange(korea_today(), korea_today() + datetime.timedelta(days=9)),),
        operation=Operation.SET,
        value=100000,
        rate_plans=(standalone,),
    )
    edit(
        ranges=(DateRange(korea_today(), korea_today()),),
        operation=Operation.SET,
        value=90000,
        rate_plans=(standalone,),
    )  # two runs of days: two entries
    monkeypatch.setattr(payloads, "MAX_ARI_ENTRIES", 1)
    rates = SyncState.objects.get(kind=ResourceKind.ARI_RATES, object_id=standalone.pk)
    settings.HUB_BUDGET_RATES_PER_MINUTE = 1
    slept: list[float] = []
    real_time = time.time
    monkeypatch.setattr(sender, "time", SimpleNamespace(sleep=slept.append, monotonic=time.monotonic))
    monkeypatch.setattr(budget, "time", SimpleNamespace(time=lambda: real_time() + sum(slept)))
    rates_path = ARI_RATES.path(**path_params(standalone))
    sent_before = hub.request_log(method="POST", path=rates_path).count()

    assert sync_send(rates.pk) is Outcome.SENT

    assert len(slept) == 1
    assert 55 < slept[0] <= SPAN_SECONDS
    assert hub.request_log(method="POST", path=rates_path).count() == sent_before + 2
    assert SyncAttempt.objects.filter(state=rates).count() == 2


@pytest.fixture
def content(hub, hub_budget):
    """A property the hub knows, with rooms to sell, sent with no budget."""
    prop = PropertyFactory(vendor_id="hanok")
    room_type, _standalone_model, _package_model, plans = hub_content(prop)
    sync_pending(full=True)
    edit(ranges=DAYS, operation=Operation.SET_AVAILABILITY, value=5, room_types=(room_type,))
    sync_pending()
    return room_type, plans


def edit(**kwargs):
    with transaction.atomic():
        return ari_edit_apply(AriEdit(**kwargs))


def test_availability_is_not_held_by_a_spent_rates_budget(content, settings, published):
    room_type, (standalone, _package) = content
    edit(ranges=DAYS, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    rates = SyncState.objects.get(kind=ResourceKind.ARI_RATES, object_id=standalone.pk)
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[korea_today()])  # a booking's hold: availability moves
    avails = SyncState.objects.get(kind=ResourceKind.ARI_AVAILS, object_id=room_type.pk)
    settings.HUB_BUDGET_RATES_PER_MINUTE = settings.HUB_BUDGET_CONTENT_PER_MINUTE = 1
    settings.HUB_BUDGET_AVAILABILITY_PER_MINUTE = 1
    spend(settings, BUDGET_RATES)
    spend(settings, BUDGET_CONTENT)

    # The rates' own message: the urgent availability goes first, within its own budget; the rates wait.
    assert sync_send(rates.pk) is Outcome.BUDGET

    avails.refresh_from_db()
    rates.refresh_from_db()
    assert avails.status == SyncStatus.SYNCED
    assert (rates.status, rates.failures) == (SyncStatus.PENDING, 0)
    assert "rates" in rates.last_error

"""Issue 41: availability first, and the pause of distribution for an incident at the hub.

A change that moves availability or closes a day is urgent: a send from the queue takes the oldest urgent
row before its own, so a bulk rate edit draining does not hold back a booking's availability drop; an
urgent change is not held for the coalescing window. While distribution is paused nothing is sent (the
sender and the sweeper hold; nothing failed), changes are still accepted and wait; the resume queues them,
urgent first, and records who did it in the audit trail."""

import datetime

import pytest
from django.contrib.admin.models import LogEntry
from django.db import transaction
from django.urls import reverse
from django.utils import formats, timezone, translation

from core.dates import korea_today
from core.models import Job
from integration.ari.dates import DateRange
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.ari.services.inventory import inventory_hold
from integration.hub.models import HubConnection
from integration.hub.selectors import hub_distribution_paused_since
from integration.models import SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from integration.sync.services import outbox
from integration.sync.services.batch import sync_pending
from integration.sync.services.outbox import sync_sweep
from integration.sync.services.pause import (
    RESUME_TASK,
    PauseRefused,
    hub_distribution_pause,
    hub_distribution_resume,
    sync_resume_publish,
)
from integration.sync.services.sender import Outcome, sync_send
from tests.factories import PropertyFactory, hub_content, member

pytestmark = pytest.mark.django_db(transaction=True)


def day(n):
    return korea_today() + datetime.timedelta(days=n)


DAYS = (DateRange(day(0), day(29)),)


@pytest.fixture
def content(hub):
    prop = PropertyFactory(vendor_id="hanok")
    room_type, _standalone_model, _package_model, plans = hub_content(prop)
    sync_pending(full=True)  # the hub knows the content before its rates
    edit(ranges=DAYS, operation=Operation.SET_AVAILABILITY, value=5, room_types=(room_type,))
    sync_pending()  # and rooms to sell
    return room_type, plans


def edit(**kwargs):
    with transaction.atomic():
        return ari_edit_apply(AriEdit(**kwargs))


def row(kind, obj):
    return SyncState.objects.get(kind=kind, object_id=obj.pk)


@pytest.fixture
def published(monkeypatch):
    """The sends queued (state id, countdown), in order, instead of reaching a broker."""
    sent = []
    monkeypatch.setattr(
        outbox, "queue_after_commit", lambda _task, state_id, **kw: sent.append((state_id, kw["countdown"]))
    )
    monkeypatch.setattr(
        outbox, "publish_many", lambda _task, args: sent.extend((a[0], None) for a in args) or len(args)
    )
    return sent


# --- Availability first ------------------------------------------------------------------------


def test_availability_and_closed_days_are_urgent_and_rates_are_not(content, settings, published):
    room_type, (standalone, package) = content
    settings.HUB_SYNC_COALESCE_SECONDS = 2.0
    edit(ranges=DAYS, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    edit(ranges=DAYS, operation=Operation.CLOSE, rate_plans=(package,))
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[day(1)])  # what every booking's hold does

    assert row(ResourceKind.ARI_RATES, standalone).urgent is False
    assert row(ResourceKind.ARI_RATES, package).urgent is True
    avails = row(ResourceKind.ARI_AVAILS, room_type)
    assert avails.urgent is True
    # An urgent change is queued at once; a rate change waits for the coalescing window.
    countdowns = dict(published)
    assert countdowns[avails.pk] is None
    assert countdowns[row(ResourceKind.ARI_RATES, package).pk] is None
    assert countdowns[row(ResourceKind.ARI_RATES, standalone).pk] == 2.0


def test_a_send_of_rates_takes_the_waiting_availability_first_and_the_hub_has_it_after(hub, content, published):
    room_type, (standalone, _package) = content
    edit(ranges=DAYS, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    rates = row(ResourceKind.ARI_RATES, standalone)
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[day(1)])
    avails = row(ResourceKind.ARI_AVAILS, room_type)

    before = SyncAttempt.objects.order_by("-id").values_list("id", flat=True).first()

    assert sync_send(rates.pk) is Outcome.SENT  # the rates' own message, from the queue

    sent = SyncAttempt.objects.filter(id__gt=before).order_by("id").values_list("state_id", flat=True)
    assert list(sent) == [avails.pk, rates.pk]
    avails.refresh_from_db()
    assert (avails.status, avails.urgent) == (SyncStatus.SYNCED, False)
    # The availability's own message, when it comes, finds nothing left to send.
    assert sync_send(avails.pk) is Outcome.UNCHANGED
    assert SyncAttempt.objects.filter(id__gt=before, state=avails).count() == 1


def test_an_urgent_row_waiting_for_its_backoff_or_its_parent_is_not_taken_ahead(hub, content, published):
    room_type, (standalone, _package) = content
    edit(ranges=DAYS, operation=Operation.SET, value=100000, rate_plans=(standalone,))
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[day(1)])
    avails = row(ResourceKind.ARI_AVAILS, room_type)
    SyncState.objects.filter(pk=avails.pk).update(next_attempt_at=datetime.datetime.now(datetime.UTC))
    before = SyncAttempt.objects.order_by("-id").values_list("id", flat=True).first()

    sync_send(row(ResourceKind.ARI_RATES, standalone).pk)

    assert not SyncAttempt.objects.filter(id__gt=before, state=avails).exists()


# --- Pause and resume --------------------------------------------------------------------------


def test_while_paused_nothing_is_sent_nothing_fails_and_changes_wait(hub, content, superuser, published):
    room_type, (standalone, _package) = content
    hub_distribution_pause(user=superuser)
    attempts = SyncAttempt.objects.count()
    requests = hub.request_log().count()

    edit(ranges=DAYS, operation=Operation.SET, value=90000, rate_plans=(standalone,))
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[day(2)])  # a booking is still accepted
    rates, avails = row(ResourceKind.ARI_RATES, standalone), row(ResourceKind.ARI_AVAILS, room_type)

    assert sync_send(rates.pk) is Outcome.PAUSED
    assert sync_send(avails.pk) is Outcome.PAUSED
    assert sync_pending().counts == {Outcome.PAUSED: 2}  # manage.py hub_sync holds too
    del published[:]
    assert sync_sweep() == 0
    assert published == []
    assert (SyncAttempt.objects.count(), hub.request_log().count()) == (attempts, requests)
    for state in (rates, avails):
        state.refresh_from_db()
        assert (state.status, state.failures, state.last_error) == (SyncStatus.PENDING, 0, "")


def test_the_resume_queues_every_pending_row_availability_first(hub, content, superuser, published):
    room_type, (standalone, package) = content
    hub_distribution_pause(user=superuser)
    edit(ranges=DAYS, operation=Operation.SET, value=90000, rate_plans=(standalone,))
    edit(ranges=DAYS, operation=Operation.SET, value=95000, rate_plans=(package,))
    with transaction.atomic():
        inventory_hold(room_type=room_type, dates=[day(2)])

    paused_at = hub_distribution_resume(user=superuser)

    assert paused_at is not None
    assert Job.objects.filter(task=RESUME_TASK).exists()
    del published[:]
    assert sync_resume_publish() == 3
    assert published[0][0] == row(ResourceKind.ARI_AVAILS, room_type).pk
    assert sync_send(published[0][0]) is Outcome.SENT
    assert hub.avails_of("hanok", room_type.vendor_id)[day(2)] == room_type.days.get(date=day(2)).available


def test_pause_and_resume_are_recorded_in_the_audit_trail_and_refused_twice(superuser):
    hub_distribution_pause(user=superuser)
    with pytest.raises(PauseRefused):
        hub_distribution_pause(user=superuser)
    connection = HubConnection.objects.get()
    assert (connection.paused_by, connection.paused_at is not None) == (superuser, True)

    hub_distribution_resume(user=superuser)
    with pytest.raises(PauseRefused):
        hub_distribution_resume(user=superuser)

    entries = LogEntry.objects.filter(object_id=str(connection.pk), user=superuser).order_by("id")
    assert entries.count() == 2
    assert "paused" in entries[0].get_change_message().lower()


# --- The screens ---------------------------------------------------------------------------------

DISTRIBUTION = reverse("admin:integration_hubswitch_distribution")


def test_only_superusers_may_pause(client, property_a):
    client.force_login(member(property_a, "manager"))
    assert client.get(DISTRIBUTION).status_code == 403
    assert client.post(DISTRIBUTION, {"confirm": "on"}).status_code == 403
    assert hub_distribution_paused_since() is None


@pytest.mark.parametrize(
    ("language", "paused_text", "resume_button"),
    [
        ("ko", "일시 중지되어 있습니다", "전송 재개"),
        ("en", "Distribution to the hub is paused since", "Resume distribution"),
    ],
)
def test_a_superuser_pauses_and_resumes_and_every_screen_says_since_when(
    client, superuser, property_a, language, paused_text, resume_button
):
    client.force_login(superuser)
    html = client.get(DISTRIBUTION, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert paused_text not in html
    unticked = client.post(DISTRIBUTION, {}, HTTP_ACCEPT_LANGUAGE=language)
    assert unticked.status_code == 200
    assert hub_distribution_paused_since() is None

    response = client.post(DISTRIBUTION, {"confirm": "on"}, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 302
    since = hub_distribution_paused_since()
    assert since is not None
    with translation.override(language):
        shown = formats.localize(timezone.template_localtime(since))
    pages = [
        DISTRIBUTION,
        reverse("admin:integration_hubswitch_changelist"),
        reverse("admin:integration_property_health", args=[property_a.pk]),
        reverse("admin:inbox_event_changelist"),
    ]
    for url in pages:
        html = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert paused_text in html, url
        assert shown in html, url
    assert resume_button in client.get(DISTRIBUTION, HTTP_ACCEPT_LANGUAGE=language).content.decode()

    assert client.post(DISTRIBUTION, {"confirm": "on"}, HTTP_ACCEPT_LANGUAGE=language).status_code == 302
    assert hub_distribution_paused_since() is None
    assert paused_text not in client.get(reverse("admin:inbox_event_changelist")).content.decode()

"""The sender against the sandbox over real HTTP: POST, then PATCH with exactly what changed."""

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone, translation

from hubsandbox.faults import inject_faults
from integration.models import SyncAttempt, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.outbox import sync_mark_changed, sync_state_ensure
from integration.sync.services.sender import Outcome, retry_delay, sync_send
from tests.factories import PropertyFactory, hub_content, korean

pytestmark = pytest.mark.django_db(transaction=True)


def send(obj, **kwargs):
    """Send obj's current state in-process (no queue), as `manage.py hub_sync` does."""
    return sync_send(sync_state_ensure(obj).pk, schedule=False, **kwargs)


def last_attempt():
    return SyncAttempt.objects.order_by("-id").first()


def state_of(obj):
    return SyncState.objects.get(object_id=obj.pk, kind=sync_state_ensure(obj).kind)


@pytest.fixture
def prop(db):
    prop = PropertyFactory(vendor_id="seochon", email="stay@example.com", facility_tags=["parking"])
    korean(prop, name="서촌")
    return prop


def test_first_send_posts_the_whole_body_and_marks_synced(hub, prop):
    assert send(prop) == Outcome.SENT

    attempt = last_attempt()
    assert (attempt.method, attempt.path, attempt.status_code) == ("POST", "/gds/vendor/properties", 200)
    assert attempt.request_body["id"] == "seochon"
    state = state_of(prop)
    assert state.status == SyncStatus.SYNCED
    assert state.last_synced_at is not None
    assert hub.get_resource("property", "seochon")["email"] == "stay@example.com"


def test_a_change_patches_exactly_the_changed_fields(hub, prop):
    send(prop)
    prop.status = "disabled"
    prop.facility_tags = ["parking", "parking.ev_charger"]
    prop.save()

    assert send(prop) == Outcome.SENT

    attempt = last_attempt()
    assert (attempt.method, attempt.path) == ("PATCH", "/gds/vendor/properties/seochon")
    assert attempt.request_body == {"status": "disabled", "facility_tags": ["parking", "parking.ev_charger"]}
    held = hub.get_resource("property", "seochon")
    assert (held["status"], held["facility_tags"]) == ("disabled", ["parking", "parking.ev_charger"])


def test_nothing_changed_sends_nothing(hub, prop):
    send(prop)
    count = SyncAttempt.objects.count()

    assert send(prop) == Outcome.UNCHANGED
    assert SyncAttempt.objects.count() == count


def test_an_emptied_email_is_never_sent_as_null_and_the_hub_keeps_it(hub, prop):
    """Decision 0004: a field with a format cannot be cleared at the hub (the screen says so)."""
    send(prop)
    prop.email = ""
    prop.save()
    count = SyncAttempt.objects.count()

    assert send(prop) == Outcome.UNCHANGED

    assert SyncAttempt.objects.count() == count
    assert hub.get_resource("property", "seochon")["email"] == "stay@example.com"


def test_null_clears_a_nullable_field_of_a_rate_plan_model(hub, prop):
    _room_type, standalone, _package, _plans = hub_content(prop)
    send(prop)
    standalone.sale_to = timezone.localdate() + timezone.timedelta(days=30)
    standalone.min_los = 2
    standalone.save()
    send(standalone)
    standalone.sale_to = None
    standalone.save()

    send(standalone)

    assert last_attempt().request_body == {
        "sale_to": None,
        "i18n": [{"locale": "ko-KR", "name": f"{standalone.name} (ko)"}],
    }
    held = hub.get_resource("rateplan_model", "seochon", standalone.vendor_id)
    assert "sale_to" not in held
    assert held["min_los"] == 2


def test_null_clears_and_maps_replace(hub, prop):
    prop.extra_adult_price = 10000
    prop.refunds = {"0d": 0, "3d": 50, "7d": 100}
    prop.save()
    send(prop)
    prop.extra_adult_price = None
    prop.refunds = {"1d": 30}
    prop.save()

    send(prop)

    assert last_attempt().request_body == {"settings": {"extra_adult_price": None}, "refunds": {"1d": 30}}
    held = hub.get_resource("property", "seochon")
    assert held["settings"] == {"extra_adult_price": None}
    assert held["refunds"] == {"1d": 30}
    prop.refunds = {}
    prop.save()

    send(prop)

    assert last_attempt().request_body == {"refunds": {}}  # a map is cleared by sending it empty
    assert hub.get_resource("property", "seochon")["refunds"] == {}


def test_arrays_replace_whole(hub, prop):
    prop.photos.create(url="https://img.example.com/1.jpg", order=0)
    send(prop)
    prop.photos.all().delete()
    prop.photos.create(url="https://img.example.com/2.jpg", order=0)
    prop.photos.create(url="https://img.example.com/3.jpg", order=1)

    send(prop)

    assert last_attempt().request_body == {
        "photos": [
            {"url": "https://img.example.com/2.jpg", "order": 0},
            {"url": "https://img.example.com/3.jpg", "order": 1},
        ]
    }
    assert [photo["url"] for photo in hub.get_resource("property", "seochon")["photos"]] == [
        "https://img.example.com/2.jpg",
        "https://img.example.com/3.jpg",
    ]


def test_rateplan_model_patch_carries_i18n_and_null_clears_a_limit(hub, prop):
    send(prop)
    _room, standalone, _package, _plans = hub_content(prop)
    standalone.min_los = 2
    standalone.save()
    send(standalone)
    standalone.min_los = None
    standalone.save()

    send(standalone)

    assert last_attempt().request_body == {
        "min_los": None,
        "i18n": [{"locale": "ko-KR", "name": standalone.name + " (ko)"}],
    }
    assert "min_los" not in hub.get_resource("rateplan_model", "seochon", standalone.vendor_id)


def test_409_on_create_continues_with_a_patch(hub, prop):
    send(prop)
    # Our side forgets that the hub has it (a restored database, say): the next send POSTs again.
    SyncState.objects.filter(pk=state_of(prop).pk).update(known_to_hub=False, acked_body=None)
    prop.email = "new@example.com"
    prop.save()

    assert send(prop) == Outcome.SENT

    post, patch = SyncAttempt.objects.order_by("-id")[1], last_attempt()
    assert (post.method, post.status_code) == ("POST", 409)
    assert (patch.method, patch.status_code) == ("PATCH", 200)
    assert "id" not in patch.request_body
    assert state_of(prop).status == SyncStatus.SYNCED
    assert hub.get_resource("property", "seochon")["email"] == "new@example.com"


def test_a_4xx_fails_with_the_hubs_message_and_a_fix_resends(hub, prop):
    send(prop)
    prop.facility_tags = ["no-such-facility"]  # past our form checks: only the hub can refuse it here
    prop.save()

    assert send(prop) == Outcome.FAILED

    state = state_of(prop)
    assert state.status == SyncStatus.FAILED
    assert state.last_status_code == 400
    assert "facility_tags" in state.last_error
    assert last_attempt().outcome == SyncAttempt.Outcome.FAILED

    prop.facility_tags = ["parking"]
    prop.save()
    sync_mark_changed(prop)  # as every service that changes it does
    assert send(prop) == Outcome.UNCHANGED  # the hub still holds the last good body
    assert state_of(prop).status == SyncStatus.SYNCED


def test_children_wait_for_their_parent(hub, prop):
    room_type, *_ = hub_content(prop)

    with translation.override("en"):
        assert send(room_type) == Outcome.WAITING
    assert state_of(room_type).last_error == "Waiting for the property to reach the hub."
    assert not SyncAttempt.objects.exists()

    send(prop)
    assert send(room_type) == Outcome.SENT


@pytest.mark.parametrize("fault", [{"error_rate": 1.0}, {"throttle_rate": 1.0}, {"drop_rate": 1.0}])
def test_retryable_failures_back_off_and_keep_the_row_pending(hub, prop, fault):
    with inject_faults(**fault, retry_after=7):
        assert send(prop) == Outcome.RETRY

    state = state_of(prop)
    assert state.status == SyncStatus.PENDING
    assert state.failures == 1
    assert state.next_attempt_at > timezone.now()
    assert last_attempt().outcome == SyncAttempt.Outcome.RETRY

    assert send(prop) == Outcome.SENT
    assert state_of(prop).failures == 0


def test_retry_after_is_honoured(hub, prop):
    with inject_faults(throttle_rate=1.0, retry_after=120):
        send(prop)

    wait = (state_of(prop).next_attempt_at - timezone.now()).total_seconds()
    assert 110 < wait <= 120


def test_a_hub_failing_for_ever_leaves_the_row_waiting_for_it_never_failed(hub, prop):
    with inject_faults(error_rate=1.0):
        outcomes = {send(prop) for _ in range(12)}  # more than the 10 after which a row used to fail

    assert outcomes == {Outcome.RETRY}
    state = state_of(prop)
    assert (state.status, state.failures) == (SyncStatus.PENDING, 12)
    assert state.waiting_for_hub()


def test_retry_delay_grows_exponentially_with_jitter_and_a_cap(settings):
    settings.HUB_SYNC_BACKOFF_BASE = 2.0  # a float, as the environment gives it
    settings.HUB_SYNC_BACKOFF_CAP = 60
    delays = {n: [retry_delay(n) for _ in range(200)] for n in (1, 2, 3, 10)}

    assert all(1 <= d <= 2 for d in delays[1])
    assert all(2 <= d <= 4 for d in delays[2])
    assert all(4 <= d <= 8 for d in delays[3])
    assert all(30 <= d <= 60 for d in delays[10])
    assert len(set(delays[3])) > 100  # jitter spreads retries apart
    assert retry_delay(1, retry_after=30) == 30
    assert 30 <= retry_delay(5000) <= 60  # a hub down for days: still the cap


def test_a_refused_resource_is_not_sent_again_by_itself(hub, prop):
    prop.facility_tags = ["no-such-facility"]
    prop.save()
    assert send(prop) == Outcome.FAILED
    room_type, *_ = hub_content(prop)
    attempts = SyncAttempt.objects.count()

    assert send(prop) == Outcome.FAILED  # a sweep or a duplicate message: no request
    assert send(room_type) == Outcome.WAITING  # its child waits, and does not send the parent again
    assert SyncAttempt.objects.count() == attempts
    assert state_of(prop).status == SyncStatus.FAILED


def test_bodies_travel_as_utf8(hub, prop):
    send(prop)

    raw = hub.request_log(method="POST").get().request_body
    assert "서촌" in raw


def test_a_send_cut_at_its_soft_time_limit_is_retried_with_backoff(prop):
    """A hub too slow for the task's time limit counts as one that did not answer."""

    class TooSlow:
        def call(self, endpoint, **kwargs):
            raise SoftTimeLimitExceeded()

    assert send(prop, client=TooSlow()) == Outcome.RETRY

    state = state_of(prop)
    assert (state.status, state.failures) == (SyncStatus.PENDING, 1)
    assert state.last_error == "The send took longer than its time limit."
    assert state.next_attempt_at > timezone.now()

"""The vendor API's replay check lives in the database, beside the bookings: a webhook-id is refused a
second time even after the cache (Redis) restarted empty, every operation answers as decision 0012 says
while the cache cannot be reached, and an hourly purge drops the ids no call can carry any more."""

import datetime
import json

import pytest
import redis
from django.core.cache import cache
from django.utils import timezone

from bookings import services
from bookings.models import Booking, SeenWebhook
from bookings.tasks import seen_webhooks_purge_task
from tests.integration.ari.factories import day

from ..factories import create_body, sellable
from ..signing import hub_headers

pytestmark = pytest.mark.django_db

DENIED = {"code": "2000", "error": "Access denied"}
#: Django's Redis cache on a port nothing listens on: every cache call raises redis.ConnectionError.
UNREACHABLE = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
}


def test_a_replay_is_refused_after_the_cache_restarted_empty(hub_client):
    _room_type, standalone, _package = sellable()
    body = json.dumps(create_body(standalone)).encode()
    headers = hub_headers(body)
    assert hub_client.post("/bookings", body, **headers).status_code == 200

    cache.clear()
    replay = hub_client.post("/bookings", body, **headers)

    assert (replay.status_code, replay.json()) == (403, DENIED)


def test_every_operation_answers_as_the_contract_says_while_the_cache_is_unreachable(hub_client, settings):
    settings.CACHES = UNREACHABLE
    with pytest.raises(redis.ConnectionError):
        cache.get("anything")
    _room_type, standalone, _package = sellable(refunds={"3d": 50})
    body = create_body(standalone)

    created = hub_client.post("/bookings", body)
    assert (created.status_code, created.json()["status"]) == (200, "pending")
    number = created.json()["vendor_booking_number"]
    modified = hub_client.put(f"/bookings/{number}/modify", {"special_comment": "Late arrival"})
    assert (modified.status_code, modified.json()["special_comment"]) == (200, "Late arrival")
    confirmed = hub_client.put(f"/bookings/{number}/confirm")
    assert (confirmed.status_code, confirmed.json()["status"]) == (200, "confirmed")
    checked = hub_client.get(f"/bookings/{body['gds_sub_booking_number']}?type=gds_sub_booking_number")
    assert (checked.status_code, checked.json()["vendor_booking_number"]) == (200, number)
    query = (
        f"property_id={standalone.property.vendor_id}&roomtype_id={standalone.room_type.vendor_id}"
        f"&rateplan_id={standalone.vendor_id}&checkin={day(10)}T15:00:00%2B09:00&checkout={day(11)}T11:00:00%2B09:00"
    )
    policy = hub_client.get(f"/refund-policy?{query}")
    assert (policy.status_code, policy.json()["refundable"]) == (200, True)
    headers = hub_headers()
    canceled = hub_client.post(f"/bookings/{number}/cancel", **headers)
    assert (canceled.status_code, canceled.json()["status"]) == (200, "canceled")

    replay = hub_client.post(f"/bookings/{number}/cancel", **headers)
    assert (replay.status_code, replay.json()) == (403, DENIED)
    assert Booking.objects.get().status == "canceled"


def test_a_webhook_id_of_any_length_is_kept_and_refused_again(hub_client):
    headers = hub_headers(webhook_id="msg_" + "x" * 5000)
    past_authentication = hub_client.get("/bookings/VH000000000000", **headers)
    assert past_authentication.json()["code"] == "4004"
    replay = hub_client.get("/bookings/VH000000000000", **headers)
    assert (replay.status_code, replay.json()) == (403, DENIED)


def test_the_hourly_purge_drops_the_ids_seen_before_any_call_carrying_them_could_pass(settings):
    assert datetime.timedelta(seconds=2 * services.WEBHOOK_TIMESTAMP_TOLERANCE) <= services.WEBHOOK_IDS_KEPT
    now = timezone.now()
    second = datetime.timedelta(seconds=1)
    assert services.webhook_first_use("msg_old")
    SeenWebhook.objects.update(created_at=now - services.WEBHOOK_IDS_KEPT - second)
    assert services.webhook_first_use("msg_kept")
    SeenWebhook.objects.filter(created_at__gte=now).update(created_at=now - services.WEBHOOK_IDS_KEPT + second)

    assert services.seen_webhooks_purge(now=now) == 1

    assert not services.webhook_first_use("msg_kept")
    assert services.webhook_first_use("msg_old")  # forgotten: its timestamp is refused by now
    entry = settings.CELERY_BEAT_SCHEDULE["bookings-seen-webhooks-purge"]
    assert (entry["task"], entry["schedule"]) == (seen_webhooks_purge_task.name, 60 * 60.0)
    SeenWebhook.objects.update(created_at=now - services.WEBHOOK_IDS_KEPT - second)
    seen_webhooks_purge_task()
    assert not SeenWebhook.objects.exists()

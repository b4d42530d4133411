"""/metrics: off unless METRICS_ENABLED, for the scraper's token alone, the sum of every web and worker
process's files (each kind of process empties its own folder when it starts), the backlog read from the
database at scrape time; and each place that records its series."""

import os
import smtplib
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from bookings.models import InboundCall, RefusedCall
from bookings.notifications import SEND_TASK
from bookings.tasks import booking_email_send_task
from core.models import Heartbeat, Job
from integration.hub import endpoints
from integration.hub.client import get_hub_client
from integration.models import SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient as SigningClient
from tests.factories import PropertyFactory

pytestmark = pytest.mark.django_db
TOKEN = "scraper-token-0123456789"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def scraping(settings, tmp_path):
    settings.METRICS_ENABLED = True
    settings.METRICS_TOKEN = TOKEN
    settings.METRICS_DIR = tmp_path / "metrics"
    return settings.METRICS_DIR


def scrape(client, token=TOKEN):
    return client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {token}")


def samples(response):
    """{series line without its value: value} of a scrape."""
    found = {}
    for line in response.content.decode().splitlines():
        if line and not line.startswith("#"):
            series, value = line.rsplit(" ", 1)
            found[series] = float(value)
    return found


def test_off_unless_enabled_even_with_the_token(client, settings):
    settings.METRICS_ENABLED = False
    settings.METRICS_TOKEN = TOKEN

    assert scrape(client).status_code == 404


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token-0123456789", TOKEN, f"Basic {TOKEN}"])
def test_only_the_scraper_gets_an_answer(client, scraping, authorization):
    headers = {} if authorization is None else {"HTTP_AUTHORIZATION": authorization}

    assert client.get("/metrics", **headers).status_code == 404


# A worker's main process has imported prometheus-client (its URLs load config.metrics) before it starts
# its metrics folder; its pool processes record.
RECORD = """
import django, json, sys
django.setup()
import config.metrics
from core import metrics
metrics.metrics_process_start(sys.argv[1])
for _ in range(int(sys.argv[2])):
    metrics.hub_request_observed("catalog", "GET", 200, 0.03)
"""


def record_in_a_process(folder, name, count):
    """A process of its own, as a gunicorn worker or a pool process is, recording count hub calls."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "METRICS_ENABLED": "true",
        "METRICS_TOKEN": TOKEN,
        "METRICS_DIR": str(folder),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    subprocess.run([sys.executable, "-c", RECORD, name, str(count)], cwd=ROOT, env=env, check=True, timeout=60)


@pytest.mark.subprocess
def test_the_scrape_adds_up_every_process_and_a_restart_empties_only_its_own_folder(client, scraping):
    series = 'vendorhub_hub_requests_total{endpoint="catalog",method="GET",status="200"}'
    record_in_a_process(scraping, "web", 2)
    record_in_a_process(scraping, "worker-hub@host", 3)

    assert scrape(client).status_code == 200
    assert scrape(client)["Content-Type"].startswith("text/plain")
    assert samples(scrape(client))[series] == 5
    assert samples(scrape(client))['vendorhub_hub_request_duration_seconds_count{endpoint="catalog",method="GET"}'] == 5

    # The web server starts again: its old files go, the running worker's stay.
    record_in_a_process(scraping, "web", 1)

    assert samples(scrape(client))[series] == 4


def test_the_backlog_is_read_from_the_database_at_scrape_time(client, scraping):
    prop = PropertyFactory()
    state = sync_state_ensure(prop)
    SyncState.objects.filter(pk=state.pk).update(pending_since=timezone.now() - timedelta(minutes=12))
    Job.objects.create(task="t", args=[], due_at=timezone.now() - timedelta(minutes=3))
    Job.objects.create(task="t", args=[], due_at=timezone.now(), failed_at=timezone.now())
    Heartbeat.objects.create(name="worker:worker@host", at=timezone.now() - timedelta(seconds=20), queues="hub")

    found = samples(scrape(client))

    assert found['vendorhub_outbox_resources{kind="property",state="pending"}'] == 1
    assert 12 * 60 <= found["vendorhub_outbox_oldest_pending_seconds"] < 13 * 60
    assert found['vendorhub_jobs{state="waiting"}'] == 1
    assert found['vendorhub_jobs{state="failed"}'] == 1
    assert 3 * 60 <= found["vendorhub_jobs_oldest_waiting_seconds"] < 4 * 60
    assert 20 <= found['vendorhub_heartbeat_age_seconds{process="worker:worker@host"}'] < 30


def test_the_call_log_s_growth_in_the_last_day_is_read_at_scrape_time(client, scraping):
    calls = RefusedCall.objects.bulk_create(RefusedCall(method="GET", path="/", status=403) for _ in range(3))
    RefusedCall.objects.filter(pk=calls[0].pk).update(created_at=timezone.now() - timedelta(days=2))
    InboundCall.objects.create(method="GET", path="/bookings/VH1", status=404, duration_ms=2, code="4004")

    found = samples(scrape(client))

    assert found["vendorhub_call_log_rows_last_day"] == 3  # two refused calls and the hub's call
    assert found["vendorhub_call_log_bytes_last_day"] > 0


def test_nothing_is_recorded_when_off(settings, monkeypatch):
    from core import metrics

    settings.METRICS_ENABLED = False
    monkeypatch.setattr(metrics, "_metrics", lambda: pytest.fail("a metric was made with metrics off"))

    metrics.hub_request_observed("catalog", "GET", 200, 0.1)
    metrics.booking_email_counted("sent")


def test_vendor_api_answers_are_counted_by_operation_and_code(client, metric):
    _room_type, plan, _package = sellable(allotment=1)
    signing = SigningClient(client)
    created, refused = (
        metric("vendorhub_vendor_api_calls_total", operation="booking-create", code=code) for code in ("ok", "2000")
    )

    assert signing.post("/bookings", create_body(plan)).status_code == 200
    assert client.post("/bookings", b"{}", content_type="application/json").status_code == 403

    assert metric("vendorhub_vendor_api_calls_total", operation="booking-create", code="ok") == created + 1
    assert metric("vendorhub_vendor_api_calls_total", operation="booking-create", code="2000") == refused + 1
    assert metric("vendorhub_vendor_api_call_duration_seconds_count", operation="booking-create") >= 2


def test_hub_calls_are_counted_by_endpoint_method_and_status(hub, metric):
    labels = {"endpoint": "catalog", "method": "GET"}
    before = metric("vendorhub_hub_requests_total", **labels, status="200")

    get_hub_client().call(endpoints.CATALOG)

    assert metric("vendorhub_hub_requests_total", **labels, status="200") == before + 1
    assert metric("vendorhub_hub_request_duration_seconds_count", **labels) >= 1


def test_task_runs_and_booking_emails_are_counted(metric, monkeypatch):
    from bookings import tasks

    runs = {
        outcome: metric("vendorhub_task_runs_total", task=SEND_TASK, outcome=outcome)
        for outcome in ("success", "failure")
    }
    emails = {outcome: metric("vendorhub_booking_emails_total", outcome=outcome) for outcome in ("sent", "failed")}

    monkeypatch.setattr(tasks, "booking_email_send", lambda **kwargs: True)
    args = (1, "confirmed", 1, "a", "2026-01-05T09:00:00+00:00")
    booking_email_send_task.apply(args)

    def refuse(**kwargs):
        raise smtplib.SMTPServerDisconnected("gone")

    monkeypatch.setattr(tasks, "booking_email_send", refuse)
    booking_email_send_task.apply(args, retries=8)  # its last try: it fails for good

    assert metric("vendorhub_booking_emails_total", outcome="sent") == emails["sent"] + 1
    assert metric("vendorhub_booking_emails_total", outcome="failed") == emails["failed"] + 1
    assert metric("vendorhub_task_runs_total", task=SEND_TASK, outcome="success") == runs["success"] + 1
    assert metric("vendorhub_task_runs_total", task=SEND_TASK, outcome="failure") == runs["failure"] + 1
    assert metric("vendorhub_task_duration_seconds_count", task=SEND_TASK) >= 2

"""/healthz: liveness for the load balancer (the database decides; the cache and broker are reported), and
with ?deep=1 every part an operator watches (services, worker, beat, the outbox, the jobs, the call log's
growth); the dashboard
says the same in words to superusers."""

from datetime import timedelta

import pytest
from celery import Celery
from django.conf import settings
from django.db import OperationalError, connection
from django.utils import timezone, translation

from bookings.models import RefusedCall
from config import health
from config.celery import app as celery_app
from core.background.heartbeat import BEAT, STALE_AFTER, WORKER_PREFIX, HeartbeatScheduler, heartbeat
from core.models import Heartbeat, Job
from golive.backup import BACKUP_HEARTBEAT, BACKUP_MAX_AGE
from integration.models import SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory, member
from tests.hub_fixtures import wait_until

pytestmark = pytest.mark.django_db

TOKEN = "a-scrapers-token-of-32-characters"
#: The deep check's details are for the metrics scraper (and the operator with its token) alone.
SCRAPER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(autouse=True)
def metrics_token(settings):
    settings.METRICS_TOKEN = TOKEN


def test_all_services_up_is_200(client):
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "cache": "ok", "broker": "ok"},
        "down": [],
    }
    assert "no-cache" in response["Cache-Control"]


def test_broker_down_keeps_the_web_server_in_the_balancer_and_names_the_broker(client, monkeypatch):
    # Nothing listens on port 1: a real connection attempt that fails. (Celery prefers the
    # environment's CELERY_BROKER_URL to the one it is given.) The web process still answers the hub's
    # bookings without Redis: the balancer must keep it.
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    # Not made the current app: the tests after this one queue through the project's (its queues, routes).
    monkeypatch.setattr(health, "celery_app", Celery(broker="redis://127.0.0.1:1/0", set_as_current=False))

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "degraded"
    assert response.json()["down"] == ["broker"]
    assert response.json()["checks"]["database"] == "ok"

    deep = client.get("/healthz?deep=1", headers=SCRAPER)
    assert deep.status_code == 503
    assert "broker" in deep.json()["down"]


def test_database_down_is_503_naming_the_database(client, monkeypatch):
    def refuse():
        raise OperationalError("connection refused")

    monkeypatch.setitem(health.CHECKS, "database", refuse)

    response = client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert response.json()["down"] == ["database"]


@pytest.mark.redis
def test_redis_broker_and_cache_are_checked_for_real(client, settings):
    assert settings.CELERY_BROKER_URL.startswith("redis")

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "cache": "ok", "broker": "ok"}


ALL_QUEUES = [queue.name for queue in settings.CELERY_TASK_QUEUES]


@pytest.fixture
def alive(db):
    """A worker and beat that wrote their heartbeats just now."""
    heartbeat(WORKER_PREFIX + "celery@web-1", ALL_QUEUES)
    heartbeat(BEAT)


def test_deep_is_200_with_a_worker_and_beat_alive_and_nothing_waiting(client, alive):
    response = client.get("/healthz?deep=1", headers=SCRAPER)

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["checks"] == dict.fromkeys(
        ("database", "cache", "broker", "files", "worker", "beat", "outbox", "jobs", "call_log"), "ok"
    )
    assert list(body["details"]["worker"]["alive"]) == ["celery@web-1"]


def _refused_calls(count, *, hours_ago=0):
    """count refused calls in the call log, received that many hours ago."""
    calls = RefusedCall.objects.bulk_create(
        RefusedCall(method="POST", path="/bookings", address="10.0.0.1", status=403, code="2000") for _ in range(count)
    )
    RefusedCall.objects.filter(pk__in=[call.pk for call in calls]).update(
        created_at=timezone.now() - timedelta(hours=hours_ago)
    )


def test_deep_names_the_call_log_growing_beyond_its_daily_limit(client, alive, settings, admin_user):
    _refused_calls(50, hours_ago=30)  # older than a day: not counted
    _refused_calls(200)
    settings.VENDOR_API_CALL_LOG_MAX_MB_PER_DAY = 1

    calm = client.get("/healthz?deep=1", headers=SCRAPER).json()
    assert calm["checks"]["call_log"] == "ok"
    assert calm["details"]["call_log"]["rows_last_day"] == 200
    assert 0 < calm["details"]["call_log"]["bytes_last_day"] < 1_000_000
    settings.VENDOR_API_CALL_LOG_MAX_MB_PER_DAY = 0

    flooded = client.get("/healthz?deep=1", headers=SCRAPER)

    assert (flooded.status_code, flooded.json()["down"], flooded.json()["checks"]["call_log"]) == (
        503,
        ["call_log"],
        "growing",
    )
    client.force_login(admin_user)
    page = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The hub&#x27;s call log grew by" in page
    assert "(200 calls), more than the 0\xa0bytes a day it may" in page
    assert "허브 호출 기록이 최근 24시간 동안" in client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()


@pytest.mark.parametrize("process", ["worker", "beat"])
def test_deep_names_a_worker_or_beat_silent_for_three_beats(client, alive, process):
    name = WORKER_PREFIX + "celery@web-1" if process == "worker" else BEAT
    Heartbeat.objects.filter(name=name).update(at=timezone.now() - STALE_AFTER - timedelta(seconds=1))

    response = client.get("/healthz?deep=1", headers=SCRAPER)

    assert response.status_code == 503
    assert response.json()["down"] == [process]
    assert response.json()["details"][process]["last_seen_seconds"] >= STALE_AFTER.total_seconds()
    assert client.get("/healthz").status_code == 200  # liveness does not depend on the processes


def test_deep_names_an_outbox_or_jobs_backlog_older_than_ten_minutes(client, alive):
    long_ago = timezone.now() - health.BACKLOG_MAX_AGE - timedelta(minutes=1)
    state = sync_state_ensure(PropertyFactory())
    SyncState.objects.filter(pk=state.pk).update(pending_since=long_ago)
    Job.objects.create(task="bookings.tasks.booking_notify_task", args=[1, "created"], due_at=long_ago)

    response = client.get("/healthz?deep=1", headers=SCRAPER)

    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["outbox", "jobs"]
    assert body["checks"]["outbox"] == body["checks"]["jobs"] == "lagging"
    assert body["details"]["outbox"]["pending"] == 1
    assert body["details"]["jobs"]["waiting"] == 1


@pytest.mark.parametrize(
    ("setting", "storage"),
    [("LICENSE_FILES_ROOT", "license_files"), ("MEDIA_ROOT", "media"), ("FILE_UPLOAD_TEMP_DIR", "uploads")],
)
def test_deep_names_a_file_storage_that_cannot_be_written(client, alive, settings, tmp_path, setting, storage):
    # Tests run as root, whom a folder's mode does not stop: the folder is put under a regular file, where
    # the operating system refuses to create it (ENOTDIR, an OSError as EACCES or EROFS would be).
    (tmp_path / "not-a-folder").write_bytes(b"")
    setattr(settings, setting, tmp_path / "not-a-folder" / "files")

    response = client.get("/healthz?deep=1", headers=SCRAPER)

    assert response.status_code == 503
    body = response.json()
    assert body["down"] == ["files"]
    assert body["checks"]["files"] == "unwritable"
    assert body["details"]["files"] == {"unwritable": {storage: "ENOTDIR: Not a directory"}}
    assert client.get("/healthz").status_code == 200  # liveness does not depend on the files


def test_deep_writes_and_removes_a_probe_in_each_file_storage(client, alive, settings, tmp_path):
    settings.LICENSE_FILES_ROOT, settings.MEDIA_ROOT = tmp_path / "licenses", tmp_path / "media"
    settings.FILE_UPLOAD_TEMP_DIR = tmp_path / "uploads"

    assert client.get("/healthz?deep=1", headers=SCRAPER).json()["checks"]["files"] == "ok"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["licenses", "media", "uploads"]
    assert [path for path in tmp_path.rglob("*") if path.is_file()] == []


def test_the_dashboard_says_when_files_cannot_be_stored(client, admin_user, alive, settings, tmp_path):
    (tmp_path / "not-a-folder").write_bytes(b"")
    settings.LICENSE_FILES_ROOT = tmp_path / "not-a-folder" / "licenses"
    client.force_login(admin_user)

    page = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    korean = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert "Files cannot be stored: license files (ENOTDIR: Not a directory)." in page
    assert "파일을 저장할 수 없습니다: 라이선스 파일 (ENOTDIR: Not a directory)." in korean


@pytest.mark.django_db(transaction=True)  # beat closes its old connections at every tick
def test_a_worker_writes_its_heartbeat_and_beat_at_every_tick(celery_worker_thread, tmp_path):
    wait_until(
        lambda: Heartbeat.objects.filter(name__startswith=WORKER_PREFIX).exists(), message="the worker's heartbeat"
    )
    scheduler = HeartbeatScheduler(app=celery_app, schedule_filename=str(tmp_path / "schedule"), lazy=True)
    scheduler.setup_schedule()
    scheduler.tick()
    assert Heartbeat.objects.filter(name=BEAT).exists()


def test_the_dashboard_tells_superusers_in_words(client, admin_user, alive):
    SyncState.objects.filter(pk=sync_state_ensure(PropertyFactory()).pk).update(
        pending_since=timezone.now() - timedelta(minutes=3)
    )
    client.force_login(admin_user)

    page = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "A worker is running (celery@web-1" in page
    assert "Beat is running" in page
    assert "The file storage can be written" in page
    assert "1 change waits for the hub, the oldest for 3 minutes." in page
    korean = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "워커" in korean
    # The services as this run configures them (the tests' cache and broker: local memory, unless Redis).
    with translation.override("en"):  # the request above left its own language active
        assert f"{health.service_names()['cache']} answers." in page
    with translation.override("ko"):
        assert f"{health.service_names()['broker']}: 응답합니다." in korean


@pytest.mark.parametrize(
    ("cache", "broker", "english", "korean"),
    [
        (
            "django.core.cache.backends.locmem.LocMemCache",
            "filesystem://localhost/",
            ["The cache (the memory of each process)", "The task queue (files under var/broker)"],
            ["캐시(프로세스별 메모리)", "작업 큐(var/broker 아래의 파일)"],
        ),
        (
            "django.core.cache.backends.redis.RedisCache",
            "redis://127.0.0.1:6379/0",
            ["The cache (Redis)", "The task queue (Redis)"],
            ["캐시(Redis)", "작업 큐(Redis)"],
        ),
    ],
)
def test_the_dashboard_names_the_cache_and_task_queue_configured(settings, cache, broker, english, korean):
    """make run's development setup has no Redis: the dashboard must not say Redis answers."""
    settings.CACHES = {"default": {"BACKEND": cache, "LOCATION": "redis://127.0.0.1:1/0"}}
    settings.CELERY_BROKER_URL = broker

    names = health.service_names()
    with translation.override("ko"):
        names_ko = health.service_names()

    assert [names["cache"], names["broker"]] == english
    assert [names_ko["cache"], names_ko["broker"]] == korean
    assert (
        names["database"]
        == {"sqlite": "The database (SQLite)", "postgresql": "The database (PostgreSQL)"}[connection.vendor]
    )


def test_staff_see_no_system_health(client):
    user = member(PropertyFactory(), "staff")
    client.force_login(user)

    assert "system-health" not in client.get("/admin/").content.decode()


def test_deep_names_a_queue_no_live_worker_takes(client, alive):
    """Separate workers per queue: a dead bulk worker leaves reconciliations waiting however many others run."""
    heartbeat(WORKER_PREFIX + "celery@web-1", ["hub", "bookings", "jobs"])

    response = client.get("/healthz?deep=1", headers=SCRAPER)

    assert response.status_code == 503
    assert response.json()["down"] == ["worker"]
    assert response.json()["details"]["worker"]["queues_without_worker"] == ["bulk"]
    with translation.override("en"):  # the request above left its own language active
        sentences = {text: ok for ok, text in health.health_sentences(health.system_health(deep=True))}
    assert sentences["No worker takes the queue bulk: its work waits (running: celery@web-1)."] is False


def test_deep_names_a_backup_older_than_a_day_when_backups_are_configured(client, alive, settings, admin_user):
    assert "backup" not in client.get("/healthz?deep=1", headers=SCRAPER).json()["checks"]  # none configured: no part
    settings.BACKUP_DIR = "/var/backups/vendorhub"
    client.force_login(admin_user)

    never = client.get("/healthz?deep=1", headers=SCRAPER)
    heartbeat(BACKUP_HEARTBEAT)
    recent = client.get("/healthz?deep=1", headers=SCRAPER)
    Heartbeat.objects.filter(name=BACKUP_HEARTBEAT).update(at=timezone.now() - BACKUP_MAX_AGE - timedelta(hours=1))
    stale = client.get("/healthz?deep=1", headers=SCRAPER)
    page = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    korean = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()

    assert (never.status_code, never.json()["checks"]["backup"]) == (503, "stale")
    assert (recent.status_code, recent.json()["checks"]["backup"]) == (200, "ok")
    assert (stale.status_code, stale.json()["down"]) == (503, ["backup"])
    assert stale.json()["details"]["backup"]["last_backup_seconds"] >= 25 * 60 * 60
    assert "The last backup finished 25 hours ago: the nightly backup fails" in page
    assert "마지막 백업이 25시간 전에 끝났습니다" in korean


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token-of-32-characters-xx", f"Bearer {TOKEN}x", TOKEN])
def test_deep_tells_only_the_overall_status_without_the_metrics_token(client, alive, authorization):
    # A stranger learns whether the site is well, never the workers' host names, queues or backlog.
    headers = {"Authorization": authorization} if authorization else {}
    healthy = client.get("/healthz?deep=1", headers=headers)
    Heartbeat.objects.filter(name=BEAT).update(at=timezone.now() - 4 * STALE_AFTER)
    failing = client.get("/healthz?deep=1", headers=headers)

    assert (healthy.status_code, healthy.json()) == (200, {"status": "ok"})
    assert (failing.status_code, failing.json()) == (503, {"status": "unavailable"})
    assert "details" in client.get("/healthz?deep=1", headers=SCRAPER).json()


def test_deep_gives_no_details_when_no_metrics_token_is_set(client, alive, settings):
    settings.METRICS_TOKEN = ""

    assert client.get("/healthz?deep=1", headers={"Authorization": "Bearer "}).json() == {"status": "ok"}

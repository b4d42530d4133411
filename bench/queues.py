"""python -m bench.queues [records]: does bulk work delay what must not wait? A hub send and a booking
e-mail are timed, from the commit that queues them to the end of their task, first with the workers idle,
then while a reconciliation of 100,000 records (default) runs, in the same run: the added delay, against
the goal (at most 2 s).

Procfile's own `worker` (hub and bookings queues), `jobs` (e-mails) and `bulk` commands run the tasks, on Redis
(CELERY_BROKER_URL must name one: db 14 by default here is the caller's to choose) and a fresh database
(PostgreSQL when DATABASE_URL names one); the sandbox hub is served by a gunicorn of its own, so that its
paging of the settlement list does not share this process. Writes var/bench/queues.json."""

import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from datetime import UTC
from pathlib import Path

from bench.harness import (
    BENCH_DIR,
    ROOT,
    answers,
    free_port,
    fresh_database,
    procfile,
    purge,
    setup_django,
    stop,
    wait_for,
)
from bench.settlement import PERIOD, RECORDS
from bench.settlement import _prepare as prepare_settlement

SAMPLES = 5  # of each kind, idle and then during the reconciliation
GOAL_ADDED_SECONDS = 2.0


def main():
    records = int(sys.argv[1]) if len(sys.argv) > 1 else RECORDS
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        raise SystemExit("bench.queues needs Redis: CELERY_BROKER_URL=redis://127.0.0.1:6379/<db>")
    setup_django(broker=broker)
    os.environ["HUB_SYNC_COALESCE_SECONDS"] = "0"  # a send is queued at once, for this process and the workers
    from django.conf import settings

    settings.HUB_SYNC_COALESCE_SECONDS = 0
    with fresh_database() as connection:
        prepared = time.perf_counter()
        prop = prepare_settlement("bench-queues", records)
        target, user, booking = _prepare_targets(prop)
        prepared = round(time.perf_counter() - prepared, 1)
        hub, workers = _start_processes(connection, broker)
        try:
            settings.HUB_BASE_URL = hub.url
            _initial_send(target)
            figures = {
                "when": datetime.datetime.now(UTC).isoformat(timespec="seconds"),
                "database": connection.vendor,
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "records": records,
                "prepare_seconds": prepared,
                "idle": _samples(target, user, booking),
            }
            reconciliation, started = _start_reconciliation(prop, user)
            figures["busy"] = _samples(target, user, booking, while_running=reconciliation)
            figures["reconciliation_seconds"] = _wait_done(reconciliation, started)
        finally:
            for process in (hub, *workers):
                stop(process)
    for kind in ("hub_send", "booking_email"):
        idle, busy = figures["idle"][kind], figures["busy"][kind]
        figures[f"{kind}_added_seconds"] = round(busy["median"] - idle["median"], 3)
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "queues.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nFigures written to {(BENCH_DIR / 'queues.json').relative_to(ROOT)}")


def _prepare_targets(prop):
    """What is timed: a property to edit (its send), a manager with an address (the e-mail), a booking."""
    from bookings.models import Booking
    from integration.access.choices import MembershipRole
    from integration.models import Property, PropertyMembership

    user = _user()
    PropertyMembership.objects.create(user=user, property=prop, role=MembershipRole.MANAGER)
    target = Property.objects.create(vendor_id="bench-send", name="Bench send")
    target.translations.create(locale="ko-KR", name="벤치 전송")
    return target, user, Booking.objects.filter(property=prop).order_by("pk").first()


def _user():
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("bench-manager", email="manager@example.com", is_staff=True)


def _initial_send(target):
    """The target reaches the hub once before anything is timed (its create), in this process."""
    from integration.sync.services.outbox import sync_state_ensure
    from integration.sync.services.sender import sync_send

    sync_send(sync_state_ensure(target).pk, schedule=False)


def _hub_send(target, user):
    """Seconds from the commit of an edit of target to the hub holding it (its row synced)."""
    from django.db import transaction

    from integration.content.services import content_saved
    from integration.sync.choices import SyncStatus
    from integration.sync.models import SyncState

    with transaction.atomic():
        target.name = f"Bench send {time.monotonic_ns()}"
        target.save(update_fields=["name"])
        content_saved(obj=target, created=False, user=user)
        version = SyncState.objects.get(kind="property", object_id=target.pk).version
    started = time.perf_counter()
    wait_for(
        lambda: SyncState.objects.filter(
            kind="property", object_id=target.pk, status=SyncStatus.SYNCED, sent_version__gte=version
        ).exists(),
        "the hub send",
    )
    return time.perf_counter() - started


def _booking_email(user, booking):
    """Seconds from the commit of a booking e-mail's job to the end of its task (the job deleted)."""
    from uuid import uuid4

    from django.db import transaction
    from django.utils import timezone

    from bookings.notifications import SEND_TASK
    from core.background.jobs import job_queue
    from core.models import Job

    with transaction.atomic():
        job = job_queue(SEND_TASK, booking.pk, "created", user.pk, uuid4().hex, timezone.now().isoformat())
    started = time.perf_counter()
    wait_for(lambda: not Job.objects.filter(pk=job.pk).exists(), "the booking e-mail")
    return time.perf_counter() - started


def _samples(target, user, booking, *, while_running=None):
    """SAMPLES of each kind, in turn; with while_running, only those that ended while it still ran."""
    from bookings.settlement.models import Reconciliation

    def running():
        return Reconciliation.objects.filter(pk=while_running.pk, status="running").exists()

    times = {"hub_send": [], "booking_email": []}
    if while_running is None:
        _hub_send(target, user), _booking_email(user, booking)  # warm-up: connections, imports
    while min(len(found) for found in times.values()) < SAMPLES:
        if while_running is not None and not running():
            break
        sent, mailed = _hub_send(target, user), _booking_email(user, booking)
        if while_running is None or running():
            times["hub_send"].append(sent)
            times["booking_email"].append(mailed)
    if not times["hub_send"]:
        raise SystemExit("the reconciliation ended before one sample was taken: give more records")
    return {
        kind: {
            "samples": len(found),
            "median": round(statistics.median(found), 3),
            "max": round(max(found), 3),
        }
        for kind, found in times.items()
    }


def _start_reconciliation(prop, user):
    """A manager's reconciliation of the 100,000 records, queued as the screen does; returns when it runs."""
    from bookings.settlement.models import Reconciliation
    from bookings.settlement.services import reconciliation_request

    started = time.perf_counter()
    reconciliation = reconciliation_request(
        user=user, properties=[prop], basis="checkin", date_from=PERIOD[0], date_to=PERIOD[1]
    )
    wait_for(lambda: Reconciliation.objects.filter(pk=reconciliation.pk, status="running").exists(), "its start")
    time.sleep(1)  # well into its pages
    return reconciliation, started


def _wait_done(reconciliation, started):
    from bookings.settlement.models import Reconciliation

    wait_for(
        lambda: Reconciliation.objects.filter(pk=reconciliation.pk, status__in=["done", "failed"]).exists(),
        "the reconciliation's end",
        timeout=3600,
    )
    reconciliation.refresh_from_db()
    assert reconciliation.status == "done", reconciliation.error
    return round(time.perf_counter() - started, 1)


def _start_processes(connection, broker):
    """The sandbox hub (gunicorn) and Procfile's worker and bulk, on the bench database and broker."""
    database = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    else:
        url = f"sqlite:///{database['NAME']}"
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_DEBUG": "true",
        "DATABASE_URL": url,
        "CELERY_BROKER_URL": broker,
        "HUB_SANDBOX_ENABLED": "true",
        "HUB_BASE_URL": f"http://127.0.0.1:{port}/sandbox",
        "HUB_SYNC_COALESCE_SECONDS": "0",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "WARNING",
        "PORT": str(port),
        "PYTHONPATH": str(ROOT),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    }
    purge(broker)
    hub = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}", "--workers", "2"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    hub.url = env["HUB_BASE_URL"]
    workers = [
        subprocess.Popen(  # noqa: S603
            ["/bin/sh", "-c", f"exec {procfile(name)}"], cwd=ROOT, env=env, start_new_session=True
        )
        for name in ("worker", "jobs", "bulk")
    ]
    wait_for(lambda: answers(port), "the sandbox hub", timeout=60)
    time.sleep(5)  # the workers' start
    return hub, workers


def report(figures):
    """The figures as a table for a terminal."""
    lines = [
        f"Queues benchmark: {figures['database']}, Procfile's worker, jobs and bulk; a reconciliation"
        f" of {figures['records']:,} records ({figures['reconciliation_seconds']} s) against idle workers",
        f"  {'':18}{'idle median':>13}{'idle max':>10}{'busy median':>13}{'busy max':>10}{'added':>8}",
    ]
    for kind, label in (("hub_send", "hub send"), ("booking_email", "booking e-mail")):
        idle, busy = figures["idle"][kind], figures["busy"][kind]
        lines.append(
            f"  {label:18}{idle['median']:>12}s{idle['max']:>9}s{busy['median']:>12}s{busy['max']:>9}s"
            f"{figures[f'{kind}_added_seconds']:>7}s  ({busy['samples']} samples while it ran)"
        )
    lines.append(f"  goal: at most {GOAL_ADDED_SECONDS} s added")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

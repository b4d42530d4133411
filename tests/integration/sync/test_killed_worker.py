"""On Redis, a worker SIGKILLed in the middle of a send to the hub: the change still reaches the hub, and
the test measures how long after the kill (printed, and written to var/bench/killed_worker.json).

Real processes as in production (Procfile): a Celery worker and beat, against the live test server's
sandbox; the sandbox answers slowly so that the kill lands while the request is in flight. Then either
the same worker starts again at once (it frees what it held under its name), or another worker takes
over (through the lease's expiry and beat's sweeper).
"""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from django.conf import settings
from django.db import connection, transaction

from config.celery import app as celery_app
from hubsandbox.faults import inject_faults
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services import outbox
from tests.factories import PropertyFactory, korean
from tests.hub_fixtures import assert_hub_holds, wait_until

pytestmark = [
    pytest.mark.subprocess,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    # One xdist worker runs both scenarios, one after the other (make test: --dist loadgroup): each reads and
    # writes the same figures file (record).
    pytest.mark.xdist_group("killed_worker"),
]

#: How long the sandbox holds the request that the kill interrupts.
IN_FLIGHT_SECONDS = 10
#: A bound for the test, not a speed goal: the lease (45 s) and a sweeper interval, with room to spare.
RECOVERY_BOUND = 90
FIGURES = settings.BASE_DIR / "var" / "bench" / "killed_worker.json"


class Processes:
    """Celery processes started for the test, each in its own process group; all stopped at the end."""

    def __init__(self, tmp_path, env):
        self.tmp_path, self.env, self.running = tmp_path, env, []

    def start(self, name, *args):
        log = self.tmp_path / f"{name}-{len(self.running)}.log"
        command = [sys.executable, "-m", "celery", "-A", "config", *args, "--loglevel=INFO"]
        with log.open("w") as output:
            process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=self.env,
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        process.log = log
        self.running.append(process)
        return process

    def worker(self, node):
        worker = self.start("worker", "worker", "-n", node, "--concurrency=1", "--without-gossip", "--without-mingle")
        wait_until(lambda: " ready." in worker.log.read_text(), timeout=60, message=f"worker {node} ready")
        return worker

    @staticmethod
    def kill(process, sig=signal.SIGKILL):
        """Send sig to the process's whole group (the worker and its pool's children) and reap it."""
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def stop_all(self):
        for process in self.running:
            self.kill(process, signal.SIGTERM)


@pytest.fixture
def processes(hub, live_server, tmp_path):
    database = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "HUB_BASE_URL": f"{live_server.url}/sandbox",
        "HUB_SYNC_COALESCE_SECONDS": "0.3",
        "HUB_SANDBOX_SELL_SECONDS": "0",
    }
    env.pop("HUB_SANDBOX_FAULTS", None)
    celery_app.control.purge()
    started = Processes(tmp_path, env)
    started.start("beat", "beat", f"--schedule={tmp_path / 'beat-schedule'}")
    try:
        yield started
    finally:
        started.stop_all()
        celery_app.control.purge()


def record(scenario, seconds):
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    figures[scenario] = round(seconds, 1)
    FIGURES.write_text(json.dumps(figures, indent=2) + "\n")


@pytest.mark.parametrize(
    ("scenario", "next_node"),
    [("restarted at once", "killed@%h"), ("another worker, no restart", "other@%h")],
    ids=["restarted", "taken-over"],
)
def test_a_send_interrupted_by_sigkill_reaches_the_hub(processes, scenario, next_node):
    worker = processes.worker("killed@%h")
    prop = PropertyFactory(vendor_id="killed-mid-send")
    korean(prop)

    with inject_faults(latency_ms=IN_FLIGHT_SECONDS * 1000) as slow_hub:
        with transaction.atomic():
            state = outbox.sync_mark_changed(prop)
        wait_until(lambda: slow_hub.counts.total() == 1, message="the send to reach the sandbox")
        in_flight_since = time.monotonic()
        processes.kill(worker)
        killed_at = time.monotonic()
    # The worker died holding the row, its message unacknowledged in Redis.
    held = SyncState.objects.get(pk=state.pk)
    assert held.status == SyncStatus.PENDING
    assert held.lease_owner.startswith("killed@")

    processes.worker(next_node)
    wait_until(
        lambda: SyncState.objects.filter(pk=state.pk, status=SyncStatus.SYNCED).exists(),
        timeout=RECOVERY_BOUND,
        message="the change to reach the hub after the kill",
    )
    seconds = time.monotonic() - killed_at
    print(f"\nkilled worker, {scenario}: the change reached the hub {seconds:.1f} s after the SIGKILL")
    record(scenario, seconds)
    assert_hub_holds(prop)
    # The interrupted request ends in the sandbox too; let it finish before the database is flushed.
    time.sleep(max(0.0, in_flight_since + IN_FLIGHT_SECONDS + 1 - time.monotonic()))

"""Heartbeats: each worker and beat write the time they were last alive, so that the deep health check
can name a dead one (Celery itself keeps no record a web process can read without the broker)."""

from datetime import timedelta

from celery import bootsteps
from celery.beat import PersistentScheduler
from django.db import close_old_connections, connection
from django.utils import timezone

#: How often a worker and beat write their heartbeat.
HEARTBEAT_SECONDS = 15.0
#: A heartbeat older than this names its process dead: three missed beats, so within a minute.
STALE_AFTER = timedelta(seconds=3 * HEARTBEAT_SECONDS)
BEAT = "beat"
WORKER_PREFIX = "worker:"


def heartbeat(name, queues=()):
    """Record that the process called name (a worker taking queues) is alive now."""
    from core.models import Heartbeat  # the worker's bootstep and beat's scheduler load before Django's apps

    Heartbeat.objects.update_or_create(name=name, defaults={"at": timezone.now(), "queues": ",".join(sorted(queues))})


def heartbeats():
    """{name: (time, [queues])} of every process that ever wrote one, newest first."""
    from core.models import Heartbeat

    rows = Heartbeat.objects.order_by("-at").values_list("name", "at", "queues")
    return {name: (at, [queue for queue in queues.split(",") if queue]) for name, at, queues in rows}


class WorkerHeartbeat(bootsteps.StartStopStep):
    """A worker's heartbeat, written by its main process's event loop: it stops when the worker stops
    taking messages (a wedged loop, a lost broker), not only when the process dies."""

    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.timer_ref = None

    def start(self, worker):
        queues = tuple(worker.app.amqp.queues.consume_from or worker.app.amqp.queues)
        self.timer_ref = worker.timer.call_repeatedly(HEARTBEAT_SECONDS, _worker_beat, (worker.hostname, queues))
        _worker_beat(worker.hostname, queues)

    def stop(self, worker):
        if self.timer_ref is not None:
            self.timer_ref.cancel()


def _worker_beat(hostname, queues):
    try:
        heartbeat(WORKER_PREFIX + hostname, queues)
    finally:
        # The main process forks pool processes later: it keeps no database connection open for them.
        connection.close()


class HeartbeatScheduler(PersistentScheduler):
    """Beat's scheduler (CELERY_BEAT_SCHEDULER), writing beat's heartbeat at every tick."""

    def tick(self, *args, **kwargs):
        close_old_connections()
        try:
            heartbeat(BEAT)
        except Exception:  # a database outage must not stop beat: the health check will say beat is silent
            self.logger.warning("beat could not write its heartbeat", exc_info=True)
        return min(super().tick(*args, **kwargs), HEARTBEAT_SECONDS)

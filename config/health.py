"""Health: /healthz, the load balancer's cheap liveness probe, and /healthz?deep=1, the operator's view of
every part the product needs (services, processes, backlog); the admin dashboard shows the deep view in
words for superusers."""

import logging
import tempfile
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import FileSystemStorage, storages
from django.db import connection
from django.http import JsonResponse
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, ngettext_lazy
from django.views.decorators.cache import never_cache

from bookings.selectors import call_log_growth
from core.background.heartbeat import BEAT, STALE_AFTER, WORKER_PREFIX, heartbeats
from core.background.jobs import jobs_waiting
from core.files.storage import storage_probe
from golive.backup import BACKUP_MAX_AGE, last_backup_at
from integration.sync.selectors import outbox_backlog
from licenses.files import license_storage

from .celery import app as celery_app
from .metrics import has_metrics_token
from .version import VERSION

logger = logging.getLogger(__name__)

BROKER_TIMEOUT_SECONDS = 2
#: Work waiting longer than this names its part as lagging: a change not at the hub, a job not run.
BACKLOG_MAX_AGE = timedelta(minutes=10)


def _check_database():
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")


def _check_cache():
    cache.set("healthz", "ok", timeout=10)
    if cache.get("healthz") != "ok":
        raise RuntimeError("the cache did not return what was stored")


def _check_broker():
    with celery_app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT_SECONDS)


#: The services, each checked by connecting. Only the database decides liveness: without it nothing can
#: be served, while without Redis the web process still answers the hub's bookings (the work it queues
#: waits in the database), so a Redis outage must not take every web server out of the load balancer.
CHECKS = {"database": _check_database, "cache": _check_cache, "broker": _check_broker}
REQUIRED = ("database",)


@dataclass
class Part:
    """One part of the system as the deep check sees it: ok or not (and then how), and what it found."""

    ok: bool
    details: dict = field(default_factory=dict)
    problem: str = "down"

    @property
    def state(self):
        return "ok" if self.ok else self.problem


def _age_seconds(moment, now):
    return None if moment is None else max(0, round((now - moment).total_seconds()))


def _processes(now):
    beats = heartbeats()
    workers = {name.removeprefix(WORKER_PREFIX): seen for name, seen in beats.items() if name.startswith(WORKER_PREFIX)}
    alive = {name: seen for name, seen in workers.items() if now - seen[0] <= STALE_AFTER}
    # Each queue needs a live worker taking it: a dead bulk worker leaves reconciliations waiting however
    # many hub workers run.
    taken = {queue for _at, queues in alive.values() for queue in queues}
    untaken = [queue.name for queue in settings.CELERY_TASK_QUEUES if queue.name not in taken]
    beat_at = beats.get(BEAT, (None,))[0]
    last_worker = max((at for at, _queues in workers.values()), default=None)
    return {
        "worker": Part(
            bool(alive) and not untaken,
            {
                "alive": {name: _age_seconds(at, now) for name, (at, _queues) in alive.items()},
                "queues_without_worker": untaken,
                "last_seen_seconds": _age_seconds(last_worker, now),
            },
        ),
        "beat": Part(
            beat_at is not None and now - beat_at <= STALE_AFTER, {"last_seen_seconds": _age_seconds(beat_at, now)}
        ),
    }


def _backlog(now):
    outbox = outbox_backlog()
    jobs = jobs_waiting()
    oldest_change, oldest_job = outbox.pop("oldest_pending_since"), jobs.pop("oldest_waiting_since")
    return {
        "outbox": Part(
            oldest_change is None or now - oldest_change <= BACKLOG_MAX_AGE,
            {**outbox, "oldest_pending_seconds": _age_seconds(oldest_change, now)},
            problem="lagging",
        ),
        "jobs": Part(
            oldest_job is None or now - oldest_job <= BACKLOG_MAX_AGE,
            {**jobs, "oldest_waiting_seconds": _age_seconds(oldest_job, now)},
            problem="lagging",
        ),
    }


def _file_storages():
    """The folders files are written to, by name: the license files (private), the default storage
    (MEDIA_ROOT), and the temporary folder an upload larger than FILE_UPLOAD_MAX_MEMORY_SIZE (a license
    or CSV file of a few megabytes) is streamed to before any view sees it."""
    return {
        "license_files": license_storage(),
        "media": storages["default"],
        "uploads": FileSystemStorage(location=settings.FILE_UPLOAD_TEMP_DIR or tempfile.gettempdir()),
    }


def _files():
    # Each storage is written to and cleaned up: a folder that exists but is full, read-only or not the
    # server user's would otherwise be found by the next upload.
    unwritable = {name: reason for name, storage in _file_storages().items() if (reason := storage_probe(storage))}
    return {"files": Part(not unwritable, {"unwritable": unwritable}, problem="unwritable")}


def _backup(now):
    """The nightly backup, when one is configured (BACKUP_DIR): stale when the last one is over a day old."""
    if not settings.BACKUP_DIR:
        return {}
    last = last_backup_at()
    return {
        "backup": Part(
            last is not None and now - last <= BACKUP_MAX_AGE,
            {"last_backup_seconds": _age_seconds(last, now)},
            problem="stale",
        )
    }


def _call_log(now):
    """The vendor API's call log: growing when it grew by more than VENDOR_API_CALL_LOG_MAX_MB_PER_DAY in
    the last 24 hours."""
    growth = call_log_growth(now - timedelta(hours=24))
    limit = settings.VENDOR_API_CALL_LOG_MAX_MB_PER_DAY * 1_000_000
    return {
        "call_log": Part(
            growth.bytes <= limit,
            {"rows_last_day": growth.rows, "bytes_last_day": growth.bytes, "max_bytes_per_day": limit},
            problem="growing",
        )
    }


def system_health(*, deep):
    """{part: Part}: the services, and with deep the file storages, the worker, beat, the outbox to the
    hub, the jobs, the call log's growth and the nightly backup (when configured)."""
    parts = {}
    for name, check in CHECKS.items():
        try:
            check()
        except Exception as exc:  # any failure of a service means "down"; the reason goes to the log
            logger.warning("health check %s failed: %s", name, exc.__class__.__name__)
            parts[name] = Part(False)
        else:
            parts[name] = Part(True)
    if deep:
        parts |= _files()
    if deep and parts["database"].ok:
        now = timezone.now()
        parts |= _processes(now) | _backlog(now) | _call_log(now) | _backup(now)
    return parts


def _health_body(parts, *, deep):
    """(the answer's body, whether a part that counts is failing): the overall status, each part's state,
    the parts down and, with deep, their details and the version."""
    down = [name for name, part in parts.items() if not part.ok]
    failing = down if deep else [name for name in down if name in REQUIRED]
    body = {
        "status": "unavailable" if failing else "degraded" if down else "ok",
        "checks": {name: part.state for name, part in parts.items()},
        "down": down,
    }
    if deep:
        body["details"] = {name: part.details for name, part in parts.items() if part.details}
        body["version"] = VERSION
    return body, bool(failing)


@never_cache
def healthz(request):
    """Liveness: 200 while the database answers (status "degraded" naming the cache or broker when one is
    down), 503 otherwise. With ?deep=1: 200 only when every part is ok, 503 otherwise; the parts, their
    details (the workers' host names, queues, backlog) and the version only with the metrics token, the
    others get the overall status alone."""
    deep = request.GET.get("deep") == "1"
    body, failing = _health_body(system_health(deep=deep), deep=deep)
    if deep and not has_metrics_token(request):
        body = {"status": body["status"]}
    return JsonResponse(body, status=503 if failing else 200)


def duration_words(seconds):
    """A number of seconds in words: seconds, minutes up to two hours, then hours."""
    if seconds < 60:
        return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}
    if seconds < 2 * 60 * 60:
        return ngettext("%(count)d minute", "%(count)d minutes", seconds // 60) % {"count": seconds // 60}
    return ngettext("%(count)d hour", "%(count)d hours", seconds // 3600) % {"count": seconds // 3600}


def _process_sentence(part, *, alive, never, silent):
    """(ok, sentence) of a process that writes heartbeats: alive, never seen, or silent for how long."""
    if part.ok:
        return True, alive
    seen = part.details["last_seen_seconds"]
    return False, never if seen is None else silent % {"time": duration_words(seen)}


def _backlog_sentence(part, *, count, oldest, idle, waiting, failed):
    """(ok, sentence) of a backlog: nothing waiting, or how much since when; and how many failed."""
    sentence = idle if oldest is None else waiting % {"count": count, "time": duration_words(oldest)}
    if part.details["failed"]:
        sentence = f"{sentence} {failed % {'count': part.details['failed']}}"
    return part.ok, sentence


def service_names():
    """{service: its name on the dashboard}, saying what is configured: development runs on SQLite, each
    process's own memory as cache and files as task queue, production on PostgreSQL and Redis."""
    database = {"postgresql": "PostgreSQL", "sqlite": "SQLite"}.get(connection.vendor, connection.vendor)
    cache_backend = settings.CACHES["default"]["BACKEND"]
    if "redis" in cache_backend.lower():
        cache_kind = "Redis"
    elif cache_backend.endswith("LocMemCache"):
        cache_kind = _("the memory of each process")
    else:
        cache_kind = cache_backend.rsplit(".", 1)[-1]
    broker_scheme = settings.CELERY_BROKER_URL.partition("://")[0]
    broker_kinds = {"filesystem": _("files under var/broker"), "memory": _("the memory of this process")}
    broker_kind = "Redis" if broker_scheme.startswith("redis") else broker_kinds.get(broker_scheme, broker_scheme)
    return {
        "database": _("The database (%(kind)s)") % {"kind": database},
        "cache": _("The cache (%(kind)s)") % {"kind": cache_kind},
        "broker": _("The task queue (%(kind)s)") % {"kind": broker_kind},
    }


def _files_sentence(part):
    """(ok, sentence) of the file storages: writable, or which cannot be written and why."""
    if part.ok:
        return True, _("The file storage can be written: uploaded files are kept.")
    names = {"license_files": _("license files"), "media": _("media files"), "uploads": _("uploads (temporary folder)")}
    unwritable = "; ".join(f"{names.get(name, name)} ({reason})" for name, reason in part.details["unwritable"].items())
    return False, _("Files cannot be stored: %(storages)s. Uploads fail until the folder can be written.") % {
        "storages": unwritable
    }


def health_sentences(parts):
    """The deep health in words, for the superuser's dashboard: [(ok, sentence)], one per part."""
    services = service_names()
    said = [
        (
            parts[name].ok,
            (_("%(service)s answers.") if parts[name].ok else _("%(service)s does not answer.")) % {"service": label},
        )
        for name, label in services.items()
    ]
    if "files" in parts:
        said.append(_files_sentence(parts["files"]))
    if "worker" not in parts:  # the database is down: nothing more can be read
        return said
    worker = parts["worker"]
    names = ", ".join(sorted(worker.details["alive"]))
    untaken = worker.details["queues_without_worker"]
    if names and untaken:
        said.append(
            (
                False,
                _("No worker takes the queue %(queues)s: its work waits (running: %(names)s).")
                % {"queues": ", ".join(untaken), "names": names},
            )
        )
    else:
        said.append(
            _process_sentence(
                worker,
                alive=_("A worker is running (%(names)s).") % {"names": names},
                never=_("No worker has ever been seen: nothing reaches the hub and no e-mail is sent."),
                silent=_("No worker seen for %(time)s: nothing reaches the hub and no e-mail is sent."),
            )
        )
    said.append(
        _process_sentence(
            parts["beat"],
            alive=_("Beat is running: retries, sweeps and scheduled runs happen."),
            never=_("Beat has never been seen: nothing is retried, swept or run on schedule."),
            silent=_("Beat not seen for %(time)s: nothing is retried, swept or run on schedule."),
        )
    )
    said.append(
        _backlog_sentence(
            parts["outbox"],
            count=parts["outbox"].details["pending"],
            oldest=parts["outbox"].details["oldest_pending_seconds"],
            idle=_("Every change has reached the hub."),
            waiting=ngettext_lazy(
                "%(count)d change waits for the hub, the oldest for %(time)s.",
                "%(count)d changes wait for the hub, the oldest for %(time)s.",
                "count",
            ),
            failed=ngettext_lazy(
                "%(count)d was refused by the hub (see the hub sync states).",
                "%(count)d were refused by the hub (see the hub sync states).",
                "count",
            ),
        )
    )
    said.append(
        _backlog_sentence(
            parts["jobs"],
            count=parts["jobs"].details["waiting"],
            oldest=parts["jobs"].details["oldest_waiting_seconds"],
            idle=_("No background job is waiting (e-mails, reconciliations, read-backs)."),
            waiting=ngettext_lazy(
                "%(count)d background job waits, the oldest for %(time)s.",
                "%(count)d background jobs wait, the oldest for %(time)s.",
                "count",
            ),
            failed=ngettext_lazy(
                "%(count)d failed for good in the last 30 days.",
                "%(count)d failed for good in the last 30 days.",
                "count",
            ),
        )
    )
    said.append(_call_log_sentence(parts["call_log"]))
    if "backup" in parts:
        said.append(_backup_sentence(parts["backup"]))
    return said


def _call_log_sentence(part):
    """(ok, sentence) of the call log's growth in the last 24 hours, against its limit."""
    details = part.details
    words = {
        "size": filesizeformat(details["bytes_last_day"]),
        "count": number_format(details["rows_last_day"], force_grouping=True),
        "limit": filesizeformat(details["max_bytes_per_day"]),
    }
    if part.ok:
        return True, _("The hub's call log grew by %(size)s in the last 24 hours (%(count)s calls).") % words
    return False, _(
        "The hub's call log grew by %(size)s in the last 24 hours (%(count)s calls), more than the %(limit)s "
        "a day it may: a flood of calls? See the refused calls and the vendor API's rate limits."
    ) % words


def _backup_sentence(part):
    """(ok, sentence) of the nightly backup: when the last one finished, or that none has."""
    seen = part.details["last_backup_seconds"]
    if part.ok:
        return True, _("The last backup finished %(time)s ago.") % {"time": duration_words(seen)}
    if seen is None:
        return False, _("No backup has finished yet: nothing could be restored after a loss.")
    return False, _("The last backup finished %(time)s ago: the nightly backup fails (see the bulk worker's log).") % {
        "time": duration_words(seen)
    }

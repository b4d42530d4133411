"""GET /metrics: the Prometheus scrape, for the scraper alone (a bearer token, METRICS_TOKEN, compared in
constant time; anyone else gets the same 404 as for a path that does not exist, and so does everyone
when METRICS_ENABLED is off).

It adds up the files every web and worker process writes (core.metrics) and reads, at scrape time, what
the database knows: the outbox by state and kind, the age of the oldest change waiting for the hub, the
durable jobs, the processes' heartbeats and the call log's growth in the last day (a few indexed
aggregates and lookups)."""

import hmac
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector

from bookings.selectors import call_log_growth
from core.background.heartbeat import heartbeats
from core.background.jobs import jobs_waiting
from integration.sync.selectors import outbox_backlog, outbox_counts


class ProcessFilesCollector:
    """Every process's values, from the files under METRICS_DIR (each kind of process has its folder)."""

    def collect(self):
        files = sorted(str(path) for path in Path(settings.METRICS_DIR).glob("*/*.db"))
        return MultiProcessCollector.merge(files, accumulate=True)


def _age(moment, now):
    return 0.0 if moment is None else max(0.0, (now - moment).total_seconds())


class DatabaseCollector:
    """The backlog and the processes as the database knows them, read at each scrape."""

    def collect(self):
        now = timezone.now()
        outbox = GaugeMetricFamily(
            "vendorhub_outbox_resources",
            "Resources of the active hub's outbox, by state and kind",
            labels=["state", "kind"],
        )
        for (state, kind), count in sorted(outbox_counts().items()):
            outbox.add_metric([state, kind], count)
        yield outbox
        yield GaugeMetricFamily(
            "vendorhub_outbox_oldest_pending_seconds",
            "Age of the oldest change not yet at the active hub (0: none waits)",
            value=_age(outbox_backlog()["oldest_pending_since"], now),
        )
        jobs = jobs_waiting()
        family = GaugeMetricFamily(
            "vendorhub_jobs", "Durable jobs due and waiting, and failed for good", labels=["state"]
        )
        family.add_metric(["waiting"], jobs["waiting"])
        family.add_metric(["failed"], jobs["failed"])
        yield family
        yield GaugeMetricFamily(
            "vendorhub_jobs_oldest_waiting_seconds",
            "Age of the oldest durable job due and not run (0: none waits)",
            value=_age(jobs["oldest_waiting_since"], now),
        )
        beats = GaugeMetricFamily(
            "vendorhub_heartbeat_age_seconds",
            "Seconds since each worker and beat last wrote its heartbeat",
            labels=["process"],
        )
        for name, (at, _queues) in heartbeats().items():
            beats.add_metric([name], _age(at, now))
        yield beats
        growth = call_log_growth(now - timedelta(hours=24))
        yield GaugeMetricFamily(
            "vendorhub_call_log_rows_last_day",
            "Rows the vendor API's call log gained in the last 24 hours",
            value=growth.rows,
        )
        yield GaugeMetricFamily(
            "vendorhub_call_log_bytes_last_day",
            "Bytes the vendor API's call log grew by in the last 24 hours (its tables' share of new rows)",
            value=growth.bytes,
        )


def has_metrics_token(request):
    """Whether request carries the metrics token (METRICS_TOKEN, as a bearer token): the scraper's."""
    expected = f"Bearer {settings.METRICS_TOKEN}".encode()
    return bool(settings.METRICS_TOKEN) and hmac.compare_digest(
        request.headers.get("Authorization", "").encode(), expected
    )


@never_cache
def metrics(request):
    """The scrape in Prometheus's text format; 404 unless metrics are on and the token is right."""
    if not settings.METRICS_ENABLED or not has_metrics_token(request):
        raise Http404
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ProcessFilesCollector())
    registry.register(DatabaseCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)

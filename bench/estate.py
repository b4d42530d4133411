"""python -m bench.estate: a vendor of many properties resyncs everything through real Celery workers.

Builds N properties (default 1,000), each with 5 room types, 2 rate plan models and 10 rate plans (content
through bench.sync_cases, Korean texts), and 365 days of rates and availability that vary by property,
plan, weekday and season (plain SQL over generate_series). Then, for each pool and concurrency, with both
sandbox hubs emptied: starts Procfile's worker (production settings, PostgreSQL, Redis) with that pool and
concurrency, switches the hub environment (the go-live path, which resyncs everything), and times until
no row is pending. The sandbox is served by its own gunicorn with the `latency_ms` fault.

--budget N sets our request budget (HUB_BUDGET_*_PER_MINUTE, decision 0022) in the workers' environment and
has the sandbox count like a strict hub (`budget=N`: 429 beyond N requests per property, kind and clock
minute); --hub-budget N has only the sandbox count, to show what a hub would refuse without ours. The report
then adds, from the sandbox's request log, the over-budget minutes (property x kind x clock minute with more
than N requests), the busiest such minute, and the 429s. A budgeted resync takes minutes: a property's
content is some 18 requests, two minutes at 10.

Prints, per run: hub requests (writes) against the protocol minimum (one create per content resource, one
ARI call per rate plan and per room type), refused, wall time, requests/s, speed-up against concurrency 1,
the ratio to the latency floor (requests x latency / concurrency), tasks per request, CPU per request of
the worker, the hub and PostgreSQL (/proc), the worker's peak RSS (all its processes), and the load
average. Needs Redis: CELERY_BROKER_URL=redis://127.0.0.1:<port>/<db>. Writes var/bench/estate.json.

    python -m bench.estate --properties 50 --concurrency 1,2,4,8 --pools prefork,threads
"""

import argparse
import contextlib
import json
import os
import platform
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from itertools import pairwise
from pathlib import Path

from bench import worker_profile
from bench.bookings import CpuMeter
from bench.harness import (
    BENCH_DIR,
    ROOT,
    free_port,
    fresh_database,
    procfile,
    production_environment,
    purge,
    setup_django,
    start_hub,
    stop,
    wait_for,
)

ROOM_TYPES = 5
MODEL_TEXTS = (
    ("base", "객실만", "객실만 이용하는 기본 요금입니다."),
    ("breakfast", "조식 포함", "한식 조식 2인이 포함됩니다."),
)
DAYS = 365
#: The kinds the protocol's minimum counts, one request each in a full resync.
PROTOCOL_KINDS = ("property", "roomtype", "rateplan_model", "rateplan", "ari_rates", "ari_avails")
POLL_SECONDS = 0.5
#: The kinds of request budget (settings HUB_BUDGET_<kind>_PER_MINUTE).
BUDGET_KINDS = ("RATES", "AVAILABILITY", "CONTENT")


def main():
    options = _options()
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        raise SystemExit("bench.estate needs Redis: CELERY_BROKER_URL=redis://127.0.0.1:<port>/<db>")
    setup_django(broker=broker)
    from django.conf import settings

    figures = {
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "properties": options.properties,
        "latency_ms": options.latency_ms,
        "runs": [],
    }
    with fresh_database() as connection:
        figures["database"] = connection.vendor
        started = time.perf_counter()
        _build(options.properties)
        figures["build_seconds"] = round(time.perf_counter() - started, 1)
        figures["build_load"] = _load_average()
        if options.profile:
            print(_profile())
            return
        hub_port = free_port()
        settings.HUB_BASE_URL = f"http://127.0.0.1:{hub_port}/sandbox"
        settings.HUB_PRODUCTION_BASE_URL = f"{settings.HUB_BASE_URL}/production"
        env = production_environment(
            connection,
            HUB_BASE_URL=settings.HUB_BASE_URL,
            HUB_PRODUCTION_BASE_URL=settings.HUB_PRODUCTION_BASE_URL,
            HUB_PRODUCTION_API_TOKEN=settings.HUB_PRODUCTION_API_TOKEN,
            HUB_SANDBOX_ENABLED="true",
            CELERY_BROKER_URL=broker,
            PYTHONPATH=str(ROOT),
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        )
        figures["budget"], figures["hub_budget"] = options.budget, options.hub_budget
        if options.budget:
            env.update({f"HUB_BUDGET_{kind}_PER_MINUTE": str(options.budget) for kind in BUDGET_KINDS})
        # The sandbox's budget counts in its cache, shared by its gunicorn workers only on Redis.
        hub_env = {**env, "CACHE_URL": broker.rsplit("/", 1)[0] + "/1"} if options.hub_budget else env
        hub = start_hub(hub_env, hub_port, f"latency_ms={options.latency_ms},budget={options.hub_budget}")
        try:
            for pool in options.pools:
                for concurrency in options.concurrency:
                    figures["runs"].append(_resync(connection, env, hub, broker, pool, concurrency, options))
                    print(_row(figures["runs"][-1], figures["runs"]), flush=True)
                    if options.sample_worker:
                        run = figures["runs"][-1]
                        print(worker_profile.report(Path(run["samples"]), run["cpu_ms_per_request"]["worker"]))
        finally:
            stop(hub)
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "estate.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nFigures written to {(BENCH_DIR / 'estate.json').relative_to(ROOT)}")


def _options():
    parser = argparse.ArgumentParser(prog="python -m bench.estate", description=__doc__.split("\n")[0])
    parser.add_argument("--properties", type=int, default=1000)
    parser.add_argument("--concurrency", default="1,2,4,8", help="worker concurrencies, comma-separated")
    parser.add_argument("--pools", default="prefork,threads", help="Celery pools, comma-separated")
    parser.add_argument("--latency-ms", type=int, default=50, help="added to every answer of the sandbox hub")
    parser.add_argument("--budget", type=int, default=0, help="our request budget per property, kind and minute")
    parser.add_argument(
        "--hub-budget",
        type=int,
        default=0,
        help="the sandbox's count per property, kind and minute (default: --budget)",
    )
    parser.add_argument("--nodes", type=int, default=1, help="worker processes, each under its own node name")
    parser.add_argument(
        "--kill-after", type=float, help="seconds into the resync to SIGKILL the first worker (restarted)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="profile every send in this process instead (no workers)"
    )
    parser.add_argument(
        "--sample-worker",
        action="store_true",
        help="sample the (first) worker with py-spy during each resync: where its CPU goes",
    )
    options = parser.parse_args()
    options.concurrency = [int(value) for value in options.concurrency.split(",")]
    options.pools = options.pools.split(",")
    options.hub_budget = options.hub_budget or options.budget
    return options


def _build(properties):
    """The estate: content through bench.sync_cases, then a year of days per rate plan and room type by SQL."""
    from django.db import connection, transaction

    from bench import sync_cases
    from integration.ari.models import RatePlanDay, RoomTypeDay
    from integration.content.models import RatePlan, RoomType
    from integration.sync.services.batch import sync_states_ensure_all

    for n in range(properties):
        with transaction.atomic():
            prop = sync_cases.create_property(n)
            sync_cases.create_content(prop, room_types=ROOM_TYPES, model_texts=MODEL_TEXTS)
    with connection.cursor() as cursor:
        # Rates by plan, weekday (Friday and Saturday dearer) and season (summer and December), a closed
        # day now and then; packages as a difference from the base rate. Runs of equal days stay short,
        # as a real year's do, so that the ARI bodies are not one entry each.
        cursor.execute(
            f"""INSERT INTO {RatePlanDay._meta.db_table} (rate_plan_id, date, rate, rate_modify, business_day)
            SELECT plan.id, day,
                CASE WHEN model.type = 'standalone' THEN 80000 + (plan.id %% 7) * 5000
                    + CASE WHEN EXTRACT(ISODOW FROM day) IN (5, 6) THEN 30000 ELSE 0 END
                    + CASE WHEN EXTRACT(MONTH FROM day) IN (7, 8, 12) THEN 20000 ELSE 0 END END,
                CASE WHEN model.type = 'package' THEN 15000 + (plan.id %% 3) * 5000 END,
                (plan.id + EXTRACT(DOY FROM day)::int) %% 29 <> 0
            FROM {RatePlan._meta.db_table} plan
            JOIN integration_rateplanmodel model ON model.id = plan.model_id
            CROSS JOIN generate_series(CURRENT_DATE, CURRENT_DATE + %s, interval '1 day') AS day""",  # noqa: S608
            [DAYS - 1],
        )
        # Rooms to sell: 2 to 9 by room type and weekday, fewer in season.
        cursor.execute(
            f"""INSERT INTO {RoomTypeDay._meta.db_table} (room_type_id, date, allotment, held, taken, available)
            SELECT room.id, day, stock, 0, 0, stock FROM {RoomType._meta.db_table} room
            CROSS JOIN generate_series(CURRENT_DATE, CURRENT_DATE + %s, interval '1 day') AS day
            CROSS JOIN LATERAL (SELECT 2 + (room.id + EXTRACT(ISODOW FROM day)::int) %% 6
                + CASE WHEN EXTRACT(MONTH FROM day) IN (7, 8, 12) THEN 0 ELSE 2 END AS stock) AS counts""",  # noqa: S608
            [DAYS - 1],
        )
        cursor.execute("ANALYZE")
    # An outbox row for every resource, content, rates and availability, as the first switch would give.
    sync_states_ensure_all()


#: Across the parts: what the statements cost in this process.
PROFILED_SQL = (
    ("Django compiling SQL", "as_sql", "django/db/models/sql/compiler.py"),
    ("psycopg sending, reading rows", "execute", "psycopg/cursor.py"),
)


def _profile():
    """Every send of a full resync in this process, parents first, against the sandbox served by a thread,
    under cProfile counting this thread's CPU (the hub's is another thread's): CPU and statements per send
    by kind, then per part of a send. Profiling slows the code it watches; the per-kind CPU is measured
    apart, without it."""
    import cProfile
    import pstats

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.harness import sandbox_hub
    from integration.sync.models import SyncState
    from integration.sync.resources import RESOURCES
    from integration.sync.services.sender import sync_send

    rows = sorted(
        SyncState.objects.filter(kind__in=PROTOCOL_KINDS).values_list("kind", "pk"),
        key=lambda row: (RESOURCES[row[0]].rank, row[1]),
    )
    profiler, by_kind = cProfile.Profile(time.thread_time), {}
    with sandbox_hub():
        for index, (kind, pk) in enumerate(rows):
            profiled = index % 2  # every other send profiled, the others timed bare
            with CaptureQueriesContext(connection) as queries:
                cpu = time.thread_time()
                if profiled:
                    profiler.enable()
                sync_send(pk, full=True, schedule=False)
                if profiled:
                    profiler.disable()
                cpu = time.thread_time() - cpu
            if not profiled:
                by_kind.setdefault(kind, []).append((cpu, len(queries)))
    lines = [
        f"Profile of {len(rows):,} sends in one process (sandbox on a thread; load {_load_average()}):",
        f"  {'kind':16}{'sends':>7}{'CPU ms/send':>13}{'statements':>12}",
    ]
    for kind, runs in by_kind.items():
        lines.append(
            f"  {kind:16}{len(runs) * 2:>7}{1000 * sum(cpu for cpu, _n in runs) / len(runs):>13.1f}"
            f"{sum(n for _cpu, n in runs) / len(runs):>12.1f}"
        )
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]

    def cpu_of(function, path):
        return sum(
            cumulative
            for (file, _line, name), (_calls, primitive, _own, cumulative, _callers) in stats.items()
            if name == function and file.endswith(path) and primitive
        )

    total = cpu_of("sync_send", "integration/sync/services/sender.py")
    profiled = 1000 * total / (len(rows) // 2)
    lines.append(f"  where a send's CPU goes (profiled: {profiled:.1f} ms with cProfile's own cost):")
    parts: dict[str, float] = {}
    for label, function, path in worker_profile.SEND_PARTS:
        parts[label] = parts.get(label, 0.0) + cpu_of(function, path)
    parts["the rest: reading the row, glue"] = total - sum(parts.values())
    for label, seconds in [
        *parts.items(),
        *((label, cpu_of(function, path)) for label, function, path in PROFILED_SQL),
    ]:
        lines.append(f"    {label:36}{100 * seconds / total:>5.0f} %")
    return "\n".join(lines)


def _resync(connection, env, hub, broker, pool, concurrency, options):
    """One full resync through a fresh worker of this pool and concurrency; its figures."""
    from config.celery import app as celery_app
    from core.background.broker import broker_lost_messages
    from hubsandbox import state as hub_state
    from hubsandbox.budget import budget_minutes
    from integration.hub.environments import HubEnvironment
    from integration.hub.selectors import hub_environment_active
    from integration.sync.choices import SyncStatus
    from integration.sync.models import SyncState
    from integration.sync.services.outbox import SEND_TASK
    from integration.sync.services.switch import hub_environment_switch

    hub_state.reset()
    purge(broker)
    # The sweepers' markers, gone with the purge, set again (through the project's Celery app, which the
    # workers use): an empty queue here is not a Redis that lost its messages (after which the first sweep
    # queues every pending row again).
    with celery_app:
        for reader in ("hub-sync", "jobs"):
            broker_lost_messages(reader)
    target = (
        HubEnvironment.STAGING if hub_environment_active() == HubEnvironment.PRODUCTION else HubEnvironment.PRODUCTION
    )
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    logs = [BENCH_DIR / f"estate-worker-{pool}-{concurrency}-{node}.log" for node in range(options.nodes)]
    samples = BENCH_DIR / f"estate-worker-{pool}-{concurrency}.pyspy"
    workers = [_start_worker(env, pool, concurrency, node, log) for node, log in enumerate(logs)]
    beat, cpu_used, killed = None, [], []
    try:
        for log in logs:
            wait_for(lambda log=log: " ready." in log.read_text(), "the worker", timeout=120)
        meters, server = [CpuMeter(worker.pid, connection) for worker in workers], CpuMeter(hub.pid, connection)
        before = {"worker": sum(meter.read()["gunicorn"] for meter in meters), **server.read()}
        load_before = _load_average()
        started = time.perf_counter()
        switch = hub_environment_switch(to=target)
        switch_seconds = time.perf_counter() - started
        # Beat runs as in production, once the switch has marked every row queued (the estate is built
        # pending, as never sent): its sweeper must leave the draining backlog alone, and bring back what a
        # killed worker had taken.
        beat = _start_beat(env)
        pending = SyncState.objects.filter(status=SyncStatus.PENDING)
        if options.kill_after:
            time.sleep(max(0, options.kill_after - (time.perf_counter() - started)))
            # What it used so far is counted; its restart (same node name) frees its leases at once.
            cpu_used.append(meters[0].read()["gunicorn"])
            os.killpg(workers[0].pid, signal.SIGKILL)
            workers[0].wait()
            killed.append(round(time.perf_counter() - started, 1))
            workers[0] = _start_worker(env, pool, concurrency, 0, logs[0].with_suffix(".restarted.log"))
            meters[0] = CpuMeter(workers[0].pid, connection)
            logs.append(logs[0].with_suffix(".restarted.log"))
        with _sampled_if(options.sample_worker, workers[0].pid, samples):
            wait_for(lambda: not pending.exists(), "the resync", timeout=24 * 3600)
        seconds = time.perf_counter() - started
        after = {"worker": sum(cpu_used) + sum(meter.read()["gunicorn"] for meter in meters), **server.read()}
        peak_mb = sum(_peak_rss_mb(worker.pid) for worker in workers)
    finally:
        for process in (*workers, *([beat] if beat else [])):
            stop(process)
    writes = hub_state.request_log(hub=target).exclude(method="GET")
    requests = writes.count()
    minutes = budget_minutes(hub_state.request_log(hub=target)).values()
    tasks = sum(log.read_text().count(f"{SEND_TASK}[") for log in logs)
    floor = requests * options.latency_ms / 1000 / concurrency / options.nodes
    return {
        "pool": pool,
        "concurrency": concurrency,
        "nodes": options.nodes,
        "killed_at": killed[0] if killed else None,
        **_sent_twice(switch),
        "requests": requests,
        # One create per content resource, one call per rate plan's rates and per room type's availability;
        # the switch also moves the channel rows (of channels listed, not open: nothing to send).
        "minimum": SyncState.objects.filter(kind__in=PROTOCOL_KINDS).count(),
        "moved": switch.resources,
        "refused": writes.filter(response_status__gte=400).count(),
        "throttled": hub_state.request_log(hub=target).filter(response_status=429).count(),
        "busiest_minute": max(minutes, default=0),
        "budget": options.budget,
        "hub_budget": options.hub_budget,
        "over_budget_minutes": sum(1 for count in minutes if count > options.hub_budget) if options.hub_budget else 0,
        "failed": SyncState.objects.filter(status=SyncStatus.FAILED).count(),
        "seconds": round(seconds, 1),
        "switch_seconds": round(switch_seconds, 2),
        "requests_per_second": round(requests / seconds, 1),
        "floor_seconds": round(floor, 1),
        "vs_floor": round(seconds / floor, 2) if floor else None,
        # Lines "Task <SEND_TASK>[id] received" and "... succeeded": two per task.
        "tasks_per_request": round(tasks / 2 / max(1, requests), 2),
        "cpu_ms_per_request": {
            name: round(1000 * (after[key] - before[key]) / max(1, requests), 1)
            for name, key in (("worker", "worker"), ("hub", "gunicorn"), ("database", "postgres"))
        },
        "peak_rss_mb": peak_mb,
        "samples": str(samples) if options.sample_worker else None,
        "load": [load_before, _load_average()],
    }


def _sampled_if(sample, pid, output):
    """worker_profile.sampled(pid, output) when sample, else nothing."""
    return worker_profile.sampled(pid, output) if sample else contextlib.nullcontext()


def _start_worker(env, pool, concurrency, node, log):
    """Procfile's worker, on the hub, bookings (the hub sweeper) and bulk queues, under its own node name,
    logging to log."""
    queues = "hub,bookings,bulk"
    command = f"exec {procfile('worker')} -Q {queues} -n estate{node}@%h --pool={pool} --concurrency={concurrency}"
    with log.open("w") as output:
        return subprocess.Popen(  # noqa: S603
            ["/bin/sh", "-c", command],
            cwd=ROOT,
            env={**env, "LOG_LEVEL": "INFO"},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _start_beat(env):
    """Procfile's beat (its sweepers queue again what was lost), its schedule under var/bench."""
    command = f"exec {procfile('beat')} --schedule={BENCH_DIR / 'estate-beat-schedule'}"
    with (BENCH_DIR / "estate-beat.log").open("w") as output:
        return subprocess.Popen(  # noqa: S603
            ["/bin/sh", "-c", command],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def _sent_twice(switch):
    """From the sync log of this resync: resources with more than one successful write, and resources
    two of whose calls overlapped in time (sent by two workers at once: must be none)."""
    from integration.sync.models import SyncAttempt

    attempts = (
        SyncAttempt.objects.filter(created_at__gte=switch.switched_at, outcome=SyncAttempt.Outcome.SUCCESS)
        .order_by("state_id", "created_at")
        .values_list("state_id", "created_at", "duration_ms")
    )
    by_state = {}
    for state_id, ended, duration_ms in attempts:
        by_state.setdefault(state_id, []).append((ended - timedelta(milliseconds=duration_ms), ended))
    overlapping = sum(
        1
        for calls in by_state.values()
        if any(later_start < earlier_end for (_s, earlier_end), (later_start, _e) in pairwise(calls))
    )
    return {"written_twice": sum(1 for calls in by_state.values() if len(calls) > 1), "at_once": overlapping}


def _peak_rss_mb(pid):
    """The peak resident memory (VmHWM) of the process and its children, added up, in MB."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if pid in (int(entry.name), int(fields.get("PPid", "0"))) and "VmHWM" in fields:
            total += int(fields["VmHWM"].split()[0])
    return round(total / 1024)


def _load_average():
    return round(os.getloadavg()[0], 1)


def _row(run, runs):
    base = next((r for r in runs if r["pool"] == run["pool"] and r["concurrency"] == 1 and r["nodes"] == 1), None)
    speed_up = f"{base['seconds'] / run['seconds']:.2f}x" if base else "-"
    cpu = run["cpu_ms_per_request"]
    return (
        f"  {run['pool']:8}{run['nodes']:>2}x{run['concurrency']:<2}{run['requests']:>7,}{run['minimum']:>8,}"
        f"{run['refused']:>8}"
        f"{run['seconds']:>9.1f}{run['requests_per_second']:>7.1f}{speed_up:>9}{run['vs_floor']:>8}x"
        f"{run['tasks_per_request']:>7}  {cpu['worker']:>5} / {cpu['hub']:>4} / {cpu['database']:>4}"
        f"{run['peak_rss_mb']:>9}{run['written_twice']:>6}{run['at_once']:>5}   {run['load'][0]} -> {run['load'][1]}"
        + (f"   (a worker SIGKILLed at {run['killed_at']} s)" if run["killed_at"] else "")
        + (
            f"\n    budget {run['budget'] or 'off'}, the hub counting {run['hub_budget']} a minute: over-budget"
            f" minutes {run['over_budget_minutes']}, busiest minute {run['busiest_minute']}, 429s {run['throttled']}"
            if run["hub_budget"]
            else ""
        )
    )


HEADER = (
    f"  {'pool':8}{'nodes':>5}{'requests':>7}{'minimum':>8}{'refused':>8}{'seconds':>9}{'req/s':>7}{'speed-up':>9}"
    f"{'x floor':>9}{'tasks/':>7}  {'CPU ms/request':>18}{'peak MB':>9}{'twice':>6}{'once':>5}   load"
)


def report(figures):
    """The figures as a table for a terminal."""
    lines = [
        f"Estate benchmark: {figures['properties']:,} properties x ({ROOM_TYPES} room types, {len(MODEL_TEXTS)}"
        f" models, {ROOM_TYPES * len(MODEL_TEXTS)} rate plans, {DAYS} days), {figures['database']},"
        f" hub latency {figures['latency_ms']} ms, {figures['cpus']} CPUs; built in {figures['build_seconds']} s",
        "  a full resync by a hub switch through Procfile's worker (nodes x concurrency); requests are the hub's"
        " writes; twice: resources written more than once, at once: by two workers at the same time",
        HEADER,
        f"  {'':79}{'request':>7}  {'worker / hub / db':>18}{'':15}{'sent':>5}",
    ]
    lines.extend(_row(run, figures["runs"]) for run in figures["runs"])
    lines.append("  goals: exactly the minimum, >= 6x at 8, within 1.5x of the floor, <= 10 ms worker CPU per send")
    return "\n".join(lines)


if __name__ == "__main__":
    main()

"""python -m bench.bookings [--metrics] [--while-draining] (make bench): the vendor API's create under
gunicorn, against a minimal DRF view on the same stack that inserts one row, measured in the same run; and
the cost of verifying a signature. With --metrics, also the create on a second gunicorn with
METRICS_ENABLED (its processes writing their files as production's do), in the same rounds: the
throughput metrics cost. With --while-draining (Redis only: CELERY_BROKER_URL=redis://...), also the
create while Procfile's worker drains a bulk edit of 76,650 cells (bench.ari_cases) to the sandbox hub,
served by a gunicorn of its own with a latency fault, in the same rounds: its p99 and throughput against
the create's with the worker idle. PostgreSQL when DATABASE_URL names one (as the issue asks), else
SQLite. Writes var/bench/bookings.json."""

import datetime
import itertools
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC
from pathlib import Path

from bench.harness import (
    BENCH_DIR,
    ROOT,
    free_port,
    fresh_database,
    procfile,
    production_environment,
    purge,
    setup_django,
    signed_headers,
    start_hub,
    stop,
    wait_for,
)

CONCURRENCY = 16
REQUESTS = 800  # of each kind, after a warm-up
ROUNDS = 3  # of the three kinds in turn; each kind's median round is reported
WARM_UP = 50
WORKERS = 4  # gunicorn processes on this 2-core machine
NIGHTS = 30  # stays spread over 30 nights, as bookings are
#: The create against the shell (ratios of x thr and x p99 are against the baseline, for reference).
CREATE_GOAL_THROUGHPUT = 0.7
CREATE_GOAL_P99 = 1.5
#: With metrics on, the create keeps at least this share of its throughput with them off.
METRICS_GOAL = 0.95
#: While the worker drains a bulk edit, the create's p99 is at most this multiple of its p99 when idle.
DRAINING_GOAL_P99 = 1.5
#: The sandbox hub's added latency while draining (ms), as in bench.estate.
HUB_LATENCY_MS = 50
#: Each request of the run gets its own number: a create sent again would be a retry, which the vendor
#: API answers with the booking it already has instead of creating one.
_NUMBERS = itertools.count()


def main():
    options = sys.argv[1:]
    with_metrics, draining = "--metrics" in options, "--while-draining" in options
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if draining and not broker.startswith("redis://"):
        raise SystemExit("--while-draining needs Redis: CELERY_BROKER_URL=redis://127.0.0.1:<port>/<db>")
    setup_django(broker=broker if draining else None)
    load_before = os.getloadavg()[0]
    with fresh_database() as connection:
        stock = _prepare(connection)
        drain = Drain(connection, broker) if draining else None
        port = free_port()
        server = _start_gunicorn(connection, port)
        metered = _start_gunicorn(connection, free_port(), metrics=True) if with_metrics else None
        try:
            base = f"http://127.0.0.1:{port}"
            meter = CpuMeter(server.pid, connection)
            loads = {
                "baseline": lambda: _load(base + "/bench/baseline", _baseline_body, meter),
                "shell": lambda: _load(base + "/bench/shell", lambda n: _create_body(stock, n), meter, signed=True),
                "create": lambda: _load(base + "/bookings", lambda n: _create_body(stock, n), meter, signed=True),
            }
            if metered:
                metered_meter = CpuMeter(metered.pid, connection)
                loads["create_metrics"] = lambda: _load(
                    f"http://127.0.0.1:{metered.port}/bookings",
                    lambda n: _create_body(stock, n),
                    metered_meter,
                    signed=True,
                )
            if drain:
                loads["create_draining"] = lambda: drain.during(
                    lambda until: _load(
                        base + "/bookings", lambda n: _create_body(stock, n), meter, signed=True, until=until
                    )
                )
            figures = {
                "when": datetime.datetime.now(UTC).isoformat(timespec="seconds"),
                "database": connection.vendor,
                "python": platform.python_version(),
                "cpus": os.cpu_count(),
                "gunicorn_workers": WORKERS,
                "concurrency": CONCURRENCY,
                "requests": REQUESTS,
                "rounds": ROUNDS,
                **_rounds(loads),
                "signature_us": _signature_cost(stock),
            }
        finally:
            for process in (server, metered):
                if process:
                    process.terminate()
                    process.wait(timeout=30)
            if drain:
                drain.stop()
    figures["load_average"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    for kind in [kind for kind in ("shell", "create", "create_metrics", "create_draining") if kind in figures]:
        figures[f"{kind}_throughput_ratio"] = round(figures[kind]["per_second"] / figures["baseline"]["per_second"], 2)
        figures[f"{kind}_p99_ratio"] = round(figures[kind]["p99_ms"] / figures["baseline"]["p99_ms"], 2)
    # The create's goal is against the shell (what every create pays before any booking logic), not the bare insert.
    figures["create_vs_shell_throughput"] = round(figures["create"]["per_second"] / figures["shell"]["per_second"], 2)
    figures["create_vs_shell_p99"] = round(figures["create"]["p99_ms"] / figures["shell"]["p99_ms"], 2)
    if with_metrics:
        figures["metrics_throughput_ratio"] = round(
            figures["create_metrics"]["per_second"] / figures["create"]["per_second"], 3
        )
        figures["metrics_p99_ratio"] = round(figures["create_metrics"]["p99_ms"] / figures["create"]["p99_ms"], 2)
    if draining:
        busy, idle = figures["create_draining"], figures["create"]
        figures["draining_throughput_ratio"] = round(busy["per_second"] / idle["per_second"], 2)
        figures["draining_p99_ratio"] = round(busy["p99_ms"] / idle["p99_ms"], 2)
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "bookings.json").write_text(json.dumps(figures, indent=2) + "\n")


def _prepare(connection):
    """A property sellable for NIGHTS nights with more rooms than the run books, and the baseline's table."""
    from bench.urls import BASELINE_TABLE
    from core.dates import korea_today
    from integration.models import (
        Property,
        PropertyChannel,
        RatePlan,
        RatePlanDay,
        RatePlanModel,
        RoomType,
        RoomTypeDay,
        SalesChannel,
    )

    prop = Property.objects.create(vendor_id="bench-stay", name="Bench stay")
    room = RoomType.objects.create(property=prop, vendor_id="room", name="Room", max_capacity=4)
    model = RatePlanModel.objects.create(property=prop, vendor_id="base", name="Base", type="standalone")
    plan = RatePlan.objects.create(property=prop, room_type=room, model=model, vendor_id="room-base")
    # The creates sell on channel 7: the property is open and on sale there, as the hub only sells so.
    channel = SalesChannel.objects.create(channel_id=7, name="Channel Seven")
    PropertyChannel.objects.create(property=prop, channel=channel, status="open", on_sale=True)
    days = [korea_today() + datetime.timedelta(days=n) for n in range(1, NIGHTS + 2)]
    RatePlanDay.objects.bulk_create(RatePlanDay(rate_plan=plan, date=d, rate=100_000) for d in days)
    rooms = 10 * ROUNDS * (REQUESTS + WARM_UP)
    RoomTypeDay.objects.bulk_create(RoomTypeDay(room_type=room, date=d, allotment=rooms, available=rooms) for d in days)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE {BASELINE_TABLE} (id {_serial(connection)} PRIMARY KEY, body TEXT)")
    return {"property": prop.vendor_id, "room": room.vendor_id, "plan": plan.vendor_id, "days": days}


def _serial(connection):
    return "SERIAL" if connection.vendor == "postgresql" else "INTEGER"


def _start_gunicorn(connection, port, *, metrics=False):
    """gunicorn on the bench database, as production runs the web process (its config file included);
    metrics: with METRICS_ENABLED, its files under var/bench/metrics."""
    env = production_environment(
        connection,
        METRICS_ENABLED="true" if metrics else "false",
        METRICS_TOKEN="bench-metrics-token-0123456789",  # noqa: S106 (a bench-only token)
        METRICS_DIR=str(BENCH_DIR / "metrics"),
    )
    server = subprocess.Popen(  # noqa: S603
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "python:config.gunicorn",
            "bench.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(WORKERS),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            server.port = port
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError("gunicorn did not start")


def _baseline_body(n):
    return {"n": n, "guest": {"name": "Kim Minji", "adults": 2}}


def _create_body(stock, n):
    from core.dates import KOREA

    night = stock["days"][n % NIGHTS]
    checkin = datetime.datetime.combine(night, datetime.time(15), tzinfo=KOREA)
    checkout = datetime.datetime.combine(night + datetime.timedelta(days=1), datetime.time(11), tzinfo=KOREA)
    return {
        "channel_id": 7,
        "channel_name": "Channel Seven",
        "channel_booking_number": f"CH-{n}",
        "gds_booking_number": f"G-{n}",
        "gds_sub_booking_number": f"G-{n}-1",
        "property_id": stock["property"],
        "roomtype_id": stock["room"],
        "rateplan_id": stock["plan"],
        "checkin": checkin.isoformat(),
        "checkout": checkout.isoformat(),
        "currency": "KRW",
        "amount": 100_000,
        "total_amount": 110_000,
        "net_price": 95_000,
        "payment_type": "prepayment",
        "guest": {"name": "Kim Minji", "adults": 2, "children": 0, "infants": 0, "pets": 0, "cars": 1},
        "booker": {"name": "Kim Minji", "email": "minji@example.com", "phone": "010-1234-5678"},
        "reserved_at": "2026-11-20T10:00:00+09:00",
    }


def _rounds(loads):
    """Each load run ROUNDS times, the kinds in turn, in reverse order every other round (so that neither a
    slow moment of the machine nor the tables growing run after run falls on one kind only); for each
    kind, the round of median throughput."""
    runs = {kind: [] for kind in loads}
    for number in range(ROUNDS):
        for kind, load in list(loads.items())[:: -1 if number % 2 else 1]:
            runs[kind].append(load())
    return {kind: sorted(found, key=lambda run: run["per_second"])[len(found) // 2] for kind, found in runs.items()}


class CpuMeter:
    """CPU seconds used so far by gunicorn (master and workers), the database server's processes for the
    bench database (PostgreSQL) and this process, the load's client. Read from /proc: Linux only."""

    def __init__(self, server_pid, connection):
        self.server_pid = server_pid
        self.database = connection.settings_dict["NAME"] if connection.vendor == "postgresql" else None

    def read(self):
        used = {"gunicorn": 0.0, "postgres": 0.0, "client": time.process_time()}
        ticks = os.sysconf("SC_CLK_TCK")
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                # After the command's closing parenthesis: state, ppid, ... utime (12th), stime (13th).
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                command = (entry / "cmdline").read_bytes().decode(errors="replace").replace("\0", " ")
            except OSError:  # the process ended meanwhile
                continue
            seconds = (int(fields[11]) + int(fields[12])) / ticks
            if self.server_pid in (int(entry.name), int(fields[1])):
                used["gunicorn"] += seconds
            elif self.database and command.startswith("postgres:") and f" {self.database} " in command:
                used["postgres"] += seconds
        return used


def _load(url, body_of, meter, *, signed=False, until=None):
    """REQUESTS posts at CONCURRENCY (after a warm-up), or with until (a threading.Event) as many as the
    clients send until it is set: throughput, latency percentiles, statuses, and the CPU each request cost
    the web server, the database and the client (ms)."""
    import threading

    import requests

    local = threading.local()

    def post(n):
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        raw = json.dumps(body_of(n))
        headers = {"Content-Type": "application/json", **(signed_headers(raw) if signed else {})}
        started = time.perf_counter()
        response = session.post(url, data=raw.encode(), headers=headers, timeout=30)
        return time.perf_counter() - started, response.status_code

    def client(_):
        sent = []
        while not until.is_set():
            sent.append(post(next(_NUMBERS)))
        return sent

    with ThreadPoolExecutor(CONCURRENCY) as pool:
        list(pool.map(post, [next(_NUMBERS) for _ in range(WARM_UP)]))
        cpu_before, started = meter.read(), time.perf_counter()
        if until is None:
            results = list(pool.map(post, [next(_NUMBERS) for _ in range(REQUESTS)]))
        else:
            results = [result for sent in pool.map(client, range(CONCURRENCY)) for result in sent]
        seconds, cpu_after = time.perf_counter() - started, meter.read()
    latencies = sorted(latency for latency, _status in results)
    statuses = {}
    for _latency, status in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    count = len(results)
    return {
        "requests": count,
        "seconds": round(seconds, 1),
        "per_second": round(count / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p99_ms": round(1000 * latencies[int(0.99 * count) - 1], 1),
        "statuses": statuses,
        "cpu_ms": {part: round(1000 * (cpu_after[part] - cpu_before[part]) / count, 2) for part in cpu_before},
    }


class Drain:
    """What --while-draining measures the create against: the sandbox hub on a gunicorn of its own with
    HUB_LATENCY_MS added to every answer, and Procfile's worker (production settings, Redis). during()
    makes a property of bench.ari_cases (50 rate plans of 10 room types, three channels) known to the hub,
    then applies its bulk edit and runs a load while the worker sends it."""

    #: How often the drain's end is looked for, and the database's lock waits sampled (seconds).
    POLL_SECONDS = 0.1

    def __init__(self, connection, broker):
        from django.conf import settings

        hub_port = free_port()
        settings.HUB_BASE_URL = f"http://127.0.0.1:{hub_port}/sandbox"
        env = production_environment(
            connection,
            CELERY_BROKER_URL=broker,
            HUB_SANDBOX_ENABLED="true",
            PYTHONPATH=str(ROOT),
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        )
        purge(broker)
        self.hub, self.worker, self.drains = start_hub(env, hub_port, f"latency_ms={HUB_LATENCY_MS}"), None, 0
        log = BENCH_DIR / "bookings-worker.log"
        with log.open("w") as output:
            self.worker = subprocess.Popen(  # noqa: S603
                ["/bin/sh", "-c", f"exec {procfile('worker')}"],
                cwd=ROOT,
                env={**env, "LOG_LEVEL": "INFO"},
                stdout=output,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        wait_for(lambda: " ready." in log.read_text(), "the worker", timeout=120)

    def during(self, load):
        """A new property's bulk edit applied in one transaction (its content sent to the hub first, in
        this process); once the worker has started sending the edit, load(until) runs with until set when
        nothing of it is left to send. The load's figures, with the drain's."""
        import threading

        from django.db import transaction

        from bench import ari_cases
        from integration.ari.services.bulk import ari_edit_apply
        from integration.sync.choices import SyncStatus
        from integration.sync.models import SyncAttempt, SyncState

        self.drains += 1
        prop, rooms = ari_cases.create_property(f"drain-{self.drains}", ari_cases.ROOM_TYPES, ari_cases.MODELS)
        pending = SyncState.objects.filter(property_id=prop.pk, status=SyncStatus.PENDING)
        started = time.perf_counter()
        with transaction.atomic():
            changed = sum(len(ari_edit_apply(edit).changed) for edit in ari_cases.bulk_edits(prop, rooms))
        applied = round(time.perf_counter() - started, 1)
        moment = datetime.datetime.now(UTC)
        sent = SyncAttempt.objects.filter(state__property_id=prop.pk, created_at__gte=moment)
        wait_for(sent.exists, "the drain's first send")
        until, waits = threading.Event(), {"samples": 0, "lock_waits": 0, "most": 0, "waiting": {}}
        watcher = threading.Thread(target=self._watch, args=(pending, until, waits))
        watcher.start()
        started = time.perf_counter()
        try:
            figures = load(until)
        finally:
            until.set()
            watcher.join()
        drained = round(time.perf_counter() - started, 1)
        figures["drain"] = {
            "cells": changed,
            "apply_seconds": applied,
            "seconds": drained,
            "sends": sent.count(),
            **waits,
        }
        return figures

    def _watch(self, pending, until, waits):
        """Sets until once nothing of the drain is pending; meanwhile samples pg_stat_activity: how many
        of the bench database's sessions wait for a lock, and on which statements (PostgreSQL)."""
        from django.db import connection

        try:
            while not until.is_set():
                if not pending.exists():
                    until.set()
                    break
                if connection.vendor == "postgresql":
                    with connection.cursor() as cursor:
                        cursor.execute(
                            "SELECT left(query, 60) FROM pg_stat_activity"
                            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
                        )
                        waiting = [text for (text,) in cursor.fetchall()]
                    waits["samples"] += 1
                    waits["lock_waits"] += bool(waiting)
                    waits["most"] = max(waits["most"], len(waiting))
                    for text in waiting:
                        waits["waiting"][text] = waits["waiting"].get(text, 0) + 1
                time.sleep(self.POLL_SECONDS)
        finally:
            connection.close()  # the database is dropped at the end: no session of this thread may stay

    def stop(self):
        for process in (self.worker, self.hub):
            if process:
                stop(process)


def _signature_cost(stock):
    """Microseconds to verify one create's signature (the vendor API's check over the raw body)."""
    from bookings.api.authentication import signature_valid

    raw = json.dumps(_create_body(stock, 0))
    headers = signed_headers(raw)
    body = raw.encode()
    rounds = 5000
    started = time.perf_counter()
    for _ in range(rounds):
        assert signature_valid(body, headers)
    return round(1e6 * (time.perf_counter() - started) / rounds, 1)


def report(figures):
    """The figures as a table for a terminal."""
    rows = (
        ("baseline", "baseline: DRF view inserting a row"),
        ("shell", "shell: auth + validation + log + row"),
        ("create", "POST /bookings (signed create)"),
        ("create_metrics", "the same with METRICS_ENABLED"),
        ("create_draining", "the create while the worker drains"),
    )
    lines = [
        f"Booking benchmark: {figures['database']}, gunicorn x{figures['gunicorn_workers']},"
        f" {figures['concurrency']} concurrent clients, {figures['requests']} requests each;"
        f" the median of {figures['rounds']} rounds",
        f"  {'':38}{'req/s':>8}{'p50 ms':>9}{'p99 ms':>9}{'x thr':>7}{'x p99':>7}"
        f"  CPU ms per request: web / db / client",
    ]
    for kind, label in rows:
        if kind not in figures:
            continue
        row = figures[kind]
        ratios = (
            f"{figures[f'{kind}_throughput_ratio']:>7}{figures[f'{kind}_p99_ratio']:>7}"
            if kind != "baseline"
            else f"{'1.0':>7}{'1.0':>7}"
        )
        cpu = row["cpu_ms"]
        lines.append(
            f"  {label:38}{row['per_second']:>8}{row['p50_ms']:>9}{row['p99_ms']:>9}{ratios}"
            f"  {cpu['gunicorn']:>5} / {cpu['postgres']:>4} / {cpu['client']:>4}  {row['statuses']}"
        )
    lines += [
        f"  create vs shell: {figures['create_vs_shell_throughput']}x the throughput,"
        f" {figures['create_vs_shell_p99']}x the p99 (goal: >= {CREATE_GOAL_THROUGHPUT}x, <= {CREATE_GOAL_P99}x)",
        f"  signature verification: {figures['signature_us']} us per call",
    ]
    if "metrics_throughput_ratio" in figures:
        lines.append(
            f"  metrics on vs off: {figures['metrics_throughput_ratio']}x the create's throughput,"
            f" {figures['metrics_p99_ratio']}x its p99 (goal: >= {METRICS_GOAL}x)"
        )
    if "draining_p99_ratio" in figures:
        drain = figures["create_draining"]["drain"]
        lines += [
            f"  while draining vs idle: {figures['draining_throughput_ratio']}x the create's throughput,"
            f" {figures['draining_p99_ratio']}x its p99 (goal: <= {DRAINING_GOAL_P99}x the p99);"
            f" {figures['create_draining']['requests']} creates in {figures['create_draining']['seconds']} s",
            f"  the drain (median round): {drain['cells']:,} cells applied in {drain['apply_seconds']} s, then"
            f" {drain['sends']} hub sends in {drain['seconds']} s (hub latency {HUB_LATENCY_MS} ms);"
            f" sessions waiting for a lock in {drain['lock_waits']} of {drain['samples']} samples"
            f" (at most {drain['most']}){_waiting(drain['waiting'])}",
        ]
    lines.append(f"  load average: {figures['load_average'][0]} before, {figures['load_average'][1]} after")
    return "\n".join(lines)


def _waiting(statements):
    if not statements:
        return ""
    return ": " + "; ".join(f"{count} x {text}" for text, count in sorted(statements.items(), key=lambda i: -i[1]))


if __name__ == "__main__":
    main()

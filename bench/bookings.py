"""python -m bench.bookings [--metrics] (make bench): the vendor API's create under gunicorn, against a
minimal DRF view on the same stack that inserts one row, measured in the same run; and the cost of
verifying a signature. With --metrics, also the create on a second gunicorn with METRICS_ENABLED (its
processes writing their files as production's do), in the same rounds: the throughput metrics cost.
PostgreSQL when DATABASE_URL names one (as the issue asks), else SQLite. Writes var/bench/bookings.json."""

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
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC
from pathlib import Path

from bench.harness import BENCH_DIR, fresh_database, setup_django

CONCURRENCY = 16
REQUESTS = 800  # of each kind, after a warm-up
ROUNDS = 3  # of the three kinds in turn; each kind's median round is reported
WARM_UP = 50
WORKERS = 4  # gunicorn processes on this 2-core machine
NIGHTS = 30  # stays spread over 30 nights, as bookings are
#: The create against the shell (ratios of x thr and x p99 are against the baseline, for reference).
CREATE_GOAL_THROUGHPUT = 0.5
CREATE_GOAL_P99 = 2
#: With metrics on, the create keeps at least this share of its throughput with them off.
METRICS_GOAL = 0.95
ROOT = Path(__file__).resolve().parent.parent
#: Each request of the run gets its own number: a create sent again would be a retry, which the vendor
#: API answers with the booking it already has instead of creating one.
_NUMBERS = itertools.count()


def main():
    with_metrics = "--metrics" in sys.argv[1:]
    setup_django()
    with fresh_database() as connection:
        stock = _prepare(connection)
        port = _free_port()
        server = _start_gunicorn(connection, port)
        metered = _start_gunicorn(connection, _free_port(), metrics=True) if with_metrics else None
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
    for kind in [kind for kind in ("shell", "create", "create_metrics") if kind in figures]:
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


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_gunicorn(connection, port, *, metrics=False):
    """gunicorn on the bench database, as production runs the web process (its config file included);
    metrics: with METRICS_ENABLED, its files under var/bench/metrics."""
    from django.conf import settings

    database = connection.settings_dict
    if connection.vendor == "postgresql":
        url = f"postgres://{database['USER']}@{database['HOST']}:{database['PORT']}/{database['NAME']}"
    else:
        url = f"sqlite:///{database['NAME']}"
    # Production mode, as production runs the web process: DEBUG off (its query log would add a cost
    # per query), every required setting given. The cache is Redis when CACHE_URL names it.
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DATABASE_URL": url,
        "CACHE_URL": os.environ.get("CACHE_URL", "locmemcache://bench"),
        "HUB_BASE_URL": settings.HUB_BASE_URL,
        "HUB_API_TOKEN": settings.HUB_API_TOKEN,
        "VENDOR_API_TOKEN": settings.VENDOR_API_TOKEN,
        "VENDOR_API_SECRET": ",".join(settings.VENDOR_API_SECRETS),
        "LOG_LEVEL": "WARNING",
        "METRICS_ENABLED": "true" if metrics else "false",
        "METRICS_TOKEN": "bench-metrics-token-0123456789",
        "METRICS_DIR": str(BENCH_DIR / "metrics"),
    }
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


def _signed_headers(raw):
    """The hub's headers: bearer token and a Standard Webhooks signature over the raw body (a new
    message id each time, as the replay check demands)."""
    from django.conf import settings
    from standardwebhooks.webhooks import Webhook

    msg_id, now = f"msg_{uuid.uuid4().hex}", datetime.datetime.now(UTC)
    return {
        "Authorization": f"Bearer {settings.VENDOR_API_TOKEN}",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": Webhook(settings.VENDOR_API_SECRETS[0]).sign(msg_id, now, raw),
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


def _load(url, body_of, meter, *, signed=False):
    """REQUESTS posts at CONCURRENCY (after a warm-up): throughput, latency percentiles, statuses, and the
    CPU each request cost the web server, the database and the client (ms)."""
    import threading

    import requests

    local = threading.local()

    def post(n):
        session = getattr(local, "session", None) or requests.Session()
        local.session = session
        raw = json.dumps(body_of(n))
        headers = {"Content-Type": "application/json", **(_signed_headers(raw) if signed else {})}
        started = time.perf_counter()
        response = session.post(url, data=raw.encode(), headers=headers, timeout=30)
        return time.perf_counter() - started, response.status_code

    with ThreadPoolExecutor(CONCURRENCY) as pool:
        list(pool.map(post, [next(_NUMBERS) for _ in range(WARM_UP)]))
        cpu_before, started = meter.read(), time.perf_counter()
        results = list(pool.map(post, [next(_NUMBERS) for _ in range(REQUESTS)]))
        seconds, cpu_after = time.perf_counter() - started, meter.read()
    latencies = sorted(latency for latency, _status in results)
    statuses = {}
    for _latency, status in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    return {
        "per_second": round(REQUESTS / seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1),
        "p99_ms": round(1000 * latencies[int(0.99 * len(latencies)) - 1], 1),
        "statuses": statuses,
        "cpu_ms": {part: round(1000 * (cpu_after[part] - cpu_before[part]) / REQUESTS, 2) for part in cpu_before},
    }


def _signature_cost(stock):
    """Microseconds to verify one create's signature (the vendor API's check over the raw body)."""
    from bookings.api.authentication import signature_valid

    raw = json.dumps(_create_body(stock, 0))
    headers = _signed_headers(raw)
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
    return "\n".join(lines)


if __name__ == "__main__":
    main()

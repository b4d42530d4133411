"""python -m bench.availability [--properties K] [--interval S] [--idle N]: availability first (issue 41).

A booking's hold lowers a room type's availability; the time from its commit to the hub holding the new
count is measured first with the worker idle (N samples), then while the worker drains a bulk edit of K
properties (bench.ari_cases: 76,650 cells and 50 rate plans each, applied in one transaction), in the same
run, one hold every S seconds on its own room type and day for as long as the drain lasts. Prints p50, p99
and the worst of both, against the goal: p99 at most 2 s while draining.

Procfile's `worker` runs the sends (production settings, its default concurrency, Redis:
CELERY_BROKER_URL=redis://127.0.0.1:<port>/<db>), the sandbox hub a gunicorn of its own with 50 ms added
to every answer (bench.bookings.Drain); PostgreSQL when DATABASE_URL names one. Writes
var/bench/availability.json.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from datetime import UTC

from bench.harness import BENCH_DIR, fresh_database, setup_django, wait_for

#: While draining, the p99 of edit-to-hub latency of availability is at most this (seconds).
GOAL_P99_SECONDS = 2.0
#: The room types of the property whose bookings are sampled; each sample holds a room of one of them on a
#: day of its own, so that no two samples wait for the same send.
STOCK_ROOM_TYPES = 10
STOCK_ROOMS = 50
#: How often the hub's copy is looked at for the samples not yet arrived (seconds).
POLL_SECONDS = 0.05


def main():
    options = _options()
    broker = os.environ.get("CELERY_BROKER_URL", "")
    if not broker.startswith("redis://"):
        raise SystemExit("bench.availability needs Redis: CELERY_BROKER_URL=redis://127.0.0.1:<port>/<db>")
    setup_django(broker=broker)
    from bench import ari_cases
    from bench.bookings import HUB_LATENCY_MS, Drain

    with fresh_database() as connection:
        drain = Drain(connection, broker)
        try:
            started = time.perf_counter()
            stock = _stock_property()
            # Every property is made (and its content sent, a full resync each) before any bulk edit is made.
            properties = [_drain_property(n) for n in range(options.properties)]
            drained = [(prop, ari_cases.bulk_edits(prop, rooms)) for prop, rooms in properties]
            prepared = round(time.perf_counter() - started, 1)
            slots = _slots(stock)
            idle = _sample(stock, slots, count=options.idle, interval=options.interval)
            busy, drain_figures = _while_draining(stock, slots, drained, interval=options.interval)
        finally:
            drain.stop()
        figures = {
            "when": datetime.datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "hub_latency_ms": HUB_LATENCY_MS,
            "prepare_seconds": prepared,
            "interval_seconds": options.interval,
            "idle": _summary(idle),
            "draining": _summary(busy),
            "drain": drain_figures,
        }
    figures["p99_ratio"] = round(figures["draining"]["p99_s"] / figures["idle"]["p99_s"], 2)
    figures["goal_met"] = figures["draining"]["p99_s"] <= GOAL_P99_SECONDS
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "availability.json").write_text(json.dumps(figures, indent=2) + "\n")


def _options():
    parser = argparse.ArgumentParser(prog="python -m bench.availability", description=__doc__.split("\n")[0])
    parser.add_argument("--properties", type=int, default=4, help="properties whose bulk edit drains at once")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between two sampled holds")
    parser.add_argument("--idle", type=int, default=40, help="samples with the worker idle")
    return parser.parse_args()


def _stock_property():
    """The property whose bookings are sampled: known to the hub, STOCK_ROOMS rooms a day for a year."""
    from django.db import transaction

    from bench import ari_cases
    from integration.ari.services.bulk import ari_edit_apply
    from integration.ari.services.edits import AriEdit, Operation
    from integration.sync.services.batch import sync_pending

    prop, rooms = ari_cases.create_property("stock", STOCK_ROOM_TYPES, 1)
    with transaction.atomic():
        ari_edit_apply(
            AriEdit(
                ranges=ari_cases._year(),
                operation=Operation.SET_AVAILABILITY,
                value=STOCK_ROOMS,
                room_types=tuple(rooms),
            )
        )
    sync_pending()  # in this process: the hub holds the counts before the first sample
    return prop, rooms


def _drain_property(n):
    """A property of bench.ari_cases known to the hub, and its room types."""
    from bench import ari_cases

    return ari_cases.create_property(f"drain-{n}", ari_cases.ROOM_TYPES, ari_cases.MODELS)


def _slots(stock):
    """(room type, day) pairs, each sampled once, room types in turn."""
    from bench import ari_cases

    _prop, rooms = stock
    first = ari_cases._year()[0].start
    return iter((room, first + datetime.timedelta(days=day)) for day in range(ari_cases.DAYS) for room in rooms)


def _sample(stock, slots, *, interval, count=None, until=None):
    """Hold one room every interval seconds (count times, or until until() is true), each on its own room
    type and day; returns the seconds from each hold's commit to the hub holding the lowered count."""
    from django.db import transaction

    from hubsandbox.models import SandboxAvailDay
    from integration.ari.services.inventory import inventory_hold

    prop, _rooms = stock
    waiting, latencies, taken, next_at = {}, [], 0, time.perf_counter()
    while True:
        sampling = taken < count if count is not None else not until()
        if not sampling and not waiting:
            return latencies
        if sampling and time.perf_counter() >= next_at:
            room, day = next(slots)
            with transaction.atomic():
                inventory_hold(room_type=room, dates=[day])
            waiting[(room.vendor_id, day)] = time.perf_counter()
            taken += 1
            next_at += interval
        arrived = SandboxAvailDay.objects.filter(
            roomtype__property__vendor_id=prop.vendor_id,
            channel_id=0,
            date__in={day for _room, day in waiting},
            count=STOCK_ROOMS - 1,
        ).values_list("roomtype__vendor_id", "date")
        now = time.perf_counter()
        for key in arrived:
            if key in waiting:
                latencies.append(now - waiting.pop(key))
        time.sleep(POLL_SECONDS)


def _while_draining(stock, slots, drained, *, interval):
    """Apply every drain property's bulk edit in one transaction, then sample until none of it is pending."""
    from django.db import transaction

    from integration.ari.services.bulk import ari_edit_apply
    from integration.sync.choices import SyncStatus
    from integration.sync.models import SyncAttempt, SyncState

    ids = [prop.pk for prop, _edits in drained]
    started = time.perf_counter()
    with transaction.atomic():
        cells = sum(len(ari_edit_apply(edit).changed) for _prop, edits in drained for edit in edits)
    applied = time.perf_counter() - started
    moment = datetime.datetime.now(UTC)
    sent = SyncAttempt.objects.filter(property_id__in=ids, created_at__gte=moment)
    wait_for(sent.exists, "the drain's first send")
    pending = SyncState.objects.filter(property_id__in=ids, status=SyncStatus.PENDING)
    started = time.perf_counter()
    latencies = _sample(stock, slots, interval=interval, until=lambda: not pending.exists())
    return latencies, {
        "properties": len(ids),
        "cells": cells,
        "apply_seconds": round(applied, 1),
        "seconds": round(time.perf_counter() - started, 1),
        "sends": sent.count(),
    }


def _summary(latencies):
    ordered = sorted(latencies)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return {
        "samples": len(ordered),
        "p50_s": round(statistics.median(ordered), 3),
        "p99_s": round(p99, 3),
        "max_s": round(ordered[-1], 3),
    }


def report(figures):
    """The figures as a table for a terminal."""
    drain = figures["drain"]
    lines = [
        f"Availability first: {figures['database']}, {figures['cpus']} CPUs,"
        f" hub latency {figures['hub_latency_ms']} ms; a hold every {figures['interval_seconds']} s",
        f"  drain: {drain['properties']} properties' bulk edit, {drain['cells']:,} cells, {drain['sends']} sends"
        f" in {drain['seconds']} s",
        f"  {'edit-to-hub latency of availability':42}{'samples':>8}{'p50 s':>8}{'p99 s':>8}{'max s':>8}",
    ]
    for kind, label in (("idle", "worker idle"), ("draining", "while the bulk edit drains")):
        row = figures[kind]
        lines.append(f"  {label:42}{row['samples']:>8}{row['p50_s']:>8}{row['p99_s']:>8}{row['max_s']:>8}")
    verdict = "met" if figures["goal_met"] else "NOT met"
    lines.append(
        f"  p99 draining / idle: x{figures['p99_ratio']}; goal p99 <= {GOAL_P99_SECONDS} s while draining: {verdict}"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    main()

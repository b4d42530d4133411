"""python -m bench.call_log_flood: what a flood of hostile calls refused by authentication adds to the vendor
API's call log (issue 38: 10,000 calls with random headers and 20 KB bodies, from as many addresses, must
add under 2 MB). Sent through the whole web stack (Django's test client) on a fresh database; the bytes are
the call log's tables' own, indexes included: pg_total_relation_size on PostgreSQL (DATABASE_URL), the
database file's pages on SQLite. Prints the figures and writes var/bench/call_log_flood.json."""

import json
import os
import platform
import random
import string
import time
from datetime import UTC, datetime

from bench.harness import BENCH_DIR, fresh_database, setup_django

CALLS = int(os.environ.get("FLOOD_CALLS", "10000"))
BODY_BYTES = 20_000
GOAL_BYTES = 2_000_000


def _hostile_call(rng, index):
    """One unauthenticated call: a path of the API (a random booking number, or the create), 5 to 20 headers
    of random names and values, a 20 KB random body, from an address of its own."""
    number = "".join(rng.choices(string.ascii_uppercase + string.digits, k=16))
    path = rng.choice(["/bookings", f"/bookings/{number}/confirm", f"/bookings/{number}", "/refund-policy"])
    method = "GET" if path == f"/bookings/{number}" else rng.choice(["POST", "PUT"])
    printable = string.printable[:94]
    headers = {
        f"HTTP_X_{''.join(rng.choices(string.ascii_uppercase, k=12))}": "".join(rng.choices(printable, k=200))
        for _ in range(rng.randint(5, 20))
    }
    body = "".join(rng.choices(printable, k=BODY_BYTES))
    address = f"10.{index >> 16 & 255}.{index >> 8 & 255}.{index & 255}"
    return method, path, body, {**headers, "REMOTE_ADDR": address, "HTTP_AUTHORIZATION": "Bearer guessed"}


def _bytes(connection, tables):
    """The tables' bytes, indexes and TOAST included (PostgreSQL), or the database file's (SQLite)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            return sum(_relation_bytes(cursor, table) for table in tables)
        cursor.execute("PRAGMA page_count")
        pages = cursor.fetchone()[0]
        cursor.execute("PRAGMA page_size")
        return pages * cursor.fetchone()[0]


def _relation_bytes(cursor, table):
    cursor.execute("SELECT pg_total_relation_size(%s)", [table])
    return cursor.fetchone()[0]


def flood(connection):
    """Sends CALLS hostile calls; the call log's rows and bytes before and after."""
    from django.test import Client

    from bookings.selectors import call_log_tables

    tables = call_log_tables()
    client, rng = Client(HTTP_HOST="127.0.0.1"), random.Random(38)  # noqa: S311 (a benchmark's reproducible noise)
    before = _bytes(connection, tables)
    answers = {}
    started = time.monotonic()
    for index in range(CALLS):
        method, path, body, extra = _hostile_call(rng, index)
        response = client.generic(method, path, body, content_type="application/json", **extra)
        answers[response.status_code] = answers.get(response.status_code, 0) + 1
    seconds = time.monotonic() - started
    added = _bytes(connection, tables) - before
    baseline = _as_full_rows(connection, tables)
    goal = GOAL_BYTES * CALLS // 10_000
    return {
        "calls": CALLS,
        "answers": answers,
        "seconds": round(seconds, 1),
        "tables": tables,
        "bytes_added": added,
        "bytes_per_call": round(added / CALLS, 1),
        "goal_bytes": goal,
        "ratio_to_goal": round(added / goal, 2),
        "baseline_bytes": baseline,
        "baseline_bytes_per_call": round(baseline / CALLS, 1),
    }


def _as_full_rows(connection, tables):
    """The baseline: what the same refused calls add as rows of the whole call log (InboundCall, as they
    were stored before they had a table of their own: empty headers and bodies, a request id)."""
    import uuid

    from bookings.models import InboundCall, RefusedCall

    before = _bytes(connection, tables)
    refused = RefusedCall.objects.order_by("pk").iterator()
    rows = [
        InboundCall(
            method=call.method,
            path=call.path,
            address=call.address,
            status=call.status,
            code=call.code,
            body_size=call.body_size,
            duration_ms=3,
            request_id=uuid.uuid4().hex,
        )
        for call in refused
    ]
    for start in range(0, len(rows), 100):
        InboundCall.objects.bulk_create(rows[start : start + 100])
    return _bytes(connection, tables) - before


def main():
    setup_django()
    with fresh_database() as connection:
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "flood": flood(connection),
        }
    flood_figures = figures["flood"]
    print(f"Call log flood: {figures['database']}, Python {figures['python']}")
    print(f"  {flood_figures['calls']:,} unauthenticated calls (random headers, 20 KB bodies, one address each)")
    print(f"  answers                 {flood_figures['answers']}  in {flood_figures['seconds']} s")
    print(f"  call log tables         {', '.join(flood_figures['tables'])}")
    print(f"  bytes added             {flood_figures['bytes_added']:>12,}")
    print(f"  bytes per refused call  {flood_figures['bytes_per_call']:>12}")
    goal = flood_figures["goal_bytes"]
    print(f"  ratio to the goal       {flood_figures['ratio_to_goal']:>12}  (goal: under {goal:,} bytes)")
    print(
        f"  baseline: as whole call log rows {flood_figures['baseline_bytes']:,} bytes"
        f" ({flood_figures['baseline_bytes_per_call']} a call)"
    )
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "call_log_flood.json").write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()

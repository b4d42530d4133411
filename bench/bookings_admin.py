"""python -m bench.bookings_admin [bookings] [calls] (not in make bench: filling takes minutes): the
bookings list, filtered pages, searches (whole and parts of numbers and names), the front desk's lists of
today and the call log, with 1,000 bookings (5,000 calls) and then with
many (by default 1,000,000 bookings and 5,000,000 calls) in the same database: queries and time per page,
and their ratio. Goal: the same queries at both sizes, at most 1.5x the time. PostgreSQL only
(DATABASE_URL): rows are made by INSERT ... SELECT over generate_series. Writes var/bench/bookings_admin.json."""

import hashlib
import json
import os
import platform
import sys
import time
from datetime import UTC, datetime

from bench.harness import BENCH_DIR, fresh_database, setup_django
from bench.pages import admin_client, comparison_lines, execution_ms, median, page_runs, slowest_plan, table_rows

SMALL = (1_000, 5_000)  # bookings, calls
LARGE = (1_000_000, 5_000_000)
PROPERTIES = 20
RUNS = 7  # per page, after a warm-up; the median is reported
NAMES = ("Kim", "Lee", "Park", "Choi", "Jung")
#: A guest's given name: 8 letters of g-v spelling the first hex digits of md5(n) (as many different
#: trigrams as real names have, none shared with the hex and decimal numbers), the same in SQL and Python.
GIVEN = str.maketrans("0123456789abcdef", "ghijklmnopqrstuv")


def main():
    large = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else LARGE
    setup_django()
    from django.test import Client
    from django.urls import reverse

    with fresh_database() as connection:
        if connection.vendor != "postgresql":
            raise SystemExit(
                "bench.bookings_admin fills its tables with PostgreSQL's generate_series: set DATABASE_URL"
            )
        plans = _content()
        client = admin_client(Client)
        pages = _pages(reverse, plans)
        figures = {
            "when": datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
        }
        made = (0, 0)
        for label, size in (("small", SMALL), ("large", large)):
            started = time.perf_counter()
            made = _fill(connection, plans, made, size)
            figures[f"{label}_rows"] = {"bookings": size[0], "calls": size[1]}
            figures[f"{label}_fill_seconds"] = round(time.perf_counter() - started, 1)
            figures[label] = {name: _measure(client, url, connection) for name, url in pages.items()}
    for name in pages:
        small, large_page = figures["small"][name], figures["large"][name]
        large_page["time_ratio"] = round(large_page["ms"] / small["ms"], 2)
        large_page["best_ratio"] = round(large_page["best_ms"] / small["best_ms"], 2)
        large_page["db_ratio"] = round(large_page["db_ms"] / max(small["db_ms"], 0.01), 2)
        large_page["same_queries"] = large_page["queries"] == small["queries"]
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "bookings_admin.json").write_text(json.dumps(figures, indent=2) + "\n")


def _content():
    """PROPERTIES properties with a room type and a rate plan each: [(property, room type, rate plan) ids]."""
    from integration.models import Property, RatePlan, RatePlanModel, RoomType

    plans = []
    for n in range(PROPERTIES):
        prop = Property.objects.create(vendor_id=f"bench-{n}", name=f"Bench stay {n:02d}")
        room = RoomType.objects.create(property=prop, vendor_id="room", name="Room", max_capacity=4)
        model = RatePlanModel.objects.create(property=prop, vendor_id="base", name="Base", type="standalone")
        plan = RatePlan.objects.create(property=prop, room_type=room, model=model, vendor_id="room-base")
        plans.append((prop.pk, room.pk, plan.pk))
    return plans


def _pages(reverse, plans):
    bookings, calls = reverse("admin:bookings_booking_changelist"), reverse("admin:bookings_inboundcall_changelist")
    return {
        "bookings list": bookings,
        "bookings filtered": f"{bookings}?status__exact=confirmed&checkin_range=past",
        "bookings of a property": f"{bookings}?property__id__exact={plans[0][0]}",
        "bookings search by number": f"{bookings}?q={_number(500)}",
        "bookings search by name": f"{bookings}?q={_name(500).replace(' ', '+')}",
        # Parts, in lower case, each matching the same bookings at both sizes (the rows column shows it).
        "bookings search part of no.": f"{bookings}?q={_number(500)[2:].lower()}",
        "bookings search part of name": f"{bookings}?q={_name(500).split()[1][1:7]}",
        "arrivals today": f"{bookings}?desk=arrivals",
        "departures today": f"{bookings}?desk=departures",
        "in house today": f"{bookings}?desk=inhouse",
        "call log": calls,
        "call log search by number": f"{calls}?q={_number(500)}",
    }


def _number(n):
    return f"VH{n:012X}"


def _name(n):
    return f"{NAMES[n % len(NAMES)]} {hashlib.md5(str(n).encode()).hexdigest()[:8].translate(GIVEN)}"  # noqa: S324


def _fill(connection, plans, made, size):
    """Bookings and calls up to size (rows made before are kept), then VACUUM ANALYZE, as autovacuum would
    (it also moves the new guest names from the trigram index's pending list into the index)."""
    (bookings_made, calls_made), (bookings, calls) = made, size
    plan_rows = ", ".join(f"({n}, {prop}, {room}, {plan})" for n, (prop, room, plan) in enumerate(plans))
    with connection.cursor() as cursor:
        # Booking n: created n * 30 s after a start 400 days ago (the newest last), checking in within a
        # year either side of today for one night (held in nights as its Korea date), one in five pending
        # and one in five canceled, five channels.
        cursor.execute(
            f"""
            WITH plan (idx, property_id, room_type_id, rate_plan_id) AS (VALUES {plan_rows})
            INSERT INTO bookings_booking (
                vendor_booking_number, status, type, channel_id, channel_name, channel_booking_number,
                gds_booking_number, gds_sub_booking_number, property_id, room_type_id, rate_plan_id, checkin,
                checkout, nights, currency, amount, total_amount, net_price, payment_type, guest_name, adults,
                children, infants, pets, cars, booker_name, booker_email, booker_phone, reserved_at,
                special_comment, visit_type, secondary_channel, content_digest, created_at, updated_at)
            SELECT 'VH' || upper(lpad(to_hex(n), 12, '0')),
                (ARRAY['confirmed', 'confirmed', 'confirmed', 'pending', 'canceled'])[1 + n %% 5], 'overnight',
                1 + n %% 5, 'Channel ' || (1 + n %% 5), 'CH-' || n, 'G-' || n, 'G-' || n || '-1',
                plan.property_id, plan.room_type_id, plan.rate_plan_id,
                date_trunc('day', now()) + ((n %% 730) - 365) * interval '1 day' + interval '6 hours',
                date_trunc('day', now()) + ((n %% 730) - 364) * interval '1 day' + interval '2 hours',
                jsonb_build_array(to_char((date_trunc('day', now()) + ((n %% 730) - 365) * interval '1 day'
                    + interval '6 hours') AT TIME ZONE 'Asia/Seoul', 'YYYY-MM-DD')),
                'KRW', 100000 + (n %% 50) * 1000, 110000 + (n %% 50) * 1000, 95000 + (n %% 50) * 1000,
                (ARRAY['prepayment', 'postpayment'])[1 + n %% 2],
                (ARRAY[{", ".join(f"'{name}'" for name in NAMES)}])[1 + n %% {len(NAMES)}]
                    || ' ' || translate(left(md5(n::text), 8), '0123456789abcdef', 'ghijklmnopqrstuv'),
                2, 0, 0, 0, 0, 'Booker', 'booker@example.com', '010-1234-5678', now(), '', '', '', '',
                now() - interval '400 days' + n * interval '30 seconds', now()
            FROM generate_series(%s, %s) AS n JOIN plan ON plan.idx = n %% {len(plans)}
            """,  # noqa: S608
            [bookings_made, bookings - 1],
        )
        # Five calls per booking, in the order they came, about booking n // 5.
        cursor.execute(
            """
            WITH first AS (SELECT min(id) AS id FROM bookings_booking)
            INSERT INTO bookings_inboundcall (method, path, request_headers, request_body, status,
                response_body, duration_ms, code, request_id, booking_id, booking_number, created_at)
            SELECT (ARRAY['POST', 'PUT', 'GET', 'PUT', 'POST'])[1 + n %% 5], '/bookings', '{}', '',
                (ARRAY[200, 200, 200, 409, 400])[1 + n %% 5], '', 5 + n %% 40,
                (ARRAY['', '', '', '4003', '1001'])[1 + n %% 5], '', first.id + n / 5,
                'VH' || upper(lpad(to_hex(n / 5), 12, '0')),
                now() - interval '400 days' + (n / 5) * interval '30 seconds' + (n %% 5) * interval '1 second'
            FROM generate_series(%s, %s) AS n, first
            """,
            [calls_made, calls - 1],
        )
        cursor.execute("VACUUM ANALYZE bookings_booking")
        cursor.execute("VACUUM ANALYZE bookings_inboundcall")
    return size


def _measure(client, url, connection):
    """Queries, median and fastest time of the page, PostgreSQL's time, its rows and its slowest plan."""
    timings, queries, response = page_runs(client, url, connection, RUNS)
    return {
        "queries": len(queries),
        "ms": round(1000 * median(timings), 1),
        "best_ms": round(1000 * min(timings), 1),
        "db_ms": execution_ms(connection, queries, RUNS),
        "rows_shown": table_rows(response.content.decode()),
        "slowest_plan": slowest_plan(connection, queries),
    }


def report(figures):
    """The figures as a table for a terminal."""
    small, large = figures["small_rows"], figures["large_rows"]
    lines = [
        f"Bookings admin benchmark: {figures['database']}, Python {figures['python']}, {figures['cpus']} CPUs;"
        f" filled in {figures['small_fill_seconds']} s and {figures['large_fill_seconds']} s",
        f"  {'':28}{'small: ' + format(small['bookings'], ',') + ' / ' + format(small['calls'], ','):>28}"
        f"{'large: ' + format(large['bookings'], ',') + ' / ' + format(large['calls'], ','):>34}",
        *comparison_lines(
            figures, ratios=(("x time", "time_ratio", 9), ("x best", "best_ratio", 8), ("x db", "db_ratio", 8))
        ),
    ]
    lines.append(
        "  goal: the same queries at both sizes, at most 1.5x the time (ms: the median; x best: the fastest"
        " runs' ratio; db ms: the database's own share)"
    )
    return "\n".join(lines)


if __name__ == "__main__":
    main()

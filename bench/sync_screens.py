"""python -m bench.sync_screens [attempts] [cell changes] [states] (not in make bench: filling takes minutes):
the integration screens staff open every day, small against large in the same database and run:

(a) the hub sync log with 1,000 attempts and then many (default 1,000,000): for a superuser and for a
    property's staff, one property's log, its filters and its date drill-down;
(b) the hub sync states with a property's worth and then many (default 30,000);
(c) the change history of rates and availability with 10,000 cell changes and then many (default 10,000,000);
(d) the calendar (this month) of a big property (10 room types x 3 models: 30 rate plans) and of a small
    one (1 rate plan), holding a month of days and then a year: queries, time and the peak of the web
    process's Python memory while rendering it (tracemalloc); and the big against the small.

Queries and median time per page, PostgreSQL's own execution time of its queries (EXPLAIN ANALYZE) and the
ratio. Goal: the same queries at both sizes, at most 1.5x the time, the calendar's memory flat. PostgreSQL
only (DATABASE_URL): rows are made by INSERT ... SELECT over generate_series. Writes var/bench/sync_screens.json.
"""

import datetime
import json
import os
import platform
import sys
import time
import tracemalloc
from datetime import UTC

from bench.harness import BENCH_DIR, fresh_database, setup_django
from bench.pages import admin_client, comparison_lines, execution_ms, median, page_runs, table_rows

SMALL = (1_000, 10_000, 2_000)  # attempts, cell changes, states beyond the properties' own
LARGE = (1_000_000, 10_000_000, 30_000)
#: Days of rates and availability the calendar's properties hold from the first of this month: the month
#: the calendar shows, then a year.
CALENDAR_DAYS = {"small": 31, "large": 365}
PROPERTIES = 20
RUNS = 7  # per page, after a warm-up; the median is reported
CELLS_PER_CHANGE = 100
#: Rows are spread over the 400 days before the start by a multiplicative hash of their number, so that
#: the small log covers the same days, months and years as the large one (and its drill-down as much).
SPREAD_SECONDS = 400 * 86400
BIG_CALENDAR = (10, 3)  # room types, models: 30 rate plans
DAYS = 365


def main():
    large = tuple(int(arg) for arg in sys.argv[1:4]) + LARGE[len(sys.argv[1:4]) :]
    setup_django()
    from django.test import Client

    with fresh_database() as connection:
        if connection.vendor != "postgresql":
            raise SystemExit("bench.sync_screens fills its tables with PostgreSQL's generate_series: set DATABASE_URL")
        start = datetime.datetime.now(UTC).replace(microsecond=0) - datetime.timedelta(days=400)
        content = _content()
        superuser = admin_client(Client)
        staff = _staff_client(Client, content["props"][0])
        pages = _pages(content, start)
        figures = {
            "when": datetime.datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "load": os.getloadavg(),
        }
        made = (0, 0, 0)
        for label, size in (("small", SMALL), ("large", large)):
            started = time.perf_counter()
            made = _fill(connection, content, start, made, size)
            _fill_days(connection, content, CALENDAR_DAYS[label])
            figures[f"{label}_rows"] = dict(zip(("attempts", "cell_changes", "extra_states"), size, strict=True))
            figures[f"{label}_fill_seconds"] = round(time.perf_counter() - started, 1)
            figures[label] = {
                name: _measure(staff if who == "staff" else superuser, url, connection)
                for name, (who, url) in pages.items()
            }
        big = figures["large"]["calendar: 30 rate plans"]
        small = figures["large"]["calendar: 1 rate plan"]
        figures["calendar_big_vs_small"] = {
            "time_ratio": round(big["ms"] / small["ms"], 2),
            "db_ratio": round(big["db_ms"] / max(small["db_ms"], 0.01), 2),
            "memory_ratio": round(big["peak_kib"] / small["peak_kib"], 2),
        }
    for name in pages:
        small, large_page = figures["small"][name], figures["large"][name]
        large_page["time_ratio"] = round(large_page["ms"] / small["ms"], 2)
        large_page["db_ratio"] = round(large_page["db_ms"] / max(small["db_ms"], 0.01), 2)
        large_page["same_queries"] = large_page["queries"] == small["queries"]
        if "peak_kib" in small:
            large_page["memory_ratio"] = round(large_page["peak_kib"] / small["peak_kib"], 2)
    figures["load_after"] = os.getloadavg()
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "sync_screens.json").write_text(json.dumps(figures, indent=2) + "\n")


def _content():
    """PROPERTIES properties with a room type and a rate plan each, a big one (BIG_CALENDAR) and a small one
    for the calendar; their sync states, as the outbox makes them."""
    from django.db import connection

    from integration.models import Property, RatePlan, RatePlanModel, RoomType

    def make(vendor_id, rooms, models):
        prop = Property.objects.create(vendor_id=vendor_id, name=vendor_id)
        prop.translations.create(locale="ko-KR", name=f"{vendor_id} 숙소")
        room_types = [
            RoomType.objects.create(property=prop, vendor_id=f"room-{n}", name=f"Room {n}", max_capacity=4)
            for n in range(rooms)
        ]
        plan_models = [
            RatePlanModel.objects.create(
                property=prop, vendor_id=f"model-{n}", name=f"Model {n}", type="standalone" if n == 0 else "package"
            )
            for n in range(models)
        ]
        plans = [
            RatePlan.objects.create(
                property=prop, room_type=room, model=model, vendor_id=f"{room.vendor_id}-{model.vendor_id}"
            )
            for room in room_types
            for model in plan_models
        ]
        return prop, room_types, plans

    props = [make(f"bench-{n:02d}", 1, 1)[0] for n in range(PROPERTIES)]
    big, big_rooms, big_plans = make("calendar-big", *BIG_CALENDAR)
    small, _rooms, small_plans = make("calendar-small", 1, 1)
    with connection.cursor() as cursor:
        # The sync states of the properties' content, as the outbox makes them: the attempts are theirs.
        for kind, table, column in (
            ("property", "integration_property", "id"),
            ("roomtype", "integration_roomtype", "property_id"),
            ("rateplan_model", "integration_rateplanmodel", "property_id"),
            ("rateplan", "integration_rateplan", "property_id"),
        ):
            cursor.execute(
                f"""
                INSERT INTO integration_syncstate (kind, object_id, property_id, status, environment, version,
                    sent_version, known_to_hub, last_error, failures, updated_at, last_synced_at)
                SELECT %s, id, {column}, 'synced', 'staging', 1, 1, true, '', 0, now(), now() FROM {table}
                """,  # noqa: S608
                [kind],
            )
    return {
        "props": props,
        "big": big,
        "big_rooms": big_rooms,
        "big_plans": big_plans,
        "small": small,
        "small_plans": small_plans,
    }


def _staff_client(client_class, prop):
    """A client logged in as a staff member of prop only (staff pass no second factor unless they set one)."""
    from django.conf import settings
    from django.contrib.auth import get_user_model

    from integration.access.services import membership_grant

    user = get_user_model().objects.create_user("bench-staff", "", "bench-password-1")
    membership_grant(user=user, property=prop, role="staff")
    client = client_class(HTTP_HOST="localhost")
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _pages(content, start):
    from django.urls import reverse

    from core.dates import KOREA

    log, states = reverse("admin:integration_syncattempt_changelist"), reverse("admin:integration_syncstate_changelist")
    prop, big = content["props"][0], content["big"]
    changes = reverse("admin:integration_property_ari_changes", args=[big.pk])
    # The day and month a tenth into the spread: rows at both sizes (the small log's ~2.5 a day).
    day = (start + datetime.timedelta(days=40)).astimezone(KOREA)
    year, month = f"created_at__year={day.year}", f"created_at__year={day.year}&created_at__month={day.month}"
    drill_day = f"{month}&created_at__day={day.day}"
    made = (start + datetime.timedelta(days=300)).astimezone(KOREA).date()
    calendar = "admin:integration_property_calendar"
    return {
        "calendar: 30 rate plans": ("superuser", reverse(calendar, args=[big.pk])),
        "calendar: 1 rate plan": ("superuser", reverse(calendar, args=[content["small"].pk])),
        "sync log": ("superuser", log),
        "sync log: failed": ("superuser", f"{log}?outcome__exact=failed"),
        "sync log: method PUT": ("superuser", f"{log}?method__exact=PUT"),
        "sync log: one property": ("superuser", f"{log}?property__id__exact={prop.pk}"),
        "sync log: a year": ("superuser", f"{log}?{year}"),
        "sync log: a month": ("superuser", f"{log}?{month}"),
        "sync log: a day": ("superuser", f"{log}?{drill_day}"),
        "sync log: property, month": ("superuser", f"{log}?property__id__exact={prop.pk}&{month}"),
        "sync log (staff)": ("staff", log),
        "sync log (staff): failed": ("staff", f"{log}?outcome__exact=failed"),
        "sync log (staff): a month": ("staff", f"{log}?{month}"),
        "sync states": ("superuser", states),
        "sync states: failed": ("superuser", f"{states}?status__exact=failed"),
        "sync states: one property": ("superuser", f"{states}?property__id__exact={prop.pk}"),
        "sync states (staff)": ("staff", states),
        "rates history": ("superuser", changes),
        "rates history: made from": ("superuser", f"{changes}?made_from={made}&made_to={made}"),
        "rates history: a row": ("superuser", f"{changes}?row=rp:{content['big_plans'][4].pk}"),
        "rates history: a day": (
            "superuser",
            f"{changes}?day={datetime.date.today() + datetime.timedelta(days=100)}",
        ),
    }


def _spread(column):
    """A time in the 400 days after start for row number column (SQL), the same at any size."""
    return f"%(start)s + (({column})::bigint * 2654435761 %% {SPREAD_SECONDS}) * interval '1 second'"


def _fill(connection, content, start, made, size):
    """Sync states, attempts and cell changes up to size (rows made before are kept), then VACUUM ANALYZE."""
    (attempts_made, cells_made, states_made), (attempts, cells, states) = made, size
    with connection.cursor() as cursor:
        # More states (rate plans of properties not made here: named by their number), a few failed.
        cursor.execute(
            """
            INSERT INTO integration_syncstate (kind, object_id, property_id, status, environment, version,
                sent_version, known_to_hub, last_error, failures, updated_at, last_synced_at)
            SELECT 'rateplan', 1000000 + n, (%(props)s::bigint[])[1 + n %% %(count)s],
                CASE WHEN n %% 50 = 0 THEN 'failed' ELSE 'synced' END, 'staging', 1, 1, true,
                CASE WHEN n %% 50 = 0 THEN 'HTTP 500' ELSE '' END, 0, now(), now()
            FROM generate_series(%(first)s, %(last)s) AS n
            """,
            {"props": [p.pk for p in content["props"]], "count": PROPERTIES, "first": states_made, "last": states - 1},
        )
        # Attempt n: of one of the properties' own states (their subjects have names), one in ten failed.
        cursor.execute(
            f"""
            WITH state AS (SELECT id, property_id, row_number() OVER (ORDER BY id) - 1 AS idx
                FROM integration_syncstate WHERE property_id = ANY(%(props)s) AND object_id < 1000000),
            states AS (SELECT count(*) AS total FROM state)
            INSERT INTO integration_syncattempt (state_id, property_id, method, path, request_body, status_code,
                hub_message, outcome, duration_ms, request_id, created_at)
            SELECT state.id, state.property_id, (ARRAY['PUT', 'PUT', 'POST', 'PATCH', 'PUT'])[1 + n %% 5],
                '/properties/bench/rate-plans/' || n, '{{"rates": []}}',
                CASE WHEN n %% 10 = 0 THEN 500 ELSE 200 END, CASE WHEN n %% 10 = 0 THEN 'Internal error' ELSE ''
                END, (ARRAY['success', 'success', 'success', 'success', 'success', 'success', 'success', 'success',
                'retry', 'failed'])[1 + n %% 10], 20 + n %% 80, '', {_spread("n")}
            FROM generate_series(%(first)s, %(last)s) AS n, states JOIN state ON true
            WHERE state.idx = n %% states.total
            """,  # noqa: S608
            {"props": [p.pk for p in content["props"]], "first": attempts_made, "last": attempts - 1, "start": start},
        )
        # Changes of the big property's rates, CELLS_PER_CHANGE cells each: cell n of change n // 100, a
        # rate of one of its rate plans on one of its days; a change in ten by the superuser, made when spread.
        plans = [plan.pk for plan in content["big_plans"]]
        cursor.execute(
            f"""
            INSERT INTO integration_arichangeset (id, property_id, user_id, source, description, cell_count,
                created_at)
            OVERRIDING SYSTEM VALUE
            SELECT s + 1, %(prop)s, CASE WHEN s %% 10 = 0 THEN (SELECT min(id) FROM auth_user
                WHERE is_superuser) END, (ARRAY['cell', 'bulk', 'csv'])[1 + s %% 3], '', %(per)s, {_spread("s")}
            FROM generate_series(%(first)s, %(last)s) AS s
            """,  # noqa: S608
            {
                "prop": content["big"].pk,
                "per": CELLS_PER_CHANGE,
                "first": cells_made // CELLS_PER_CHANGE,
                "last": cells // CELLS_PER_CHANGE - 1,
                "start": start,
            },
        )
        cursor.execute(
            """
            INSERT INTO integration_aricellchange (change_set_id, rate_plan_id, date, field, old, new)
            SELECT 1 + n / %(per)s, (%(plans)s::bigint[])[1 + n %% %(count)s],
                current_date + ((n / %(count)s) %% %(days)s)::int, 'rate', 100000 + n %% 7 * 1000,
                100000 + (n + 1) %% 7 * 1000
            FROM generate_series(%(first)s, %(last)s) AS n
            """,
            {
                "per": CELLS_PER_CHANGE,
                "plans": plans,
                "count": len(plans),
                "days": DAYS,
                "first": cells_made,
                "last": cells - 1,
            },
        )
        cursor.execute("SELECT setval(pg_get_serial_sequence('integration_arichangeset', 'id'), %s)", [cells])
        for table in ("integration_syncstate", "integration_syncattempt", "integration_arichangeset"):
            cursor.execute(f"VACUUM ANALYZE {table}")
        cursor.execute("VACUUM ANALYZE integration_aricellchange")
    return size


def _fill_days(connection, content, days):
    """Rates (weekends dearer, packages a difference) and availability of the calendar's properties for days
    from the first of this month (the days they hold already are kept)."""
    props = [content["big"].pk, content["small"].pk]
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO integration_rateplanday (rate_plan_id, date, rate, rate_modify, business_day)
            SELECT plan.id, date_trunc('month', current_date)::date + d,
                CASE WHEN model.type = 'standalone' THEN 100000 + (d %% 7) * 1000
                    + CASE WHEN (d %% 7) IN (4, 5) THEN 30000 ELSE 0 END END,
                CASE WHEN model.type = 'package' THEN 20000 + (plan.id %% 5) * 1000 END, d %% 13 <> 0
            FROM integration_rateplan plan JOIN integration_rateplanmodel model ON model.id = plan.model_id,
                generate_series(0, %s) AS d
            WHERE plan.property_id = ANY(%s)
            ON CONFLICT DO NOTHING
            """,
            [days - 1, props],
        )
        cursor.execute(
            """
            INSERT INTO integration_roomtypeday (room_type_id, date, allotment, held, taken, available)
            SELECT room.id, date_trunc('month', current_date)::date + d, 5 + d %% 4, 0, d %% 3, 5 + d %% 4 - d %% 3
            FROM integration_roomtype room, generate_series(0, %s) AS d WHERE room.property_id = ANY(%s)
            ON CONFLICT DO NOTHING
            """,
            [days - 1, props],
        )
        cursor.execute("VACUUM ANALYZE integration_rateplanday")
        cursor.execute("VACUUM ANALYZE integration_roomtypeday")


def _measure(client, url, connection):
    """Queries, median time and PostgreSQL's time of the page, its rows, and a calendar's peak memory."""
    timings, queries, response = page_runs(client, url, connection, RUNS)
    page = response.content.decode()
    figures = {
        "queries": len(queries),
        "ms": round(1000 * median(timings), 1),
        "db_ms": execution_ms(connection, queries, RUNS),
        "rows_shown": table_rows(page) or table_rows(page, "vh-ari-changes") or page.count('class="vh-ari-row'),
    }
    if "/calendar/" in url and "/changes/" not in url:
        figures["peak_kib"] = _peak_kib(client, url)
    return figures


def _peak_kib(client, url):
    """The peak of Python's memory while the page renders (tracemalloc, median of three)."""
    peaks = []
    for _ in range(3):
        tracemalloc.start()
        client.get(url)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    return round(sorted(peaks)[1] / 1024)


def report(figures):
    """The figures as a table for a terminal."""
    small, large = figures["small_rows"], figures["large_rows"]

    def sizes(rows):
        return f"{rows['attempts']:,} / {rows['cell_changes']:,} / +{rows['extra_states']:,}"

    before, after = (" ".join(f"{n:.2f}" for n in figures[key]) for key in ("load", "load_after"))
    lines = [
        f"Sync screens benchmark: {figures['database']}, Python {figures['python']}, {figures['cpus']} CPUs, load"
        f" {before} (after: {after});"
        f" filled in {figures['small_fill_seconds']} s and {figures['large_fill_seconds']} s",
        f"  {'':28}{'small: ' + sizes(small):>34}{'large: ' + sizes(large):>40}",
        *comparison_lines(figures, ratios=(("x time", "time_ratio", 9), ("x db", "db_ratio", 8))),
    ]
    versus = figures["calendar_big_vs_small"]
    lines += [
        "",
        f"  {'peak of Python memory (KiB)':28}{'small':>9}{'large':>10}{'x memory':>10}",
        *(
            f"  {name:28}{figures['small'][name]['peak_kib']:>9}{row['peak_kib']:>10}{row['memory_ratio']:>10}"
            for name, row in figures["large"].items()
            if "peak_kib" in row
        ),
        f"  calendar, 30 rate plans against 1 (a year held): {versus['time_ratio']}x the time, {versus['db_ratio']}x"
        f" the database, {versus['memory_ratio']}x the peak memory",
        "  goal: the same queries at both sizes, at most 1.5x the time (db ms: the database's own share)",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()

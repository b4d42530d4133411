"""Measuring admin pages at two sizes of data, for the screens' benchmarks (bench.ari, bench.bookings_admin,
bench.staff_screens, bench.sync_screens): a logged-in superuser's client, a page's runs with their queries,
and what PostgreSQL itself spends on those queries (steadier than the page's time on a busy machine)."""

import time


def superuser_client(client_class):
    """A test client logged in as a new superuser who passed the second factor, as staff log in: no admin
    page answers before it (accounts.services), only a redirect to it."""
    from django.contrib.auth import get_user_model
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    admin = get_user_model().objects.create_superuser("bench-admin", "", "bench-password-1")
    client = client_class(HTTP_HOST="localhost")
    client.force_login(admin)
    # As django_otp's login does once a code matched.
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = TOTPDevice.objects.create(user=admin, name="bench", confirmed=True).persistent_id
    session.save()
    return client


def admin_client(client_class):
    """superuser_client, reading English."""
    from django.conf import settings

    client = superuser_client(client_class)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def page_runs(client, url, connection, runs):
    """The page rendered runs times after a warm-up, as a browser gets it: the seconds of each run, the
    queries of the last and its response."""
    from django.test.utils import CaptureQueriesContext

    response = client.get(url)  # warm up templates and caches
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")
    timings = []
    for _ in range(runs):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            timings.append(time.perf_counter() - started)
    return timings, queries.captured_queries, response


def median(values):
    return sorted(values)[len(values) // 2]


def _explained(connection, captured, options="ANALYZE, FORMAT JSON"):
    """(execution ms, sql) of each SELECT among captured, as EXPLAIN ANALYZE measures it."""
    measured = []
    with connection.cursor() as cursor:
        for query in captured:
            sql = query["sql"].lstrip()
            if sql.upper().startswith("SELECT"):
                cursor.execute(f"EXPLAIN ({options}) {sql}")
                measured.append((cursor.fetchone()[0][0]["Execution Time"], sql))
    return measured


def execution_ms(connection, captured, runs):
    """PostgreSQL's own execution time of the page's queries (EXPLAIN ANALYZE, median of runs): what the
    database spends, without Python's rendering, which a busy machine makes noisy."""
    return round(median([sum(ms for ms, _sql in _explained(connection, captured)) for _ in range(runs)]), 2)


def slowest_plan(connection, captured):
    """The plan of the page's slowest query as EXPLAIN ANALYZE prints it (for the JSON: why a page grows)."""
    measured = _explained(connection, captured)
    if not measured:
        return ""
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN ANALYZE " + max(measured)[1])
        return "\n".join(row[0] for row in cursor.fetchall())


def measure_page(client, url, connection, runs, *, plan=False):
    """Queries, the fastest and median times of the page (runs runs), PostgreSQL's time and the page's
    size; with plan, the plan of its slowest query too (why a page grows)."""
    timings, queries, response = page_runs(client, url, connection, runs)
    measured = {
        "queries": len(queries),
        "ms": round(1000 * min(timings), 1),
        "median_ms": round(1000 * median(timings), 1),
        "db_ms": execution_ms(connection, queries, runs),
        "kb": round(len(response.content) / 1024, 1),
    }
    if plan:
        measured["slowest_plan"] = slowest_plan(connection, queries)
    return measured


def add_ratios(figures):
    """Each page of figures["large"] with its time and database-time ratios to the same page in
    figures["small"], and whether both made the same queries."""
    for name, large_page in figures["large"].items():
        small = figures["small"][name]
        large_page["time_ratio"] = round(large_page["ms"] / small["ms"], 2)
        large_page["db_ratio"] = round(large_page["db_ms"] / max(small["db_ms"], 0.01), 2)
        large_page["same_queries"] = large_page["queries"] == small["queries"]


def table_rows(page, table_id="result_list"):
    """Rows of the page's table of that id (0 when the page shows none, as an empty list does)."""
    marker = f'id="{table_id}"'
    if marker not in page:
        return 0
    return page.split(marker, 1)[1].split("<tbody>", 1)[1].split("</tbody>", 1)[0].count("<tr")


def comparison_lines(figures, *, name_header="page", name_width=28, extra=("rows", "rows_shown", 7), ratios=()):
    """The table of a small-against-large run: a header, then a line per page with each size's queries, time,
    database time and one more column (extra: its title, key and width), then the ratios (title, key, width)."""
    title, key, width = extra

    def cells(*values):
        return f"{values[0]:>9}{values[1]:>9}{values[2]:>9}{values[3]:>{width}}"

    headings = cells("queries", "ms", "db ms", title)
    lines = [
        f"  {name_header:{name_width}}{headings}   {headings}"
        + "".join(f"{ratio:>{ratio_width}}" for ratio, _key, ratio_width in ratios)
    ]
    for name, large in figures["large"].items():
        small = figures["small"][name]
        lines.append(
            f"  {name:{name_width}}"
            + "   ".join(cells(page["queries"], page["ms"], page["db_ms"], page[key]) for page in (small, large))
            + "".join(f"{large[ratio_key]:>{ratio_width}}" for _ratio, ratio_key, ratio_width in ratios)
        )
    return lines

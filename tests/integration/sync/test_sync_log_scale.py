"""The sync log and the sync states at scale (bench.sync_screens measures them): the same queries whatever
the number of rows, no count of the whole log, no filter or drill-down reading every attempt, and what
they show still right: the drill-down lists the periods Django's would and filters by Korea's days."""

import datetime

import pytest
from django.conf import settings
from django.contrib.admin.templatetags.admin_list import date_hierarchy
from django.db import connection
from django.db.models import Max, Min
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core.admin import paging
from core.admin.dates import _ProbedDates, probed_date_hierarchy
from core.dates import KOREA
from integration.models import SyncAttempt, SyncState
from integration.sync.services.outbox import sync_state_ensure
from tests.factories import PropertyFactory, member

pytestmark = pytest.mark.django_db

LOG = reverse("admin:integration_syncattempt_changelist")
STATES = reverse("admin:integration_syncstate_changelist")


def korea(*args):
    return datetime.datetime(*args, tzinfo=KOREA)


def attempts(state, times, **fields):
    """An attempt of state at each time (created_at is set after the insert: auto_now_add would replace it)."""
    made = SyncAttempt.objects.bulk_create(
        SyncAttempt(
            state=state,
            property_id=state.property_id,
            method=fields.get("method", "PUT"),
            path="/properties/p",
            outcome=fields.get("outcome", SyncAttempt.Outcome.SUCCESS),
            duration_ms=5,
        )
        for _ in times
    )
    for attempt, when in zip(made, times, strict=True):
        SyncAttempt.objects.filter(pk=attempt.pk).update(created_at=when)
    return made


@pytest.fixture
def state():
    return sync_state_ensure(PropertyFactory(name="Stay A"))


def queries_of(client, url, query=None):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, query or {})
    assert response.status_code == 200
    return [captured["sql"] for captured in queries.captured_queries]


def spread(count):
    """count times over two years (Korea time): rows in many years, months and days."""
    return [korea(2025, 1, 1, 12) + datetime.timedelta(days=(n * 7) % 700, minutes=n) for n in range(count)]


PAGES = [
    (LOG, None),
    (LOG, {"outcome__exact": "failed"}),
    (LOG, {"method__exact": "PUT"}),
    (LOG, {"created_at__year": "2025"}),
    (LOG, {"created_at__year": "2025", "created_at__month": "1"}),
    (LOG, {"created_at__year": "2025", "created_at__month": "1", "created_at__day": "1"}),
    (STATES, None),
    (STATES, {"status__exact": "failed"}),
]


@pytest.mark.parametrize(("url", "query"), PAGES)
@pytest.mark.parametrize("role", [None, "staff"])
def test_a_full_page_costs_the_queries_of_a_page_of_one_row(client, superuser, state, url, query, role):
    client.force_login(member(state.property, role) if role else superuser)

    def more_states(count, first):
        # Of a second kind (naming a page's objects costs a query per kind on it), a few failed.
        SyncState.objects.bulk_create(
            SyncState(kind="rateplan", object_id=first + n, property_id=state.property_id, status="failed")
            for n in range(count)
        )

    attempts(state, [korea(2025, 1, 1, 12)], outcome="failed")
    more_states(1, 10_000)
    queries_of(client, url, query)  # sessions, caches and content types settle
    one = queries_of(client, url, query)

    attempts(state, spread(150), outcome="failed")
    more_states(120, 20_000)
    many = queries_of(client, url, query)

    assert len(many) == len(one)


@pytest.mark.parametrize("role", [None, "staff"])
def test_no_page_counts_past_the_limit_or_lists_distinct_values_of_the_log(client, superuser, state, role):
    client.force_login(member(state.property, role) if role else superuser)
    attempts(state, spread(20))
    for url, query in PAGES:
        sqls = queries_of(client, url, query)
        counts = [sql for sql in sqls if "COUNT(" in sql.upper() and "inbox_event" not in sql]
        assert counts, url
        assert all(f"LIMIT {paging.COUNT_LIMIT + 1}" in sql for sql in counts), (url, query, counts)
        assert not [sql for sql in sqls if "DISTINCT" in sql.upper()], (url, query)
        assert not [sql for sql in sqls if "MIN(" in sql.upper() or "MAX(" in sql.upper()], (url, query)


def test_the_drill_down_lists_the_periods_djangos_would(rf, superuser, state):
    # Around Korea's new year (15:30 UTC on Dec. 31 is already Jan. 1 in Seoul), and a month left empty.
    attempts(
        state,
        [
            korea(2025, 12, 31, 23, 30),
            korea(2026, 1, 1, 0, 30),
            korea(2026, 1, 20, 9),
            korea(2026, 3, 2, 9),
            korea(2026, 3, 2, 18),
        ],
    )
    model_admin = _log_admin()
    levels = [
        {},
        {"created_at__year": "2026"},
        {"created_at__year": "2026", "created_at__month": "1"},
        {"created_at__year": "2026", "created_at__month": "3"},
        {"created_at__year": "2026", "created_at__month": "2"},
        {"created_at__year": "2026", "created_at__month": "3", "created_at__day": "2"},
    ]
    for params in levels:
        request = rf.get(LOG, params)
        request.user = superuser
        cl = model_admin.get_changelist_instance(request)
        assert probed_date_hierarchy(cl) == date_hierarchy(cl), params

    request = rf.get(LOG, {"created_at__year": "2026"})
    request.user = superuser
    titles = [
        choice["title"] for choice in probed_date_hierarchy(model_admin.get_changelist_instance(request))["choices"]
    ]
    assert titles == ["January 2026", "March 2026"]


def first_and_last(dates):
    """What date_hierarchy asks first of a queryset: its first and last date."""
    return dates.aggregate(first=Min("created_at"), last=Max("created_at"))


def test_a_level_of_the_drill_down_probes_its_periods_in_one_query(state):
    attempts(state, [korea(2025, 3, 2), korea(2025, 7, 1), korea(2026, 1, 20)])
    dates = _ProbedDates(SyncAttempt.objects.all())
    assert first_and_last(dates) == {"first": korea(2025, 3, 2), "last": korea(2026, 1, 20)}
    with CaptureQueriesContext(connection) as queries:
        months = dates.datetimes("created_at", "month")
    assert months == [korea(2025, 3, 1), korea(2025, 7, 1), korea(2026, 1, 1)]
    assert len(queries.captured_queries) == 1  # eleven months probed


def test_a_drill_down_whose_rows_were_purged_meanwhile_lists_no_period(state):
    attempts(state, [korea(2026, 3, 2)])
    dates = _ProbedDates(SyncAttempt.objects.all())
    first_and_last(dates)
    SyncAttempt.objects.all().delete()  # the retention purge, between the two reads of a page
    assert dates.datetimes("created_at", "day") == []


def test_a_day_of_the_drill_down_lists_that_korean_days_attempts(client, superuser, state):
    late, early, next_day = attempts(state, [korea(2026, 3, 1, 23, 59), korea(2026, 3, 2, 0, 0), korea(2026, 3, 3)])
    client.force_login(superuser)
    response = client.get(LOG, {"created_at__year": "2026", "created_at__month": "3", "created_at__day": "2"})
    assert [row.pk for row in response.context["cl"].result_list] == [early.pk]
    response = client.get(LOG, {"created_at__year": "2026", "created_at__month": "3"})
    assert {row.pk for row in response.context["cl"].result_list} == {late.pk, early.pk, next_day.pk}


def test_the_filters_offer_fixed_methods_and_the_users_properties(client, state):
    other = sync_state_ensure(PropertyFactory(name="Stay B"))
    attempts(state, [korea(2026, 3, 2)], method="POST")
    attempts(other, [korea(2026, 3, 2)], method="PATCH")
    staff = member(state.property, "staff")
    client.force_login(staff)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"

    html = client.get(LOG).content.decode()
    assert "?method__exact=DELETE" in html  # offered whether or not the log holds one
    assert "Stay A" in html
    assert "Stay B" not in html
    listed = client.get(LOG, {"method__exact": "POST"}).context["cl"].result_list
    assert [row.state_id for row in listed] == [state.pk]
    assert list(client.get(LOG, {"method__exact": "PATCH"}).context["cl"].result_list) == []
    assert client.get(LOG, {"method__exact": "BREW"}).status_code == 200  # not a method: the whole list


def test_past_the_limit_the_log_says_more_than(client, superuser, state, monkeypatch):
    monkeypatch.setattr(paging, "COUNT_LIMIT", 3)
    attempts(state, spread(4))
    client.force_login(superuser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    html = client.get(LOG).content.decode()
    assert html.count("more than 3 hub sync attempts") == 2  # beside the search box and under the list
    assert "3 results" not in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"
    assert "이상" in client.get(LOG).content.decode()


def test_the_states_list_is_grouped_by_property_in_the_indexes_order(client, superuser, state):
    second = sync_state_ensure(PropertyFactory(name="Another"))
    client.force_login(superuser)
    listed = client.get(STATES).context["cl"].result_list
    assert [row.pk for row in listed] == [state.pk, second.pk]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
@pytest.mark.parametrize(
    ("query", "index"),
    [
        ("property_id = %(property)s ORDER BY created_at DESC, id DESC", "syncattempt_property_recent"),
        ("outcome = 'failed' ORDER BY created_at DESC", "syncattempt_outcome_recent"),
        ("property_id = %(property)s AND outcome = 'failed' ORDER BY created_at DESC", "syncattempt_property_outcome"),
    ],
)
def test_the_log_of_a_property_and_its_failures_read_their_index(state, query, index):
    with connection.cursor() as cursor:
        # A test's few rows would be read whole and sorted anyway: plans as for millions, where only an
        # index in the list's order avoids reading them all.
        cursor.execute("SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off")
        cursor.execute(
            f"EXPLAIN SELECT id FROM integration_syncattempt WHERE {query} LIMIT 100",  # noqa: S608
            {"property": state.property_id},
        )
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_sort")
    assert index in plan, plan
    assert "Sort" not in plan.split(index)[0], plan  # in the index's order, not sorted after


def _log_admin():
    from django.contrib import admin

    return admin.site._registry[SyncAttempt]

"""Settlement reconciliation screens without the hub (issue 13, item 3): who sees what, the form's checks,
the CSV export and the nightly run."""

import csv
import datetime
import io

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bookings.settlement.choices import Category, RunStatus
from bookings.settlement.models import Reconciliation, ReconciliationRow
from bookings.settlement.services import reconciliations_nightly
from bookings.settlement.tasks import reconciliations_nightly_task
from config.celery import app as celery_app
from core.dates import korea_today
from integration.access.choices import MembershipRole
from tests.factories import PropertyFactory, member

pytestmark = pytest.mark.django_db


def reconcile(prop, **fields):
    today = korea_today()
    reconciliation = Reconciliation.objects.create(
        date_from=today, date_to=today + datetime.timedelta(days=30), **fields
    )
    reconciliation.properties.set([prop])
    return reconciliation


#: The statuses (the hub's word, ours, our no-show) of the rows finished() writes, by number.
STATUSES = {
    "VH1": ("confirmed", "confirmed", False),
    "VH2": ("cancelled", "confirmed", True),
    "VH3": ("on hold", "", False),
}


def finished(prop, rows):
    """A done reconciliation of prop with these (category, number, hub total) rows."""
    reconciliation = reconcile(prop, status=RunStatus.DONE)
    ReconciliationRow.objects.bulk_create(
        ReconciliationRow(
            reconciliation=reconciliation,
            property=prop,
            category=category,
            vendor_booking_number=number,
            date=korea_today(),
            month=korea_today().replace(day=1),
            hub_total_amount=total,
            hub_status=STATUSES.get(number, ("", "", False))[0],
            our_status=STATUSES.get(number, ("", "", False))[1],
            our_no_show=STATUSES.get(number, ("", "", False))[2],
        )
        for category, number, total in rows
    )
    return reconciliation


def test_staff_see_none_of_it(client):
    prop = PropertyFactory()
    reconciliation = finished(prop, [(Category.MATCHED, "VH1", 1000)])
    client.force_login(member(prop, MembershipRole.STAFF))

    assert client.get(reverse("admin:settlement_reconciliation_changelist")).status_code == 403
    assert client.get(reverse("admin:settlement_reconciliation_add")).status_code == 403
    for name in ("change", "csv", "progress"):
        url = reverse(f"admin:settlement_reconciliation_{name}", args=[reconciliation.pk])
        assert client.get(url).status_code == 403
    assert (
        reverse("admin:settlement_reconciliation_changelist") not in client.get(reverse("admin:index")).content.decode()
    )


def test_managers_see_only_reconciliations_of_properties_they_manage(client):
    mine, other = PropertyFactory(), PropertyFactory()
    own = finished(mine, [(Category.MATCHED, "VH1", 1000)])
    foreign = finished(other, [(Category.MATCHED, "VH2", 1000)])
    both = reconcile(mine, status=RunStatus.DONE)
    both.properties.add(other)
    client.force_login(member(mine, MembershipRole.MANAGER))

    listed = client.get(reverse("admin:settlement_reconciliation_changelist")).context["cl"].result_list
    assert list(listed) == [own]
    for hidden in (foreign, both):
        assert client.get(reverse("admin:settlement_reconciliation_change", args=[hidden.pk])).status_code == 404
    form = client.get(reverse("admin:settlement_reconciliation_add")).context["form"]
    assert list(form.fields["property"].queryset) == [mine]
    refused = client.post(
        reverse("admin:settlement_reconciliation_add"),
        {"property": other.pk, "basis": "checkin", "date_from": "2026-10-01", "date_to": "2026-10-31"},
    )
    assert refused.status_code == 200
    assert refused.context["form"].errors["property"]
    assert Reconciliation.objects.count() == 3


def test_the_period_is_checked(client):
    prop = PropertyFactory()
    client.force_login(member(prop, MembershipRole.MANAGER))
    url = reverse("admin:settlement_reconciliation_add")
    backwards = client.post(
        url, {"basis": "checkin", "date_from": "2026-10-31", "date_to": "2026-10-01"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "The period ends before it starts." in backwards.content.decode()
    too_long = client.post(
        url, {"basis": "checkin", "date_from": "2025-01-01", "date_to": "2026-10-01"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "at most 366 days" in too_long.content.decode()
    assert not Reconciliation.objects.exists()


def test_the_csv_export_is_utf8_with_a_bom_and_the_pages_filters(client):
    prop = PropertyFactory(name="바다펜션")
    reconciliation = finished(
        prop,
        [(Category.MATCHED, "VH1", 100000), (Category.AMOUNT_DIFFERS, "VH2", 121000), (Category.HUB_ONLY, "VH3", 5)],
    )
    client.force_login(member(prop, MembershipRole.MANAGER))
    url = reverse("admin:settlement_reconciliation_csv", args=[reconciliation.pk])

    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ko")
    data = b"".join(response.streaming_content)

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert data.startswith(b"\xef\xbb\xbf")
    lines = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert lines[0][0] == "벤더 예약번호"
    assert [line[0] for line in lines[1:]] == ["VH1", "VH2", "VH3"]
    assert lines[1][1].startswith("바다펜션")
    assert lines[2][6] == "121000"
    # The statuses in the header's language: never the raw words under Korean headers.
    assert lines[1][4:6] == ["확정됨", "확정됨"]
    assert lines[2][4:6] == ["취소됨", "확정됨 · 노쇼"]
    assert lines[3][4:6] == ["on hold", ""]  # a word of the hub's that is none of ours stays as it wrote it
    only_amount = b"".join(client.get(url + "?category=amount").streaming_content).decode("utf-8-sig")
    assert [line[0] for line in csv.reader(io.StringIO(only_amount))][1:] == ["VH2"]


def test_the_nightly_run_is_in_beat_and_asks_for_the_previous_month_of_every_property():
    entry = django_settings.CELERY_BEAT_SCHEDULE["settlement-reconcile-nightly"]
    celery_app.loader.import_default_modules()  # what the worker does: find every app's tasks
    assert entry["task"] in celery_app.tasks
    assert entry["task"] == reconciliations_nightly_task.name
    assert entry["schedule"].hour == {4}
    first, second = PropertyFactory(), PropertyFactory()

    assert reconciliations_nightly(today=datetime.date(2026, 3, 15)) == 2

    made = Reconciliation.objects.order_by("pk")
    assert [(r.date_from, r.date_to, r.basis, r.requested_by) for r in made] == [
        (datetime.date(2026, 2, 1), datetime.date(2026, 2, 28), "checkin", None)
    ] * 2
    assert [list(r.properties.all()) for r in made] == [[first], [second]]


def test_a_finished_reports_pages_take_their_counts_from_its_totals_not_its_rows(client):
    prop = PropertyFactory()
    reconciliation = finished(prop, [(Category.MATCHED, f"VH{n}", 1000) for n in range(150)])
    reconciliation.totals = {"matched": {"count": 150, "hub_total": 150000, "our_total": 150000}}
    reconciliation.save()
    client.force_login(member(prop, MembershipRole.MANAGER))
    client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("admin:settlement_reconciliation_change", args=[reconciliation.pk])

    for query in ({}, {"category": "matched"}, {"page": "2"}):
        with CaptureQueriesContext(connection) as queries:
            page = client.get(url, query)
        assert "Page" in page.content.decode()
        rows = [q["sql"] for q in queries.captured_queries if "settlement_reconciliationrow" in q["sql"]]
        assert len(rows) == 1, rows  # the page's rows alone
        assert "COUNT(" not in rows[0].upper()
    assert page.context["page"].paginator.count == 150
    assert len(page.context["page"].object_list) == 50  # the second page
    assert client.get(url, {"category": "amount"}).context["page"].paginator.count == 0

    # While a run goes on (or for a property, a number), the rows are counted.
    Reconciliation.objects.filter(pk=reconciliation.pk).update(status=RunStatus.RUNNING)
    assert client.get(url).context["page"].paginator.count == 150
    assert client.get(url, {"q": "VH7"}).context["page"].paginator.count == 1

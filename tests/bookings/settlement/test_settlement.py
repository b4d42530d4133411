"""Settlement reconciliation and compare with hub (issue 13, items 2 and 3), over the real path: the sandbox
sells through our vendor API, the reconciliation pages the sandbox's list over HTTP."""

import datetime

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from bookings.admin_display import amount_text
from bookings.models import Booking
from bookings.settlement import hub as settlement_hub
from bookings.settlement.choices import Category, RunStatus
from bookings.settlement.models import Reconciliation
from bookings.settlement.services import reconciliation_run
from core.dates import korea_today
from hubsandbox import sales
from hubsandbox.faults import inject_faults
from hubsandbox.models import SandboxRequest, SandboxSale
from integration.access.choices import MembershipRole
from integration.content.names import display_name
from tests.factories import member
from tests.hub_fixtures import wait_until
from tests.hubsandbox.test_sales import seed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def selling(hub, live_server, settings):
    """The sandbox as hub (live server) able to sell through our vendor API, with content and rates."""
    settings.HUB_SANDBOX_VENDOR_URL = live_server.url
    _room_type, standalone, _package = seed(rooms=9)
    return standalone


def sell(plan, *, drift=None, then="confirm"):
    options = {"settlement_drift_rate": 1.0, "settlement_drift": (drift,)} if drift else {}
    with inject_faults(**options):
        result = sales.sell(rateplan_id=plan.vendor_id, then=then)
    assert result.ok, result.refusal
    return result.sale.vendor_booking_number


def reconcile(prop, **fields):
    today = korea_today()
    reconciliation = Reconciliation.objects.create(
        date_from=today, date_to=today + datetime.timedelta(days=30), **fields
    )
    reconciliation.properties.set([prop])
    return reconciliation


def test_the_client_advances_by_the_records_received_when_the_hub_answers_fewer(selling):
    numbers = [sell(selling) for _ in range(5)]
    today = korea_today()

    with inject_faults(settlement_page_size=2):
        pages = list(
            settlement_hub.settlement_pages(
                option="checkin", date_from=today, date_to=today + datetime.timedelta(days=30)
            )
        )

    assert [len(records) for _count, records in pages] == [2, 2, 1]
    assert [record["booking_number"] for _count, records in pages for record in records] == numbers
    queries = SandboxRequest.objects.filter(path="/gds/vendor/bookings").order_by("pk").values_list("query", flat=True)
    assert [q for q in queries if "offset=" in q] == [
        f"option=checkin&from={today}&to={today + datetime.timedelta(days=30)}&limit=1000&offset={offset}"
        for offset in (0, 2, 4)
    ]


def test_each_difference_the_fault_setting_makes_is_found(selling):
    matched = sell(selling)
    canceled = sell(selling, then="cancel")
    amount = sell(selling, drift="amount")
    status = sell(selling, drift="status")
    unsent = sell(selling, drift="unsent")
    received = sell(selling, drift="unknown")
    phantom = SandboxSale.objects.get(drift="unknown").vendor_booking_number
    reconciliation = reconcile(selling.room_type.property)

    reconciliation = reconciliation_run(reconciliation_id=reconciliation.pk)

    assert reconciliation.status == RunStatus.DONE
    found = dict(reconciliation.rows.values_list("vendor_booking_number", "category"))
    assert found == {
        matched: Category.MATCHED,
        canceled: Category.MATCHED,
        received: Category.MATCHED,
        amount: Category.AMOUNT_DIFFERS,
        status: Category.STATUS_DIFFERS,
        unsent: Category.OURS_ONLY,
        phantom: Category.HUB_ONLY,
    }
    row = reconciliation.rows.get(category=Category.AMOUNT_DIFFERS)
    assert row.hub_total_amount == row.our_total_amount + 1000
    assert row.hub_net_price != row.our_net_price
    assert row.booking == Booking.objects.get(vendor_booking_number=amount)
    assert reconciliation.rows.get(category=Category.HUB_ONLY).booking is None
    assert reconciliation.totals[Category.MATCHED]["count"] == 3
    assert {key: entry["count"] for key, entry in reconciliation.totals.items()} == {
        "matched": 3,
        "amount": 1,
        "status": 1,
        "ours_only": 1,
        "hub_only": 1,
    }
    assert sum(entry["count"] for entry in reconciliation.totals.values()) == sum(
        sum(v for k, v in month.items() if k != "month") for month in reconciliation.monthly
    )
    assert reconciliation.records_seen == reconciliation.records_expected == 6
    hub_records = {
        record["booking_number"]: record
        for _count, records in settlement_hub.settlement_pages(
            option="checkin", date_from=reconciliation.date_from, date_to=reconciliation.date_to
        )
        for record in records
    }
    refunded = hub_records[canceled]
    assert refunded["status"] == "cancelled"  # the hub's word, matched with our canceled booking above
    assert refunded["refund_amount"] + refunded["charged_amount"] == refunded["total_amount"]
    assert refunded["refund_amount"] == SandboxSale.objects.get(vendor_booking_number=canceled).refund_amount
    assert hub_records[matched]["charged_amount"] == hub_records[matched]["total_amount"]


def test_a_hub_that_stays_down_fails_the_run_with_its_message(selling, settings, metric):
    settings.HUB_SYNC_BACKOFF_BASE = 0.01
    settings.HUB_SYNC_BACKOFF_CAP = 0.02
    sell(selling)
    reconciliation = reconcile(selling.room_type.property)
    failed_runs = metric("vendorhub_reconciliation_runs_total", outcome="failed")

    with inject_faults(error_rate=1.0, retry_after=0):
        reconciliation = reconciliation_run(reconciliation_id=reconciliation.pk)

    assert reconciliation.status == RunStatus.FAILED
    assert "Service Unavailable" in reconciliation.error
    assert metric("vendorhub_reconciliation_runs_total", outcome="failed") == failed_runs + 1


def test_a_manager_runs_one_from_the_screen_through_the_worker(selling, worker, client):
    sell(selling)
    sell(selling, drift="status")
    prop = selling.room_type.property
    manager = member(prop, MembershipRole.MANAGER)
    client.force_login(manager)
    today = korea_today()

    response = client.post(
        reverse("admin:settlement_reconciliation_add"),
        {"property": "", "basis": "checkin", "date_from": today, "date_to": today + datetime.timedelta(days=30)},
    )

    reconciliation = Reconciliation.objects.get()
    assert response.status_code == 302
    assert reconciliation.requested_by == manager
    assert list(reconciliation.properties.all()) == [prop]
    wait_until(lambda: Reconciliation.objects.get().status == RunStatus.DONE, timeout=60, message="the reconciliation")
    progress = client.get(reverse("admin:settlement_reconciliation_progress", args=[reconciliation.pk])).json()
    assert progress == {"status": "done", "status_label": "완료", "seen": 2, "expected": 2}
    report = client.get(reverse("admin:settlement_reconciliation_change", args=[reconciliation.pk]))
    booking = Booking.objects.get(
        vendor_booking_number=reconciliation.rows.get(category="status").vendor_booking_number
    )
    assert reverse("admin:bookings_booking_change", args=[booking.pk]) in report.content.decode()


def test_compare_with_hub_marks_the_fields_that_differ(selling, client):
    number = sell(selling, drift="amount")
    unsent = sell(selling, drift="unsent")
    booking = Booking.objects.get(vendor_booking_number=number)
    client.force_login(member(booking.property, MembershipRole.STAFF))

    page = client.get(reverse("admin:bookings_booking_compare", args=[booking.pk]), HTTP_ACCEPT_LANGUAGE="en")

    differing = [field.label for field in page.context["comparisons"][0].fields if field.differs]
    assert differing == ["total amount", "net price"]
    assert page.content.decode().count('class="differs"') == 2
    listed = client.post(
        reverse("admin:bookings_booking_changelist"),
        {
            "action": "compare_with_hub",
            "_selected_action": [booking.pk, Booking.objects.get(vendor_booking_number=unsent).pk],
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert listed.status_code == 200
    assert "The hub does not know this booking." in listed.content.decode()
    assert [c.booking.vendor_booking_number for c in listed.context["comparisons"]] == sorted(
        [number, unsent], key=lambda n: -Booking.objects.get(vendor_booking_number=n).pk
    )


@pytest.mark.parametrize(("language", "status", "kind"), [("ko", "확정됨", "숙박"), ("en", "Confirmed", "Overnight")])
def test_compare_with_hub_reads_both_sides_as_the_booking_page_does(selling, client, language, status, kind):
    """Labels, amounts with separators and currency, Korea times: never the raw `confirmed` or `314000`."""
    booking = Booking.objects.get(vendor_booking_number=sell(selling))
    client.force_login(member(booking.property, MembershipRole.STAFF))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    page = client.get(reverse("admin:bookings_booking_compare", args=[booking.pk]))

    with translation.override(language):
        checkin = formats.localize(timezone.localtime(booking.checkin))
    shown = {field.name: (field.ours, field.hub) for field in page.context["comparisons"][0].fields}
    assert shown["status"] == (status, status)
    assert shown["type"] == (kind, kind)
    total = amount_text(booking.total_amount, booking.currency)
    assert "," in total
    assert shown["total_amount"] == (total, total)
    assert shown["checkin"] == (checkin, checkin)
    assert f'<td class="hub">{total}</td>' in page.content.decode()
    # The property, room type and rate plan by their names (the id beside), never by the id alone.
    with translation.override(language):
        room = f"{display_name(booking.room_type)} ({booking.room_type.vendor_id})"
        plan = f"{display_name(booking.rate_plan)} ({booking.rate_plan.vendor_id})"
    assert shown["room_type"] == (room, room)
    assert shown["rate_plan"] == (plan, plan)
    assert shown["property"][0] == f"{booking.property.name} ({booking.property.vendor_id})"


def test_a_run_cut_at_its_soft_time_limit_fails_saying_so(selling):
    class TooSlow:
        def call(self, endpoint, **kwargs):
            raise SoftTimeLimitExceeded()

    reconciliation = reconcile(selling.room_type.property)

    reconciliation = reconciliation_run(reconciliation_id=reconciliation.pk, client=TooSlow())

    assert reconciliation.status == RunStatus.FAILED
    assert reconciliation.error == "The run took longer than its time limit; run it again."


def test_a_no_show_is_shown_beside_our_status_in_the_comparison(selling, client):
    """The front desk's no-show stays a confirmed booking for the comparison (the channel may settle it),
    and the report and its CSV say it beside our status."""
    number = sell(selling)
    Booking.objects.filter(vendor_booking_number=number).update(desk_status=Booking.Desk.NO_SHOW)
    reconciliation = reconciliation_run(reconciliation_id=reconcile(selling.room_type.property).pk)

    row = reconciliation.rows.get(vendor_booking_number=number)
    assert (row.category, row.our_no_show) == (Category.MATCHED, True)
    client.force_login(member(selling.room_type.property, MembershipRole.MANAGER))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    report = client.get(reverse("admin:settlement_reconciliation_change", args=[reconciliation.pk]))
    assert "Confirmed · No-show" in report.content.decode()
    csv_text = b"".join(
        client.get(reverse("admin:settlement_reconciliation_csv", args=[reconciliation.pk])).streaming_content
    ).decode("utf-8-sig")
    assert "Confirmed · No-show" in csv_text

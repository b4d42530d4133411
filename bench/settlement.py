"""python -m bench.settlement [records] (make bench): a settlement reconciliation of the sandbox's list
against our bookings (about 2 % differing), against only paging the same list in the same run; and the
peak memory of both (tracemalloc) at a tenth of the size and at the full size, to show it stays flat.
PostgreSQL when DATABASE_URL names one, else SQLite. Writes var/bench/settlement.json."""

import datetime
import json
import os
import platform
import sys
import time
import tracemalloc
from datetime import UTC

from bench.harness import BENCH_DIR, fresh_database, sandbox_hub, setup_django

RECORDS = 100_000
#: Every DRIFT_EVERY-th booking differs, by one of four kinds in turn: 4 in 200 = 2 %.
DRIFT_EVERY = 50
DRIFT_KINDS = ("amount", "status", "unsent", "unknown")
PERIOD = (datetime.date(2026, 10, 1), datetime.date(2026, 10, 31))
ROUNDS = 2  # of paging then reconciling; the best of each is reported
KOREA = datetime.timezone(datetime.timedelta(hours=9))
BATCH = 5000


def main():
    records = int(sys.argv[1]) if len(sys.argv) > 1 else RECORDS
    small = max(records // 10, 1)
    setup_django()
    with fresh_database() as connection, sandbox_hub():
        figures = {
            "when": datetime.datetime.now(UTC).isoformat(timespec="seconds"),
            "database": connection.vendor,
            "python": platform.python_version(),
            "cpus": os.cpu_count(),
            "drift_share": round(len(DRIFT_KINDS) / (DRIFT_EVERY * len(DRIFT_KINDS)), 3),
        }
        sizes = {"small": _prepare("bench-small", small), "full": _prepare("bench-full", records)}
        _page_all(sizes["small"])  # warm-up: the first request's one-off allocations are not the run's
        for label, prop in sizes.items():
            figures[label] = _measure(prop, timed=label == "full")
    full = figures["full"]
    full["time_ratio"] = round(full["reconcile_seconds"] / full["paging_seconds"], 2)
    figures["memory_ratio_full_vs_small"] = round(full["reconcile_peak_mb"] / figures["small"]["reconcile_peak_mb"], 2)
    print(report(figures))
    BENCH_DIR.mkdir(parents=True, exist_ok=True)
    (BENCH_DIR / "settlement.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(f"\nFigures written to {(BENCH_DIR / 'settlement.json').relative_to(BENCH_DIR.parent.parent)}")


def _prepare(vendor_id, count):
    """A property with `count` confirmed or canceled bookings in PERIOD, and the sandbox's record of each
    sale (as hubsandbox.settlement.sale_store keeps them), every DRIFT_EVERY-th one differing."""
    from bookings.models import Booking
    from hubsandbox.models import SandboxProperty, SandboxRateplan, SandboxRateplanModel, SandboxRoomtype, SandboxSale
    from hubsandbox.settlement import net_price
    from integration.models import Property, RatePlan, RatePlanModel, RoomType

    prop = Property.objects.create(vendor_id=vendor_id, name=vendor_id)
    room = RoomType.objects.create(property=prop, vendor_id="room", name="Room", max_capacity=4)
    model = RatePlanModel.objects.create(property=prop, vendor_id="base", name="Base", type="standalone")
    plan = RatePlan.objects.create(property=prop, room_type=room, model=model, vendor_id="room-base")
    hub_prop = SandboxProperty.objects.create(vendor_id=vendor_id)
    hub_room = SandboxRoomtype.objects.create(property=hub_prop, vendor_id="room")
    hub_model = SandboxRateplanModel.objects.create(property=hub_prop, vendor_id="base", type="standalone")
    hub_plan = SandboxRateplan.objects.create(
        property=hub_prop, roomtype=hub_room, rateplan_model=hub_model, vendor_id="room-base"
    )
    days = (PERIOD[1] - PERIOD[0]).days + 1
    reserved = datetime.datetime(2026, 9, 1, 10, tzinfo=KOREA)
    for start in range(0, count, BATCH):
        bookings, sales = [], []
        for n in range(start, min(start + BATCH, count)):
            number = f"VH{vendor_id[-4:].upper()}{n:08d}"
            day = PERIOD[0] + datetime.timedelta(days=n % days)
            checkin = datetime.datetime.combine(day, datetime.time(15), tzinfo=KOREA)
            checkout = checkin + datetime.timedelta(hours=20)
            total = 100_000 + (n % 7) * 10_000
            status = "canceled" if n % 10 == 9 else "confirmed"
            drift = DRIFT_KINDS[(n // DRIFT_EVERY) % len(DRIFT_KINDS)] if n % DRIFT_EVERY == 0 else ""
            bookings.append(
                Booking(
                    vendor_booking_number=number,
                    status=status,
                    channel_id=1,
                    channel_name="Bench channel",
                    gds_booking_number=f"G{number}",
                    gds_sub_booking_number=f"G{number}-1",
                    property=prop,
                    room_type=room,
                    rate_plan=plan,
                    checkin=checkin,
                    checkout=checkout,
                    nights=[day.isoformat()],
                    currency="KRW",
                    amount=total,
                    total_amount=total,
                    net_price=net_price(total),
                    payment_type="prepayment",
                    guest_name="Bench Guest",
                    adults=2,
                    children=0,
                    infants=0,
                    pets=0,
                    cars=0,
                    booker_name="Bench Guest",
                    booker_email="guest@example.com",
                    booker_phone="010-0000-0000",
                    reserved_at=reserved,
                    content_digest="0" * 64,
                    confirmed_at=reserved,
                    canceled_at=reserved if status == "canceled" else None,
                )
            )
            answer = {
                "vendor_booking_number": number,
                "status": status,
                "type": "overnight",
                "checkin": checkin.isoformat(),
                "checkout": checkout.isoformat(),
                "currency": "KRW",
                "payment_type": "prepayment",
                "total_amount": total,
                "net_price": net_price(total),
                "reserved_at": reserved.isoformat(),
                "confirmed_at": reserved.isoformat(),
                "canceled_at": reserved.isoformat() if status == "canceled" else None,
            }
            sale = {
                "rateplan": hub_plan,
                "vendor_property_id": vendor_id,
                "checkin": checkin,
                "checkout": checkout,
                "status": status,
                "refund_amount": total // 2 if status == "canceled" else 0,
            }
            sales.append(
                SandboxSale(
                    **sale,
                    vendor_booking_number=number,
                    gds_booking_number=f"G{number}",
                    gds_sub_booking_number=f"G{number}-1",
                    booking=answer,
                    drift="" if drift == "unknown" else drift,
                )
            )
            if drift == "unknown":
                phantom = f"VX{vendor_id[-4:].upper()}{n:08d}"
                sales.append(
                    SandboxSale(
                        **sale,
                        vendor_booking_number=phantom,
                        gds_booking_number=f"G{phantom}",
                        gds_sub_booking_number=f"G{phantom}-1",
                        booking={**answer, "vendor_booking_number": phantom},
                        drift="unknown",
                    )
                )
        Booking.objects.bulk_create(bookings)
        SandboxSale.objects.bulk_create(sales)
    return prop


def _page_all(prop):
    from bookings.settlement.hub import settlement_pages

    seen = 0
    for _count, records in settlement_pages(
        option="checkin", date_from=PERIOD[0], date_to=PERIOD[1], vendor_property_id=prop.vendor_id
    ):
        seen += len(records)
    return seen


def _reconcile(prop):
    from bookings.settlement.models import Reconciliation
    from bookings.settlement.services import reconciliation_run

    reconciliation = Reconciliation.objects.create(date_from=PERIOD[0], date_to=PERIOD[1])
    reconciliation.properties.set([prop])
    reconciliation = reconciliation_run(reconciliation_id=reconciliation.pk)
    assert reconciliation.status == "done", reconciliation.error
    return reconciliation


def _timed(action):
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def _peak_mb(action):
    tracemalloc.start()
    try:
        action()
        return round(tracemalloc.get_traced_memory()[1] / 2**20, 1)
    finally:
        tracemalloc.stop()


def _measure(prop, *, timed):
    """Peak memory of paging and of a reconciliation; with timed, the best of ROUNDS timings of each."""
    figures = {
        "bookings": prop_bookings(prop),
        "paging_peak_mb": _peak_mb(lambda: _page_all(prop)),
        "reconcile_peak_mb": _peak_mb(lambda: _reconcile(prop)),
    }
    if timed:
        paging, reconciling = [], []
        for _ in range(ROUNDS):
            seconds, records = _timed(lambda: _page_all(prop))
            paging.append(seconds)
            seconds, reconciliation = _timed(lambda: _reconcile(prop))
            reconciling.append(seconds)
        figures["hub_records"] = records
        figures["paging_seconds"] = round(min(paging), 2)
        figures["reconcile_seconds"] = round(min(reconciling), 2)
        figures["categories"] = {key: entry["count"] for key, entry in reconciliation.totals.items()}
    return figures


def prop_bookings(prop):
    from bookings.models import Booking

    return Booking.objects.filter(property=prop).count()


def report(figures):
    """The figures as a table for a terminal."""
    small, full = figures["small"], figures["full"]
    return "\n".join(
        [
            f"Settlement benchmark: {figures['database']}, Python {figures['python']}, {figures['cpus']} CPUs",
            "",
            f"reconciliation of {full['hub_records']:,} hub records against {full['bookings']:,} bookings"
            f" ({figures['drift_share']:.0%} differing): {full['categories']}",
            f"  paging the hub's list alone                {full['paging_seconds']:>10.2f} s",
            f"  the whole reconciliation                   {full['reconcile_seconds']:>10.2f} s"
            f"   ({full['time_ratio']}x paging alone; goal: at most 2x)",
            "",
            f"peak memory (tracemalloc, MB)   {'paging':>10}{'reconciliation':>16}",
            *(
                f"  {row['bookings']:>9,} bookings            {row['paging_peak_mb']:>10}{row['reconcile_peak_mb']:>16}"
                for row in (small, full)
            ),
            f"  full vs small (reconciliation): {figures['memory_ratio_full_vs_small']}x for 10x the records"
            " (goal: flat, about 1x)",
        ]
    )


if __name__ == "__main__":
    main()

"""The sandbox's settlement list (operation 20) and its fault setting (issue 13, item 1)."""

import datetime

import pytest

from hubsandbox import settlement
from hubsandbox.faults import FaultConfig, inject_faults
from hubsandbox.models import SandboxRateplan, SandboxSale, SettlementDrift

from .hubclient import error, ok

KOREA = datetime.timezone(datetime.timedelta(hours=9))
SPEC_FIELDS = {
    "booking_number",
    "channel_booking_number",
    "status",
    "type",
    "property_id",
    "vendor_property_id",
    "checkin",
    "checkout",
    "currency",
    "price_type",
    "total_amount",
    "refund_amount",
    "charged_amount",
    "net_price",
    "reserved_at",
    "confirmed_at",
    "canceled_at",
    "created_at",
}


@pytest.fixture
def rateplan(hub, prop):
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    return SandboxRateplan.objects.get(vendor_id="rp1")


def stored(rateplan, number, day, *, status="confirmed", total=100_000, drift="", refund=0, nights=1):
    """A sale as sales.sell stores it, checking in on `day` (Korea)."""
    checkin = datetime.datetime.combine(day, datetime.time(15), tzinfo=KOREA)
    checkout = datetime.datetime.combine(day + datetime.timedelta(days=nights), datetime.time(11), tzinfo=KOREA)
    booking = {
        "vendor_booking_number": number,
        "status": status,
        "type": "overnight",
        "channel_booking_number": f"CH-{number}",
        "checkin": checkin.isoformat(),
        "checkout": checkout.isoformat(),
        "currency": "KRW",
        "payment_type": "prepayment",
        "total_amount": total,
        "net_price": settlement.net_price(total),
        "reserved_at": "2026-10-01T10:00:00+09:00",
        "confirmed_at": "2026-10-01T10:00:05+09:00",
        "canceled_at": "2026-10-02T10:00:00+09:00" if status == "canceled" else None,
    }
    return SandboxSale.objects.create(
        rateplan=rateplan,
        vendor_booking_number=number,
        gds_booking_number=f"G-{number}",
        gds_sub_booking_number=f"G-{number}-1",
        status=status,
        booking=booking,
        vendor_property_id=rateplan.property.vendor_id,
        checkin=checkin,
        checkout=checkout,
        refund_amount=refund,
        drift=drift,
    )


def listing(hub, **params):
    query = "&".join(f"{key}={value}" for key, value in params.items())
    return hub.get(f"/bookings?{query}")


NOV = {"option": "checkin", "from": "2026-11-01", "to": "2026-11-30"}


def test_the_list_answers_every_spec_field_of_the_records_in_the_period(hub, rateplan):
    stored(rateplan, "VH1", datetime.date(2026, 11, 1))
    stored(rateplan, "VH2", datetime.date(2026, 11, 30), status="canceled", refund=30_000)
    stored(rateplan, "VH3", datetime.date(2026, 12, 1))  # after the period
    stored(rateplan, "VH4", datetime.date(2026, 10, 31))  # before it

    body = ok(listing(hub, **NOV, offset=0))

    assert (body["count"], body["offset"], body["limit"]) == (2, 0, 100)
    first, second = body["reservations"]
    assert set(first) == SPEC_FIELDS
    assert first["booking_number"] == "VH1"
    assert first["vendor_property_id"] == "p1"
    assert (first["total_amount"], first["refund_amount"], first["charged_amount"]) == (100_000, 0, 100_000)
    assert first["net_price"] == 90_000  # the sandbox's 10 % fee
    assert first["canceled_at"] is None
    assert (second["status"], second["refund_amount"], second["charged_amount"]) == ("cancelled", 30_000, 70_000)


def test_the_checkout_option_and_the_property_filter(hub, rateplan):
    stored(rateplan, "VH1", datetime.date(2026, 10, 31), nights=2)  # checks out on 2 November

    assert ok(listing(hub, **NOV, offset=0))["count"] == 0
    assert ok(listing(hub, **{**NOV, "option": "checkout"}, offset=0))["count"] == 1
    assert ok(listing(hub, **{**NOV, "option": "checkout"}, offset=0, vendor_property_id="p1"))["count"] == 1
    assert ok(listing(hub, **{**NOV, "option": "checkout"}, offset=0, vendor_property_id="p2"))["count"] == 0


def test_offset_and_limit_page_in_the_order_sales_were_stored(hub, rateplan):
    for n in range(7):
        stored(rateplan, f"VH{n}", datetime.date(2026, 11, 5))

    pages = [ok(listing(hub, **NOV, offset=offset, limit=3)) for offset in (0, 3, 6)]

    assert [[r["booking_number"] for r in page["reservations"]] for page in pages] == [
        ["VH0", "VH1", "VH2"],
        ["VH3", "VH4", "VH5"],
        ["VH6"],
    ]
    assert {page["count"] for page in pages} == {7}
    assert ok(listing(hub, **NOV, offset=7))["reservations"] == []


def test_a_limit_above_the_maximum_is_cut_and_said_so(hub, rateplan):
    assert ok(listing(hub, **NOV, offset=0, limit=5000))["limit"] == 1000
    with inject_faults(settlement_page_size=2):
        assert ok(listing(hub, **NOV, offset=0, limit=10))["limit"] == 2


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"from": "2026-11-01", "to": "2026-11-30", "offset": "0"}, "option"),
        ({**NOV, "option": "stay", "offset": "0"}, "option"),
        ({"option": "checkin", "to": "2026-11-30", "offset": "0"}, "from"),
        ({**NOV, "from": "2026-11-31", "offset": "0"}, "from"),
        ({**NOV, "from": "2026/11/01", "offset": "0"}, "from"),
        ({**NOV, "to": "20261130", "offset": "0"}, "to"),
        ({**NOV, "from": "2026-12-01", "offset": "0"}, "to"),
        (NOV, "offset"),
        ({**NOV, "offset": "-1"}, "offset"),
        ({**NOV, "offset": "ten"}, "offset"),
        ({**NOV, "offset": "0", "limit": "0"}, "limit"),
        ({**NOV, "offset": "0", "limit": "1.5"}, "limit"),
    ],
)
def test_bad_parameters_answer_400_naming_the_parameter(hub, params, field):
    assert error(listing(hub, **params), 400).startswith(f"{field}:")


def test_the_list_needs_the_token(hub):
    assert error(hub.get("/bookings?option=checkin&from=2026-11-01&to=2026-11-30&offset=0", authorization="x"), 401)


def test_drifted_records_differ_as_their_kind_says(hub, rateplan):
    day = datetime.date(2026, 11, 5)
    stored(rateplan, "VHA", day, drift=SettlementDrift.AMOUNT)
    stored(rateplan, "VHS", day, drift=SettlementDrift.STATUS)
    stored(rateplan, "VHU", day, drift=SettlementDrift.UNSENT)

    records = {r["booking_number"]: r for r in ok(listing(hub, **NOV, offset=0))["reservations"]}

    assert set(records) == {"VHA", "VHS"}
    assert (records["VHA"]["total_amount"], records["VHA"]["net_price"]) == (101_000, 90_900)
    assert records["VHS"]["status"] == "cancelled"  # the hub's word
    assert error(hub.get("/booking/VHU"), 404)
    lookup = ok(hub.get("/booking/VHA"))
    assert (lookup["total_amount"], lookup["net_price"], lookup["bookingNumber"]) == (101_000, 90_900, "VHA")
    assert ok(hub.get("/booking/VHS"))["status"] == "cancelled"


def test_the_lookup_omits_optional_keys_rather_than_null(hub, rateplan):
    stored(rateplan, "VH1", datetime.date(2026, 11, 5))

    body = ok(hub.get("/booking/VH1"))

    assert body["error"] == ""
    assert "update_at" in body
    assert "updated_at" not in body
    for absent in ("special_comment", "visit_type", "secondary_channel", "rateplan_id"):
        assert absent not in body
    assert body["channel_booking_number"] == "CH-VH1"


def test_the_drift_setting_is_read_from_the_environment_and_checked():
    config = FaultConfig.parse("settlement_drift_rate=0.02,settlement_drift=amount|unsent,settlement_page_size=50")
    assert config.settlement_drift == (SettlementDrift.AMOUNT, SettlementDrift.UNSENT)
    assert (config.settlement_drift_rate, config.settlement_page_size) == (0.02, 50)
    with pytest.raises(ValueError, match="settlement_drift"):
        FaultConfig.parse("settlement_drift=late")
    with pytest.raises(ValueError, match="settlement_drift_rate"):
        FaultConfig(settlement_drift_rate=1.5)


def test_refund_percent_follows_the_policy_still_ahead():
    at = datetime.datetime(2026, 11, 1, 12, tzinfo=KOREA)
    policy = {
        "refundable": True,
        "policies": [
            {"until": "2026-11-03T00:00:00+09:00", "percent": 50},
            {"until": "2026-11-02T00:00:00+09:00", "percent": 100},
            {"until": "2026-10-30T00:00:00+09:00", "percent": 100},
        ],
    }
    assert settlement.refund_percent(policy, at=at) == 100
    assert settlement.refund_percent(policy, at=at + datetime.timedelta(days=1)) == 50
    assert settlement.refund_percent(policy, at=at + datetime.timedelta(days=3)) == 0
    assert settlement.refund_percent({**policy, "refundable": False}, at=at) == 0

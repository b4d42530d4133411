"""The sandbox as the hub's settlement side: its fee, the refund it gives after a cancel, the settlement
list (GET /gds/vendor/bookings, operation 20) of the sales it stored, and the differences the fault
setting puts between its records and the vendor's bookings.

Decisions where the spec is silent (decision 0008 and decision 0021; the staff guide's "Does the money add
up?", docs/staff/owner.md):
- net_price is the booking's total minus the sandbox's fee (FEE_PERCENT), sent so in the create body;
- the refund after a cancel is the percent of the refund policy still ahead at the time of the cancel
  (0 when none is, or the booking is not refundable); charged_amount = total_amount - refund_amount;
- price_type carries the booking's payment type;
- a booking's status, in the settlement list and the single booking read alike, is the hub's own word
  (STATUS_WORDS), not an echo of the vendor's: the spec shows no status values, and the reconciliation
  must map the hub's vocabulary to ours;
- the list is in the order of the option's date, then of when the sales were stored; dates are Korea
  dates, `from` and `to` included; a limit above MAX_LIMIT is cut to it (the answer's limit says so), as
  is one above the fault setting's settlement_page_size.
"""

import datetime
import secrets
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .ari import KOREA
from .errors import NotFound
from .faults import active_injector
from .models import SandboxSale, SettlementDrift
from .validation import ValidationError

#: The sandbox's commission on each booking, in percent of total_amount.
FEE_PERCENT = 10
DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
OPTIONS = ("checkin", "checkout")
#: What an "amount" difference adds to the hub's total (KRW).
AMOUNT_DRIFT = 1000
#: The status an injected "status" difference shows instead of the vendor's.
STATUS_DRIFT = {"confirmed": "canceled", "canceled": "confirmed", "pending": "canceled"}
#: The hub's words for the vendor's booking statuses, in both booking reads (see above).
STATUS_WORDS = {"pending": "requested", "confirmed": "reserved", "canceled": "cancelled"}


def net_price(total) -> int:
    """What the hub pays the vendor for a booking of this total: the total less the sandbox's fee."""
    total = int(total)
    return total - total * FEE_PERCENT // 100


def refund_percent(policy: dict, *, at: datetime.datetime) -> int:
    """The percent refunded for a cancel at `at`, from a refund-policy answer of the vendor API."""
    if not policy.get("refundable"):
        return 0
    ahead = [item for item in policy.get("policies", []) if datetime.datetime.fromisoformat(item["until"]) >= at]
    return min(ahead, key=lambda item: item["until"])["percent"] if ahead else 0


def hub_figures(*, status: str, total_amount, drift: str) -> tuple[str, int | float]:
    """(status, total_amount) as the hub reports them: the vendor's, unless an injected drift changes one,
    the status in the hub's own word (STATUS_WORDS)."""
    if drift == SettlementDrift.STATUS:
        status = STATUS_DRIFT.get(status, status)
    if drift == SettlementDrift.AMOUNT:
        total_amount = total_amount + AMOUNT_DRIFT
    return STATUS_WORDS.get(status, status), total_amount


def sale_store(*, rateplan, body: dict, created: dict) -> SandboxSale:
    """Store a sale the vendor accepted; the fault setting may make its settlement record differ from the
    vendor's booking (and, for "unknown", adds a record of a booking the vendor never received)."""
    drift = active_injector().draw_drift() or ""
    fields = {
        "rateplan": rateplan,
        "vendor_property_id": body["property_id"],
        "checkin": datetime.datetime.fromisoformat(body["checkin"]),
        "checkout": datetime.datetime.fromisoformat(body["checkout"]),
    }
    sale = SandboxSale.objects.create(
        **fields,
        vendor_booking_number=created["vendor_booking_number"],
        gds_booking_number=body["gds_booking_number"],
        gds_sub_booking_number=body["gds_sub_booking_number"],
        status=created["status"],
        booking=created,
        drift="" if drift == SettlementDrift.UNKNOWN else drift,
    )
    if drift == SettlementDrift.UNKNOWN:
        number = "VH" + secrets.token_hex(6).upper()
        SandboxSale.objects.create(
            **fields,
            vendor_booking_number=number,
            gds_booking_number=body["gds_booking_number"] + "-X",
            gds_sub_booking_number=body["gds_sub_booking_number"] + "-X",
            status="confirmed",
            booking={**created, "vendor_booking_number": number, "status": "confirmed"},
            drift=SettlementDrift.UNKNOWN,
        )
    return sale


def _time(value):
    return value.astimezone(KOREA).isoformat() if value else None


def _number(value):
    value = Decimal(value)
    return int(value) if value == value.to_integral_value() else float(value)


def _record(row: Mapping[str, Any]) -> dict:
    booking = row["booking"]
    status, total = hub_figures(status=row["status"], total_amount=booking["total_amount"], drift=row["drift"])
    refund = _number(row["refund_amount"]) if status == STATUS_WORDS["canceled"] else 0
    return {
        "booking_number": row["vendor_booking_number"],
        "channel_booking_number": booking.get("channel_booking_number"),
        "status": status,
        "type": booking.get("type"),
        "property_id": str(row["rateplan__property_id"]),
        "vendor_property_id": row["vendor_property_id"],
        "checkin": booking["checkin"],
        "checkout": booking["checkout"],
        "currency": booking["currency"],
        "price_type": booking["payment_type"],
        "total_amount": total,
        "refund_amount": refund,
        "charged_amount": total - refund,
        "net_price": net_price(total) if row["drift"] == SettlementDrift.AMOUNT else booking["net_price"],
        "reserved_at": booking["reserved_at"],
        "confirmed_at": booking.get("confirmed_at"),
        "canceled_at": booking.get("canceled_at"),
        "created_at": _time(row["created_at"]),
    }


def _date(params, name) -> datetime.date:
    value = params.get(name)
    if not value:
        raise ValidationError(f"{name}: required, a date written YYYY-MM-DD")
    try:
        if len(value) != 10:
            raise ValueError
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise ValidationError(f"{name}: must be a date written YYYY-MM-DD") from None


def _integer(params, name, *, default=None, minimum) -> int:
    value = params.get(name)
    if value is None or value == "":
        if default is None:
            raise ValidationError(f"{name}: required, an integer")
        return default
    if not value.isdigit() or int(value) < minimum:
        raise ValidationError(f"{name}: must be an integer of at least {minimum}")
    return int(value)


def settlement_list(params) -> dict:
    """GET /gds/vendor/bookings: one page of the settlement records whose check-in (or check-out, by
    `option`) falls from `from` to `to`, optionally of one vendor property; 400 for a bad parameter."""
    option = params.get("option")
    if option not in OPTIONS:
        raise ValidationError(f"option: required, one of {', '.join(OPTIONS)}")
    start, end = _date(params, "from"), _date(params, "to")
    if end < start:
        raise ValidationError("to: must not be before from")
    offset = _integer(params, "offset", minimum=0)
    cap = active_injector().config.settlement_page_size or MAX_LIMIT
    limit = min(_integer(params, "limit", default=DEFAULT_LIMIT, minimum=1), cap, MAX_LIMIT)
    sales = SandboxSale.objects.exclude(drift=SettlementDrift.UNSENT).filter(
        **{
            f"{option}__gte": datetime.datetime.combine(start, datetime.time(0), tzinfo=KOREA),
            f"{option}__lt": datetime.datetime.combine(
                end + datetime.timedelta(days=1), datetime.time(0), tzinfo=KOREA
            ),
        }
    )
    if params.get("vendor_property_id"):
        sales = sales.filter(vendor_property_id=params["vendor_property_id"])
    # In the option's date order: the (vendor_property_id, date) and (date) indexes, which end in the row
    # id, then give each page without sorting every record of the period.
    rows = sales.order_by(option, "pk").values(
        "vendor_booking_number",
        "status",
        "booking",
        "drift",
        "refund_amount",
        "vendor_property_id",
        "rateplan__property_id",
        "created_at",
    )[offset : offset + limit]
    return {"count": sales.count(), "offset": offset, "limit": limit, "reservations": [_record(row) for row in rows]}


def sale_for_lookup(number: str) -> SandboxSale:
    """The sale operation 19 answers about; NotFound for an unknown number or a sale the hub never sent."""
    sale = SandboxSale.objects.exclude(drift=SettlementDrift.UNSENT).filter(vendor_booking_number=number).first()
    if sale is None:
        raise NotFound(f"booking {number}: not found")
    return sale

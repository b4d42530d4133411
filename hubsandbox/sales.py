"""The sandbox as the hub's booking side: it sells a room through our vendor API the way the hub would
(refund-policy lookup, signed create, confirm; optionally modify or cancel), keeps what it sold, and
answers GET /gds/vendor/booking/{n} (operation 19) from it.

It also does what the spec says the hub does and a plain sale never shows:
- the amount is the hub's own: the sum, over the nights, of the rates the vendor pushed to the sandbox (a
  package's price being the standalone rate plus its rate_modify), plus the extra charges (extra_charges:
  adults over the room type's standard capacity at the property's settings.extra_adult_price, per night);
- a sale "with no mapping" omits rateplan_id (create and refund-policy lookup alike);
- a repeated create: the channel's booking number sent again with a new hub sub-booking, which the vendor
  refuses with 400, after which the hub checks with type=channel_booking_number and takes the booking it
  finds as the sale (the spec's duplicate rule).
"""

import datetime
import json
import logging
import random
import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import requests
from django.conf import settings
from django.utils import timezone

from . import channels, settlement
from .ari import KOREA, korea_today, rate_days
from .hubs import current_hub, serving
from .models import RateplanModelType, SandboxRateplan, SandboxSale, SettlementDrift

logger = logging.getLogger(__name__)

#: Seconds the sandbox waits for each vendor API answer.
TIMEOUT_SECONDS = 10
THEN_CHOICES = ("confirm", "modify", "cancel")
CHECKIN_TIME = datetime.time(15)
CHECKOUT_TIME = datetime.time(11)
#: How far ahead, how long and what next a random sale picks (the demo's bookings arriving).
RANDOM_CHECKIN_DAYS = 14
RANDOM_MAX_NIGHTS = 3
RANDOM_THEN_WEIGHTS = {"confirm": 8, "modify": 1, "cancel": 1}
#: How often a random sale is one with no mapping (no rateplan_id), and one whose create comes twice.
RANDOM_UNMAPPED_RATE = 0.1
RANDOM_REPEAT_RATE = 0.1


class SaleImpossible(Exception):
    """No call was made: the sandbox knows no rate plan, or no rates, for the asked stay."""


class VendorClient:
    """Calls our vendor API as the hub does: bearer token and a Standard Webhooks signature."""

    def __init__(self, base_url=None, *, token=None, secret=None, timeout=TIMEOUT_SECONDS):
        self.base_url = (base_url or settings.HUB_SANDBOX_VENDOR_URL).rstrip("/")
        self.token = token or settings.VENDOR_API_TOKEN
        # Imported here: selling needs requirements-sandbox.txt, the sandbox serving as a hub does not.
        from standardwebhooks import Webhook

        self.webhook = Webhook(secret or settings.VENDOR_API_SECRETS[0])
        self.timeout = timeout
        self.session = requests.Session()

    def call(self, method: str, path: str, body=None, params=None) -> tuple[int, dict]:
        """(HTTP status, JSON answer) of one signed call; an answer that is not JSON becomes {"raw": text}."""
        data = "" if body is None else json.dumps(body, ensure_ascii=False)
        webhook_id = f"msg_{uuid.uuid4().hex}"
        now = datetime.datetime.now(tz=datetime.UTC)
        headers = {
            "Authorization": f"Bearer {self.token}",
            "Content-Type": "application/json",
            "webhook-id": webhook_id,
            "webhook-timestamp": str(int(now.timestamp())),
            "webhook-signature": self.webhook.sign(webhook_id, now, data),
        }
        response = self.session.request(
            method, self.base_url + path, data=data.encode(), params=params, headers=headers, timeout=self.timeout
        )
        try:
            answer = response.json()
        except ValueError:
            answer = {"raw": response.text[:2000]}
        return response.status_code, answer


@dataclass
class Step:
    """One call of a sale: its name, our HTTP status and our answer, and what the hub expects of them
    (200 unless said; `want` holds answer values it requires)."""

    name: str
    status: int
    answer: dict
    expected: int = 200
    want: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status == self.expected and all(self.answer.get(key) == value for key, value in self.want.items())


@dataclass
class SaleResult:
    """What a sale did: every call in order, and the stored sale if the vendor accepted the create."""

    steps: list[Step] = field(default_factory=list)
    sale: SandboxSale | None = None

    @property
    def refusal(self) -> Step | None:
        """The step the vendor refused (the last one), or None when every call succeeded."""
        return self.steps[-1] if self.steps and not self.steps[-1].ok else None

    @property
    def ok(self) -> bool:
        return self.refusal is None


def nightly_amounts(rateplan: SandboxRateplan, nights: list[datetime.date]) -> list[dict] | None:
    """[{date, amount}] per night from the rates the sandbox holds (common values), or None when a night
    has no rate or is not a business day."""
    ids = (rateplan.property.vendor_id, rateplan.roomtype.vendor_id)
    own = rate_days(*ids, rateplan.vendor_id)
    base = own
    if rateplan.rateplan_model.type == RateplanModelType.PACKAGE:
        standalone = SandboxRateplan.objects.filter(
            roomtype=rateplan.roomtype, rateplan_model__type=RateplanModelType.STANDALONE
        ).first()
        base = rate_days(*ids, standalone.vendor_id) if standalone else {}
    amounts = []
    for night in nights:
        day, base_day = own.get(night, {}), base.get(night, {})
        if day.get("business_day") is False or "rate" not in base_day:
            return None
        if rateplan.rateplan_model.type == RateplanModelType.PACKAGE and "rate_modify" not in day:
            return None
        amounts.append({"date": night.isoformat(), "amount": base_day["rate"] + day.get("rate_modify", 0)})
    return amounts


def _rateplans(property_id=None, roomtype_id=None, rateplan_id=None, *, every_hub=False):
    queryset = SandboxRateplan.objects.select_related("property", "roomtype", "rateplan_model").order_by(
        "property__vendor_id", "roomtype__vendor_id", "vendor_id"
    )
    if not every_hub:
        queryset = queryset.filter(property__hub=current_hub())
    if property_id:
        queryset = queryset.filter(property__vendor_id=property_id)
    if roomtype_id:
        queryset = queryset.filter(roomtype__vendor_id=roomtype_id)
    if rateplan_id:
        queryset = queryset.filter(vendor_id=rateplan_id)
    return queryset


def _pick(rateplans, nights):
    for rateplan in rateplans:
        amounts = nightly_amounts(rateplan, nights)
        if amounts is not None:
            return rateplan, amounts
    raise SaleImpossible("the sandbox knows no rate plan with rates for every night of this stay")


def extra_charges(rateplan: SandboxRateplan, *, adults: int, nights: int) -> int:
    """What the hub adds to the nightly amounts (the spec: amount is the per-night amounts plus extra
    charges): each adult over the room type's standard_capacity at the property's
    settings.extra_adult_price, each night; nothing where either is unset. Children and infants: none
    (the spec prices extra adults only)."""
    price = (rateplan.property.content.get("settings") or {}).get("extra_adult_price")
    standard = rateplan.roomtype.content.get("standard_capacity")
    if not price or not standard or adults <= standard:
        return 0
    return (adults - standard) * price * nights


def create_body(
    rateplan, *, checkin, nights, amounts, adults, channel_id=1, channel_name="Sandbox channel", unmapped=False
):
    """The create body the hub sends for one room (decision 0011); without rateplan_id when
    unmapped (the spec: "omitted for bookings with no mapping")."""
    number = uuid.uuid4().hex[:12].upper()
    amount = sum(item["amount"] for item in amounts) + extra_charges(rateplan, adults=adults, nights=nights)
    body = {
        "channel_id": channel_id,
        "channel_name": channel_name,
        "channel_booking_number": f"SBX-CH-{number}",
        "gds_booking_number": f"SBX-{number}",
        "gds_sub_booking_number": f"SBX-{number}-1",
        "property_id": rateplan.property.vendor_id,
        "roomtype_id": rateplan.roomtype.vendor_id,
        "rateplan_id": rateplan.vendor_id,
        "type": "overnight",
        "checkin": datetime.datetime.combine(checkin, CHECKIN_TIME, tzinfo=KOREA).isoformat(),
        "checkout": datetime.datetime.combine(
            checkin + datetime.timedelta(days=nights), CHECKOUT_TIME, tzinfo=KOREA
        ).isoformat(),
        "currency": "KRW",
        "amount": amount,
        "rates": amounts,
        "total_amount": amount,
        "net_price": settlement.net_price(amount),
        "payment_type": "prepayment",
        "guest": {"name": "Sandbox Guest", "adults": adults, "children": 0, "infants": 0, "pets": 0, "cars": 0},
        "booker": {"name": "Sandbox Guest", "email": "guest@example.com", "phone": "010-0000-0000"},
        "reserved_at": timezone.now().astimezone(KOREA).isoformat(timespec="seconds"),
    }
    if unmapped:
        del body["rateplan_id"]
    return body


def sell(
    *,
    property_id=None,
    roomtype_id=None,
    rateplan_id=None,
    checkin=None,
    nights=1,
    adults=2,
    then="confirm",
    unmapped=False,
    repeat=False,
    client=None,
) -> SaleResult:
    """Sells one room as the hub would and returns every step. The first rate plan (in id order) that
    matches the given ids and has rates for every night is sold (priced from it, and sent without its id
    when unmapped); repeat sends the create again with the same channel booking number before the
    confirm (see the module's docstring); checkin defaults to tomorrow in Korea. Raises SaleImpossible
    when there is none (no call made)."""
    if then not in THEN_CHOICES:
        raise ValueError(f"then must be one of {THEN_CHOICES}")
    rateplan, body = _sale_body(
        property_id=property_id,
        roomtype_id=roomtype_id,
        rateplan_id=rateplan_id,
        checkin=checkin,
        nights=nights,
        adults=adults,
        unmapped=unmapped,
    )
    client = client or VendorClient()
    result = SaleResult()

    def step(name, method, path, payload=None, params=None, **expect):
        status, answer = client.call(method, path, payload, params)
        result.steps.append(Step(name, status, answer, **expect))
        if status == 200 and result.sale is not None and "vendor_booking_number" in answer:
            result.sale.status, result.sale.booking = answer["status"], answer
            result.sale.save(update_fields=["status", "booking", "updated_at"])
        return result.steps[-1].ok

    keys = ("property_id", "roomtype_id", "rateplan_id", "checkin", "checkout")
    policy_query = {key: body[key] for key in keys if key in body}
    if not step("refund-policy", "GET", "/refund-policy", params=policy_query):
        return result
    if not step("create", "POST", "/bookings", body):
        return result
    policy = result.steps[0].answer
    created = result.steps[-1].answer
    result.sale = settlement.sale_store(rateplan=rateplan, body=body, created=created)
    path = f"/bookings/{created['vendor_booking_number']}"
    if repeat and not _repeat(step, body, created):
        return result
    if not step("confirm", "PUT", f"{path}/confirm"):
        return result
    if then == "modify":
        step("modify", "PUT", f"{path}/modify", {"special_comment": "Late arrival, around 22:00", "visit_type": "car"})
    elif then == "cancel" and step("cancel", "POST", f"{path}/cancel"):
        percent = settlement.refund_percent(policy, at=timezone.now())
        result.sale.refund_amount = result.sale.booking["total_amount"] * percent // 100
        result.sale.save(update_fields=["refund_amount", "updated_at"])
    return result


def _sale_body(*, property_id, roomtype_id, rateplan_id, checkin, nights, adults, unmapped):
    """The rate plan sell sells and the hub's create body of the stay (see sell); SaleImpossible when no
    rate plan matching the ids has rates for every night, or no channel sells it."""
    if nights < 1:
        raise SaleImpossible("a stay has at least one night")
    checkin = checkin or korea_today() + datetime.timedelta(days=1)
    night_dates = [checkin + datetime.timedelta(days=n) for n in range(nights)]
    rateplan, amounts = _pick(_rateplans(property_id, roomtype_id, rateplan_id), night_dates)
    channel = channels.selling_channel(
        property_id=rateplan.property.vendor_id, roomtype_id=rateplan.roomtype.vendor_id, rateplan_id=rateplan.vendor_id
    )
    if channel is None:
        raise SaleImpossible(f"no channel sells rate plan {rateplan.vendor_id} (open, on sale and mapped)")
    body = create_body(
        rateplan,
        checkin=checkin,
        nights=nights,
        amounts=amounts,
        adults=adults,
        channel_id=channel.channel_id,
        channel_name=channel.name,
        unmapped=unmapped,
    )
    return rateplan, body


def _repeat(step, body, created) -> bool:
    """The channel's create received twice: the same channel booking number as a new hub sub-booking,
    which the vendor must refuse (400), then the check by channel booking number, which must answer the
    booking already made (the spec's duplicate rule). Whether both went as the hub expects."""
    number = uuid.uuid4().hex[:6].upper()
    again = {**body, "gds_sub_booking_number": f"{body['gds_sub_booking_number']}-{number}"}
    if not step("create again (same channel booking number)", "POST", "/bookings", again, expected=400):
        return False
    return step(
        "check by channel booking number",
        "GET",
        f"/bookings/{quote(body['channel_booking_number'], safe='')}",
        params={"type": "channel_booking_number", "channel_id": body["channel_id"]},
        want={"vendor_booking_number": created["vendor_booking_number"]},
    )


def sell_at_random(*, rng=None, client=None) -> SaleResult | None:
    """Sells one room of a random rate plan the sandbox holds, for a random stay in the next
    RANDOM_CHECKIN_DAYS days and a random number of adults up to the room type's maximum, then mostly
    confirms it (sometimes modifies or cancels); now and then with no mapping, or with its create sent
    twice: what the demo shows arriving. None, with the reason logged, when there is nothing to sell or
    our vendor API cannot be reached (the web process is not up yet)."""
    rng = rng or random.Random()  # noqa: S311 - a demo's choice, not a secret
    plans = list(
        _rateplans(every_hub=True).values_list(
            "property__hub", "property__vendor_id", "roomtype__vendor_id", "vendor_id", "roomtype__content"
        )
    )
    if not plans:
        logger.info("sandbox sale: the sandbox holds no rate plan yet")
        return None
    hub, property_id, roomtype_id, rateplan_id, roomtype = rng.choice(plans)
    try:
        with serving(hub):
            return sell(
                property_id=property_id,
                roomtype_id=roomtype_id,
                rateplan_id=rateplan_id,
                checkin=korea_today() + datetime.timedelta(days=rng.randint(1, RANDOM_CHECKIN_DAYS)),
                nights=rng.randint(1, RANDOM_MAX_NIGHTS),
                adults=rng.randint(1, roomtype.get("max_capacity") or 2),
                then=rng.choices(list(RANDOM_THEN_WEIGHTS), weights=list(RANDOM_THEN_WEIGHTS.values()))[0],
                unmapped=rng.random() < RANDOM_UNMAPPED_RATE,
                repeat=rng.random() < RANDOM_REPEAT_RATE,
                client=client,
            )
    except SaleImpossible as error:
        logger.info("sandbox sale of %s: %s", rateplan_id, error)
    except OSError as error:
        logger.warning("sandbox sale of %s: the vendor API did not answer: %s", rateplan_id, error)
    return None


#: Optional keys of the spec's Booking (single retrieval response), omitted when empty.
_OPTIONAL = ("type", "channel_booking_number", "rateplan_id", "special_comment", "visit_type", "secondary_channel")
_COPIED = (
    "status",
    "type",
    "channel_id",
    "channel_name",
    "channel_booking_number",
    "gds_booking_number",
    "gds_sub_booking_number",
    "property_id",
    "roomtype_id",
    "rateplan_id",
    "checkin",
    "checkout",
    "currency",
    "amount",
    "total_amount",
    "net_price",
    "payment_type",
    "guest",
    "booker",
    "reserved_at",
    "confirmed_at",
    "canceled_at",
    "special_comment",
    "visit_type",
    "secondary_channel",
)


def booking_lookup(number: str) -> dict:
    """GET /gds/vendor/booking/{vendor_booking_number}: the spec's Booking (single retrieval response)
    of a booking the sandbox sold, with the differences the fault setting put in its records; NotFound
    otherwise (also for a sale the hub never sent)."""
    sale = settlement.sale_for_lookup(number)
    booking = sale.booking
    answer: dict[str, Any] = {"error": "", "bookingNumber": sale.vendor_booking_number}
    answer.update({key: booking.get(key) for key in _COPIED})
    answer["status"], answer["total_amount"] = settlement.hub_figures(
        status=sale.status, total_amount=booking["total_amount"], drift=sale.drift
    )
    if sale.drift == SettlementDrift.AMOUNT:
        answer["net_price"] = settlement.net_price(answer["total_amount"])
    answer["update_at"] = booking.get("updated_at")
    answer["request_at"] = timezone.now().astimezone(KOREA).isoformat()
    for key in _OPTIONAL:
        if answer[key] in (None, ""):
            del answer[key]
    return answer

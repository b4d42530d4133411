"""Every hub API path in one table (decision 0001).

The spec leaves the leading segments of several paths unshown; we fill them in as decision 0001 says.
Correcting one to the operator's real documentation is a change to this file only.
"""

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

PREFIX = "/gds/vendor"

#: The hub takes dates of rates, availability and stays from today (Korea time) to today + 730 days
#: (decision 0006).
WINDOW_DAYS = 730


#: OURS (decision 0022): the request budgets a hub keeps per property per minute (Channex: 10 rate and 10
#: availability requests per property per minute, 429 beyond): rates (ARI_RATES), availability (ARI_AVAILS),
#: and content, every other call about one property, reads included.
BUDGET_RATES = "rates"
BUDGET_AVAILABILITY = "availability"
BUDGET_CONTENT = "content"


@dataclass(frozen=True)
class Endpoint:
    """One hub operation: its HTTP method, its path template below PREFIX, and the request budget its calls
    spend (decision 0022; "" for a call about no one property)."""

    name: str
    method: str
    template: str
    budget: str = ""

    def path(self, **params: Any) -> str:
        """The full path with each {placeholder} filled in, URL-quoted."""
        return PREFIX + self.template.format(**{key: quote(str(value), safe="") for key, value in params.items()})

    def budget_property(self, params: dict[str, Any], body: Any) -> str | None:
        """The vendor id of the property whose budget a call spends, or None for a call about no one property:
        the path's {pid}, or for POST /properties the id in its body (decision 0022)."""
        if not self.budget:
            return None
        if "pid" in params:
            return str(params["pid"])
        return str(body["id"]) if isinstance(body, dict) and "id" in body else None


#: OURS (decision 0017): the characters a vendor id may hold (the spec: "ids are strings of at most 40 characters"). An
#: id is a segment of the hub's paths, so it holds letters and digits (of any script), "-", "_" and ".",
#: and starts with a letter or a digit (an id "." or ".." would vanish from a path as a dot-segment).
#: Forms, the admin and CSV files refuse any other; an id stored before the rule still reaches the hub,
#: since path() quotes each segment whole ("a/b" travels as a%2Fb).
VENDOR_ID_PATTERN = r"[^\W_][\w.-]*"
#: SPEC: the longest vendor id.
VENDOR_ID_MAX_LENGTH = 40

_P = "/properties/{pid}"
_RT = _P + "/roomtypes/{rid}"

#: SPEC: GET /meta takes no parameters (a hub may refuse any it does not know).
CATALOG = Endpoint("catalog", "GET", "/meta")

PROPERTY_CREATE = Endpoint("property.create", "POST", "/properties", BUDGET_CONTENT)
PROPERTY_UPDATE = Endpoint("property.update", "PATCH", _P, BUDGET_CONTENT)
PROPERTY_READ = Endpoint("property.read", "GET", _P, BUDGET_CONTENT)
ROOMTYPE_CREATE = Endpoint("roomtype.create", "POST", _P + "/roomtypes", BUDGET_CONTENT)
ROOMTYPE_UPDATE = Endpoint("roomtype.update", "PATCH", _RT, BUDGET_CONTENT)
ROOMTYPE_READ = Endpoint("roomtype.read", "GET", _RT, BUDGET_CONTENT)
RATEPLAN_MODEL_CREATE = Endpoint("rateplan_model.create", "POST", _P + "/rateplan-models", BUDGET_CONTENT)
RATEPLAN_MODEL_UPDATE = Endpoint("rateplan_model.update", "PATCH", _P + "/rateplan-models/{mid}", BUDGET_CONTENT)
RATEPLAN_MODEL_READ = Endpoint("rateplan_model.read", "GET", _P + "/rateplan-models/{mid}", BUDGET_CONTENT)
RATEPLAN_CREATE = Endpoint("rateplan.create", "POST", _RT + "/rateplans", BUDGET_CONTENT)
RATEPLAN_UPDATE = Endpoint("rateplan.update", "PATCH", _RT + "/rateplans/{rpid}", BUDGET_CONTENT)
RATEPLAN_READ = Endpoint("rateplan.read", "GET", _RT + "/rateplans/{rpid}", BUDGET_CONTENT)
ARI_RATES = Endpoint("ari.rates", "POST", _RT + "/rateplans/{rpid}/ari", BUDGET_RATES)
ARI_AVAILS = Endpoint("ari.avails", "POST", _RT + "/ari/avails", BUDGET_AVAILABILITY)
LICENSE_SUBMIT = Endpoint("license.submit", "POST", _P + "/licenses", BUDGET_CONTENT)
LICENSE_LIST = Endpoint("license.list", "GET", _P + "/licenses", BUDGET_CONTENT)
LICENSE_READ = Endpoint("license.read", "GET", _P + "/licenses/{license_id}", BUDGET_CONTENT)
BOOKING_READ = Endpoint("booking.read", "GET", "/booking/{number}")
SETTLEMENT_LIST = Endpoint("settlement.list", "GET", "/bookings")
CHANNEL_LIST = Endpoint("channel.list", "GET", "/channels")
CHANNEL_READ = Endpoint("channel.read", "GET", "/channels/{channel_id}")
PROPERTY_CHANNELS = Endpoint("property_channels.list", "GET", _P + "/channels", BUDGET_CONTENT)
OPEN_REQUEST_CREATE = Endpoint(
    "open_request.create", "POST", _P + "/channels/{channel_id}/open-requests", BUDGET_CONTENT
)
OPEN_REQUEST_LIST = Endpoint("open_request.list", "GET", _P + "/open-requests", BUDGET_CONTENT)
OPEN_REQUEST_READ = Endpoint("open_request.read", "GET", _P + "/open-requests/{request_id}", BUDGET_CONTENT)
CHANNEL_SETTINGS_READ = Endpoint("channel_settings.read", "GET", _P + "/channels/{channel_id}/settings", BUDGET_CONTENT)
CHANNEL_SETTINGS_UPDATE = Endpoint(
    "channel_settings.update", "PATCH", _P + "/channels/{channel_id}/settings", BUDGET_CONTENT
)
CHANNEL_MAPPINGS_READ = Endpoint("channel_mappings.read", "GET", _P + "/channels/{channel_id}/mappings", BUDGET_CONTENT)
CHANNEL_MAPPINGS_REPLACE = Endpoint(
    "channel_mappings.replace", "PUT", _P + "/channels/{channel_id}/mappings", BUDGET_CONTENT
)
#: OURS (decision 0007): the settlement list's limit defaults to 100 and is at most this; the hub may answer
#: fewer records than asked, so a reader advances offset by the records received until it reaches count.
SETTLEMENT_MAX_LIMIT = 1000

"""The vendor API's input limits (OURS, decision 0013), in one place. Anything outside
them answers 400 code 3000 before a row is written; README's Vendor API section documents them."""

import datetime

from core.dates import korea_today
from integration.hub.endpoints import WINDOW_DAYS

#: The largest request body read (bytes). A create body is a few KB (a 365-night `rates` array about
#: 16 KB); a larger body is refused on its Content-Length before it is read, and a body without one
#: (Transfer-Encoding: chunked) is refused unread. Checked after the token and the signature headers,
#: so an unsigned caller still gets 403 code 2000.
MAX_BODY_BYTES = 256 * 1024

#: The deepest JSON nesting accepted (a create body nests 3 levels: rates, entry). Deeper bodies are
#: refused whatever their size, before any field is read.
MAX_JSON_DEPTH = 16

#: Every date-time the API takes lies within these bounds, far inside what Python, PostgreSQL and SQLite
#: round-trip in any offset (year 1 at +14:00 is year 0 in UTC, which PostgreSQL stores as BC and
#: nothing can load back). The windows below narrow them further.
EARLIEST_DATETIME = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
LATEST_DATETIME = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)

#: A check-in (Korea date) from yesterday, for a guest arriving after midnight, to the last day the hub
#: sells (today + 730 days, decision 0006); also the window of the refund-policy query.
CHECKIN_EARLIEST_DAYS = -1
CHECKIN_LATEST_DAYS = WINDOW_DAYS

#: The longest stay one booking may hold (nights); a `rates` array has at most one entry per night.
MAX_NIGHTS = 365

#: `reserved_at` is in the past: at most this far ahead of our clock (a hub clock running fast).
RESERVED_AT_MAX_AHEAD = datetime.timedelta(days=1)

#: The largest amount (KRW) of any money field: far above any real stay, far below the columns' 12 digits.
MAX_AMOUNT = 10_000_000_000


def checkin_window(today: datetime.date | None = None) -> tuple[datetime.date, datetime.date]:
    """The first and last Korea date a stay may start."""
    today = today or korea_today()
    return (
        today + datetime.timedelta(days=CHECKIN_EARLIEST_DAYS),
        today + datetime.timedelta(days=CHECKIN_LATEST_DAYS),
    )

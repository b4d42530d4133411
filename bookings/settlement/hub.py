"""The hub's booking reads: one booking (operation 19) and the settlement list (operation 20), read page by
page as decision 0007 says (advance offset by the records received until it reaches count)."""

import time
from collections.abc import Iterator

from integration.hub import endpoints
from integration.hub.client import HubError, HubHTTPError, get_hub_client
from integration.sync.services.sender import retry_delay

#: Tries of one page when the hub is busy or unreachable, before the reconciliation fails.
PAGE_TRIES = 4


class HubListBroken(HubError):
    """The hub's settlement list answered something a reader cannot page through."""


def booking_read(number: str, *, client=None) -> dict | None:
    """The hub's Booking (single retrieval response) of one vendor booking number; None when the hub
    answers 404 (it does not know it). Other failures raise HubError."""
    client = client or get_hub_client()
    try:
        return client.call(endpoints.BOOKING_READ, path_params={"number": number}).data
    except HubHTTPError as error:
        if error.status == 404:
            return None
        raise


def _page(client, query):
    for attempt in range(1, PAGE_TRIES + 1):
        try:
            return client.call(endpoints.SETTLEMENT_LIST, query=query).data
        except HubError as error:
            if not error.retryable or attempt == PAGE_TRIES:
                raise
            time.sleep(retry_delay(attempt, error.retry_after))
    raise AssertionError("unreachable")


def settlement_pages(
    *, option: str, date_from, date_to, vendor_property_id=None, limit=endpoints.SETTLEMENT_MAX_LIMIT, client=None
) -> Iterator[tuple[int, list[dict]]]:
    """Yields (the hub's count, the page's records) for each page of the settlement list, never holding
    more than one page. A busy hub is tried again (PAGE_TRIES); an empty page before count is reached
    raises HubListBroken rather than looping."""
    client = client or get_hub_client()
    query = {"option": option, "from": date_from.isoformat(), "to": date_to.isoformat(), "limit": str(limit)}
    if vendor_property_id:
        query["vendor_property_id"] = vendor_property_id
    offset = 0
    while True:
        answer = _page(client, {**query, "offset": str(offset)})
        if not isinstance(answer, dict) or not isinstance(answer.get("reservations"), list):
            raise HubListBroken("The hub's settlement list answered without a reservations array.")
        records, count = answer["reservations"], answer.get("count")
        if not isinstance(count, int):
            raise HubListBroken("The hub's settlement list answered without a count.")
        if records:
            yield count, records
        offset += len(records)
        if offset >= count:
            return
        if not records:
            raise HubListBroken(f"The hub's settlement list stopped at {offset} of {count} records.")


def settlement_count(*, option: str, date_from, date_to, vendor_property_id=None, client=None) -> int:
    """The number of records the hub's settlement list holds for these filters (one record read)."""
    client = client or get_hub_client()
    query = {"option": option, "from": date_from.isoformat(), "to": date_to.isoformat(), "offset": "0", "limit": "1"}
    if vendor_property_id:
        query["vendor_property_id"] = vendor_property_id
    answer = _page(client, query)
    if not isinstance(answer, dict) or not isinstance(answer.get("count"), int):
        raise HubListBroken("The hub's settlement list answered without a count.")
    return answer["count"]

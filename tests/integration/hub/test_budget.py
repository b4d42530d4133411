"""The request budget per hub, property and kind (decision 0022): at most N requests in any window of
WINDOW_SECONDS + MARGIN_SECONDS, the wait until a slot frees, 0 = off; on the database (SQLite, PostgreSQL)
and on Redis, with the same rule; and under threads taking slots of one budget at once."""

import threading
import time
import uuid
from types import SimpleNamespace

import pytest
from django.db import connection
from django.utils import translation

from integration.hub import budget, endpoints
from integration.hub import client as client_module
from integration.hub.budget import SPAN_SECONDS, budget_take
from integration.hub.client import HubBudgetSpent, HubClient, HubHTTPError
from integration.hub.endpoints import BUDGET_AVAILABILITY, BUDGET_CONTENT, BUDGET_RATES

pytestmark = pytest.mark.django_db(transaction=True)

HUB = "http://hub.example/gds"


class Clock:
    """The budget's clock, moved by hand."""

    def __init__(self, now=1_000_000.0):
        self.now = now

    def time(self):
        return self.now


@pytest.fixture(params=["database", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request, settings):
    """The budget on the database (whatever the broker) or on the broker's Redis, emptied."""
    if request.param == "database":
        settings.CELERY_BROKER_URL = "filesystem://localhost/"
    else:
        request.getfixturevalue("hub_budget")
    return request.param


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(budget, "time", SimpleNamespace(time=clock.time))
    return clock


def test_a_budget_of_zero_is_off(backend, clock, settings):
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 0

    assert {budget_take(HUB, "p1", BUDGET_CONTENT) for _ in range(50)} == {0.0}


def test_n_slots_then_the_wait_until_the_oldest_leaves_the_window(backend, clock, settings):
    settings.HUB_BUDGET_RATES_PER_MINUTE = 3
    taken = []
    for _step in range(3):
        clock.now += 10
        taken.append(clock.now)
        assert budget_take(HUB, "p1", BUDGET_RATES) == 0.0

    clock.now += 5
    assert budget_take(HUB, "p1", BUDGET_RATES) == pytest.approx(taken[0] + SPAN_SECONDS - clock.now)
    # A refusal takes nothing: asking again later still waits for the same oldest slot.
    clock.now += 20
    assert budget_take(HUB, "p1", BUDGET_RATES) == pytest.approx(taken[0] + SPAN_SECONDS - clock.now)
    clock.now = taken[0] + SPAN_SECONDS + 0.001
    assert budget_take(HUB, "p1", BUDGET_RATES) == 0.0
    assert budget_take(HUB, "p1", BUDGET_RATES) == pytest.approx(taken[1] + SPAN_SECONDS - clock.now)


def test_never_more_than_n_in_any_window_of_a_minute_and_the_margin(backend, clock, settings):
    """Asking every 0.5 s for 5 minutes, taking whenever allowed: every window of SPAN_SECONDS holds at most N
    slots, and the budget is used (N in each such window)."""
    settings.HUB_BUDGET_AVAILABILITY_PER_MINUTE = 10
    taken = []
    for _ in range(600):
        clock.now += 0.5
        if budget_take(HUB, "p1", BUDGET_AVAILABILITY) == 0.0:
            taken.append(clock.now)

    assert max(sum(1 for t in taken if start <= t < start + SPAN_SECONDS) for start in taken) == 10
    assert len(taken) == 50  # 10 at once, then 10 every SPAN_SECONDS (61 s) of the 300


def test_each_hub_property_and_kind_has_its_own_budget(backend, clock, settings):
    settings.HUB_BUDGET_RATES_PER_MINUTE = settings.HUB_BUDGET_AVAILABILITY_PER_MINUTE = 1
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 1
    assert budget_take(HUB, "p1", BUDGET_RATES) == 0.0
    assert budget_take(HUB, "p1", BUDGET_RATES) > 0

    assert budget_take(HUB, "p2", BUDGET_RATES) == 0.0
    assert budget_take(HUB, "p1", BUDGET_AVAILABILITY) == 0.0
    assert budget_take(HUB, "p1", BUDGET_CONTENT) == 0.0
    assert budget_take("http://other-hub.example/gds", "p1", BUDGET_RATES) == 0.0


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["database", pytest.param("redis", marks=pytest.mark.redis)], indirect=True)
def test_threads_taking_slots_of_one_budget_at_once_never_get_more_than_n(backend, settings):
    """8 threads, each with its own connection, ask 6 times each as fast as they can (real clock): within the
    window exactly N of the 48 get a slot."""
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 10
    granted: list[int] = []
    errors: list[Exception] = []
    start = threading.Barrier(8)

    def take():
        try:
            start.wait()
            granted.extend(1 for _ in range(6) if budget_take(HUB, "busy", BUDGET_CONTENT) == 0.0)
        except Exception as error:  # reported by the test below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=take) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert len(granted) == 10


# --- Where it is taken: the hub client ----------------------------------------------------------------


def test_threads_asking_for_the_first_redis_client_at_once_share_one(monkeypatch, settings):
    """A second client made by a racing thread would be dropped, and a dropped client closes its pool under
    the thread still using it: CI saw "I/O operation on closed file" from the threads above."""
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:1/{uuid.uuid4().int % 16}?first={uuid.uuid4()}"  # never used
    make = budget.redis.Redis.from_url

    def slow_from_url(url):
        time.sleep(0.01)  # widens the race the lock closes
        return make(url)

    monkeypatch.setattr(budget.redis.Redis, "from_url", slow_from_url)
    start = threading.Barrier(8)
    clients = []

    def ask():
        start.wait()
        clients.append(budget._redis())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert len(clients) == 8
    assert len({id(client) for client in clients}) == 1


def test_every_call_about_a_property_has_a_kind_and_its_property(settings):
    assert endpoints.ARI_RATES.budget == BUDGET_RATES
    assert endpoints.ARI_AVAILS.budget == BUDGET_AVAILABILITY
    assert endpoints.PROPERTY_CHANNELS.budget == endpoints.LICENSE_LIST.budget == BUDGET_CONTENT
    assert endpoints.PROPERTY_READ.budget_property({"pid": "p1"}, None) == "p1"
    assert endpoints.PROPERTY_CREATE.budget_property({}, {"id": "p2", "i18n": []}) == "p2"
    for about_no_property in (endpoints.CATALOG, endpoints.CHANNEL_LIST, endpoints.SETTLEMENT_LIST):
        assert about_no_property.budget_property({}, None) is None
    assert endpoints.BOOKING_READ.budget_property({"number": "B1"}, None) is None


@pytest.fixture
def budgeted_client(hub, hub_budget, settings, monkeypatch):
    """The hub client, with a content budget of 2 a minute and its sleeps recorded instead of slept (each
    moves the budget's clock on)."""
    settings.HUB_BUDGET_CONTENT_PER_MINUTE = 2
    clock = Clock()
    monkeypatch.setattr(budget, "time", SimpleNamespace(time=clock.time))
    slept = []

    def sleep(seconds):
        slept.append(seconds)
        clock.now += seconds

    monkeypatch.setattr(client_module, "time", SimpleNamespace(sleep=sleep, monotonic=time.monotonic))
    return HubClient(base_url=settings.HUB_BASE_URL, token=settings.HUB_API_TOKEN), slept


def _property_reads(hub):
    return hub.request_log(path="/gds/vendor/properties/p1").count()


def test_a_budgeted_call_waits_for_its_slot_then_is_sent(budgeted_client, hub):
    client, slept = budgeted_client
    for _ in range(3):
        with pytest.raises(HubHTTPError):  # 404: the hub has no p1, the request went all the same
            client.call(endpoints.PROPERTY_READ, path_params={"pid": "p1"})

    assert slept == [pytest.approx(SPAN_SECONDS)]
    assert _property_reads(hub) == 3
    # Calls about no property are not budgeted.
    assert {client.call(endpoints.CATALOG).status for _ in range(3)} == {200}
    assert len(slept) == 1


def test_the_senders_mode_raises_before_sending_anything(budgeted_client, hub):
    client, slept = budgeted_client
    for _ in range(2):
        with pytest.raises(HubHTTPError):
            client.call(endpoints.PROPERTY_READ, path_params={"pid": "p1"}, wait=False)

    with pytest.raises(HubBudgetSpent) as spent:
        client.call(endpoints.PROPERTY_READ, path_params={"pid": "p1"}, wait=False)

    assert spent.value.seconds == pytest.approx(SPAN_SECONDS)
    assert (spent.value.kind, spent.value.limit) == (BUDGET_CONTENT, 2)
    assert _property_reads(hub) == 2
    assert slept == []
    with translation.override("ko"):
        assert "요청 한도" in spent.value.message

"""The hub's rules hold when requests race (PostgreSQL: real row locks and constraints)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from hubsandbox import state

pytestmark = pytest.mark.postgres


@pytest.fixture
def post(live_server, transactional_db, settings):
    """POSTs to the sandbox served by the live server, each call on its own connection."""
    headers = {"Authorization": f"{settings.HUB_AUTH_SCHEME} {settings.HUB_API_TOKEN}".strip()}
    base = f"{live_server.url}/sandbox/gds/vendor"
    return lambda path, body: requests.post(base + path, json=body, headers=headers, timeout=10).status_code


def _race(post, calls):
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return sorted(pool.map(lambda call: post(*call), calls))


def test_racing_creates_of_one_property_give_one_200(post):
    assert _race(post, [("/properties", {"id": "p1", "i18n": [{"locale": "ko-KR"}]})] * 8) == [200] + [409] * 7


def test_racing_standalone_models_leave_exactly_one(post):
    assert post("/properties", {"id": "p1", "i18n": [{"locale": "ko-KR"}]}) == 200
    body = {"type": "standalone", "i18n": [{"locale": "ko-KR", "name": "기본"}]}
    calls = [("/properties/p1/rateplan-models", body | {"id": f"m{index}"}) for index in range(8)]
    assert _race(post, calls) == [200] + [400] * 7
    assert [model["type"] for model in state.list_resources("rateplan_model")] == ["standalone"]

"""The sandbox as strict as the spec where our own sender could otherwise pass and the real hub refuse
(issue 24): null only where the spec allows it, exactly one standalone model before rate plans, the sale
window, ids holding "/" found by their quoted segment, and URIs written in ASCII."""

import pytest

from hubsandbox import state

from .hubclient import KO, error, ok

MODEL = {"id": "m1", "type": "package", "i18n": [KO]}


def test_null_clears_the_fields_the_spec_marks_nullable(hub, prop):
    ok(hub.patch(f"/properties/{prop}", {"settings": {"extra_adult_price": 10}}))
    assert ok(hub.patch(f"/properties/{prop}", {"settings": {"extra_adult_price": None}}))["settings"] == {
        "extra_adult_price": None
    }
    full = MODEL | {"sale_from": "2027-01-01", "sale_to": "2027-01-31", "min_los": 1, "max_los": 7, "channels": [3]}
    ok(hub.post(f"/properties/{prop}/rateplan-models", full))
    cleared = dict.fromkeys(("sale_from", "sale_to", "min_los", "max_los", "channels"))

    body = ok(hub.patch(f"/properties/{prop}/rateplan-models/m1", {"i18n": [KO]} | cleared))

    assert not cleared.keys() & body.keys()


def test_a_patch_may_not_end_the_sale_window_before_it_starts(hub, prop):
    ok(hub.post(f"/properties/{prop}/rateplan-models", MODEL | {"sale_to": "2027-01-31"}))

    message = error(hub.patch(f"/properties/{prop}/rateplan-models/m1", {"i18n": [KO], "sale_from": "2027-02-01"}), 400)

    assert (
        message == "sale_to: 2027-01-31 is before sale_from 2027-02-01: the sale window must end on or after its start"
    )
    assert "sale_from" not in state.get_resource("rateplan_model", prop, "m1")
    ok(hub.patch(f"/properties/{prop}/rateplan-models/m1", {"i18n": [KO], "sale_from": "2027-01-31"}))


def test_rate_plans_arrive_only_once_the_property_has_its_standalone_model(hub):
    ok(hub.post("/properties", {"id": "p9", "i18n": [KO]}))
    ok(hub.post("/properties/p9/roomtypes", {"id": "r1", "i18n": [KO]}))
    ok(hub.post("/properties/p9/rateplan-models", MODEL))  # a package model alone is accepted
    plan = {"id": "rp1", "vendor_rateplan_model_id": "m1"}

    message = error(hub.post("/properties/p9/roomtypes/r1/rateplans", plan), 400)

    assert message == (
        "vendor_rateplan_model_id: property 'p9' has no standalone rate plan model; "
        "a property has exactly one, before any rate plan"
    )
    assert state.list_resources("rateplan", "p9") == []
    ok(hub.post("/properties/p9/rateplan-models", {"id": "std", "type": "standalone", "i18n": [KO]}))
    ok(hub.post("/properties/p9/roomtypes/r1/rateplans", plan))


def test_a_patch_may_not_leave_a_property_without_its_standalone_model(hub):
    """SPEC: exactly one standalone model per property (issue 41): the one it has cannot become a package,
    whether or not rate plans arrived yet; its other fields still change."""
    ok(hub.post("/properties", {"id": "p8", "i18n": [KO]}))
    ok(hub.post("/properties/p8/rateplan-models", {"id": "std", "type": "standalone", "i18n": [KO]}))
    ok(hub.post("/properties/p8/rateplan-models", MODEL))

    message = error(hub.patch("/properties/p8/rateplan-models/std", {"i18n": [KO], "type": "package"}), 400)

    assert message == (
        "type: rate plan model 'std' is the standalone rate plan model of property 'p8'; "
        "a property has exactly one, so it cannot become a package"
    )
    assert state.get_resource("rateplan_model", "p8", "std")["type"] == "standalone"
    # Nor can the role move by making the package standalone first.
    error(hub.patch("/properties/p8/rateplan-models/m1", {"i18n": [KO], "type": "standalone"}), 400)
    ok(hub.patch("/properties/p8/rateplan-models/std", {"i18n": [KO], "type": "standalone", "min_los": 2}))


@pytest.mark.parametrize(("vendor_id", "segment"), [("a/b", "a%2Fb"), ("50%", "50%25"), ("서촌/한옥", "서촌%2F한옥")])
def test_an_id_holding_a_slash_or_a_percent_is_found_by_its_quoted_segment(hub, vendor_id, segment):
    ok(hub.post("/properties", {"id": vendor_id, "i18n": [KO]}))

    assert ok(hub.patch(f"/properties/{segment}", {"phone": "02-000-0000"}))["id"] == vendor_id
    assert ok(hub.get(f"/properties/{segment}"))["phone"] == "02-000-0000"
    ok(hub.post(f"/properties/{segment}/roomtypes", {"id": "r/1", "i18n": [KO]}))
    assert ok(hub.get(f"/properties/{segment}/roomtypes/r%2F1"))["id"] == "r/1"
    assert state.request_log(method="PATCH").get().path == f"/gds/vendor/properties/{segment}"


def test_a_path_with_more_segments_is_not_an_id_holding_a_slash(hub):
    ok(hub.post("/properties", {"id": "a/b", "i18n": [KO]}))

    assert error(hub.get("/properties/a/b"), 404) == "no hub endpoint GET /gds/vendor/properties/a/b"


def test_a_url_with_korean_letters_must_be_sent_percent_encoded(hub, prop):
    photo = {"url": "https://img.example.com/객실.jpg", "order": 0}

    assert error(hub.patch(f"/properties/{prop}", {"photos": [photo]}), 400).startswith(
        "photos[0].url: must be an absolute URI"
    )
    encoded = {"url": "https://img.example.com/%EA%B0%9D%EC%8B%A4.jpg", "order": 0}
    assert ok(hub.patch(f"/properties/{prop}", {"photos": [encoded]}))["photos"] == [encoded]

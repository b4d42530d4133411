"""Changing the sandbox's copy behind the vendor's back (for the drift check's tests and demos): the
Python helpers and the admin action; the hub's own GET then answers the changed copy."""

import json

from django.urls import reverse

from hubsandbox import state
from hubsandbox.models import SandboxProperty, SandboxRateplanModel

from .hubclient import KO, ok


def test_alter_resource_merges_the_patch_and_the_hub_answers_it(hub, prop):
    changed = state.alter_resource(
        "property", "p1", patch={"email": "x@hub.example", "settings": {"extra_adult_price": 5}}
    )
    assert changed == ok(hub.get("/properties/p1"))
    assert (changed["email"], changed["settings"]) == ("x@hub.example", {"extra_adult_price": 5})

    state.alter_resource("property", "p1", patch={"email": None})
    assert "email" not in ok(hub.get("/properties/p1"))
    assert state.alter_resource("roomtype", "p1", "r1", patch={"bedtype": {"bunk_beds": 2}})["bedtype"] == {
        "bunk_beds": 2
    }


def test_forget_resource_makes_the_hub_answer_404(hub, prop):
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "pkg"}))
    state.forget_resource("rateplan_model", "p1", "pkg")  # with the rate plan sold under it
    assert hub.get("/properties/p1/rateplan-models/pkg").status_code == 404
    assert hub.get("/properties/p1/roomtypes/r1/rateplans/rp1").status_code == 404
    assert hub.get("/properties/p1/rateplan-models/std").status_code == 200


def test_superusers_change_the_hubs_copy_from_the_admin(admin_client, hub, prop):
    url = reverse("admin:hubsandbox_sandboxproperty_changelist")
    pk = SandboxProperty.objects.get(vendor_id="p1").pk
    action = {"action": "alter_behind_vendors_back", "_selected_action": [pk]}

    form_page = admin_client.post(url, action)
    assert form_page.status_code == 200
    assert form_page.context["form"].is_bound is False

    refused = admin_client.post(url, {**action, "apply": "1", "patch": "[1, 2]"})
    assert refused.status_code == 200
    assert refused.context["form"].errors["patch"]

    done = admin_client.post(url, {**action, "apply": "1", "patch": '{"phone": "02-000-0000"}'})
    assert done.status_code == 302
    assert ok(hub.get("/properties/p1"))["phone"] == "02-000-0000"


def test_the_action_is_on_every_kind_of_content(admin_client, hub, prop):
    pk = SandboxRateplanModel.objects.get(vendor_id="std").pk
    url = reverse("admin:hubsandbox_sandboxrateplanmodel_changelist")
    patch = {"i18n": [KO], "refundable": True}
    response = admin_client.post(
        url,
        {
            "action": "alter_behind_vendors_back",
            "_selected_action": [pk],
            "apply": "1",
            "patch": json.dumps(patch),
        },
    )
    assert response.status_code == 302
    assert state.get_resource("rateplan_model", "p1", "std")["refundable"] is True
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "pkg"}))
    rateplans = admin_client.get(reverse("admin:hubsandbox_sandboxrateplan_changelist"))
    assert "alter_behind_vendors_back" in rateplans.content.decode()

"""The Python API that tests and benchmarks read the sandbox with, and its read-only admin."""

import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import translation

from hubsandbox import state
from hubsandbox.models import SandboxProperty, SandboxRateplan, SandboxRateplanModel, SandboxRequest, SandboxRoomtype

from .hubclient import KO, ok


@pytest.fixture
def rateplan(hub, prop):
    ok(hub.post(f"/properties/{prop}/roomtypes/r1/rateplans", {"id": "rp1", "vendor_rateplan_model_id": "std"}))
    return "rp1"


def test_get_resource_by_path_ids(hub, prop, rateplan):
    assert state.get_resource("property", "p1") == ok(hub.get("/properties/p1"))
    assert state.get_resource("roomtype", "p1", "r1") == ok(hub.get("/properties/p1/roomtypes/r1"))
    assert state.get_resource("rateplan_model", "p1", "std") == ok(hub.get("/properties/p1/rateplan-models/std"))
    assert state.get_resource("rateplan", "p1", "r1", "rp1") == ok(hub.get("/properties/p1/roomtypes/r1/rateplans/rp1"))
    assert state.get_resource("roomtype", "p1", "r9") is None
    assert state.get_resource("rateplan", "p9", "r1", "rp1") is None
    with pytest.raises(TypeError):
        state.get_resource("rateplan", "p1", "rp1")
    with pytest.raises(ValueError, match="'photo'"):
        state.get_resource("photo", "p1")


def test_list_resources(hub, prop):
    ok(hub.post("/properties", {"id": "p2", "i18n": [KO]}))
    ok(hub.post("/properties/p2/rateplan-models", {"id": "m", "i18n": [KO]}))
    assert [item["id"] for item in state.list_resources("property")] == ["p1", "p2"]
    assert [item["id"] for item in state.list_resources("rateplan_model")] == ["pkg", "std", "m"]
    assert [item["id"] for item in state.list_resources("rateplan_model", "p2")] == ["m"]
    assert state.list_resources("property", "p2")[0]["id"] == "p2"


def test_request_log_counts_requests_and_bytes(hub):
    body = {"id": "p1", "i18n": [{"locale": "ko-KR", "name": "한옥"}]}
    answer = hub.post("/properties", body)
    hub.get("/meta?locale=en-US")
    hub.get("/properties/p1", authorization="wrong")

    posted = state.request_log(method="post").get()
    assert posted.path == "/gds/vendor/properties"
    assert posted.request_bytes == len(json.dumps(body).encode())
    assert json.loads(posted.request_body) == body
    assert posted.response_status == 200
    assert posted.response_bytes == len(answer.content)
    assert state.request_log(path="/gds/vendor/meta").get().query == "locale=en-US"
    assert state.request_log(path_prefix="/gds/vendor/properties").count() == 2
    assert [entry.response_status for entry in state.request_log()] == [200, 400, 401]

    totals = state.request_totals(path_prefix="/gds/vendor/properties")
    assert totals["count"] == 2
    assert totals["request_bytes"] == posted.request_bytes
    assert state.request_totals(method="DELETE") == {"count": 0, "request_bytes": 0, "response_bytes": 0}


def test_reset_empties_the_hub(hub, prop, rateplan):
    state.reset()
    for model in (SandboxProperty, SandboxRoomtype, SandboxRateplanModel, SandboxRateplan, SandboxRequest):
        assert not model.objects.exists()
    ok(hub.post("/properties", {"id": "p1", "i18n": [KO]}))


ADMIN_MODELS = ["sandboxproperty", "sandboxroomtype", "sandboxrateplanmodel", "sandboxrateplan", "sandboxrequest"]


@pytest.mark.parametrize("model", ADMIN_MODELS)
def test_superusers_see_the_sandbox_read_only(admin_client, hub, prop, rateplan, model):
    changelist = admin_client.get(reverse(f"admin:hubsandbox_{model}_changelist"))
    assert changelist.status_code == 200
    first = changelist.context["cl"].result_list[0]
    detail = admin_client.get(reverse(f"admin:hubsandbox_{model}_change", args=[first.pk]))
    assert detail.status_code == 200
    assert not detail.context["has_change_permission"]
    assert admin_client.get(reverse(f"admin:hubsandbox_{model}_add")).status_code == 403
    assert admin_client.post(reverse(f"admin:hubsandbox_{model}_delete", args=[first.pk])).status_code == 403


def test_admin_detail_shows_the_read_shape(admin_client, hub, prop):
    detail = admin_client.get(
        reverse("admin:hubsandbox_sandboxproperty_change", args=[SandboxProperty.objects.get().pk])
    )
    assert "&quot;extra_adult_price&quot;: null" in detail.content.decode()
    assert "바다펜션" in detail.content.decode()


def test_admin_lists_do_not_load_the_json(admin_client, hub, prop):
    changelist = admin_client.get(reverse("admin:hubsandbox_sandboxproperty_changelist"))
    assert changelist.context["cl"].result_list[0].get_deferred_fields() == {"content"}
    changelist = admin_client.get(reverse("admin:hubsandbox_sandboxrequest_changelist"))
    assert changelist.context["cl"].result_list[0].get_deferred_fields() == {"request_body", "response_body"}


def test_staff_without_superuser_cannot_see_the_sandbox(client, django_user_model, hub, prop):
    staff = django_user_model.objects.create_user("staff", password="pw", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(content_type__app_label="hubsandbox"))
    client.force_login(staff)
    for model in ADMIN_MODELS:
        assert client.get(reverse(f"admin:hubsandbox_{model}_changelist")).status_code == 403
    assert client.get(reverse("admin:app_list", args=["hubsandbox"])).status_code == 404


def test_admin_strings_are_translated_to_korean():
    with translation.override("ko"):
        assert str(SandboxProperty._meta.verbose_name_plural) == "허브 숙소"
        assert str(SandboxRequest._meta.get_field("fault").verbose_name) == "주입된 장애"

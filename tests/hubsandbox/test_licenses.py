"""The sandbox hub's license operations (16-18): submission with the spec's validation, list, detail,
review and supersession."""

import base64
import datetime
import hashlib
import json

import pytest
from django.contrib.auth.models import Permission
from django.urls import reverse
from django.utils import timezone

from hubsandbox import state
from hubsandbox.licenses import MAX_FILE_BYTES, PERMIT_TYPES, ReviewRefused, license_review
from hubsandbox.models import SandboxLicense, SandboxRequest
from tests.licenses.files import EXE, GIF, JPEG, TRUNCATED_PNG, WEBP, pdf_bytes, pdf_of_size, png_bytes
from tests.licenses.test_validators import single_digit_changes

from .hubclient import KO, ok
from .hubclient import error as hub_error

PDF64 = base64.b64encode(pdf_bytes()).decode()


def permit(**data):
    return {
        "type": "permit",
        "data": {"type": "hanok_experience", "number": "제2024-0001호", "date": "2024-03-01", "file": PDF64, **data},
    }


def business(**data):
    return {
        "type": "business",
        "data": {
            "type": "corporation",
            "number": "220-81-62517",
            "owner_name": "김민수",
            "open_date": "2020-05-04",
            "file": PDF64,
            "name": "주식회사 한옥스테이",
            "address": "서울특별시 종로구 계동길 5",
            "industry": "숙박업",
            "category": "한옥체험업",
            **data,
        },
    }


def submit(hub, body, property_id="p1"):
    return hub.post(f"/properties/{property_id}/licenses", body)


def refused(hub, body, property_id="p1"):
    return hub_error(submit(hub, body, property_id), 400)


def stop_clock_at(utc_text, monkeypatch):
    instant = datetime.datetime.fromisoformat(utc_text).replace(tzinfo=datetime.UTC)
    monkeypatch.setattr(timezone, "now", lambda: instant)


# --- Submission ---------------------------------------------------------------------------------------


def test_a_permit_is_accepted_pending_with_the_result_shape(hub, prop):
    result = ok(submit(hub, {**permit(), "comment": "확인 부탁드립니다."}))

    assert set(result) == {"id", "type", "status", "reason", "created_at", "updated_at"}
    assert isinstance(result["id"], int)
    assert (result["type"], result["status"], result["reason"]) == ("permit", "pending", None)
    assert datetime.datetime.fromisoformat(result["created_at"]).utcoffset() == datetime.timedelta(hours=9)
    stored = SandboxLicense.objects.get(pk=result["id"])
    assert (stored.file_format, stored.file_bytes) == ("pdf", len(pdf_bytes()))
    assert stored.file_sha256 == hashlib.sha256(pdf_bytes()).hexdigest()


@pytest.mark.parametrize("number", ["220-81-62517", "2208162517", "124-81-00998"])
def test_business_numbers_with_or_without_hyphens_are_accepted(hub, prop, number):
    ok(submit(hub, business(number=number)))


def test_a_sole_proprietor_may_leave_out_the_corporation_fields(hub, prop):
    body = business(type="personal")
    for name in ("name", "address", "industry", "category"):
        del body["data"][name]
    ok(submit(hub, body))
    ok(submit(hub, business(type="personal", name=None, industry=None)))


@pytest.mark.parametrize("content", [JPEG, png_bytes(), GIF, WEBP, pdf_bytes()])
def test_every_accepted_format(hub, prop, content):
    ok(submit(hub, permit(file=base64.b64encode(content).decode())))


def test_every_permit_type_is_accepted(hub, prop):
    assert len(PERMIT_TYPES) == 22
    for permit_type in PERMIT_TYPES:
        ok(submit(hub, permit(type=permit_type)))


def test_a_file_of_10_mib_fits_in_the_request_and_one_byte_more_does_not(hub, prop):
    ok(submit(hub, permit(file=base64.b64encode(pdf_of_size(MAX_FILE_BYTES)).decode())))
    assert "at most" in refused(hub, permit(file=base64.b64encode(pdf_of_size(MAX_FILE_BYTES + 1)).decode()))


def test_a_maximal_submission_fits_within_the_upload_limit(hub, prop, settings):
    """The largest valid body (10 MiB file, longest fields, a comment escaped as \\uXXXX) is not refused
    as too large by DATA_UPLOAD_MAX_MEMORY_SIZE."""
    body = business(
        file=base64.b64encode(pdf_of_size(MAX_FILE_BYTES)).decode(),
        owner_name="가" * 128,
        name="가" * 254,
        address="가" * 254,
        industry="가" * 64,
        category="가" * 64,
    )
    body["comment"] = "가" * 16000
    raw = json.dumps(body)  # ASCII-escaped: the largest spelling of the same body
    assert len(raw) <= settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    ok(hub.post("/properties/p1/licenses", None, raw=raw))
    assert len(raw) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE - 512 * 1024  # and the limit is not far above it


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"data": permit()["data"]}, "type"),
        ({"type": "permit"}, "data"),
        ({"type": "license", "data": {}}, "type"),
        ({**permit(), "extra": 1}, "extra"),
        (permit(type="hotel"), "data.type"),
        (permit(type=None), "data.type"),
        (permit(number=""), "data.number"),
        (permit(number="1" * 255), "data.number"),
        (permit(date="2024-02-30"), "data.date"),
        (permit(date="01/03/2024"), "data.date"),
        (permit(file=""), "data.file"),
        (permit(file="not base64!"), "data.file"),
        (permit(file=PDF64[:-1]), "data.file"),
        (permit(file="data:application/pdf;base64," + PDF64), "data.file"),
        (permit(file=base64.b64encode(EXE).decode()), "data.file"),
        (permit(file=base64.b64encode(TRUNCATED_PNG).decode()), "data.file"),
        (permit(file=base64.urlsafe_b64encode(b"\xff\xd8\xff\xe0" + b"\xfb\xff" * 30).decode()), "data.file"),
        (permit(owner_name="김민수"), "data.owner_name"),
        ({**permit(), "comment": "가" * 16001}, "comment"),
        (business(number="220-81-62518"), "data.number"),
        (business(number="22081625"), "data.number"),
        (business(number="220_81_62517"), "data.number"),
        (business(number=2208162517), "data.number"),
        (business(owner_name=""), "data.owner_name"),
        (business(owner_name="가" * 129), "data.owner_name"),
        (business(name="가" * 255), "data.name"),
        (business(address=""), "data.address"),
        (business(industry="가" * 65), "data.industry"),
        (business(category="가" * 65), "data.category"),
        (business(name=None), "data.name"),
        (business(type="partnership"), "data.type"),
        (business(open_date="2020-13-01"), "data.open_date"),
    ],
)
def test_invalid_submissions_are_400_naming_the_field(hub, prop, body, field):
    message = refused(hub, body)

    assert message.startswith(f"{field}:"), message
    assert not SandboxLicense.objects.exists()


def test_every_single_digit_change_of_a_real_number_is_400(hub, prop):
    for changed in single_digit_changes("2208162517"):
        message = refused(hub, business(number=changed))
        assert message.startswith("data.number:"), (changed, message)
        assert "check digit" in message, (changed, message)
    assert not SandboxLicense.objects.exists()


def test_future_dates_are_judged_in_korea_time(hub, prop, monkeypatch):
    stop_clock_at("2026-11-21T16:00:00", monkeypatch)  # 01:00 on 22 November in Seoul

    ok(submit(hub, permit(date="2026-11-22")))
    assert refused(hub, permit(date="2026-11-23")).startswith("data.date: must not be in the future")
    assert refused(hub, business(open_date="2026-11-23")).startswith("data.open_date:")


def test_unknown_property_is_404(hub, prop):
    assert "property 'nowhere'" in hub_error(submit(hub, permit(), "nowhere"), 404)
    hub_error(hub.get("/properties/nowhere/licenses"), 404)


def test_licenses_need_the_token(hub, prop):
    hub_error(hub.post("/properties/p1/licenses", permit(), authorization="wrong"), 401)
    hub_error(hub.get("/properties/p1/licenses", authorization=""), 401)


def test_other_methods_are_405(hub, prop):
    hub_error(hub.patch("/properties/p1/licenses", permit()), 405)


def test_the_request_log_never_holds_the_file(hub, prop):
    content = pdf_of_size(200_000)
    encoded = base64.b64encode(content).decode()
    body = permit(file=encoded)

    ok(submit(hub, body))

    logged = SandboxRequest.objects.get(method="POST", path="/gds/vendor/properties/p1/licenses")
    assert encoded not in logged.request_body
    assert json.loads(logged.request_body)["data"]["file"] == f"[{len(encoded)} characters removed]"
    assert logged.request_bytes == len(json.dumps(body).encode())


# --- List and detail ----------------------------------------------------------------------------------


def test_list_is_newest_first_and_paged(hub, prop):
    ids = [ok(submit(hub, {**permit(), "comment": f"#{n}"}))["id"] for n in range(3)]
    ok(submit(hub, business()))
    ok(hub.post("/properties", {"id": "p2", "i18n": [{"locale": "ko-KR", "name": "다른 숙소"}]}))
    ok(submit(hub, permit(), "p2"))

    page = ok(hub.get("/properties/p1/licenses?offset=0&limit=2"))

    assert (page["count"], page["offset"], page["limit"]) == (4, 0, 2)
    assert [item["type"] for item in page["licenses"]] == ["business", "permit"]
    assert page["licenses"][1]["id"] == ids[2]
    assert set(page["licenses"][1]) == {"id", "type", "status", "reason", "comment", "created_at", "updated_at"}
    rest = ok(hub.get("/properties/p1/licenses?offset=2&limit=2"))
    assert [item["id"] for item in rest["licenses"]] == [ids[1], ids[0]]
    assert [item["comment"] for item in rest["licenses"]] == ["#1", "#0"]
    default = ok(hub.get("/properties/p1/licenses"))
    assert (default["offset"], default["limit"], len(default["licenses"])) == (0, 100, 4)


def test_comment_is_null_when_none_was_sent(hub, prop):
    ok(submit(hub, permit()))
    assert ok(hub.get("/properties/p1/licenses"))["licenses"][0]["comment"] is None


@pytest.mark.parametrize(("query", "field"), [("offset=-1", "offset"), ("limit=0", "limit"), ("limit=1001", "limit")])
def test_bad_paging_is_400(hub, prop, query, field):
    assert hub_error(hub.get(f"/properties/p1/licenses?{query}"), 400).startswith(f"{field}:")


def test_permit_detail_has_data_has_file_and_no_file(hub, prop):
    license_id = ok(submit(hub, {**permit(), "comment": "참고"}))["id"]

    detail = ok(hub.get(f"/properties/p1/licenses/{license_id}"))

    assert set(detail) == {
        "id",
        "type",
        "status",
        "reason",
        "comment",
        "created_at",
        "updated_at",
        "data",
        "has_file",
        "histories",
    }
    assert detail["data"] == {"type": "hanok_experience", "number": "제2024-0001호", "date": "2024-03-01"}
    assert detail["has_file"] is True
    assert detail["histories"] == []
    assert PDF64 not in json.dumps(detail)


def test_business_detail_masks_the_number_and_nulls_what_was_not_sent(hub, prop):
    body = business(type="personal", number="2208162517")
    for name in ("name", "address", "industry", "category"):
        del body["data"][name]
    license_id = ok(submit(hub, body))["id"]
    hyphenated_id = ok(submit(hub, business()))["id"]

    data = ok(hub.get(f"/properties/p1/licenses/{license_id}"))["data"]
    assert data == {
        "type": "personal",
        "number": "22081*****",
        "owner_name": "김민수",
        "open_date": "2020-05-04",
        "name": None,
        "address": None,
        "industry": None,
        "category": None,
    }
    assert ok(hub.get(f"/properties/p1/licenses/{hyphenated_id}"))["data"]["number"] == "220-81-*****"


def test_detail_of_another_propertys_or_an_unknown_request_is_404(hub, prop):
    license_id = ok(submit(hub, permit()))["id"]
    ok(hub.post("/properties", {"id": "p2", "i18n": [KO]}))

    hub_error(hub.get(f"/properties/p2/licenses/{license_id}"), 404)
    hub_error(hub.get(f"/properties/p1/licenses/{license_id + 100}"), 404)
    hub_error(hub.get("/properties/p1/licenses/abc"), 404)


# --- Review and supersession -------------------------------------------------------------------------


def test_review_confirms_or_rejects_with_history_newest_first(hub, prop):
    first = ok(submit(hub, permit()))["id"]
    second = ok(submit(hub, business()))["id"]

    state.review_license(first, "confirm")
    rejected = state.review_license(second, "reject", "사업자등록증 사본이 흐립니다.")

    confirmed = ok(hub.get(f"/properties/p1/licenses/{first}"))
    assert (confirmed["status"], confirmed["reason"]) == ("confirm", None)
    assert [entry["status"] for entry in confirmed["histories"]] == ["confirm"]
    assert (rejected["status"], rejected["reason"]) == ("reject", "사업자등록증 사본이 흐립니다.")
    assert rejected["histories"][0]["reason"] == "사업자등록증 사본이 흐립니다."
    assert ok(hub.get(f"/properties/p1/licenses/{second}")) == rejected


def test_a_rejection_needs_a_reason_and_only_pending_requests_are_reviewed(hub, prop):
    license_id = ok(submit(hub, permit()))["id"]
    with pytest.raises(ReviewRefused, match="reason"):
        license_review(license_id=license_id, status="reject", reason="  ")
    license_review(license_id=license_id, status="confirm")
    with pytest.raises(ReviewRefused, match="not pending"):
        license_review(license_id=license_id, status="reject", reason="late")


def test_a_new_submission_supersedes_pending_ones_of_the_same_type_only(hub, prop):
    confirmed = ok(submit(hub, permit()))["id"]
    state.review_license(confirmed, "confirm")
    old_permit = ok(submit(hub, permit(number="old")))["id"]
    old_business = ok(submit(hub, business()))["id"]

    new_permit = ok(submit(hub, permit(number="new")))["id"]

    superseded = ok(hub.get(f"/properties/p1/licenses/{old_permit}"))
    assert (superseded["status"], superseded["reason"]) == ("reject", f"Superseded by request {new_permit}")
    assert superseded["histories"][0] == {
        "status": "reject",
        "reason": f"Superseded by request {new_permit}",
        "created_at": superseded["updated_at"],
    }
    assert ok(hub.get(f"/properties/p1/licenses/{confirmed}"))["status"] == "confirm"
    assert ok(hub.get(f"/properties/p1/licenses/{old_business}"))["status"] == "pending"
    assert ok(hub.get(f"/properties/p1/licenses/{new_permit}"))["status"] == "pending"


def test_supersession_stays_within_the_property(hub, prop):
    ok(hub.post("/properties", {"id": "p2", "i18n": [KO]}))
    other = ok(submit(hub, permit(), "p2"))["id"]

    ok(submit(hub, permit()))

    assert ok(hub.get(f"/properties/p2/licenses/{other}"))["status"] == "pending"


def test_reset_forgets_licenses(hub, prop):
    license_id = ok(submit(hub, permit()))["id"]
    state.reset()
    assert state.license_of(license_id) is None


# --- The sandbox admin: the hub's reviewer ------------------------------------------------------------


@pytest.fixture
def reviewer(client, superuser):
    client.force_login(superuser)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_reviewer_confirms_in_the_admin(hub, prop, reviewer):
    license_id = ok(submit(hub, permit()))["id"]

    reviewer.post(
        reverse("admin:hubsandbox_sandboxlicense_changelist"),
        {"action": "confirm_selected", "_selected_action": [license_id]},
    )

    assert state.license_of(license_id)["status"] == "confirm"


def test_the_reviewer_rejects_with_a_reason_in_the_admin(hub, prop, reviewer):
    license_id = ok(submit(hub, permit()))["id"]
    url = reverse("admin:hubsandbox_sandboxlicense_changelist")

    asked = reviewer.post(url, {"action": "reject_selected", "_selected_action": [license_id]})
    assert asked.status_code == 200
    assert "reason" in asked.context["form"].fields
    assert [pk for pk, _description in asked.context["rows"]] == [license_id]
    assert f'value="{license_id}"' in asked.content.decode()
    assert state.license_of(license_id)["status"] == "pending"

    reviewer.post(
        url, {"action": "reject_selected", "_selected_action": [license_id], "apply": "1", "reason": "만료된 허가증"}
    )

    detail = state.license_of(license_id)
    assert (detail["status"], detail["reason"]) == ("reject", "만료된 허가증")


def test_the_admin_detail_shows_the_hub_detail_without_the_file(hub, prop, reviewer):
    license_id = ok(submit(hub, business()))["id"]

    page = reviewer.get(reverse("admin:hubsandbox_sandboxlicense_change", args=[license_id])).content.decode()

    assert "220-81-*****" in page
    assert "62517" not in page
    assert PDF64[:40] not in page


def test_only_superusers_review(hub, prop, client, staff_a):
    license_id = ok(submit(hub, permit()))["id"]
    staff_a.user_permissions.add(*Permission.objects.filter(content_type__app_label="hubsandbox"))
    client.force_login(staff_a)

    response = client.post(
        reverse("admin:hubsandbox_sandboxlicense_changelist"),
        {"action": "confirm_selected", "_selected_action": [license_id]},
    )

    assert response.status_code == 403
    assert state.license_of(license_id)["status"] == "pending"

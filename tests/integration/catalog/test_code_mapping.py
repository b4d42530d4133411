"""The code mapping table: its admin, and the CSV import (preview, apply, refused files) as a manager."""

import pytest
from django.conf import settings
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from integration.catalog.services.mapping import MAPPING_MAX_BYTES, code_mappings_import, code_mappings_read_csv
from integration.models import CodeMapping
from tests.integration.catalog.data import store_catalog

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:integration_codemapping_changelist")
IMPORT = reverse("admin:integration_codemapping_import")

FILE = """group,vendor_code,hub_code,note
facility,POOL-OUT,pool.outdoor,야외
facility,PARK,parking,
view,SEA,ocean,sea side
amenity,TUB,bathtub,
"""
FILE_WITH_ERRORS = (
    FILE
    + """castle,X,hotel,
facility,,pool,
facility,PARK,wifi,
facility,SPA,spa,
"""
)


@pytest.fixture
def catalog():
    return store_catalog()


@pytest.fixture
def stored(catalog):
    """Two mappings already there: SEA (its note about to change) and TUB (unchanged)."""
    CodeMapping.objects.create(group="view", vendor_code="SEA", hub_code="ocean", note="old note")
    CodeMapping.objects.create(group="amenity", vendor_code="TUB", hub_code="bathtub")


@pytest.fixture
def manager_client(client, manager_a):
    client.force_login(manager_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def upload(client, text, *, name="mapping.csv", encoding="utf-8"):
    content = text if isinstance(text, bytes) else text.encode(encoding)
    return client.post(IMPORT, {"file": SimpleUploadedFile(name, content, "text/csv"), "preview": "Preview"})


def plan_table(response):
    """The preview as (line, action, vendor code, details) per row."""
    return [
        (row.line, row.action, row.vendor_code, [str(text) for text in (*row.problems, *row.changes)])
        for row in response.context["plan"].rows
    ]


def mappings():
    return set(CodeMapping.objects.values_list("group", "vendor_code", "hub_code", "note"))


# --- The plan (service) ------------------------------------------------------------------------


@pytest.mark.usefixtures("stored")
def test_the_plan_tells_create_update_unchanged_and_error_with_the_reason():
    with translation.override("en"):
        plan = code_mappings_import(code_mappings_read_csv(FILE_WITH_ERRORS.encode()), apply=False)
        rows = [(row.line, row.action, [str(text) for text in (*row.problems, *row.changes)]) for row in plan.rows]

    assert rows == [
        (2, "create", []),
        (3, "create", []),
        (4, "update", ["note: old note → sea side"]),
        (5, "unchanged", []),
        (6, "error", [f"Unknown group “castle”; use one of {', '.join(sorted_groups())}."]),
        (7, "error", ["Our code (vendor_code) is empty."]),
        (8, "error", ["Our code “PARK” is already mapped in line 3 of this file."]),
        (9, "error", ["The hub code “spa” is not in the hub's catalog (Facility)."]),
    ]
    assert plan.counts == {"create": 2, "update": 1, "unchanged": 1, "error": 4}
    assert not plan.applied


def sorted_groups():
    return ["classification", "property", "facility", "service", "attraction", "roomtype", "amenity", "view"]


@pytest.mark.usefixtures("stored")
def test_applying_a_plan_with_errors_writes_nothing():
    before = mappings()

    plan = code_mappings_import(code_mappings_read_csv(FILE_WITH_ERRORS), apply=True)

    assert plan.has_errors
    assert not plan.applied
    assert mappings() == before


@pytest.mark.usefixtures("stored")
def test_applying_a_clean_plan_writes_every_row():
    plan = code_mappings_import(code_mappings_read_csv(FILE), apply=True)

    assert plan.applied
    assert mappings() == {
        ("facility", "POOL-OUT", "pool.outdoor", "야외"),
        ("facility", "PARK", "parking", ""),
        ("view", "SEA", "ocean", "sea side"),
        ("amenity", "TUB", "bathtub", ""),
    }
    assert {row.mapping_id for row in plan.rows} == set(CodeMapping.objects.values_list("pk", flat=True))


def test_hub_codes_cannot_be_checked_before_the_catalog_was_fetched():
    with translation.override("en"):
        plan = code_mappings_import(code_mappings_read_csv(FILE), apply=True)

    assert not plan.applied
    assert {row.action for row in plan.rows} == {"error"}
    assert "Fetch the hub's code catalog first" in str(plan.rows[0].problems[0])


@pytest.mark.usefixtures("catalog")
def test_lines_with_too_many_values_or_too_long_codes_are_errors():
    text = f"group,vendor_code,hub_code\nfacility,A,pool,extra\nfacility,{'B' * 101},pool\nfacility,C,pool,,\n"

    with translation.override("en"):
        rows = code_mappings_import(code_mappings_read_csv(text), apply=False).rows

    assert [(row.action, [str(problem) for problem in row.problems]) for row in rows] == [
        ("error", ["The line has more values than the header."]),
        ("error", ["vendor_code is longer than 100 characters."]),
        ("create", []),
    ]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("그룹,코드\n".encode("cp949"), "The file is not UTF-8 text"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "The file is not UTF-8 text"),
        (b"group,vendor_code,hub_code\nfacility,\x00,pool\n", "This is not a CSV file."),
        (b"vendor,hub\nA,pool\n", "The first line must be the header group,vendor_code,hub_code,note."),
        (b"group,vendor_code,hub_code,note,colour\n", "The first line must be the header"),
        (b"group,vendor_code,hub_code,note\n\n,,,\n", "The file has a header but no rows."),
        (b"", "The first line must be the header"),
        (b"x" * (MAPPING_MAX_BYTES + 1), "The file is larger than 1024 KB"),
    ],
)
def test_unusable_files_are_refused_with_the_reason(content, message):
    with translation.override("en"), pytest.raises(ValidationError) as raised:
        code_mappings_read_csv(content)

    assert raised.value.messages[0].startswith(message)


def test_a_byte_order_mark_and_spaces_around_values_are_ignored():
    rows = code_mappings_read_csv("\ufeff Group , vendor_code,hub_code\r\n facility , A ,pool\r\n".encode())

    assert [(row.line, row.group, row.vendor_code, row.hub_code, row.note) for row in rows] == [
        (2, "facility", "A", "pool", "")
    ]


# --- The import screens -----------------------------------------------------------------------


@pytest.mark.usefixtures("stored")
def test_a_manager_previews_then_applies_a_file(manager_client):
    preview = upload(manager_client, FILE)

    assert preview.status_code == 200
    assert [(line, action) for line, action, _code, _details in plan_table(preview)] == [
        (2, "create"),
        (3, "create"),
        (4, "update"),
        (5, "unchanged"),
    ]
    page = preview.content.decode()
    assert 'name="apply"' in page
    assert "note: old note → sea side" in page
    assert CodeMapping.objects.count() == 2  # a preview writes nothing

    applied = manager_client.post(IMPORT, {"token": preview.context["token"], "apply": "Apply"}, follow=True)

    assert applied.redirect_chain == [(CHANGELIST, 302)]
    assert "Imported the code mappings: 2 created, 1 updated, 1 unchanged." in applied.content.decode()
    assert ("view", "SEA", "ocean", "sea side") in mappings()
    assert CodeMapping.objects.count() == 4
    assert LogEntry.objects.filter(action_flag=ADDITION).count() == 2
    [change] = LogEntry.objects.filter(action_flag=CHANGE)
    assert change.object_repr == "view: SEA → ocean"
    with translation.override("en"):
        assert change.get_change_message() == "Changed note."


@pytest.mark.usefixtures("stored")
def test_rows_with_errors_are_shown_with_the_reason_and_block_the_apply(manager_client):
    preview = upload(manager_client, FILE_WITH_ERRORS)

    page = preview.content.decode()
    assert "4 rows have errors: nothing can be imported until the file is corrected." in page
    assert 'name="apply"' not in page
    assert "The hub code “spa” is not in the hub&#x27;s catalog (Facility)." in page
    assert [action for _line, action, _code, _details in plan_table(preview)].count("error") == 4

    # Even when posted anyway, an apply with errors writes nothing.
    before = mappings()
    applied = manager_client.post(IMPORT, {"token": preview.context["token"], "apply": "Apply"})

    assert applied.status_code == 200
    assert "Nothing was imported" in applied.content.decode()
    assert mappings() == before


@pytest.mark.usefixtures("stored")
def test_the_apply_checks_again_what_changed_since_the_preview(manager_client):
    preview = upload(manager_client, FILE)
    CodeMapping.objects.create(group="facility", vendor_code="PARK", hub_code="parking")

    applied = manager_client.post(IMPORT, {"token": preview.context["token"], "apply": "Apply"}, follow=True)

    assert "1 created, 1 updated, 2 unchanged" in applied.content.decode()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("group,vendor_code,hub_code,note\nview,SEA,ocean,바다\n".encode("cp949"), "The file is not UTF-8 text."),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", "The file is not UTF-8 text."),
        (b"%PDF-1.7\n%\x00\x00 binary", "This is not a CSV file."),
        (b"name,code\n", "The first line must be the header group,vendor_code,hub_code,note."),
    ],
)
@pytest.mark.usefixtures("catalog")
def test_a_bad_file_is_a_form_error_never_a_server_error(manager_client, content, message):
    response = upload(manager_client, content)

    assert response.status_code == 200
    assert response.context["plan"] is None
    assert message in response.context["form"].errors["file"][0]


def test_an_empty_upload_is_a_form_error(manager_client):
    response = upload(manager_client, b"")

    assert response.status_code == 200
    assert response.context["form"].errors["file"] == ["The submitted file is empty."]


@pytest.mark.usefixtures("catalog")
def test_an_apply_without_its_preview_is_refused(manager_client):
    response = manager_client.post(IMPORT, {"token": "forged", "apply": "Apply"}, follow=True)

    assert response.redirect_chain == [(IMPORT, 302)]
    assert "That preview has expired: upload the file again." in response.content.decode()
    assert not CodeMapping.objects.exists()


@pytest.mark.usefixtures("catalog")
def test_a_preview_is_applied_once(manager_client):
    token = upload(manager_client, FILE).context["token"]
    manager_client.post(IMPORT, {"token": token, "apply": "Apply"})

    again = manager_client.post(IMPORT, {"token": token, "apply": "Apply"}, follow=True)

    assert "That preview has expired" in again.content.decode()
    assert CodeMapping.objects.count() == 4


def test_staff_may_list_mappings_but_not_import_them(client, staff_a):
    client.force_login(staff_a)

    assert client.get(CHANGELIST).status_code == 200
    assert IMPORT not in client.get(CHANGELIST).content.decode()
    assert client.get(IMPORT).status_code == 403
    assert upload(client, FILE).status_code == 403


# --- The mapping list and form ------------------------------------------------------------------


@pytest.mark.usefixtures("stored")
def test_the_list_links_the_import_and_names_hub_codes_as_the_hub_does(manager_client, django_assert_max_num_queries):
    CodeMapping.objects.create(group="facility", vendor_code="GONE", hub_code="sauna")
    CodeMapping.objects.bulk_create(
        CodeMapping(group="view", vendor_code=f"V{n}", hub_code="garden") for n in range(20)
    )

    # The catalog is read once, not once per row (one query more: the session's second factor device,
    # and one the header's inbox badge).
    with django_assert_max_num_queries(12):
        page = manager_client.get(CHANGELIST).content.decode()

    assert f'href="{IMPORT}"' in page
    assert "바다 전망" in page
    assert "Not in the hub&#x27;s catalog" in page
    assert "GONE" in manager_client.get(CHANGELIST, {"group__exact": "facility"}).content.decode()
    assert "SEA" not in manager_client.get(CHANGELIST, {"group__exact": "facility"}).content.decode()
    assert "TUB" in manager_client.get(CHANGELIST, {"q": "bathtub"}).content.decode()


@pytest.mark.usefixtures("catalog")
def test_a_manager_adds_a_mapping_whose_hub_code_is_in_the_catalog(manager_client):
    add = reverse("admin:integration_codemapping_add")

    refused = manager_client.post(add, {"group": "view", "vendor_code": "SEA", "hub_code": "pool.outdoor"})
    saved = manager_client.post(add, {"group": "facility", "vendor_code": "POOL", "hub_code": "pool.outdoor"})

    assert refused.context["adminform"].form.errors["hub_code"] == [
        "pool.outdoor is not a code of the hub's catalog (View)."
    ]
    assert saved.status_code == 302
    assert mappings() == {("facility", "POOL", "pool.outdoor", "")}

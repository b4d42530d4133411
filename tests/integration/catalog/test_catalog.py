"""The code catalog: fetched from the sandbox over HTTP, malformed answers refused, read, and checked against."""

from io import StringIO

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command, load_command_class
from django.utils import timezone, translation
from django.utils.translation import gettext

from config.celery import app as celery_app
from hubsandbox.catalog import valid_codes
from hubsandbox.faults import Fault, inject_faults
from hubsandbox.models import SandboxRequest
from integration.catalog.choices import CatalogGroup
from integration.catalog.selectors import (
    PATH_SEPARATOR,
    TAG_FIELD_GROUPS,
    catalog_check_codes,
    catalog_read,
)
from integration.catalog.services.catalog import CatalogInvalid, catalog_refresh
from integration.catalog.tasks import catalog_refresh_task
from integration.hub.client import HubClient, HubError, HubHTTPError, HubResponse
from integration.hub.endpoints import CATALOG
from integration.models import CatalogSnapshot, Property, RoomType
from tests.factories import PropertyFactory
from tests.integration.catalog.data import TREE, catalog_answer, store_catalog


# The catalog as screens read it: through catalog_read() (None before the first fetch).
def catalog_latest():
    catalog = catalog_read()
    return catalog.snapshot if catalog else None


def catalog_codes(group):
    catalog = catalog_read()
    return catalog.codes.get(CatalogGroup(group), frozenset()) if catalog else frozenset()


def catalog_choices(group, language):
    catalog = catalog_read()
    return catalog.choices(CatalogGroup(group), language) if catalog else []


def catalog_label(group, code):
    catalog = catalog_read()
    return catalog.label(CatalogGroup(group), code) if catalog else None


CLOSED_PORT = "http://127.0.0.1:9"


def path(*names):
    """A nested code's label: its names from the top-level node down."""
    return PATH_SEPARATOR.join(names)


class FakeHub:
    """Answers GET /meta with the given bodies, in turn, and records the calls."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = []

    def call(self, endpoint, *, path_params=None, query=None, body=None):
        self.calls.append((endpoint, query))
        return HubResponse(status=200, data=self.answers.pop(0), duration_ms=1)


# --- Fetching from the sandbox over HTTP ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_refresh_stores_the_sandbox_catalog_fetched_once_as_the_spec_has_it(hub):
    snapshot = catalog_refresh()

    assert set(snapshot.data) == {"ko-KR"}
    pension = next(node for node in snapshot.data["ko-KR"]["classification"] if node["code"] == "pension")
    assert pension["name"] == "펜션"
    assert catalog_latest() == snapshot
    for group in CatalogGroup:
        assert catalog_codes(group) == valid_codes(group), group
    queries = list(
        SandboxRequest.objects.filter(path="/gds/vendor/meta").order_by("pk").values_list("query", "response_status")
    )
    assert queries == [("", 200)]  # one GET /meta, no parameters (a hub refuses any: issue 24)


@pytest.mark.django_db(transaction=True)
def test_refresh_with_a_wrong_token_raises_the_hubs_message_and_stores_nothing(hub, settings):
    client = HubClient(base_url=settings.HUB_BASE_URL, token="not-the-token")

    with pytest.raises(HubHTTPError) as raised:
        catalog_refresh(client=client)

    assert raised.value.status == 401
    assert raised.value.message == "Authorization: missing or invalid access token"
    assert not CatalogSnapshot.objects.exists()


# --- Malformed answers ------------------------------------------------------------------------


def _with(group, nodes):
    return {"data": {**catalog_answer(), group: nodes}}


@pytest.mark.parametrize(
    ("answer", "named"),
    [
        (None, '"data"'),
        ([], '"data"'),
        ({"data": []}, '"data"'),
        ({"data": {key: value for key, value in catalog_answer().items() if key != "view"}}, "view"),
        (_with("facility", {"code": "pool", "name": "Pool"}), "data.facility"),
        (_with("facility", ["pool"]), "data.facility[0]"),
        (_with("facility", [{"name": "Pool"}]), "data.facility[0].code"),
        (_with("facility", [{"code": "", "name": "Pool"}]), "data.facility[0].code"),
        (_with("facility", [{"code": 7, "name": "Pool"}]), "data.facility[0].code"),
        (_with("facility", [{"code": "pool"}]), "data.facility[0].name"),
        (_with("facility", [{"code": "pool", "name": "Pool", "children": "outdoor"}]), "data.facility[0].children"),
        (
            _with("facility", [{"code": "pool", "name": "Pool", "children": [{"code": "pool.outdoor", "name": None}]}]),
            "data.facility[0].children[0].name",
        ),
    ],
)
@pytest.mark.django_db
def test_a_malformed_answer_is_a_clear_error_and_nothing_is_stored(answer, named):
    with translation.override("en"), pytest.raises(CatalogInvalid) as raised:
        catalog_refresh(client=FakeHub(answer))

    assert isinstance(raised.value, HubError)  # so every caller shows it as the hub's error
    assert "The hub's code catalog is malformed" in raised.value.message
    assert named in raised.value.message
    assert not CatalogSnapshot.objects.exists()


@pytest.mark.django_db
def test_refresh_asks_once_without_parameters():
    hub = FakeHub({"data": catalog_answer()})

    snapshot = catalog_refresh(client=hub)

    assert hub.calls == [(CATALOG, None)]
    assert snapshot.data == {"ko-KR": catalog_answer()}


# --- Reading --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_before_any_fetch_there_is_no_catalog_and_no_codes():
    assert catalog_latest() is None
    assert catalog_codes("facility") == frozenset()
    assert catalog_choices("facility", "en") == []
    assert catalog_label("facility", "pool") is None


@pytest.mark.django_db
def test_the_latest_snapshot_is_the_newest():
    newer = store_catalog()
    older = store_catalog({**TREE, "view": []})
    CatalogSnapshot.objects.filter(pk=older.pk).update(fetched_at=timezone.now() - timezone.timedelta(days=1))

    assert catalog_latest() == newer
    assert catalog_codes("view") == {"ocean", "garden"}


@pytest.mark.django_db
def test_codes_are_every_code_of_the_group_at_any_depth():
    store_catalog()

    assert catalog_codes(CatalogGroup.CLASSIFICATION) == {
        "hotel",
        "hotel.business",
        "motel",
        "pension",
        "pension.pool_villa",
        "pension.pool_villa.private",
    }


@pytest.mark.django_db
def test_choices_group_codes_under_their_top_level_node_with_their_path():
    store_catalog()

    assert catalog_choices("classification", "en") == [
        ("호텔", [("hotel", "호텔"), ("hotel.business", path("호텔", "비즈니스호텔"))]),
        (
            "펜션",
            [
                ("pension", "펜션"),
                ("pension.pool_villa", path("펜션", "풀빌라")),
                ("pension.pool_villa.private", path("펜션", "풀빌라", "독채")),
            ],
        ),
        ("Other", [("motel", "모텔")]),
    ]


@pytest.mark.django_db
def test_choices_name_codes_as_the_hub_does_in_every_language_and_label_the_rest_in_it():
    store_catalog()
    with translation.override("ko"):
        other = gettext("Other")

    korean = catalog_choices("facility", "ko")
    assert korean == [
        ("수영장", [("pool", "수영장"), ("pool.outdoor", path("수영장", "야외 수영장"))]),
        (other, [("parking", "주차장"), ("wifi", "와이파이")]),
    ]
    assert catalog_choices("facility", "ko-kr") == korean
    for language in ("en", "en-us", "ja"):
        assert catalog_choices("facility", language) == [korean[0], ("Other", korean[1][1])]


@pytest.mark.django_db
def test_a_group_of_top_level_leaves_only_is_one_optgroup_named_after_the_group():
    store_catalog()

    with translation.override("en"):
        assert catalog_choices("view", "en") == [("View", [("ocean", "바다 전망"), ("garden", "정원 전망")])]


@pytest.mark.django_db
def test_an_older_snapshot_with_english_names_is_read_by_its_korean_answer():
    """Snapshots stored before the catalog was fetched once hold an en-US answer too: it is not read."""
    english = {"view": [{"code": "ocean", "name": "Ocean view"}]}
    CatalogSnapshot.objects.create(data={"ko-KR": catalog_answer(), "en-US": english})

    assert catalog_label("view", "ocean") == "바다 전망"
    assert catalog_label("facility", "pool.outdoor") == path("수영장", "야외 수영장")


@pytest.mark.django_db
def test_a_missing_name_shows_the_code():
    answer = catalog_answer()
    answer["facility"][2]["name"] = ""
    CatalogSnapshot.objects.create(data={"ko-KR": answer})

    assert ("wifi", "wifi") in catalog_choices("facility", "en")[-1][1]


@pytest.mark.django_db
def test_a_new_snapshot_replaces_the_cached_catalog_at_once(django_assert_num_queries):
    store_catalog()
    assert "ocean" in catalog_codes("view")
    with django_assert_num_queries(1):  # the cached catalog only checks which snapshot is the latest
        catalog_choices("view", "en")

    newer = store_catalog({**TREE, "view": [("city", "시티뷰", ())]})
    assert catalog_codes("view") == {"city"}

    newer.delete()
    assert catalog_codes("view") == {"ocean", "garden"}


# --- Checking tags ----------------------------------------------------------------------------


def test_the_field_map_names_every_tag_field_of_property_and_room_type():
    fields = {
        field.name
        for model in (Property, RoomType)
        for field in model._meta.fields
        if field.name.endswith(("_tags", "classifications"))
    }
    assert set(TAG_FIELD_GROUPS) == fields
    assert set(TAG_FIELD_GROUPS.values()) == set(CatalogGroup)


@pytest.mark.django_db
def test_unknown_codes_of_an_object_are_field_errors_naming_them():
    store_catalog()
    prop = PropertyFactory.build(classifications=["hotel", "castle"], facility_tags=["pool.outdoor"])

    errors = catalog_check_codes(prop)

    assert set(errors) == {"classifications"}
    assert errors["classifications"].code == "unknown_code"
    with translation.override("en"):
        assert errors["classifications"].messages == ["castle is not a code of the hub's catalog (Classification)."]


@pytest.mark.django_db
def test_unknown_codes_of_cleaned_data_are_named_together():
    store_catalog()

    errors = catalog_check_codes({"view_tags": ["ocean", "moon", "mars"], "amenity_tags": ["bathtub"]})

    assert set(errors) == {"view_tags"}
    with translation.override("en"):
        assert errors["view_tags"].messages == ["moon, mars are not codes of the hub's catalog (View)."]


@pytest.mark.django_db
def test_codes_before_any_fetch_ask_to_fetch_the_catalog_first():
    errors = catalog_check_codes({"amenity_tags": ["bathtub"], "view_tags": []})

    assert set(errors) == {"amenity_tags"}
    assert errors["amenity_tags"].code == "no_catalog"
    with translation.override("en"):
        assert "Fetch the hub's code catalog first" in errors["amenity_tags"].messages[0]
        assert "bathtub" in errors["amenity_tags"].messages[0]


@pytest.mark.django_db
def test_only_the_given_fields_are_checked_against_their_groups():
    store_catalog()

    assert catalog_check_codes({"hub_code": ["ocean"]}, {"hub_code": CatalogGroup.VIEW}) == {}
    assert set(catalog_check_codes({"hub_code": ["ocean"]}, {"hub_code": CatalogGroup.AMENITY})) == {"hub_code"}


# --- The task, the schedule and the command ------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_task_fetches_the_catalog(hub):
    result = catalog_refresh_task.apply()

    assert result.successful()
    assert catalog_codes("view") == valid_codes("view")


@pytest.mark.django_db(transaction=True)
def test_the_task_tries_again_when_the_hub_is_unavailable(hub):
    with inject_faults(sequence=("error",)) as faults:
        result = catalog_refresh_task.apply()

    assert result.successful()
    assert faults.counts == {Fault.ERROR: 1, Fault.OK: 1}
    assert CatalogSnapshot.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_task_does_not_retry_a_refused_request(hub, settings):
    settings.HUB_BASE_URL += "/nowhere"  # the sandbox answers 404 there

    result = catalog_refresh_task.apply()

    assert result.failed()
    assert isinstance(result.result, HubHTTPError)
    assert result.result.status == 404
    assert SandboxRequest.objects.filter(path__endswith="/gds/vendor/meta").count() == 1


def test_beat_fetches_the_catalog_daily():
    entries = [
        entry for entry in django_settings.CELERY_BEAT_SCHEDULE.values() if entry["task"] == catalog_refresh_task.name
    ]

    assert [entry["schedule"] for entry in entries] == [24 * 60 * 60]
    assert catalog_refresh_task.name in celery_app.tasks


@pytest.mark.django_db(transaction=True)
def test_the_command_prints_the_codes_per_group(hub):
    out = StringIO()

    with translation.override("en"):
        call_command("hub_catalog", stdout=out)

    lines = out.getvalue().splitlines()
    assert lines[0].startswith("Code catalog fetched at ")
    counts = dict(line.split() for line in lines[1:])
    assert counts == {
        **{group: str(len(valid_codes(group))) for group in CatalogGroup},
        "total": str(sum(len(valid_codes(group)) for group in CatalogGroup)),
    }
    assert CatalogSnapshot.objects.count() == 1


def test_the_command_reports_a_hub_error_on_stderr_and_exits_non_zero(db, settings, capsys):
    settings.HUB_BASE_URL = CLOSED_PORT

    with translation.override("en"), pytest.raises(SystemExit) as exited:
        load_command_class("integration", "hub_catalog").run_from_argv(["manage.py", "hub_catalog"])

    assert exited.value.code == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "The code catalog could not be fetched: The hub could not be reached" in captured.err

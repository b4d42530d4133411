"""Room types and rate plans by their English names in English (Korean otherwise) through one helper on
every screen, and the room composition edited as rows."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from integration.content.names import display_name
from integration.models import RoomType
from tests.admin_forms import changeform_data
from tests.factories import PropertyFactory, hub_content

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(manager_a, property_a):
    """Property A's room type 대청 스위트 (Daecheong suite) and its models; the package has no English name."""
    room_type, standalone, package, plans = hub_content(property_a)
    RoomType.objects.filter(pk=room_type.pk).update(name="대청 스위트")
    room_type.refresh_from_db()
    room_type.translations.create(locale="en-US", name="Daecheong suite")
    standalone.name, package.name = "객실만", "한식 조식 포함"
    standalone.save()
    package.save()
    standalone.translations.create(locale="en-US", name="Room only")
    return room_type, standalone, package, plans


def test_english_names_where_they_exist_and_korean_otherwise(content):
    room_type, standalone, package, plans = content

    with translation.override("en"):
        assert display_name(room_type) == "Daecheong suite"
        assert display_name(standalone) == "Room only"
        assert display_name(package) == "한식 조식 포함"
        assert display_name(plans[0]) == "Daecheong suite · Room only"
    with translation.override("ko"):
        assert display_name(room_type) == "대청 스위트"
        assert display_name(plans[0]) == "대청 스위트 · 객실만"


def test_an_empty_english_name_falls_back_to_the_korean_one(content):
    room_type = content[0]
    room_type.translations.filter(locale="en-US").update(name="  ")
    room_type = RoomType.objects.get(pk=room_type.pk)
    with translation.override("en"):
        assert display_name(room_type) == "대청 스위트"


@pytest.mark.parametrize(
    ("language", "shown", "hidden"),
    [
        ("en", ["Daecheong suite", "Room only", "한식 조식 포함"], ["대청 스위트", "객실만"]),
        ("ko", ["대청 스위트", "객실만"], ["Daecheong suite", "Room only"]),
    ],
)
def test_calendar_bulk_edit_and_lists_use_the_same_names(
    client, manager_a, property_a, content, language, shown, hidden
):
    client.force_login(manager_a)
    pages = [
        reverse("admin:integration_property_calendar", args=[property_a.pk]),
        reverse("admin:integration_property_ari_bulk", args=[property_a.pk]),
        reverse("admin:integration_rateplan_changelist"),
    ]
    for url in pages:
        # What staff read: the text, not the screen reader labels Django builds from str(obj).
        html = re.sub(r'aria-label="[^"]*"', "", client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode())
        for name in shown:
            assert name in html, (url, name)
        for name in hidden:
            assert name not in html, (url, name)
    listing = client.get(reverse("admin:integration_roomtype_changelist"), HTTP_ACCEPT_LANGUAGE=language)
    assert shown[0] in listing.content.decode()


def test_the_room_composition_is_saved_from_rows(client, manager_a, content):
    room_type = content[0]
    client.force_login(manager_a)
    url = reverse("admin:integration_roomtype_change", args=[room_type.pk])
    data = changeform_data(client.get(url))
    data.pop("details", None)
    data.update({"details": "", "details_part": ["bedroom", "bathroom", ""], "details_count": ["2", "1", ""]})

    response = client.post(url, data)

    assert response.status_code == 302
    room_type.refresh_from_db()
    assert room_type.details == {"bedroom": 2, "bathroom": 1}
    page = client.get(url).content.decode()
    assert 'name="details_part" value="bedroom"' in page
    assert "{&quot;bedroom" not in page  # no JSON to type


@pytest.mark.parametrize(
    ("parts", "counts", "message"),
    [
        (["bedroom", ""], ["", ""], "Row 1: give both the part of the room and its count."),
        (["bedroom"], ["two"], "Row 1: the count must be a whole number of 0 or more."),
        (["bedroom", "bedroom"], ["1", "2"], "Row 2 repeats the part “bedroom” of row 1."),
    ],
)
def test_bad_composition_rows_are_named_errors(client, manager_a, content, parts, counts, message):
    room_type = content[0]
    client.force_login(manager_a)
    url = reverse("admin:integration_roomtype_change", args=[room_type.pk])
    data = changeform_data(client.get(url))
    data.update({"details": "", "details_part": parts, "details_count": counts})

    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")

    assert response.status_code == 200
    assert message in response.context["adminform"].form.errors["details"]


def test_the_other_property_s_names_stay_out(client, manager_a, content):
    other = PropertyFactory(vendor_id="other")
    hub_content(other)
    client.force_login(manager_a)
    html = client.get(reverse("admin:integration_rateplan_changelist"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Daecheong suite" in html
    assert other.room_types.get().name not in html

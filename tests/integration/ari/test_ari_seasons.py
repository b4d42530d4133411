"""Named seasons of a property: saved with their date ranges on their page, and targeted by the bulk edit
instead of typed dates (their days from today on)."""

import datetime

import pytest
from django.conf import settings
from django.urls import reverse

from integration.models import AriSeason, AriSeasonRange, RatePlanDay
from tests.integration.ari.factories import ari_property, day, fill_days

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def seasons_url(prop):
    return reverse("admin:integration_property_ari_seasons", args=[prop.pk])


def season(prop, name, *ranges):
    made = AriSeason.objects.create(property=prop, name=name)
    AriSeasonRange.objects.bulk_create(AriSeasonRange(season=made, date_from=a, date_to=b) for a, b in ranges)
    return made


def test_a_season_is_saved_with_its_ranges_merged(staff_client, property_a):
    response = staff_client.post(
        seasons_url(property_a),
        {
            "name": " Summer peak ",
            "ranges_from": ["2027-07-20", "2027-08-01", "2027-12-24"],
            "ranges_to": ["2027-07-31", "2027-08-15", "2027-12-25"],
        },
    )

    assert response.status_code == 302
    saved = AriSeason.objects.get(property=property_a)
    assert saved.name == "Summer peak"
    assert list(saved.ranges.values_list("date_from", "date_to")) == [
        (datetime.date(2027, 7, 20), datetime.date(2027, 8, 15)),
        (datetime.date(2027, 12, 24), datetime.date(2027, 12, 25)),
    ]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "Peak", "ranges_from": ["2027-07-20"], "ranges_to": ["2027-07-01"]}, "ranges"),
        ({"name": "Peak", "ranges_from": [""], "ranges_to": [""]}, "ranges"),
        ({"name": "Peak", "ranges_from": ["july"], "ranges_to": [""]}, "ranges"),
        ({"name": "Taken", "ranges_from": ["2027-07-20"], "ranges_to": ["2027-07-21"]}, "name"),
        ({"name": "", "ranges_from": ["2027-07-20"], "ranges_to": ["2027-07-21"]}, "name"),
    ],
)
def test_bad_seasons_are_form_errors(staff_client, property_a, data, field):
    season(property_a, "Taken", (day(1), day(2)))
    response = staff_client.post(seasons_url(property_a), data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert AriSeason.objects.count() == 1


def test_a_season_is_changed_and_deleted(staff_client, property_a):
    peak = season(property_a, "Peak", (day(1), day(2)))
    page = staff_client.get(seasons_url(property_a), {"season": peak.pk})
    assert page.context["form"].initial["ranges"] == [(day(1).isoformat(), day(2).isoformat())]

    staff_client.post(
        seasons_url(property_a),
        {"season": peak.pk, "name": "High", "ranges_from": [day(5).isoformat()], "ranges_to": [day(9).isoformat()]},
    )
    peak.refresh_from_db()
    assert peak.name == "High"
    assert list(peak.ranges.values_list("date_from", "date_to")) == [(day(5), day(9))]

    staff_client.post(seasons_url(property_a), {"delete": peak.pk})
    assert not AriSeason.objects.exists()


def test_another_propertys_season_is_404(staff_client, property_a, property_b):
    other = season(property_b, "Theirs", (day(1), day(2)))
    assert staff_client.get(seasons_url(property_a), {"season": other.pk}).status_code == 404
    assert staff_client.post(seasons_url(property_a), {"delete": other.pk}).status_code == 404
    assert AriSeason.objects.filter(pk=other.pk).exists()


def bulk(client, prop, data):
    return client.post(reverse("admin:integration_property_ari_bulk", args=[prop.pk]), data)


def test_the_bulk_edit_targets_a_seasons_days_from_today_on(staff_client, property_a):
    rows = ari_property(property_a)
    _room_type, standalone, _packages = rows[0]
    fill_days(rows, [day(n) for n in range(20)])
    peak = season(
        property_a,
        "Peak",
        (day(-30), day(2)),  # partly past: only its days from today on
        (day(10), day(12)),
    )
    data = {"season": peak.pk, "targets": [f"rp:{standalone.pk}"], "operation": "set", "value": "150000"}

    preview = bulk(staff_client, property_a, {**data, "preview": "1"})
    assert preview.context["form"].errors == {}
    apply = bulk(staff_client, property_a, {**data, "apply": "1", "digest": preview.context["preview"]["digest"]})

    assert apply.status_code == 302
    changed = set(RatePlanDay.objects.filter(rate=150_000).values_list("date", flat=True))
    assert changed == {day(0), day(1), day(2), day(10), day(11), day(12)}


def test_a_past_season_or_another_propertys_is_a_form_error(staff_client, property_a, property_b):
    rows = ari_property(property_a)
    _room_type, standalone, _packages = rows[0]
    past = season(property_a, "Last year", (day(-400), day(-300)))
    theirs = season(property_b, "Theirs", (day(1), day(2)))
    data = {"targets": [f"rp:{standalone.pk}"], "operation": "set", "value": "1", "preview": "1"}

    for chosen in (past, theirs):
        response = bulk(staff_client, property_a, {**data, "season": chosen.pk})
        assert "season" in response.context["form"].errors

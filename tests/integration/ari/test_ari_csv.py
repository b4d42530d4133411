"""The CSV export and import of rates and availability: the round trip, the dry run with its row errors,
packages given as their difference, channel values, encodings, and who may reach it."""

import csv
import io

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from integration.ari.csv_import import ari_csv_apply, ari_csv_plan
from integration.ari.csv_parse import ARI_CSV_COLUMNS, AriRowStatus, ari_csv_read
from integration.models import AriDirtyRange, ChannelAvailDay, ChannelRateDay, RatePlanDay, RoomTypeDay, SyncState
from tests.factories import member
from tests.integration.ari.factories import SalesChannelFactory, ari_property, day, fill_days

pytestmark = pytest.mark.django_db

HEADER = ",".join(ARI_CSV_COLUMNS)


def url(name, prop):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk])


@pytest.fixture
def staff_client(client, staff_a):
    """Staff of property A, reading the screens in English (messages are asserted in English)."""
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


@pytest.fixture
def rows(property_a):
    """One room type with the standalone plan and one package, and a week of values."""
    rows = ari_property(property_a, room_types=1, packages=1)
    fill_days(rows, [day(n) for n in range(1, 8)], rate=100_000, modify=20_000, allotment=5, taken=2)
    return rows


def export(client, prop, first, last):
    response = client.get(url("ari_export", prop), {"date_from": first.isoformat(), "date_to": last.isoformat()})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return b"".join(response.streaming_content)


def upload(client, prop, content, name="ari.csv"):
    if isinstance(content, str):
        content = content.encode()
    return client.post(url("ari_import", prop), {"file": SimpleUploadedFile(name, content, "text/csv")})


def csv_text(*lines):
    return "\n".join([HEADER, *lines]) + "\n"


def statuses(response):
    plan = response.context["plan"]
    return {row.line: (row.status, row.problems) for row in plan.rows}


def values_snapshot():
    return (
        sorted(RatePlanDay.objects.values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day")),
        sorted(RoomTypeDay.objects.values_list("room_type_id", "date", "allotment", "held", "taken", "available")),
        sorted(ChannelRateDay.objects.values_list("rate_plan_id", "channel_id", "date", "rate", "rate_modify")),
        sorted(ChannelAvailDay.objects.values_list("room_type_id", "channel_id", "date", "cap")),
    )


# --- Export and round trip --------------------------------------------------------------------


def test_export_writes_every_value_of_the_range(staff_client, property_a, rows):
    room_type, standalone, (package,) = rows[0]
    channel = SalesChannelFactory(channel_id=7, open_for=property_a)
    ChannelRateDay.objects.create(rate_plan=package, channel=channel, date=day(2), rate_modify=-5_000)
    ChannelAvailDay.objects.create(room_type=room_type, channel=channel, date=day(2), cap=1)
    RatePlanDay.objects.filter(rate_plan=standalone, date=day(3)).update(business_day=False)

    content = export(staff_client, property_a, day(2), day(3))

    assert content.startswith("\ufeff".encode())
    lines = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert lines[0] == list(ARI_CSV_COLUMNS)
    assert lines[1:] == [
        ["availability", room_type.vendor_id, "", "", day(2).isoformat(), "5", ""],
        ["availability", room_type.vendor_id, "", "", day(3).isoformat(), "5", ""],
        ["availability", room_type.vendor_id, "", "7", day(2).isoformat(), "1", ""],
        ["rate", room_type.vendor_id, standalone.vendor_id, "", day(2).isoformat(), "100000", "1"],
        ["rate", room_type.vendor_id, standalone.vendor_id, "", day(3).isoformat(), "100000", "0"],
        ["rate_modify", room_type.vendor_id, package.vendor_id, "", day(2).isoformat(), "20000", "1"],
        ["rate_modify", room_type.vendor_id, package.vendor_id, "", day(3).isoformat(), "20000", "1"],
        ["rate_modify", room_type.vendor_id, package.vendor_id, "7", day(2).isoformat(), "-5000", ""],
    ]


def test_export_shows_the_form_again_for_a_bad_range(staff_client, property_a):
    response = staff_client.get(
        url("ari_export", property_a), {"date_from": day(5).isoformat(), "date_to": day(1).isoformat()}
    )

    assert response.status_code == 200
    assert "must not end before it starts" in " ".join(response.context["export_form"].errors["date_to"])


def test_export_then_import_changes_nothing(staff_client, property_a, rows):
    room_type, standalone, (_package,) = rows[0]
    channel = SalesChannelFactory(open_for=property_a)
    ChannelRateDay.objects.create(rate_plan=standalone, channel=channel, date=day(4), rate=90_000)
    ChannelAvailDay.objects.create(room_type=room_type, channel=channel, date=day(4), cap=3)
    before = values_snapshot()
    content = export(staff_client, property_a, day(1), day(7))

    preview = upload(staff_client, property_a, content)

    assert preview.status_code == 200
    plan = preview.context["plan"]
    assert len(plan.rows) == 7 * 3 + 2
    assert {row.status for row in plan.rows} == {AriRowStatus.UNCHANGED}
    response = staff_client.post(url("ari_import", property_a), {"apply": "1", "token": preview.context["token"]})
    assert response.status_code == 302
    assert values_snapshot() == before
    assert not AriDirtyRange.objects.exists()
    assert not SyncState.objects.exists()


# --- Import -----------------------------------------------------------------------------------


def test_import_preview_then_apply_writes_the_changes_in_one_go(staff_client, property_a, rows):
    room_type, standalone, (package,) = rows[0]
    channel = SalesChannelFactory(channel_id=9, open_for=property_a)
    content = csv_text(
        f"availability,{room_type.vendor_id},,,{day(1)},6,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},110000,0",
        f"rate_modify,{room_type.vendor_id},{package.vendor_id},,{day(1)},-10000,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},9,{day(2)},95000,",
        f"availability,{room_type.vendor_id},,9,{day(2)},2,",
        f"availability,{room_type.vendor_id},,,{day(3)},5,",
    )

    preview = upload(staff_client, property_a, content)

    assert {line: status for line, (status, _) in statuses(preview).items()} == {
        2: "change",
        3: "change",
        4: "change",
        5: "change",
        6: "change",
        7: "unchanged",
    }
    changes = {row.line: row.changes for row in preview.context["plan"].rows}
    assert changes[2] == ["rooms to sell: 5 → 6"]
    assert changes[3] == ["open for sale: open → closed", "rate: 100,000 → 110,000"]
    assert changes[4] == ["difference: +20,000 → -10,000 (price 100,000)"]
    assert RoomTypeDay.objects.get(date=day(1)).allotment == 5  # the dry run writes nothing
    assert not AriDirtyRange.objects.exists()

    response = staff_client.post(url("ari_import", property_a), {"apply": "1", "token": preview.context["token"]})

    assert response.status_code == 302
    first = RoomTypeDay.objects.get(date=day(1))
    assert (first.allotment, first.available) == (6, 4)
    standalone_day = RatePlanDay.objects.get(rate_plan=standalone, date=day(1))
    assert (standalone_day.rate, standalone_day.business_day) == (110_000, False)
    # The package keeps exactly the file's difference, against the standalone rate the file sets.
    assert RatePlanDay.objects.get(rate_plan=package, date=day(1)).rate_modify == -10_000
    assert ChannelRateDay.objects.get(rate_plan=standalone, channel=channel, date=day(2)).rate == 95_000
    assert ChannelAvailDay.objects.get(room_type=room_type, channel=channel, date=day(2)).cap == 2
    assert AriDirtyRange.objects.filter(state__kind="ari_rates", state__object_id=package.pk).exists()
    assert AriDirtyRange.objects.filter(state__kind="ari_avails", state__object_id=room_type.pk).exists()
    assert staff_client.session.get(f"integration.ari_import.{property_a.pk}") is None


def test_an_import_never_writes_over_a_change_made_after_its_preview(staff_client, property_a, rows):
    room_type, standalone, _packages = rows[0]
    content = csv_text(
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},110000,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(2)},110000,",
        f"availability,{room_type.vendor_id},,,{day(3)},6,",
    )
    preview = upload(staff_client, property_a, content)
    apply = {"apply": "1", "token": preview.context["token"]}
    # Someone changes day 2 in the calendar after that preview.
    RatePlanDay.objects.filter(rate_plan=standalone, date=day(2)).update(rate=120_000)

    response = staff_client.post(url("ari_import", property_a), apply)

    assert response.status_code == 200
    assert "changed since the preview" in response.content.decode()
    assert {row.line: row.changes for row in response.context["plan"].rows}[3] == ["rate: 120,000 → 110,000"]
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(1)).rate == 100_000  # nothing written

    # A booking holding a room meanwhile changes nothing the preview showed: the new preview applies.
    RoomTypeDay.objects.filter(room_type=room_type, date=day(3)).update(held=1, available=2)
    response = staff_client.post(url("ari_import", property_a), apply)

    assert response.status_code == 302
    rates = RatePlanDay.objects.filter(rate_plan=standalone, date__in=[day(1), day(2)])
    assert sorted(rates.values_list("rate", flat=True)) == [110_000, 110_000]
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(3)).allotment == 6


def test_import_clears_a_channel_value_with_an_empty_value(property_a, rows):
    room_type, _standalone, (package,) = rows[0]
    channel = SalesChannelFactory(channel_id=4, open_for=property_a)
    ChannelRateDay.objects.create(rate_plan=package, channel=channel, date=day(2), rate_modify=5_000)
    ChannelAvailDay.objects.create(room_type=room_type, channel=channel, date=day(2), cap=1)
    content = csv_text(
        f"rate_modify,{room_type.vendor_id},{package.vendor_id},4,{day(2)},,",
        f"availability,{room_type.vendor_id},,4,{day(2)},,",
    )

    plan = ari_csv_apply(property_a, ari_csv_read(content))

    assert plan.applied
    assert [row.status for row in plan.rows] == ["change", "change"]
    override = ChannelRateDay.objects.get(rate_plan=package, channel=channel)
    assert (override.rate, override.rate_modify) == (None, None)
    assert ChannelAvailDay.objects.get(room_type=room_type, channel=channel).cap is None


def test_a_package_difference_without_any_standalone_rate_is_an_error(property_a):
    ((room_type, standalone, (package,)),) = ari_property(property_a)
    content = csv_text(
        f"rate_modify,{room_type.vendor_id},{package.vendor_id},,{day(2)},5000,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(3)},80000,",
        f"rate_modify,{room_type.vendor_id},{package.vendor_id},,{day(3)},5000,",
    )

    plan = ari_csv_plan(property_a, ari_csv_read(content))

    assert [row.status for row in plan.rows] == ["error", "change", "change"]
    assert "The standalone plan has no rate on this day" in plan.rows[0].problems[0]


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("availability,nope,,,{d1},5,", "Unknown room type “nope”"),
        ("rate,{rt},nope,,{d1},5,", "Unknown rate plan “nope”"),
        # An id that breaks the vendor id rule says so (ids hold letters, digits, "-", "_" and ".").
        ("availability,=1+2,,,{d1},5,", "“=1+2”: Use only letters, digits, “-”, “_” and “.” in an id"),
        ("rate,{rt},a/b,,{d1},5,", "“a/b”: Use only letters, digits, “-”, “_” and “.” in an id"),
        ("rate,{rt},{pkg},,{d1},120000,", "is a package plan: give its difference"),
        ("rate_modify,{rt},{std},,{d1},5000,", "is the standalone plan: give its rate"),
        ("availability,{rt},,,2027-02-30,5,", "is not a date"),
        ("availability,{rt},,,{past},5,", "is outside the hub's window"),
        ("availability,{rt},,,{far},5,", "is outside the hub's window"),
        ("rate,{rt},{std},,{d1},-1,", "must be 0 or more"),
        ("availability,{rt},,,{d1},many,", "is not a whole number"),
        ("availability,{rt},,,{d1},1,", "2 rooms are already booked"),
        ("availability,{rt},,,{d1},,", "Give the number of rooms to sell"),
        ("availability,{rt},,55,{d1},1,", "Sales channel “55” is not open for this property"),
        ("rate,{rt},{std},{channel},{d1},1,1", "leave business_day empty on channel rows"),
        ("rate,{rt},{std},,{d1},1,maybe", "is not a business day"),
        ("rate,{rt},{std},,{d1},,", "Give a value, a business day or both"),
        ("price,{rt},{std},,{d1},1,", "Unknown kind “price”"),
        ("availability,{rt},{std},,{d1},1,", "names no rate plan"),
        ("rate,{rt},{std},,{d1},99999999999,", "must not exceed"),
    ],
)
def test_import_preview_names_each_row_error_and_apply_is_refused(staff_client, property_a, rows, line, problem):
    room_type, standalone, (package,) = rows[0]
    channel = SalesChannelFactory(channel_id=3, open_for=property_a)
    names = {
        "rt": room_type.vendor_id,
        "std": standalone.vendor_id,
        "pkg": package.vendor_id,
        "d1": day(1),
        "past": day(-1),
        "far": day(731),
        "channel": channel.channel_id,
    }
    good = f"availability,{room_type.vendor_id},,,{day(2)},7,"
    before = values_snapshot()

    preview = upload(staff_client, property_a, csv_text(good, line.format(**names)))

    rows_ = statuses(preview)
    assert rows_[2][0] == "change"
    assert rows_[3][0] == "error"
    assert any(problem in message for message in rows_[3][1]), rows_[3][1]
    assert 'name="apply"' not in preview.content.decode()
    token = staff_client.session[f"integration.ari_import.{property_a.pk}"]["token"]

    response = staff_client.post(url("ari_import", property_a), {"apply": "1", "token": token})

    assert response.status_code == 200
    assert not response.context["plan"].applied
    assert values_snapshot() == before
    assert not AriDirtyRange.objects.exists()


def test_the_same_cell_twice_is_an_error_on_the_second_line(property_a, rows):
    room_type, standalone, _ = rows[0]
    content = csv_text(
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},1,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},2,",
    )

    plan = ari_csv_plan(property_a, ari_csv_read(content))

    assert [row.status for row in plan.rows] == ["change", "error"]
    assert plan.rows[1].problems == ["Line 2 already gives this cell."]


@pytest.mark.parametrize(("value", "business_day"), [("-1", ""), ("many", ""), ("", "maybe")])
def test_a_bad_value_or_business_day_is_the_rows_only_problem(property_a, rows, value, business_day):
    """A row that gives a value (or business day) the import cannot take is not also told to give one."""
    room_type, standalone, _ = rows[0]
    line = f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},{value},{business_day}"

    plan = ari_csv_plan(property_a, ari_csv_read(csv_text(line)))

    assert len(plan.rows[0].problems) == 1, plan.rows[0].problems


def test_an_id_stored_before_the_vendor_id_rule_is_still_found(property_a, rows):
    room_type, _standalone, _packages = rows[0]
    room_type.vendor_id = "a/b"
    room_type.save()

    plan = ari_csv_plan(property_a, ari_csv_read(csv_text(f"availability,a/b,,,{day(2)},7,")))

    assert [(row.status, row.problems) for row in plan.rows] == [("change", [])]


def test_names_of_another_property_are_unknown(property_a, property_b, rows):
    ((other_room_type, other_plan, _),) = ari_property(property_b)

    plan = ari_csv_plan(
        property_a, ari_csv_read(csv_text(f"rate,{other_room_type.vendor_id},{other_plan.vendor_id},,{day(1)},1,"))
    )

    assert plan.rows[0].status == "error"
    assert f"Unknown room type “{other_room_type.vendor_id}”" in plan.rows[0].problems[0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (csv_text("availability,x,,,2027-01-01,5,").encode("utf-16"), "not UTF-8"),
        (
            "kind,room_type,rate_plan,channel,date,value,business_day\navailability,객실,,,2027-01-01,5,\n".encode(
                "cp949"
            ),
            "not UTF-8",
        ),
        (b"group,vendor_code\nx,y\n", "The first line must be the header"),
        (HEADER.encode() + b"\n", "has a header but no rows"),
        (b"\x00\x01binary", "not"),
    ],
)
def test_unusable_files_are_form_errors_never_a_500(staff_client, property_a, content, message):
    response = upload(staff_client, property_a, content)

    assert response.status_code == 200
    assert message in " ".join(response.context["import_form"].errors["file"])
    assert response.context["plan"] is None


def test_an_expired_preview_asks_for_the_file_again(staff_client, property_a, rows):
    response = staff_client.post(url("ari_import", property_a), {"apply": "1", "token": "stale"})

    assert response.status_code == 302
    assert response["Location"] == url("ari_import", property_a)


def test_a_preview_of_one_property_cannot_be_applied_to_another(client, property_a, property_b, rows):
    room_type, _standalone, _ = rows[0]
    user = member(property_a, "manager")
    from integration.access.services import membership_grant

    membership_grant(user=user, property=property_b, role="manager")
    ari_property(property_b)
    client.force_login(user)
    preview = upload(client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},9,"))

    response = client.post(url("ari_import", property_b), {"apply": "1", "token": preview.context["token"]})

    assert response.status_code == 302
    assert response["Location"] == url("ari_import", property_b)
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(1)).allotment == 5


def test_staff_of_another_property_cannot_export_or_import(client, property_a, property_b, rows):
    room_type, _, _ = rows[0]
    client.force_login(member(property_b, "staff"))

    exported = client.get(url("ari_export", property_a), {"date_from": day(1), "date_to": day(2)})
    imported = upload(client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},9,"))

    assert exported.status_code == 404
    assert imported.status_code == 404
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(1)).allotment == 5

"""The CSV export and import of rates and availability: the round trip, the check (a job) with its row
errors, the apply of the rows that change without the rows with errors, the error file, packages given as
their difference, channel values, encodings, and who may reach it."""

import csv
import io

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from core.models import Job
from integration.ari.csv_parse import ARI_CSV_COLUMNS, ari_csv_read
from integration.ari.models import AriImportStatus
from integration.ari.models_prices import PriceGuard
from integration.ari.services import imports
from integration.ari.services.csv_import import ari_csv_apply, ari_csv_plan
from integration.ari.services.imports import APPLY_TASK, CHECK_TASK, ari_import_apply, ari_import_check
from integration.models import (
    AriDirtyRange,
    AriImport,
    ChannelAvailDay,
    ChannelRateDay,
    RatePlanDay,
    RoomTypeDay,
    SyncState,
)
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


def import_url(name, ari_import):
    return reverse(f"admin:integration_property_ari_{name}", args=[ari_import.property_id, ari_import.pk])


def checked(client, prop, content, name="ari.csv"):
    """Upload the file and run its check as the bulk worker does (the job the upload queued)."""
    response = upload(client, prop, content, name)
    assert response.status_code == 302, response.context and response.context["import_form"].errors
    ari_import = AriImport.objects.latest("pk")
    assert response["Location"] == import_url("import_page", ari_import)
    assert Job.objects.filter(task=CHECK_TASK, args=[ari_import.pk]).exists()
    ari_import_check(import_id=ari_import.pk)
    ari_import.refresh_from_db()
    return ari_import


def applied(client, ari_import):
    """Ask for the apply on the import's page and run it as the bulk worker does."""
    response = client.post(import_url("import_apply", ari_import))
    assert response.status_code == 302
    if Job.objects.filter(task=APPLY_TASK, args=[ari_import.pk]).exists():
        ari_import_apply(import_id=ari_import.pk)
    ari_import.refresh_from_db()
    return ari_import


def listed(ari_import, *, errors):
    return {line.line: line.details.splitlines() for line in ari_import.lines.filter(error=errors)}


def csv_text(*lines):
    return "\n".join([HEADER, *lines]) + "\n"


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

    ari_import = checked(staff_client, property_a, content)

    assert (ari_import.status, ari_import.unchanged_count) == ("checked", 7 * 3 + 2)
    assert (ari_import.change_count, ari_import.error_count) == (0, 0)
    assert "No row changes anything" in staff_client.get(import_url("import_page", ari_import)).content.decode()
    assert values_snapshot() == before
    assert not AriDirtyRange.objects.exists()
    assert not SyncState.objects.exists()


# --- Import -----------------------------------------------------------------------------------


def test_import_checked_then_applied_writes_the_changes_in_one_go(staff_client, property_a, rows):
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

    ari_import = checked(staff_client, property_a, content)

    assert (ari_import.change_count, ari_import.unchanged_count, ari_import.error_count) == (5, 1, 0)
    changes = listed(ari_import, errors=False)
    assert sorted(changes) == [2, 3, 4, 5, 6]
    assert changes[2] == ["rooms to sell: 5 → 6"]
    assert changes[3] == ["open for sale: open → closed", "rate: 100,000 → 110,000"]
    assert changes[4] == ["difference: +20,000 → -10,000 (price 100,000)"]
    assert RoomTypeDay.objects.get(date=day(1)).allotment == 5  # the check writes nothing
    assert not AriDirtyRange.objects.exists()
    page = staff_client.get(import_url("import_page", ari_import)).content.decode()
    assert "Apply the 5 rows that change" in page

    ari_import = applied(staff_client, ari_import)

    assert ari_import.status == "applied"
    assert ari_import.change_set.description == "ari.csv"
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
    # Applied once: a message delivered twice writes nothing more.
    ari_import_apply(import_id=ari_import.pk)
    assert AriImport.objects.get(pk=ari_import.pk).change_set == ari_import.change_set


def test_an_import_never_writes_over_a_change_made_after_its_check(staff_client, property_a, rows):
    room_type, standalone, _packages = rows[0]
    content = csv_text(
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},110000,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(2)},110000,",
        f"availability,{room_type.vendor_id},,,{day(3)},6,",
    )
    ari_import = checked(staff_client, property_a, content)
    # Someone changes day 2 in the calendar after that check.
    RatePlanDay.objects.filter(rate_plan=standalone, date=day(2)).update(rate=120_000)

    ari_import = applied(staff_client, ari_import)

    assert ari_import.status == "queued"  # checked again, saying why
    assert "changed since the check" in ari_import.note
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(1)).rate == 100_000  # nothing written
    ari_import_check(import_id=ari_import.pk)
    ari_import.refresh_from_db()
    assert listed(ari_import, errors=False)[3] == ["rate: 120,000 → 110,000"]
    assert "changed since the check" in staff_client.get(import_url("import_page", ari_import)).content.decode()

    # A booking holding a room meanwhile changes nothing the check showed: the apply goes through.
    RoomTypeDay.objects.filter(room_type=room_type, date=day(3)).update(held=1, available=2)
    ari_import = applied(staff_client, ari_import)

    assert ari_import.status == "applied"
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
def test_the_check_names_each_row_error_and_the_apply_leaves_only_that_row_out(
    staff_client, property_a, rows, line, problem
):
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

    ari_import = checked(staff_client, property_a, csv_text(good, line.format(**names)))

    assert listed(ari_import, errors=False) == {2: ["rooms to sell: 5 → 7"]}
    errors = listed(ari_import, errors=True)
    assert list(errors) == [3]
    assert any(problem in message for message in errors[3]), errors[3]
    page = staff_client.get(import_url("import_page", ari_import)).content.decode()
    assert "Apply the 1 row that changes, without the rows with errors" in page
    assert values_snapshot() == before

    ari_import = applied(staff_client, ari_import)

    assert ari_import.status == "applied"
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(2)).allotment == 7
    assert ari_import.change_set.cells.count() == 1


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
    assert not AriImport.objects.exists()


def test_an_import_of_one_property_cannot_be_reached_through_another(client, property_a, property_b, rows):
    room_type, _standalone, _ = rows[0]
    user = member(property_a, "manager")
    from integration.access.services import membership_grant

    membership_grant(user=user, property=property_b, role="manager")
    ari_property(property_b)
    client.force_login(user)
    ari_import = checked(client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},9,"))
    elsewhere = (property_b.pk, ari_import.pk)

    for name in ("import_page", "import_progress", "import_errors", "import_apply"):
        response = client.post(reverse(f"admin:integration_property_ari_{name}", args=elsewhere))
        assert response.status_code == 404, name
    assert AriImport.objects.get(pk=ari_import.pk).status == "checked"
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(1)).allotment == 5


def test_staff_of_another_property_cannot_export_or_import(client, property_a, property_b, rows):
    room_type, _, _ = rows[0]
    client.force_login(member(property_b, "staff"))

    exported = client.get(url("ari_export", property_a), {"date_from": day(1), "date_to": day(2)})
    imported = upload(client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},9,"))

    assert exported.status_code == 404
    assert imported.status_code == 404
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(1)).allotment == 5


# --- The import as jobs: progress, the error file, pages ---------------------------------------


def test_the_page_follows_the_check_until_it_is_done(staff_client, property_a, rows):
    room_type, _standalone, _ = rows[0]
    upload(staff_client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},9,"))
    ari_import = AriImport.objects.get()

    page = staff_client.get(import_url("import_page", ari_import)).content.decode()
    waiting = staff_client.get(import_url("import_progress", ari_import)).json()

    assert 'id="ari-import-progress"' in page
    assert "vendorhub/ari_import.js" in page
    assert waiting == {
        "status": "queued",
        "running": True,
        "percent": 0,
        "text": "Waiting for a worker to check the file…",
    }
    ari_import_check(import_id=ari_import.pk)
    done = staff_client.get(import_url("import_progress", ari_import)).json()
    assert (done["status"], done["running"], done["percent"]) == ("checked", False, 100)
    assert 'id="ari-import-progress"' not in staff_client.get(import_url("import_page", ari_import)).content.decode()


def test_the_checks_progress_never_passes_the_whole(staff_client, property_a, rows, monkeypatch):
    """Every step written is between 0 and 1000 per mille, in order: a short last batch of listed lines once
    wrote hundreds of times the whole (smallint out of range on PostgreSQL: the check failed) whenever a slow
    machine let half a second pass before it."""
    written = []
    save = imports._progress_save

    def recorded(import_id, **fields):
        if "permille" in fields:
            written.append(fields["permille"])
        save(import_id, **fields)

    monkeypatch.setattr(imports, "PROGRESS_SECONDS", 0)
    monkeypatch.setattr(imports, "_progress_save", recorded)
    room_type, _standalone, _ = rows[0]

    ari_import = checked(staff_client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},9,"))

    assert ari_import.status == AriImportStatus.CHECKED
    assert written == sorted(written)
    assert written[0] >= 0
    assert written[-1] == 1000


def test_the_error_file_has_the_lines_as_written_and_uploads_again_once_corrected(staff_client, property_a, rows):
    room_type, standalone, (package,) = rows[0]
    content = csv_text(
        f"availability,{room_type.vendor_id},,,{day(1)},6,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(2)},lots,",
        f"rate_modify,{room_type.vendor_id},{package.vendor_id},,{day(3)},-5000,maybe",
        f"availability,=HYPERLINK(1),,,{day(4)},6,",
    )
    ari_import = checked(staff_client, property_a, content)

    response = staff_client.get(import_url("import_errors", ari_import))

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="ari-errors.csv"'
    data = b"".join(response.streaming_content).decode()
    assert data.startswith("\ufeff")
    assert data.splitlines()[2].startswith('"rate_modify",')
    assert ",-5000," in data  # a number stays a number
    lines = list(csv.reader(io.StringIO(data.removeprefix("\ufeff"))))
    assert lines[0] == [*ARI_CSV_COLUMNS, "source_line", "error"]
    assert [line[:7] for line in lines[1:]] == [
        ["rate", room_type.vendor_id, standalone.vendor_id, "", day(2).isoformat(), "lots", ""],
        ["rate_modify", room_type.vendor_id, package.vendor_id, "", day(3).isoformat(), "-5000", "maybe"],
        ["availability", "'=HYPERLINK(1)", "", "", day(4).isoformat(), "6", ""],  # no formula runs
    ]
    assert [line[7] for line in lines[1:]] == ["3", "4", "5"]
    assert "“lots” is not a whole number." in lines[1][8]
    assert "is not a business day" in lines[2][8]

    # Corrected in a spreadsheet (source_line and error left as they are), it uploads again.
    lines[1][5], lines[2][6], lines[3][1] = "90000", "1", room_type.vendor_id
    corrected = io.StringIO()
    csv.writer(corrected).writerows(lines)
    again = checked(staff_client, property_a, corrected.getvalue(), name="ari-errors.csv")

    assert (again.status, again.error_count, again.change_count) == ("checked", 0, 3)


def test_errors_are_listed_100_a_page(staff_client, property_a, rows):
    room_type, _standalone, _ = rows[0]
    bad = [f"availability,{room_type.vendor_id},,,{day(1)},x{n},," for n in range(150)]
    ari_import = checked(staff_client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(2)},7,", *bad))

    first = staff_client.get(import_url("import_page", ari_import))
    second = staff_client.get(import_url("import_page", ari_import), {"page": 2})

    assert ari_import.error_count == 150
    assert [line.line for line in first.context["page"]] == list(range(3, 103))
    assert [line.line for line in second.context["page"]] == list(range(103, 153))
    assert "Page 2 of 2" in second.content.decode()
    assert "150 rows have errors" in first.content.decode()
    assert "Download the 150 rows with errors (CSV)" in first.content.decode()
    changes = staff_client.get(import_url("import_page", ari_import), {"lines": "changes"})
    assert [line.line for line in changes.context["page"]] == [2]


def test_the_rows_messages_are_in_the_language_of_who_uploaded_the_file(client, staff_a, property_a, rows):
    room_type, _standalone, _ = rows[0]
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ko"

    ari_import = checked(client, property_a, csv_text(f"availability,{room_type.vendor_id},,,{day(1)},many,"))

    assert ari_import.language == "ko"
    (details,) = listed(ari_import, errors=True).values()
    assert details == ["“many”은(는) 정수가 아닙니다."]


def test_a_file_unreadable_past_its_first_lines_fails_the_import_saying_why(staff_client, property_a, rows):
    room_type, _standalone, _ = rows[0]
    # A cell larger than the csv module's field limit, past the first row the upload reads.
    content = csv_text(f"availability,{room_type.vendor_id},,,{day(1)},6,", '"' + "x" * 200_000 + '"')

    ari_import = checked(staff_client, property_a, content)

    assert ari_import.status == "failed"
    assert "This is not a readable CSV file" in ari_import.note
    page = staff_client.get(import_url("import_page", ari_import)).content.decode()
    assert "This is not a readable CSV file" in page


def test_the_check_applies_the_price_guard(staff_client, property_a, rows):
    room_type, standalone, _packages = rows[0]
    PriceGuard.objects.create(rate_plan=standalone, floor=50_000)
    content = csv_text(
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(1)},40000,",
        f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(2)},180000,",
    )

    ari_import = checked(staff_client, property_a, content)

    assert listed(ari_import, errors=True)[2] == ["40,000 is below this rate plan's floor of 50,000 KRW."]
    assert listed(ari_import, errors=False)[3] == [
        "rate: 100,000 → 180,000 (This moves the price by 80 % (100,000 → 180,000), more than 50 %: "
        "confirm to save it.)"
    ]
    applied(staff_client, ari_import)  # applying the checked file confirms the move it lists
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(2)).rate == 180_000
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(1)).rate == 100_000

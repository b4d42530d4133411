"""CSV injection (issue 25, item 1): every file we write keeps a spreadsheet from running a cell as a
formula (a leading =, +, -, @, tab or carriage return gets an apostrophe, text is quoted), numbers stay
numbers, and our importers read back what we exported unchanged."""

import csv
import io

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from bookings.settlement.choices import Category, RunStatus
from bookings.settlement.models import Reconciliation, ReconciliationRow
from core.dates import korea_today
from core.files.csv_files import CsvLines, csv_cell, csv_records
from integration.ari.services.imports import ari_import_check
from integration.catalog.services.mapping import MappingImportAction, code_mappings_import, code_mappings_read_csv
from integration.models import AriImport, CodeMapping, RatePlan, RatePlanDay, RoomType
from tests.factories import PropertyFactory, member
from tests.integration.ari.factories import ari_property, day, fill_days
from tests.integration.catalog.data import store_catalog

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil.example","x")'


def rows_of(data):
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_text_beginning_like_a_formula_gets_an_apostrophe_and_reads_back(start):
    text = f"{start}1+2"

    line = CsvLines().line([text, -5000, 12.5, None, "plain"])

    assert line == f'"\'{start}1+2",-5000,12.5,"","plain"\r\n'
    (record,) = csv_records("a,b\n" + line, columns=("a", "b"), required=("a",), max_bytes=1024)
    assert record.cells["a"] == text.strip()
    assert csv_cell(-5000) == -5000


def test_the_rates_export_neutralises_ids_and_keeps_negative_differences_numbers(client, property_a):
    ((room_type, standalone, (package,)),) = ari_property(property_a, room_types=1, packages=1)
    fill_days([(room_type, standalone, [package])], [day(1)], rate=100_000, modify=-5_000, allotment=5, taken=0)
    RoomType.objects.filter(pk=room_type.pk).update(vendor_id="-1+2")
    RatePlan.objects.filter(pk=package.pk).update(vendor_id="@SUM(A1)")
    client.force_login(member(property_a, "staff"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    url = reverse("admin:integration_property_ari_export", args=[property_a.pk])

    data = b"".join(client.get(url, {"date_from": day(1), "date_to": day(1)}).streaming_content)

    text = data.decode("utf-8-sig")
    assert f'"rate_modify","\'-1+2","\'@SUM(A1)","","{day(1).isoformat()}",-5000,1' in text
    assert all(cells[1] == "'-1+2" for cells in rows_of(data)[1:])
    before = list(RatePlanDay.objects.values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day"))
    client.post(
        reverse("admin:integration_property_ari_import", args=[property_a.pk]),
        {"file": SimpleUploadedFile("rates.csv", data, "text/csv")},
    )
    ari_import = ari_import_check(import_id=AriImport.objects.get().pk)
    assert (ari_import.status, ari_import.error_count, ari_import.change_count) == ("checked", 0, 0)
    assert list(RatePlanDay.objects.values_list("rate_plan_id", "date", "rate", "rate_modify", "business_day")) == (
        before
    )


def test_the_settlement_report_neutralises_the_hubs_words_and_our_names(client):
    prop = PropertyFactory(name="+cmd|' /C calc'!A0")
    reconciliation = Reconciliation.objects.create(
        date_from=korea_today(), date_to=korea_today(), status=RunStatus.DONE
    )
    reconciliation.properties.set([prop])
    ReconciliationRow.objects.create(
        reconciliation=reconciliation,
        property=prop,
        category=Category.AMOUNT_DIFFERS,
        vendor_booking_number=HYPERLINK,
        hub_status="@evil",
        date=korea_today(),
        month=korea_today().replace(day=1),
        hub_total_amount=-1000,
        our_total_amount=99,
    )
    client.force_login(member(prop, "manager"))

    response = client.get(reverse("admin:settlement_reconciliation_csv", args=[reconciliation.pk]))
    data = b"".join(response.streaming_content)

    cells = rows_of(data)[1]
    assert cells[0] == "'" + HYPERLINK
    assert cells[1] == f"'+cmd|' /C calc'!A0 ({prop.vendor_id})"
    assert cells[4] == "'@evil"
    assert cells[6:8] == ["-1000", "99"]
    assert ",-1000,99," in data.decode("utf-8-sig")


def test_the_code_mapping_export_is_neutralised_and_imports_back_unchanged(client, manager_a):
    store_catalog()
    CodeMapping.objects.create(group="facility", vendor_code="-PARK", hub_code="parking", note=HYPERLINK)
    CodeMapping.objects.create(group="view", vendor_code="SEA", hub_code="ocean", note="\tsea side")
    client.force_login(manager_a)

    response = client.get(reverse("admin:integration_codemapping_export"))
    data = b"".join(response.streaming_content)

    assert response["Content-Disposition"] == 'attachment; filename="code-mappings.csv"'
    assert rows_of(data) == [
        ["group", "vendor_code", "hub_code", "note"],
        ["facility", "'-PARK", "parking", "'" + HYPERLINK],
        ["view", "SEA", "ocean", "'\tsea side"],
    ]
    plan = code_mappings_import(code_mappings_read_csv(data), apply=False)
    assert [(row.vendor_code, row.action) for row in plan.rows] == [
        ("-PARK", MappingImportAction.UNCHANGED),
        # Cells are read stripped, as a spreadsheet user types them: the tab is the only difference.
        ("SEA", MappingImportAction.UPDATE),
    ]
    assert plan.rows[0].note == HYPERLINK

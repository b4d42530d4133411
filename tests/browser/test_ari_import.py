"""A rates and availability CSV import in a real browser, in Korean and English, with the bulk work done
by a real worker: the file is checked with the page following the job, the rows with errors are
downloaded as a file, and the rows that change are applied without them."""

import csv
import io

import pytest
from playwright.sync_api import expect

from integration.ari.csv_parse import ARI_CSV_COLUMNS
from integration.models import AriImport, RatePlanDay, RoomTypeDay
from tests.browser.login import log_in
from tests.factories import PropertyFactory, member
from tests.integration.ari.factories import ari_property, day, fill_days

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TEXTS = {
    "ko": {
        "check": "파일 확인",
        "errors": "2개 행에 오류가 있습니다",
        "apply": "오류 행을 빼고 변경되는 2개 행 적용",
        "download": "오류 행 2개 내려받기(CSV)",
        "problem": "정수가 아닙니다",
        "applied": "적용했습니다. 2개 행이",
        "stale": "확인 이후 이 날짜들의 값이 바뀌어 파일을 다시 확인합니다",
        "again": "변경되는 2개 행 적용",
    },
    "en": {
        "check": "Check the file",
        "errors": "2 rows have errors",
        "apply": "Apply the 2 rows that change, without the rows with errors",
        "download": "Download the 2 rows with errors (CSV)",
        "problem": "is not a whole number",
        "applied": "Applied: 2 rows changed",
        "stale": "these days changed since the check, so the file is checked again",
        "again": "Apply the 2 rows that change",
    },
}


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_file_with_bad_rows_is_checked_its_errors_downloaded_and_its_good_rows_applied(
    page, live_server, worker, shots, language
):
    prop = PropertyFactory(vendor_id=f"import-{language}")
    rows = ari_property(prop)
    ((room_type, standalone, _packages),) = rows
    fill_days(rows, [day(n) for n in range(1, 4)], rate=100_000, allotment=5)
    content = "\n".join(
        [
            ",".join(ARI_CSV_COLUMNS),
            f"availability,{room_type.vendor_id},,,{day(1)},8,",
            f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(2)},many,",
            f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(3)},125000,",
            f"availability,nope,,,{day(1)},3,",
        ]
    )
    texts = TEXTS[language]
    page.set_viewport_size({"width": 1366, "height": 768})
    log_in(page, live_server, member(prop, "staff"), language)

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/import/")
    page.set_input_files("#id_file", files=[{"name": "rates.csv", "mimeType": "text/csv", "buffer": content.encode()}])
    page.click(f"input[value='{texts['check']}']")

    # The worker checks the file; the page follows the job and then shows what it found.
    apply = page.locator(f"input[value='{texts['apply']}']")
    expect(apply).to_be_visible(timeout=30_000)
    expect(page.locator(".errornote")).to_contain_text(texts["errors"])
    expect(page.locator("#result_list tbody tr")).to_have_count(2)
    expect(page.locator("#result_list")).to_contain_text(texts["problem"])
    page.screenshot(path=shots / f"ari-import-checked-{language}-1366.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=shots / f"ari-import-checked-{language}-390.png", full_page=True)
    page.set_viewport_size({"width": 1366, "height": 768})

    with page.expect_download() as download:
        page.click(f"text={texts['download']}")
    lines = list(csv.reader(io.StringIO(download.value.path().read_text(encoding="utf-8-sig"))))
    assert lines[0] == [*ARI_CSV_COLUMNS, "source_line", "error"]
    assert [(line[1], line[7]) for line in lines[1:]] == [(room_type.vendor_id, "3"), ("nope", "5")]

    apply.click()
    expect(page.locator(".vh-import-applied")).to_contain_text(texts["applied"], timeout=30_000)
    page.screenshot(path=shots / f"ari-import-applied-{language}-1366.png", full_page=True)
    assert AriImport.objects.get().status == "applied"
    assert RoomTypeDay.objects.get(room_type=room_type, date=day(1)).allotment == 8
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(3)).rate == 125_000
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(2)).rate == 100_000


@pytest.mark.parametrize("language", ["ko", "en"])
def test_an_apply_after_someone_elses_change_writes_nothing_and_checks_the_file_again(
    page, live_server, worker, shots, language
):
    prop = PropertyFactory(vendor_id=f"stale-{language}")
    rows = ari_property(prop)
    ((room_type, standalone, _packages),) = rows
    fill_days(rows, [day(n) for n in range(1, 3)], rate=100_000, allotment=5)
    content = "\n".join(
        [
            ",".join(ARI_CSV_COLUMNS),
            *(f"rate,{room_type.vendor_id},{standalone.vendor_id},,{day(n)},120000," for n in (1, 2)),
        ]
    )
    texts = TEXTS[language]
    log_in(page, live_server, member(prop, "staff"), language)
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/calendar/import/")
    page.set_input_files("#id_file", files=[{"name": "rates.csv", "mimeType": "text/csv", "buffer": content.encode()}])
    page.click(f"input[value='{texts['check']}']")
    apply = page.locator(f"input[value='{texts['again']}']")
    expect(apply).to_be_visible(timeout=30_000)

    # Someone else changes the second day in the calendar before Apply: nothing is written, the file is
    # checked again and the page shows the change against the new value.
    RatePlanDay.objects.filter(rate_plan=standalone, date=day(2)).update(rate=150_000)
    apply.click()
    expect(page.locator("body")).to_contain_text(texts["stale"], timeout=30_000)
    expect(page.locator("#result_list")).to_contain_text("150,000 → 120,000", timeout=30_000)
    page.screenshot(path=shots / f"ari-import-stale-{language}.png", full_page=True)
    assert RatePlanDay.objects.get(rate_plan=standalone, date=day(1)).rate == 100_000

    page.locator(f"input[value='{texts['again']}']").click()
    expect(page.locator(".vh-import-applied")).to_contain_text(texts["applied"], timeout=30_000)
    rates = RatePlanDay.objects.filter(rate_plan=standalone, date__in=[day(1), day(2)]).values_list("rate", flat=True)
    assert list(rates) == [120_000, 120_000]

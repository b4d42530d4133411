"""Names, labels and the page frame in a real browser, in Korean and in English: the language switch and
login page, the property page's Korean words in context, English names on the calendar, sync states
naming their object, the room composition rows, the API docs and favicon served from here."""

from urllib.parse import urlparse

import pytest
from django.conf import settings
from playwright.sync_api import expect

from integration.models import RoomType
from integration.sync.services.outbox import sync_state_ensure
from tests.browser.login import second_factor
from tests.factories import PASSWORD, hub_content

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = pytest.mark.parametrize("language", ["ko", "en"])


def in_language(page, live_server, language):
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])


def log_in(page, live_server, user, language):
    in_language(page, live_server, language)
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)
    expect(page.locator("#user-tools")).to_be_visible()


@pytest.fixture
def content(property_a):
    """Property A's room type 대청 스위트 (Daecheong suite) with its models (객실만 is Room only)."""
    room_type, standalone, package, plans = hub_content(property_a)
    RoomType.objects.filter(pk=room_type.pk).update(name="대청 스위트")
    room_type.refresh_from_db()
    room_type.translations.create(locale="en-US", name="Daecheong suite")
    standalone.name = "객실만"
    standalone.save()
    standalone.translations.create(locale="en-US", name="Room only")
    return room_type, standalone, package, plans


@LANGUAGES
def test_login_page_label_on_one_line_and_languages_named_in_themselves(page, live_server, language):
    in_language(page, live_server, language)
    page.goto(f"{live_server.url}/admin/login/")

    label = page.locator(".language-switch label")
    expect(label).to_have_text({"ko": "언어", "en": "Language"}[language])
    line_height = float(label.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || e.offsetHeight"))
    assert label.bounding_box()["height"] < 1.5 * line_height  # one line, not a letter per line
    expect(page.locator("#language-switch option")).to_have_text(["한국어", "English"])
    header, name = page.locator("#header").bounding_box(), page.locator("#site-name").bounding_box()
    assert name["x"] >= header["x"]  # the site name is not pushed out of the box
    assert name["x"] + name["width"] <= header["x"] + header["width"] + 1


def test_the_property_page_names_translations_photos_and_tags_in_korean(page, live_server, manager_a, property_a):
    log_in(page, live_server, manager_a, "ko")
    page.goto(f"{live_server.url}/admin/integration/property/{property_a.pk}/change/")

    expect(page.locator("#translations-group h2")).to_have_text("숙소 번역")
    expect(page.locator("#photos-group h2")).to_have_text("숙소 사진")
    expect(page.locator("#photos-group .add-row a")).to_contain_text("숙소 사진")
    expect(page.locator("label[for=id_property_tags]")).to_contain_text("숙소 특징")
    expect(page.locator("body")).not_to_contain_text("숙소 담당자")


@LANGUAGES
def test_the_calendar_names_room_types_and_plans_in_the_language(
    page, live_server, manager_a, property_a, content, language
):
    log_in(page, live_server, manager_a, language)
    page.goto(f"{live_server.url}/admin/integration/property/{property_a.pk}/calendar/")

    room_type_name = {"ko": "대청 스위트", "en": "Daecheong suite"}[language]
    plan_name = {"ko": "객실만", "en": "Room only"}[language]
    expect(page.locator("th[scope=rowgroup] a").first).to_have_text(room_type_name)
    expect(page.locator(".vh-plan-name").first).to_have_text(plan_name)


@LANGUAGES
def test_sync_states_name_their_object(page, live_server, manager_a, property_a, content, language):
    room_type = content[0]
    sync_state_ensure(room_type)
    log_in(page, live_server, manager_a, language)
    page.goto(f"{live_server.url}/admin/integration/syncstate/")

    expected = {"ko": "객실 타입 대청 스위트", "en": "Room type Daecheong suite"}[language]
    expect(page.locator("#result_list")).to_contain_text(expected)
    page.click(f"#result_list a:text('{expected}')")
    expect(page.locator(".field-version label")).to_have_text({"ko": "버전:", "en": "Version:"}[language])
    expect(page.locator(".field-lease_until label")).to_have_text(
        {"ko": "워커 점유 만료 시각:", "en": "Held by the worker until:"}[language]
    )


@LANGUAGES
def test_the_room_composition_is_rows_of_part_and_count(page, live_server, manager_a, content, language):
    room_type = content[0]
    log_in(page, live_server, manager_a, language)
    page.goto(f"{live_server.url}/admin/integration/roomtype/{room_type.pk}/change/")

    editor = page.locator(".field-details .vh-refund-editor")
    expect(editor.locator("th").nth(1)).to_have_text({"ko": "구성 항목", "en": "Part of the room"}[language])
    editor.locator(".vh-refund-rows input[name=details_part]").last.fill("bedroom")
    editor.locator(".vh-refund-rows input[name=details_count]").last.fill("2")
    editor.locator(".vh-refund-add").click()
    editor.locator(".vh-refund-rows input[name=details_part]").last.fill("bathroom")
    editor.locator(".vh-refund-rows input[name=details_count]").last.fill("1")
    page.click("input[name=_continue]")

    expect(page.locator(".messagelist")).to_be_visible()
    room_type.refresh_from_db()
    assert room_type.details == {"bedroom": 2, "bathroom": 1}
    expect(page.locator(".field-details input[name=details_part]").first).to_have_value("bedroom")


def _is_outside(url, ours):
    """A request that leaves this server (blob: and data: URLs are the page's own memory)."""
    parsed = urlparse(url)
    return parsed.scheme in ("http", "https", "ws", "wss") and parsed.netloc != ours


@LANGUAGES
def test_pages_fetch_nothing_from_outside_and_nothing_missing(page, live_server, manager_a, property_a, language):
    """The API docs come wholly from here (Redoc from drf-spectacular-sidecar, no web fonts), and no
    admin page asks for a file that is not there (the favicon was)."""
    ours = urlparse(live_server.url).netloc
    outside, missing, blocked = [], [], set()
    page.on("request", lambda request: _is_outside(request.url, ours) and outside.append(request.url))
    # Redoc's footer asks for its vendor's logo: the page's policy must stop it in the browser.
    page.on("requestfailed", lambda request: request.failure == "csp" and blocked.add(request.url))
    page.on("response", lambda response: response.status >= 400 and missing.append(response.url))
    log_in(page, live_server, manager_a, language)
    page.goto(f"{live_server.url}/admin/integration/property/{property_a.pk}/change/")
    page.goto(f"{live_server.url}/api/docs/")

    expect(page.locator("h1").first).to_contain_text("vendorhub vendor API", timeout=15_000)
    # A request the policy stops is reported failed a moment after it was made: wait for that on this page.
    for _ in range(50):
        if all(url in blocked for url in outside):
            break
        page.wait_for_timeout(100)
    page.goto(f"{live_server.url}/favicon.ico")
    assert [url for url in outside if url not in blocked] == []
    assert missing == [], missing


def test_the_license_file_help_is_english_in_english(page, live_server, manager_a):
    log_in(page, live_server, manager_a, "en")
    page.goto(f"{live_server.url}/admin/licenses/licenserequest/")
    page.click("a.license-upload-permit")

    help_text = page.locator(".field-file .help, .field-file div.help")
    expect(help_text.first).to_contain_text("A scan or photo of the license")
    expect(page.locator("body")).not_to_contain_text("라이선스를 스캔하거나")

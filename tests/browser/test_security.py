"""The back office's security in a real browser (issue 25): setting up two-step login and logging in with
a code, the locked-out login and the security screens it leads to, and the Content-Security-Policy
stopping an inline script, in Korean and English. Screenshots go to $VH_SCREENSHOTS when set."""

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import expect

from accounts.services import recovery_codes_renew
from tests.browser.login import log_in
from tests.factories import PASSWORD, PropertyFactory, UserFactory, korean, member
from tests.login import totp_code, totp_device

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}

TEXTS = {
    "ko": {
        "setup": "2단계 로그인 설정",
        "codes": "복구 코드",
        "locked": "이 주소에서 이 사용자 이름으로 틀린 비밀번호가 너무 많습니다",
        "menu": "계정과 보안 → 로그인 실패",
        "security": "계정과 보안",
        "screens": ["로그인 실패", "로그인 기록", "인증 앱", "복구 코드 묶음", "로그 엔트리"],
        "apps": "변경할 인증 앱 선택",
        "hint": "사용자 이름이나 이메일 주소로 검색합니다.",
        "verify": "6자리 코드",
    },
    "en": {
        "setup": "Set up two-step login",
        "codes": "Your recovery codes",
        "locked": "Too many wrong passwords for this user name from this address",
        "menu": "Accounts and security → Failed logins",
        "security": "Accounts and security",
        "screens": ["Failed logins", "Logins", "Authenticator apps", "Recovery code lists", "Log entries"],
        "apps": "Select authenticator app to change",
        "hint": "Search by the person's user name or e-mail address.",
        "verify": "6-digit code",
    },
}


def password_step(page, live_server, user, language):
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")


@pytest.mark.parametrize("language", ["ko", "en"])
def test_a_manager_sets_up_two_step_login_then_logs_in_with_a_code(page, live_server, language, shots):
    texts = TEXTS[language]
    manager = member(PropertyFactory(), "manager")

    password_step(page, live_server, manager, language)
    expect(page.locator("h1")).to_have_text(texts["setup"])
    expect(page.locator(".vh-qr svg")).to_be_visible()
    page.screenshot(path=shots / f"second-factor-setup-{language}.png", full_page=True)
    device = TOTPDevice.objects.get(user=manager, confirmed=False)
    page.fill("#id_code", totp_code(device))
    page.click("form.vh-second-factor-form input[type=submit]")
    expect(page.locator("h2")).to_have_text(texts["codes"])
    expect(page.locator(".vh-recovery-codes li")).to_have_count(10)
    page.screenshot(path=shots / f"second-factor-codes-{language}.png", full_page=True)
    page.click("#vh-second-factor-continue")
    expect(page.locator("#property-dashboard-title")).to_be_visible()

    page.context.clear_cookies()
    password_step(page, live_server, manager, language)
    expect(page.locator(".vh-second-factor-lead")).to_contain_text(texts["verify"])
    page.screenshot(path=shots / f"second-factor-verify-{language}.png", full_page=True)
    device.refresh_from_db()
    page.fill("#id_code", totp_code(device))
    page.click("form.vh-second-factor-form input[type=submit]")
    expect(page.locator("#property-dashboard-title")).to_be_visible()


@pytest.mark.parametrize("language", ["ko", "en"])
def test_after_five_wrong_passwords_the_right_one_is_refused_with_a_reason(page, live_server, language, shots):
    staff = member(PropertyFactory(), "staff")
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    for n in range(5):
        page.goto(f"{live_server.url}/admin/login/")
        page.fill("#id_username", staff.username)
        page.fill("#id_password", f"guess-{n}")
        page.click("input[type=submit]")

    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", staff.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")

    expect(page.locator(".errornote")).to_contain_text(TEXTS[language]["locked"])
    expect(page.locator(".vh-locked-out")).to_contain_text(TEXTS[language]["menu"])
    expect(page.locator("#user-tools")).to_have_count(0)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=shots / f"login-locked-{language}-1366.png", full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=shots / f"login-locked-{language}-390.png", full_page=True)


@pytest.mark.parametrize("language", ["ko", "en"])
def test_the_security_screens_are_in_the_users_language_under_the_menu_the_lockout_names(
    page, live_server, language, shots
):
    texts = TEXTS[language]
    superuser = UserFactory(is_staff=True, is_superuser=True, username="owner-lee")
    totp_device(superuser)
    recovery_codes_renew(user=superuser)
    page.set_viewport_size(DESKTOP)
    log_in(page, live_server, superuser, language)
    page.goto(f"{live_server.url}/admin/axes/accesslog/")

    menu = page.locator("#nav-sidebar .app-axes")
    expect(menu.locator("caption")).to_have_text(texts["security"])
    for screen in texts["screens"]:
        expect(menu.locator("th a", has_text=screen).first).to_be_visible()
    page.screenshot(path=shots / f"security-menu-{language}-1366.png", full_page=True)
    page.goto(f"{live_server.url}/admin/otp_totp/totpdevice/")
    expect(page.locator("h1")).to_have_text(texts["apps"])
    expect(page.locator("#searchbar_helptext")).to_have_text(texts["hint"])
    page.screenshot(path=shots / f"security-apps-{language}-1366.png", full_page=True)
    for path in ("otp_totp/totpdevice", "otp_static/staticdevice", "axes/accessattempt", "axes/accesslog"):
        page.goto(f"{live_server.url}/admin/{path}/")
        words = page.locator("body").inner_text()
        assert [word for word in ("TOTP", "AXES", "OTP_", "Search by user's") if word in words] == [], path
        page.screenshot(path=shots / f"security-{path.split('/')[1]}-{language}-1366.png", full_page=True)


INJECTED = "<script>window.__injected = 'ran'</script>"


def test_an_inline_script_does_not_run_under_the_policy(page, live_server):
    """As if a stored script had slipped past the templates' escaping: the page's own scripts still run,
    the injected inline script does not, and the browser reports the violation."""
    log_in(page, live_server, member(PropertyFactory(), "staff"))

    def inject(route):
        response = route.fetch()
        route.fulfill(response=response, body=response.text().replace("</body>", INJECTED + "</body>"))

    page.route(f"{live_server.url}/admin/", inject)
    page.goto(f"{live_server.url}/admin/")
    page.wait_for_load_state("load")
    added = page.evaluate(
        """() => new Promise(resolve => {
            document.addEventListener("securitypolicyviolation", e => resolve(e.violatedDirective));
            const script = document.createElement("script");
            script.textContent = "window.__added = 'ran'";
            document.body.appendChild(script);
            setTimeout(() => resolve(null), 2000);
        })"""
    )

    assert page.evaluate("window.__injected") is None
    assert page.evaluate("window.__added") is None
    assert added.startswith("script-src")
    # The page's own scripts (static files) run: the language switch changes the language.
    with page.expect_navigation():
        page.select_option("#language-switch", "en")
    expect(page.locator("#property-dashboard-title")).to_have_text("Your properties")


@pytest.mark.parametrize(("language", "label"), [("ko", "환불 규정"), ("en", "Refund policy")])
def test_the_history_page_shows_who_changed_the_refund_policy(page, live_server, language, label, shots):
    prop = PropertyFactory(refunds={"7d": 100})
    korean(prop)
    manager = member(prop, "manager", username="manager-kim")
    log_in(page, live_server, manager, language)
    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/change/")
    # The blank row after the policy's rows (the catalog widgets' editor, its script at work).
    page.locator(".vh-refund-rows input[name=refunds_days]").last.fill("1")
    page.locator(".vh-refund-rows input[name=refunds_percent]").last.fill("50")
    page.click("input[name=_continue]")
    expect(page.locator(".messagelist .success")).to_be_visible()

    page.goto(f"{live_server.url}/admin/integration/property/{prop.pk}/history/")

    row = page.locator("#change-history tbody > tr").first
    expect(row).to_contain_text("manager-kim")
    expect(row.locator(".vh-field-changes th[scope=row]")).to_have_text(label)
    expect(row.locator(".vh-field-changes .vh-before")).to_have_text('{"7d": 100}')
    expect(row.locator(".vh-field-changes .vh-after")).to_have_text('{"1d": 50, "7d": 100}')
    page.screenshot(path=shots / f"history-{language}.png", full_page=True)

"""Logging in through the browser as people do: the password on the login page, then, for those who need
one, the second factor (the code of their authenticator app, computed here from its key)."""

import re

from django.conf import settings
from django_otp.plugins.otp_totp.models import TOTPDevice
from playwright.sync_api import expect

from accounts.selectors import second_factor_enrolled, second_factor_required
from tests.factories import PASSWORD
from tests.login import totp_code


def second_factor(page, user):
    """After the password: type the app's code when asked, or set the app up first when the user has none
    yet (then go on past the recovery codes). Nothing for those who need no second factor."""
    if not second_factor_required(user):
        return
    page.wait_for_url(re.compile(r"/admin/second-factor/"))
    if second_factor_enrolled(user):
        page.fill("#id_code", totp_code(TOTPDevice.objects.get(user=user, confirmed=True)))
        page.click("form.vh-second-factor-form input[type=submit]")
        return
    page.fill("#id_code", totp_code(TOTPDevice.objects.get(user=user, confirmed=False)))
    page.click("form.vh-second-factor-form input[type=submit]")
    page.click("#vh-second-factor-continue")


def log_in(page, live_server, user, language=None, *, next_url=""):
    """Log user in (in language, when given, through the language cookie) and land on next_url or the
    dashboard, past the second factor."""
    if language:
        page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
    page.goto(f"{live_server.url}/admin/login/" + (f"?next={next_url}" if next_url else ""))
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, user)
    expect(page.locator("#user-tools")).to_be_visible()

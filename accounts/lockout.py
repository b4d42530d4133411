"""The login's lockout, on django-axes' records of failed logins (one row per user name, address and
browser, with its failures and the last one's time), all over one window of LOGIN_LOCKOUT_MINUTES:

- a user name from one address is locked after LOGIN_FAILURE_LIMIT wrong passwords (django-axes itself,
  AXES_LOCKOUT_PARAMETERS [["username", "ip_address"]]): the same person elsewhere, and the other people
  behind the same address, still log in;
- an address that failed for LOGIN_ADDRESS_NAME_LIMIT different user names is refused for the window;
- a user name that failed from LOGIN_NAME_ADDRESS_LIMIT different addresses is slowed down, never locked
  (one try per LOGIN_NAME_WAIT_SECONDS), and its owner is told in the inbox once per window;
- a browser that passed the person's second factor (a signed cookie kept LOGIN_DEVICE_DAYS) is held back by
  neither of the last two: other people's failures never keep its owner out.

A try refused by a rule is not counted (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT false). The refusal's
page (lockout_response, django-axes' AXES_LOCKOUT_CALLABLE) says which rule and for how long."""

import math
from datetime import timedelta

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from .selectors import LoginRefusal, LoginRule, login_pair_locked_until, login_refusal
from .services import login_name_failure_noted

#: The cookie that marks a browser where a person passed their second factor, and its signature's salt.
DEVICE_COOKIE = "vh_login_device"
_DEVICE_SALT = "accounts.lockout.device"


def device_remember(response, user):
    """Mark the browser that answers with response as one where user passed their second factor."""
    response.set_signed_cookie(
        DEVICE_COOKIE,
        user.get_username(),
        salt=_DEVICE_SALT,
        max_age=int(timedelta(days=settings.LOGIN_DEVICE_DAYS).total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )
    return response


def device_trusted(request, username):
    """Whether request comes from a browser where username's owner passed their second factor lately."""
    max_age = timedelta(days=settings.LOGIN_DEVICE_DAYS)
    remembered = request.get_signed_cookie(DEVICE_COOKIE, default=None, salt=_DEVICE_SALT, max_age=max_age)
    return bool(username) and remembered == username


class LoginAttemptHandler(AxesDatabaseHandler):
    """django-axes' database handler with the address's and the name's rules beside its own (the pair's).
    The refusal is kept on the request for the page."""

    def is_locked(self, request, credentials=None):
        username = get_client_username(request, credentials)
        now = request.axes_attempt_time
        if super().is_locked(request, credentials):
            until = login_pair_locked_until(username=username, address=request.axes_ip_address, now=now)
            request.login_refusal = LoginRefusal(LoginRule.PAIR, until)
            return True
        request.login_refusal = login_refusal(
            username=username,
            address=request.axes_ip_address,
            now=now,
            trusted_device=device_trusted(request, username),
        )
        return request.login_refusal is not None

    def user_login_failed(self, sender, credentials, request=None, **kwargs):
        counted = request is not None and not request.axes_locked_out
        super().user_login_failed(sender, credentials, request=request, **kwargs)
        username = get_client_username(request, credentials) if counted else None
        if username:
            login_name_failure_noted(username=username, now=request.axes_attempt_time)


def lockout_response(request, original_response=None, credentials=None):
    """429 with the page that says which rule refused the login, until when, and who can lift it."""
    now = timezone.now()
    # Without a refusal of its own, the try was the wrong password that reached the pair's limit.
    refusal = getattr(request, "login_refusal", None) or LoginRefusal(
        LoginRule.PAIR, now + timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES)
    )
    seconds = max(1, math.ceil((refusal.until - now).total_seconds()))
    context = {
        "title": _("Login refused for now"),
        "rule": refusal.rule.value,
        "seconds": seconds,
        "minutes": math.ceil(seconds / 60),
        "address": request.axes_ip_address,
        "menu": AccessAttempt._meta.app_config.verbose_name,
        "screen": capfirst(AccessAttempt._meta.verbose_name_plural),
    }
    response = TemplateResponse(request, "admin/accounts/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response.render()

"""The login: telling a person their user name is being tried from many addresses, and the second factor
(a time-based one-time password, TOTP, from an authenticator app, with recovery codes: django-otp's static
device). Superusers and managers must set the second factor up before any admin page; staff may. One
function per use case (the reads are accounts.selectors); the views (accounts.views) stay thin."""

from datetime import datetime
from typing import cast

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from .selectors import login_name_addresses, login_window
from .signals import login_name_tried_widely

#: How many recovery codes a person gets (each works once, in place of the app's code).
RECOVERY_CODES = 10
_APP_NAME = "authenticator app"
_RECOVERY_NAME = "recovery codes"


def login_name_failure_noted(*, username: str, now: datetime) -> bool:
    """After a counted wrong password for username: once it has failed from LOGIN_NAME_ADDRESS_LIMIT
    different addresses, tell its owner (login_name_tried_widely, which the inbox records), at most once
    per lockout window however many tries follow. Whether they were told now."""
    addresses, _last = login_name_addresses(username=username, now=now)
    if addresses < settings.LOGIN_NAME_ADDRESS_LIMIT:
        return False
    model = get_user_model()
    user = model.objects.filter(**{model.USERNAME_FIELD: username}, is_active=True).first()
    if user is None:
        return False
    # Once per window across every web process: the shared cache's add is atomic (Redis in production).
    if not cache.add(f"accounts:login-name-told:{user.pk}", True, timeout=int(login_window().total_seconds())):
        return False
    with transaction.atomic():
        login_name_tried_widely.send(sender=model, user=user, addresses=addresses)
    return True


def enrolment_device_ensure(user: User) -> TOTPDevice:
    """The authenticator app being set up for user (created once, unconfirmed until a code matches)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    return device or TOTPDevice.objects.create(user=user, name=_APP_NAME, confirmed=False)


@transaction.atomic
def enrolment_confirm(*, request: HttpRequest, device: TOTPDevice, token: str) -> list[str] | None:
    """Confirm the app being set up when token is its current code: it becomes the user's only app, the
    session counts as verified, and new recovery codes replace any old ones (returned, shown once).
    None when the code does not match."""
    if device.user_id != request.user.pk or not device.verify_token(token.replace(" ", "")):
        return None
    TOTPDevice.objects.filter(user=request.user).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    otp_login(request, device)
    # The device's owner: request.user is signed in.
    return recovery_codes_renew(user=cast(User, request.user))


@transaction.atomic
def recovery_codes_renew(*, user: User) -> list[str]:
    """New recovery codes for user, replacing the old ones; returns them (they are shown once)."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=_RECOVERY_NAME)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def second_factor_verify(*, request: HttpRequest, token: str) -> bool:
    """Verify the session with a code of the user's app or one of their recovery codes (used up); each
    device throttles repeated failures. Whether it matched."""
    token = token.replace(" ", "").lower()
    devices = [
        *TOTPDevice.objects.filter(user=request.user, confirmed=True),
        *StaticDevice.objects.filter(user=request.user, confirmed=True),
    ]
    for device in devices:
        # A recovery code is no app code: trying it on the app's device would count a failure there and
        # make the next app code wait (the device's throttle), so each device sees only codes of its shape.
        if isinstance(device, TOTPDevice) and not (token.isdigit() and len(token) == device.digits):
            continue
        with transaction.atomic():
            if device.verify_token(token):
                otp_login(request, device)
                return True
    return False


@transaction.atomic
def second_factor_remove(*, user: User) -> None:
    """Turn the second factor off for someone who need not have one (staff)."""
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()

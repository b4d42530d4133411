"""The login, read: the lockout's rules over django-axes' records of failed logins (accounts.lockout
applies them), who must pass a second factor, who has one, and the app being set up as a person types or
scans it (accounts.services changes it)."""

import base64
import enum
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

import qrcode
import qrcode.image.svg
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Max, Q
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from integration.access.choices import MembershipRole


class LoginRule(enum.StrEnum):
    """The rule that refuses a login try before its password is checked."""

    #: Too many wrong passwords for this user name from this address (django-axes counts them).
    PAIR = "pair"
    #: This address failed for too many different user names.
    ADDRESS = "address"
    #: This user name failed from too many addresses: one try per LOGIN_NAME_WAIT_SECONDS.
    NAME = "name"


@dataclass(frozen=True)
class LoginRefusal:
    """Why a login try is refused, and when trying again is allowed."""

    rule: LoginRule
    until: datetime


def login_window() -> timedelta:
    """How far back failed logins count, and how long a lock lasts after the last one."""
    return timedelta(minutes=settings.LOGIN_LOCKOUT_MINUTES)


def login_pair_locked_until(*, username: str | None, address: str | None, now: datetime) -> datetime:
    """When a locked user name and address pair may try again: the window after its last failure."""
    last = AccessAttempt.objects.filter(
        username=username, ip_address=address, attempt_time__gte=now - login_window()
    ).aggregate(last=Max("attempt_time"))["last"]
    return (last or now) + login_window()


def login_address_refused_until(*, address: str | None, now: datetime) -> datetime | None:
    """When address may try again, if it failed for LOGIN_ADDRESS_NAME_LIMIT different user names within
    the window: the window after the failure that made the limit's last name still count."""
    limit = settings.LOGIN_ADDRESS_NAME_LIMIT
    names = (
        AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=now - login_window())
        .values("username")
        .annotate(last=Max("attempt_time"))
        .order_by("-last")
    )
    counted = list(names.values_list("last", flat=True)[limit - 1 : limit])
    return counted[0] + login_window() if counted else None


def login_name_addresses(*, username: str, now: datetime) -> tuple[int, datetime | None]:
    """How many different addresses failed for username within the window, and when the last failure was."""
    row = AccessAttempt.objects.filter(username=username, attempt_time__gte=now - login_window()).aggregate(
        addresses=Count("ip_address", distinct=True), last=Max("attempt_time")
    )
    return row["addresses"], row["last"]


def login_name_slowed_until(*, username: str | None, now: datetime) -> datetime | None:
    """When username may be tried again, while it is slowed down (it failed from LOGIN_NAME_ADDRESS_LIMIT
    different addresses within the window): LOGIN_NAME_WAIT_SECONDS after its last failure."""
    if not username:
        return None
    addresses, last = login_name_addresses(username=username, now=now)
    if addresses < settings.LOGIN_NAME_ADDRESS_LIMIT or last is None:
        return None
    until = last + timedelta(seconds=settings.LOGIN_NAME_WAIT_SECONDS)
    return until if until > now else None


def login_refusal(
    *, username: str | None, address: str | None, now: datetime, trusted_device: bool
) -> LoginRefusal | None:
    """Whether a try for username from address is refused by the address's or the name's rule (the pair's
    is django-axes' own). A browser that passed the person's second factor (trusted_device) is held back
    by neither: other people's failures never keep its owner out."""
    if trusted_device:
        return None
    until = login_address_refused_until(address=address, now=now)
    if until is not None:
        return LoginRefusal(LoginRule.ADDRESS, until)
    until = login_name_slowed_until(username=username, now=now)
    if until is not None:
        return LoginRefusal(LoginRule.NAME, until)
    return None


def second_factor_required(user: User | AnonymousUser) -> bool:
    """Whether user must pass a second factor before any admin page: superusers, anyone holding a
    manager membership, and anyone who set one up (staff may). One query at most."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return (
        get_user_model()
        .objects.filter(pk=user.pk)
        .filter(Q(property_memberships__role=MembershipRole.MANAGER) | Q(totpdevice__confirmed=True))
        .exists()
    )


def second_factor_mandatory(user: User) -> bool:
    """Whether user may not do without a second factor: superusers and managers (staff may turn it off)."""
    if user.is_superuser:
        return True
    return user.property_memberships.filter(role=MembershipRole.MANAGER).exists()


def second_factor_enrolled(user: User) -> bool:
    """Whether user has a confirmed authenticator app."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def second_factor_can_verify(user: User) -> bool:
    """Whether user has something to type a code from: a confirmed app, or recovery codes left (the demo
    admin starts with codes only, printed by seed_demo, so that the demo opens without an app)."""
    return (
        second_factor_enrolled(user) or StaticToken.objects.filter(device__user=user, device__confirmed=True).exists()
    )


def second_factor_wait_seconds(user: User, *, now: datetime) -> int:
    """How many seconds user must wait before the next code is checked: django-otp makes each device wait
    2^(n-1) s after its n-th wrong code in a row (0: no wait)."""
    devices = [
        *TOTPDevice.objects.filter(user=user, confirmed=True),
        *StaticDevice.objects.filter(user=user, confirmed=True),
    ]
    waits = [0.0]
    for device in devices:
        allowed, details = device.verify_is_allowed()
        if not allowed and details and details.get("locked_until"):
            waits.append((details["locked_until"] - now).total_seconds())
    return max(0, math.ceil(max(waits)))


def enrolment_secret(device: TOTPDevice) -> str:
    """The device's key as people type it into an app (base32, in groups of four)."""
    secret = base64.b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def enrolment_qr_svg(device: TOTPDevice) -> str:
    """The device's otpauth:// address as an inline SVG QR code (no script, no data: URL)."""
    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")

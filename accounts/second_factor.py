"""The second factor of the login: a time-based one-time password (TOTP, an authenticator app) with
recovery codes (django-otp's static device). Superusers and managers must set it up before any admin
page; staff may. One function per use case; the views (accounts.views) stay thin."""

import base64

import qrcode
import qrcode.image.svg
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from integration.access.choices import MembershipRole

#: How many recovery codes a person gets (each works once, in place of the app's code).
RECOVERY_CODES = 10
_APP_NAME = "authenticator app"
_RECOVERY_NAME = "recovery codes"


def second_factor_required(user):
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


def second_factor_mandatory(user):
    """Whether user may not do without a second factor: superusers and managers (staff may turn it off)."""
    if user.is_superuser:
        return True
    return user.property_memberships.filter(role=MembershipRole.MANAGER).exists()


def second_factor_enrolled(user):
    """Whether user has a confirmed authenticator app."""
    return TOTPDevice.objects.filter(user=user, confirmed=True).exists()


def second_factor_can_verify(user):
    """Whether user has something to type a code from: a confirmed app, or recovery codes left (the demo
    admin starts with codes only, printed by seed_demo, so that the demo opens without an app)."""
    return (
        second_factor_enrolled(user) or StaticToken.objects.filter(device__user=user, device__confirmed=True).exists()
    )


def enrolment_device(user):
    """The authenticator app being set up for user (created once, unconfirmed until a code matches)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).first()
    return device or TOTPDevice.objects.create(user=user, name=_APP_NAME, confirmed=False)


def enrolment_secret(device):
    """The device's key as people type it into an app (base32, in groups of four)."""
    secret = base64.b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def enrolment_qr_svg(device):
    """The device's otpauth:// address as an inline SVG QR code (no script, no data: URL)."""
    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")


@transaction.atomic
def enrolment_confirm(*, request, device, token):
    """Confirm the app being set up when token is its current code: it becomes the user's only app, the
    session counts as verified, and new recovery codes replace any old ones (returned, shown once).
    None when the code does not match."""
    if device.user_id != request.user.pk or not device.verify_token(token.replace(" ", "")):
        return None
    TOTPDevice.objects.filter(user=request.user).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    otp_login(request, device)
    return recovery_codes_renew(user=request.user)


@transaction.atomic
def recovery_codes_renew(*, user):
    """New recovery codes for user, replacing the old ones; returns them (they are shown once)."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=_RECOVERY_NAME)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def second_factor_verify(*, request, token):
    """Verify the session with a code of the user's app or one of their recovery codes (used up); each
    device throttles repeated failures. Whether it matched."""
    token = token.replace(" ", "").lower()
    devices = [
        *TOTPDevice.objects.filter(user=request.user, confirmed=True),
        *StaticDevice.objects.filter(user=request.user, confirmed=True),
    ]
    for device in devices:
        with transaction.atomic():
            if device.verify_token(token):
                otp_login(request, device)
                return True
    return False


@transaction.atomic
def second_factor_remove(*, user):
    """Turn the second factor off for someone who need not have one (staff)."""
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()

"""The second factor of the login, read: who must pass one, who has one, and the app being set up as a
person types or scans it (accounts.services changes it)."""

import base64

import qrcode
import qrcode.image.svg
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from integration.access.choices import MembershipRole


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


def enrolment_secret(device: TOTPDevice) -> str:
    """The device's key as people type it into an app (base32, in groups of four)."""
    secret = base64.b32encode(device.bin_key).decode("ascii").rstrip("=")
    return " ".join(secret[i : i + 4] for i in range(0, len(secret), 4))


def enrolment_qr_svg(device: TOTPDevice) -> str:
    """The device's otpauth:// address as an inline SVG QR code (no script, no data: URL)."""
    image = qrcode.make(device.config_url, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    return image.to_string(encoding="unicode")

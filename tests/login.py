"""Test clients log in as people end up logged in: with the second factor passed by those who need one
(accounts.services), so that tests of other screens need not type codes. The tests of the second
factor itself use django.test.Client, which does not."""

import django.test
from django.contrib.auth import authenticate
from django.test import RequestFactory
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.selectors import second_factor_required


def totp_device(user):
    """user's confirmed authenticator app, made when they have none."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name="test app", confirmed=True)


def totp_code(device, *, steps_ahead=1):
    """The code the app shows steps_ahead periods from now (the device accepts one period either way, and
    never a period it already accepted: one ahead is fresh even right after a login)."""
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    totp.time = totp.time + steps_ahead * device.step
    return f"{totp.token():0{device.digits}d}"


def verify_session(client, user):
    """Mark client's session as having passed user's second factor, as django_otp.login does."""
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = totp_device(user).persistent_id
    session.save()


class Client(django.test.Client):
    """django.test.Client whose logins pass the second factor where the user needs one."""

    def force_login(self, user, backend=None):
        super().force_login(user, backend)
        if second_factor_required(user):
            verify_session(self, user)

    def login(self, **credentials):
        # django-axes checks every login against its lockouts, and needs the request for that.
        user = authenticate(RequestFactory().post("/admin/login/"), **credentials)
        if user is None:
            return False
        self.force_login(user)
        return True

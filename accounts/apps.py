"""The accounts app, and the names in the user's language of the third-party apps it builds the login on
(django-axes' failed logins, django-otp's authenticator apps and recovery codes), which name themselves
in English or not at all."""

from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django_otp.plugins.otp_static.apps import DefaultConfig as RecoveryCodesAppConfig
from django_otp.plugins.otp_totp.apps import DefaultConfig as AuthenticatorAppsAppConfig


class AccountsConfig(AppConfig):
    """Who may log in and how: the lockout after failed logins, the second factor, and the audit trail."""

    # The app's own configuration, among the third-party apps' ones this module also holds.
    default = True
    name = "accounts"
    verbose_name = _("Accounts and security")

    def ready(self):
        from axes.models import AccessAttempt, AccessFailureLog, AccessLog
        from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
        from django_otp.plugins.otp_totp.models import TOTPDevice

        # The models' names only (the migrations read neither): django-otp's are plain English words.
        names = {
            AccessAttempt: (_("failed login"), _("failed logins")),
            AccessLog: (_("login"), _("logins")),
            AccessFailureLog: (_("failed login record"), _("failed login records")),
            TOTPDevice: (_("authenticator app"), _("authenticator apps")),
            StaticDevice: (_("recovery code list"), _("recovery code lists")),
            StaticToken: (_("recovery code"), _("recovery codes")),
        }
        for model, (singular, plural) in names.items():
            model._meta.verbose_name, model._meta.verbose_name_plural = singular, plural


class LoginAttemptsConfig(AxesAppConfig):
    """django-axes: the failed logins the lockout counts, under the security menu's name."""

    verbose_name = _("Accounts and security")


class AuthenticatorAppsConfig(AuthenticatorAppsAppConfig):
    """django-otp's authenticator apps (TOTP), the second factor."""

    verbose_name = _("Two-step login")


class RecoveryCodesConfig(RecoveryCodesAppConfig):
    """django-otp's recovery codes (static tokens), the second factor without the phone."""

    verbose_name = _("Two-step login")

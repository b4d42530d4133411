from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    """Who may log in and how: the lockout after failed logins, the second factor, and the audit trail."""

    name = "accounts"
    verbose_name = _("Accounts and security")

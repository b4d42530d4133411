"""The admin app configured with vendorhub's own admin site (dashboard, language switch)."""

from django.contrib.admin.apps import AdminConfig


class VendorhubAdminConfig(AdminConfig):
    """Installs config.admin_site.VendorhubAdminSite as the default admin site."""

    default_site = "config.admin_site.VendorhubAdminSite"

"""App configurations of the project: the admin with vendorhub's own site (dashboard, language switch), and
the project-wide wiring."""

from django.apps import AppConfig
from django.contrib.admin.apps import AdminConfig


class VendorhubAdminConfig(AdminConfig):
    """Installs config.admin_site.VendorhubAdminSite as the default admin site."""

    default_site = "config.admin_site.VendorhubAdminSite"


class VendorhubConfig(AppConfig):
    """Project-wide wiring that belongs to no app: how database connections read values, and our deploy
    checks."""

    name = "config"
    label = "vendorhub"
    verbose_name = "vendorhub"

    def ready(self):
        from django.db.backends.signals import connection_created

        from . import checks  # noqa: F401 (registers the deploy checks)
        from .postgres import register_clamped_loaders

        connection_created.connect(register_clamped_loaders, dispatch_uid="vendorhub.clamped_loaders")

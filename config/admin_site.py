"""vendorhub's admin site: its titles and a dashboard of the user's properties."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _


class VendorhubAdminSite(admin.AdminSite):
    """The back office: the index is a dashboard showing each property the user works for."""

    site_header = _("vendorhub back office")
    site_title = _("vendorhub")
    index_title = _("Dashboard")
    index_template = "admin/vendorhub_index.html"

    def index(self, request, extra_context=None):
        from integration.selectors import property_roles_for_user

        context = {"property_roles": property_roles_for_user(request.user), **(extra_context or {})}
        return super().index(request, extra_context=context)

"""The page a locked-out login gets (django-axes' AXES_LOCKOUT_CALLABLE): why, in the user's language,
for how long, and who can unlock it."""

from django.conf import settings
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _


def lockout_response(request, original_response=None, credentials=None):
    """429 with the locked-out page, the cool-off in whole minutes."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return TemplateResponse(
        request, "admin/accounts/locked_out.html", {"minutes": minutes, "title": _("Login locked")}, status=429
    ).render()

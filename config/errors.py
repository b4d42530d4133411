"""The back office's refusal page: a 403 reads like the rest of the admin (header, language switch, sidebar),
in the reader's language, with a way back and the dashboard, instead of Django's bare "403 Forbidden"."""

from django.contrib import admin
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _


def _way_back(request):
    """The page the reader came from, when it is one of ours and not this one; else ""."""
    back = request.META.get("HTTP_REFERER", "")
    ours = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return back if ours and back != request.build_absolute_uri() else ""


def permission_denied(request, exception=None):
    """handler403: what was refused, a link back and one to the dashboard, inside the admin."""
    context = {
        **admin.site.each_context(request),
        "title": _("You cannot open this page"),
        "way_back": _way_back(request),
    }
    return render(request, "403.html", context, status=403)

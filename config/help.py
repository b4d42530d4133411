"""The Help link of every admin screen: which page of the docs site explains it, in one place."""

from django.utils.translation import get_language

from .docs import docs_url

#: Admin URL names (their start: app, model, then the view) -> the page of the docs site that explains the
#: screen. The longest matching start wins; a screen named nowhere gets the staff guide's first page.
HELP_PAGES = {
    "index": "staff/",
    "bookings": "staff/front-desk/",
    "inbox": "staff/hub-states/",
    "integration_syncstate": "staff/hub-states/",
    "integration_syncattempt": "staff/hub-states/",
    "integration_driftcheck": "staff/hub-states/",
    "integration_property": "staff/property-manager/",
    "integration_roomtype": "staff/property-manager/",
    "integration_rateplanmodel": "staff/property-manager/",
    "integration_rateplan": "staff/revenue-manager/",
    "integration_property_calendar": "staff/revenue-manager/",
    "integration_property_ari": "staff/revenue-manager/",
    "integration_channelavailrule": "staff/revenue-manager/",
    "integration_channelavailrulechange": "staff/revenue-manager/",
    "integration_propertycutoff": "staff/revenue-manager/",
    "integration_channelleaddays": "staff/revenue-manager/",
    "integration_rateplandefault": "staff/revenue-manager/",
    "integration_roomtypedefault": "staff/revenue-manager/",
    "integration_property_health": "staff/owner/",
    "integration_property_checklist": "staff/owner/",
    "integration_propertychannel": "staff/owner/",
    "integration_saleschannel": "staff/owner/",
    "integration_hubswitch": "staff/owner/",
    "integration_catalogsnapshot": "staff/owner/",
    "integration_codemapping": "staff/owner/",
    "licenses": "staff/property-manager/",
    "settlement": "staff/owner/",
    "reports": "staff/reports/",
    "integration_propertymembership": "operator/security/",
    "auth": "operator/security/",
    "axes": "operator/security/",
    "admin_logentry": "operator/security/",
    "otp": "operator/security/",
    "second_factor": "operator/security/",
    "password_change": "operator/security/",
    "hubsandbox": "getting-started/",
}
DEFAULT_HELP_PAGE = "staff/"


def help_page(url_name):
    """The docs page (relative to the site, "staff/front-desk/") of the admin screen of this URL name."""
    starts = [start for start in HELP_PAGES if url_name == start or url_name.startswith(f"{start}_")]
    return HELP_PAGES[max(starts, key=len)] if starts else DEFAULT_HELP_PAGE


def admin_help(request):
    """Context processor: `help_url`, the Help link of the admin screen being shown, in the user's language."""
    match = getattr(request, "resolver_match", None)
    if match is None or match.namespace != "admin":
        return {}
    return {"help_url": docs_url(help_page(match.url_name or ""), get_language())}

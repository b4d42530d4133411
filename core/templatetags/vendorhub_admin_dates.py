"""{% probed_date_hierarchy cl %}: the admin's date drill-down for logs of millions of rows (core.admin.dates)."""

from django import template
from django.contrib.admin.templatetags.base import InclusionAdminNode

from core.admin.dates import probed_date_hierarchy

register = template.Library()


@register.tag(name="probed_date_hierarchy")
def probed_date_hierarchy_tag(parser, token):
    """Rendered by Django's admin/date_hierarchy.html, as its own date_hierarchy tag is."""
    # As Django's admin_list calls it (django-stubs declare another signature).
    return InclusionAdminNode(  # type: ignore[call-arg]
        parser, token, func=probed_date_hierarchy, template_name="date_hierarchy.html", takes_context=False
    )

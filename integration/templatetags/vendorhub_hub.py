"""The hub environment badge shown on every admin page (base_site.html): staging or production."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from ..hub.selectors import hub_environment_active

register = template.Library()


@register.simple_tag(takes_context=True)
def hub_environment_badge(context):
    """A coloured badge naming the active hub environment; for superusers, a link to the switches."""
    environment = hub_environment_active()
    label = _("Hub: %(environment)s") % {"environment": environment.label}
    user = context.get("user")
    if user is not None and user.is_active and user.is_superuser:
        return format_html(
            '<a class="hub-env hub-env-{}" id="hub-environment" href="{}">{}</a>',
            environment.value,
            reverse("admin:integration_hubswitch_changelist"),
            label,
        )
    return format_html('<span class="hub-env hub-env-{}" id="hub-environment">{}</span>', environment.value, label)

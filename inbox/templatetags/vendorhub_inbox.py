"""The header's inbox badge: `{% inbox_badge %}` (templates/admin/base_site.html)."""

from django import template

from ..selectors import BADGE_CAP, unread_count

register = template.Library()


@register.inclusion_tag("inbox/badge.html", takes_context=True)
def inbox_badge(context):
    """The link to the inbox with the viewer's unread count: one query per request, however often the
    header is rendered."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not (user.is_active and user.is_staff):
        return {"hidden": True}
    if not hasattr(request, "_inbox_unread"):
        request._inbox_unread = unread_count(user)
    unread = request._inbox_unread
    return {"unread": unread, "unread_text": f"{BADGE_CAP}+" if unread > BADGE_CAP else str(unread)}

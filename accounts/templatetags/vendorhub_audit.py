"""Template filters of the audit trail: an admin log entry's changed fields, before and after."""

from django import template

from core.audit import audit_changes

register = template.Library()


@register.filter
def field_changes(entry):
    """The entry's changed fields, each {"label", "object", "before", "after"} in the reader's language."""
    return audit_changes(entry)

"""{% load vendorhub_names %}: {{ room_type|display_name }}, the one naming rule of integration.content.names."""

from django import template

from integration.content.names import display_name as _display_name

register = template.Library()


@register.filter
def display_name(obj):
    """A room type, rate plan model or rate plan as staff see it in the active language."""
    return _display_name(obj)

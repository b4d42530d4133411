"""{% load settlement %}: amounts of the reconciliation screens with thousands separators."""

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def money(value):
    """120000 or Decimal("120000.00") as "120,000" (decimals kept when there are any); "—" for None."""
    if value is None or value == "":
        return "—"
    value = Decimal(str(value))
    return f"{int(value):,}" if value == value.to_integral_value() else f"{value:,}"

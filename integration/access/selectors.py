"""Reads of access: what a person may see."""

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from ..content.models import Property
from .choices import MembershipRole


def properties_for_user(user: User | AnonymousUser, *, roles: Iterable[str] | None = None) -> QuerySet[Property]:
    """The properties a user may see: every one for a superuser, else those where they hold one of roles.

    roles defaults to any role; pass (MembershipRole.MANAGER,) for manager-only data.
    """
    if not user.is_active:
        return Property.objects.none()
    if user.is_superuser:
        return Property.objects.all()
    return Property.objects.filter(memberships__user=user, memberships__role__in=roles or MembershipRole.values)


def scope_to_user(
    queryset: QuerySet[Any],
    user: User | AnonymousUser,
    *,
    property_path: str,
    roles: Iterable[str] | None = None,
) -> QuerySet[Any]:
    """Narrow queryset to objects of the properties the user may see.

    property_path is the lookup from the queryset's model to its Property ("" for Property itself).
    """
    if user.is_active and user.is_superuser:
        return queryset
    lookup = f"{property_path}__in" if property_path else "pk__in"
    return queryset.filter(**{lookup: properties_for_user(user, roles=roles).values("pk")})

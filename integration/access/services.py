"""Writes of access: granting and revoking a role at a property, one function per use case."""

from django.contrib.auth.models import Group, User
from django.db import transaction

from core.audit import ADDITION, CHANGE, DELETION, audit_record, audit_values

from ..content.models import Property
from .choices import MembershipRole
from .models import PropertyMembership
from .roles import GROUP_NAMES


@transaction.atomic
def membership_grant(*, user: User, property: Property, role: str, by: User | None = None) -> PropertyMembership:
    """Give user the role at property (replacing any role they held there) and the role's group; by, the
    person who gave it, is recorded in the audit trail."""
    held = PropertyMembership.objects.filter(user=user, property=property).first()
    before = audit_values(held) if held else None
    membership, created = PropertyMembership.objects.update_or_create(
        user=user, property=property, defaults={"role": role}
    )
    user_sync_role_groups(user=user)
    audit_record(user=by, obj=membership, action=ADDITION if created else CHANGE, before=before)
    return membership


@transaction.atomic
def membership_revoke(*, membership: PropertyMembership, by: User | None = None) -> None:
    """Take a person's role at one property away, and the role's group when they hold it nowhere else;
    by, the person who took it, is recorded in the audit trail."""
    user = membership.user
    audit_record(user=by, obj=membership, action=DELETION, before=audit_values(membership))
    membership.delete()
    user_sync_role_groups(user=user)


def user_sync_role_groups(*, user: User) -> None:
    """Make the user's role groups match the roles they hold; anyone with a role may use the admin."""
    roles = {
        MembershipRole(role) for role in PropertyMembership.objects.filter(user=user).values_list("role", flat=True)
    }
    groups = {group.name: group for group in Group.objects.filter(name__in=GROUP_NAMES.values())}
    user.groups.remove(*groups.values())
    user.groups.add(*(groups[GROUP_NAMES[role]] for role in roles))
    if roles and not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])

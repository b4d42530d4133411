"""Role groups come from migrations; memberships give people exactly their roles' groups."""

import threading

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import connection

from integration.access.choices import MembershipRole
from integration.access.roles import GROUP_NAMES, ROLE_PERMISSIONS
from integration.access.selectors import properties_for_user
from integration.access.services import membership_grant, membership_revoke
from integration.models import PropertyMembership
from tests.factories import PropertyFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", list(MembershipRole))
def test_migrations_give_each_role_group_exactly_its_permissions(role):
    group = Group.objects.get(name=GROUP_NAMES[role])

    held = {f"{perm.content_type.app_label}.{perm.codename}" for perm in group.permissions.all()}

    assert held == set(ROLE_PERMISSIONS[role])


def test_every_role_permission_exists():
    """A misspelt permission in ROLE_PERMISSIONS would silently grant nothing."""
    for names in ROLE_PERMISSIONS.values():
        for name in names:
            app_label, codename = name.split(".")
            assert Permission.objects.filter(content_type__app_label=app_label, codename=codename).exists(), name


def test_grant_makes_a_staff_user_with_the_role_group(property_a):
    user = UserFactory(is_staff=False)

    membership_grant(user=user, property=property_a, role=MembershipRole.STAFF)

    user.refresh_from_db()
    assert user.is_staff
    assert set(user.groups.values_list("name", flat=True)) == {"Property staff"}
    assert user.has_perm("integration.change_property")


def test_roles_at_two_properties_give_both_groups_and_revoke_takes_one(property_a, property_b):
    user = UserFactory()
    membership_grant(user=user, property=property_a, role=MembershipRole.MANAGER)
    staff_membership = membership_grant(user=user, property=property_b, role=MembershipRole.STAFF)

    assert set(user.groups.values_list("name", flat=True)) == {"Property manager", "Property staff"}

    membership_revoke(membership=staff_membership)

    assert set(user.groups.values_list("name", flat=True)) == {"Property manager"}


def test_grant_again_changes_the_role(property_a):
    user = UserFactory()
    membership_grant(user=user, property=property_a, role=MembershipRole.STAFF)
    membership_grant(user=user, property=property_a, role=MembershipRole.MANAGER)

    assert list(PropertyMembership.objects.filter(user=user).values_list("role", flat=True)) == ["manager"]
    assert set(user.groups.values_list("name", flat=True)) == {"Property manager"}


def test_manager_only_scope_leaves_out_staff_roles(property_a, property_b):
    user = UserFactory()
    membership_grant(user=user, property=property_a, role=MembershipRole.MANAGER)
    membership_grant(user=user, property=property_b, role=MembershipRole.STAFF)

    assert set(properties_for_user(user)) == {property_a, property_b}
    assert list(properties_for_user(user, roles=[MembershipRole.MANAGER])) == [property_a]


def test_inactive_user_sees_nothing(property_a):
    user = UserFactory(is_active=False, is_superuser=True)

    assert not properties_for_user(user).exists()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_grants_make_one_membership():
    """Eight simultaneous grants of the same person at the same property: one row, by the unique constraint."""
    prop = PropertyFactory()
    user = UserFactory()
    barrier = threading.Barrier(8)
    errors = []

    def grant(role):
        try:
            barrier.wait()
            membership_grant(user=user, property=prop, role=role)
        except Exception as exc:
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=grant, args=(MembershipRole.values[i % 2],)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    assert PropertyMembership.objects.filter(user=user, property=prop).count() == 1


@pytest.mark.django_db(transaction=True)
def test_role_groups_survive_a_flush():
    """flush empties every table and runs no migration: the post_migrate receiver writes the groups again."""
    from django.core.management import call_command

    call_command("flush", interactive=False, verbosity=0)

    group = Group.objects.get(name=GROUP_NAMES[MembershipRole.STAFF])
    assert group.permissions.filter(codename="change_property").exists()

"""Staff of property A cannot list, open, change or act on anything of property B, in any admin screen."""

import pytest
from django.urls import reverse

from integration.models import Property, PropertyMembership
from tests.admin_forms import changeform_data

pytestmark = pytest.mark.django_db


def property_url(name, prop):
    return reverse(f"admin:integration_property_{name}", args=[prop.pk])


@pytest.fixture
def staff_client(client, staff_a):
    client.force_login(staff_a)
    return client


def test_staff_lists_only_their_property(staff_client, property_a, property_b):
    response = staff_client.get(reverse("admin:integration_property_changelist"))

    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [property_a]
    assert "prop-b" not in response.content.decode()


def test_staff_search_does_not_reach_another_property(staff_client, property_b):
    response = staff_client.get(reverse("admin:integration_property_changelist"), {"q": "prop-b"})

    assert list(response.context["cl"].result_list) == []


@pytest.mark.parametrize("view", ["change", "history", "delete"])
def test_another_propertys_pages_are_404(staff_client, property_b, view):
    assert staff_client.get(property_url(view, property_b)).status_code == 404


def test_own_property_opens(staff_client, property_a):
    response = staff_client.get(property_url("change", property_a))

    assert response.status_code == 200
    assert response.context["original"] == property_a


def test_staff_cannot_change_another_property(staff_client, property_b):
    response = staff_client.post(property_url("change", property_b), {"name": "Taken over"})

    assert response.status_code == 404
    property_b.refresh_from_db()
    assert property_b.name == "Property B"


def test_staff_changes_their_own_property(staff_client, property_a):
    page = staff_client.get(property_url("change", property_a))

    response = staff_client.post(
        property_url("change", property_a),
        changeform_data(page, **{"name": "Renamed A", "translations-0-name": "숙소 A"}),
    )

    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    property_a.refresh_from_db()
    assert property_a.name == "Renamed A"


def test_action_on_another_property_touches_nothing(client, property_a, property_b):
    """Actions act on the scoped queryset: a foreign id in the selection is ignored."""
    from tests.factories import member

    # A user allowed to delete properties, to prove the action itself is scoped, not just forbidden.
    user = member(property_a, "manager")
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="delete_property"))
    client.force_login(user)

    client.post(
        reverse("admin:integration_property_changelist"),
        {"action": "delete_selected", "_selected_action": [property_b.pk], "post": "yes"},
    )

    assert Property.objects.filter(pk=property_b.pk).exists()


def test_dashboard_shows_only_own_properties(staff_client, property_a, property_b):
    response = staff_client.get(reverse("admin:index"))

    assert [card["property"] for card in response.context["property_cards"]] == [property_a]
    assert "Property B" not in response.content.decode()


def test_staff_cannot_add_properties_or_see_memberships(staff_client):
    assert staff_client.get(reverse("admin:integration_property_add")).status_code == 403
    assert staff_client.get(reverse("admin:integration_propertymembership_changelist")).status_code == 403


def test_user_without_membership_sees_no_property(client, property_a):
    from tests.factories import UserFactory

    client.force_login(UserFactory(is_staff=True))

    assert client.get(property_url("change", property_a)).status_code in (403, 404)
    assert client.get(reverse("admin:integration_property_changelist")).status_code == 403


def test_superuser_sees_every_property(client, superuser, property_a, property_b):
    client.force_login(superuser)

    response = client.get(reverse("admin:integration_property_changelist"))

    assert set(response.context["cl"].result_list) == {property_a, property_b}
    assert client.get(property_url("change", property_b)).status_code == 200


def test_superuser_grants_a_role_through_the_admin(client, superuser, property_b, staff_a):
    client.force_login(superuser)

    response = client.post(
        reverse("admin:integration_propertymembership_add"),
        {"user": staff_a.pk, "property": property_b.pk, "role": "manager"},
    )

    assert response.status_code == 302
    assert PropertyMembership.objects.get(user=staff_a, property=property_b).role == "manager"
    assert staff_a.groups.filter(name="Property manager").exists()

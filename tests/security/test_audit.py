"""The audit trail (issue 25, item 5): who changed what, when, and each field before and after, recorded
where the write happens (the admin's form, or the service with the acting user), shown on the object's
History page in Korean and English, and listed for superusers only."""

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, DELETION, LogEntry
from django.urls import reverse

from core.audit import audit_changes
from integration.access.models import PropertyMembership
from integration.access.services import membership_grant, membership_revoke
from integration.catalog.services.mapping import code_mappings_import, code_mappings_read_csv
from integration.channels.services import channel_mapping_update, channel_settings_update
from integration.models import CodeMapping, PropertyChannel
from integration.sync.services.switch import hub_environment_switch
from tests.admin_forms import changeform_data
from tests.factories import PropertyFactory, UserFactory, korean, member
from tests.integration.ari.factories import SalesChannelFactory
from tests.integration.catalog.data import store_catalog

pytestmark = pytest.mark.django_db


def entries_of(obj):
    return list(LogEntry.objects.filter(object_id=str(obj.pk), content_type__model=obj._meta.model_name))


def history(client, obj, language):
    url = reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_history", args=[obj.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.mark.parametrize(
    ("language", "label", "user_label"), [("en", "Refund policy", "Field"), ("ko", "환불 규정", "항목")]
)
def test_a_refund_policy_change_shows_who_made_it_before_and_after(client, language, label, user_label):
    prop = PropertyFactory(refunds={"7d": 100})
    korean(prop)
    manager = member(prop, "manager", username="manager-kim")
    client.force_login(manager)
    url = reverse("admin:integration_property_change", args=[prop.pk])

    response = client.post(url, changeform_data(client.get(url), refunds='{"7d": 100, "1d": 50}'))

    assert response.status_code == 302
    (entry,) = entries_of(prop)
    assert (entry.user, entry.action_flag) == (manager, CHANGE)
    assert audit_changes(entry)[0]["before"] == '{"7d": 100}'
    assert audit_changes(entry)[0]["after"] == '{"1d": 50, "7d": 100}'
    page = history(client, prop, language)
    assert "manager-kim" in page
    assert f'<th scope="row">{label}</th><td class="vh-before">{{&quot;7d&quot;: 100}}</td>' in page
    assert f'<th scope="col">{user_label}</th>' in page


@pytest.mark.parametrize(("language", "before", "after"), [("en", "Staff", "Manager"), ("ko", "직원", "매니저")])
def test_a_members_role_change_shows_who_made_it(client, language, before, after):
    prop = PropertyFactory()
    staff = member(prop, "staff")
    membership = PropertyMembership.objects.get(user=staff)
    superuser = UserFactory(is_staff=True, is_superuser=True, username="root-lee")
    client.force_login(superuser)
    url = reverse("admin:integration_propertymembership_change", args=[membership.pk])

    client.post(url, changeform_data(client.get(url), role="manager"))

    (entry,) = entries_of(membership)
    assert (entry.user, entry.action_flag) == (superuser, CHANGE)
    page = history(client, membership, language)
    assert "root-lee" in page
    assert f'<td class="vh-before">{before}</td><td class="vh-after">{after}</td>' in page


def test_a_membership_granted_and_revoked_by_a_superuser_is_recorded():
    prop, person, superuser = PropertyFactory(), UserFactory(), UserFactory(is_superuser=True)
    membership = membership_grant(user=person, property=prop, role="staff", by=superuser)
    membership_revoke(membership=membership, by=superuser)

    flags = list(LogEntry.objects.filter(user=superuser).order_by("pk").values_list("action_flag", flat=True))
    assert flags == [ADDITION, DELETION]


def test_channel_settings_and_mapping_are_recorded_with_the_acting_manager():
    prop = PropertyFactory()
    manager = member(prop, "manager")
    channel = SalesChannelFactory(open_for=prop, channel_type="cms")
    link = PropertyChannel.objects.get(property=prop, channel=channel)

    channel_settings_update(property_channel=link, on_sale=False, user=manager)
    channel_mapping_update(property_channel=link, room_type_codes={}, rate_plan_codes={}, user=manager)
    channel_settings_update(property_channel=link, on_sale=False, user=manager)  # no change: no entry

    (entry,) = entries_of(link)
    assert entry.user == manager
    assert [(row["label"], row["before"], row["after"]) for row in audit_changes(entry)] == [("on sale", "Yes", "No")]


def test_a_code_mapping_import_records_each_mapping_with_its_values():
    store_catalog()
    CodeMapping.objects.create(group="view", vendor_code="SEA", hub_code="ocean", note="old note")
    manager = UserFactory(is_staff=True)
    rows = code_mappings_read_csv("group,vendor_code,hub_code,note\nview,SEA,ocean,sea side\nfacility,PARK,parking,\n")

    code_mappings_import(rows, apply=True, user=manager)

    sea, park = CodeMapping.objects.get(vendor_code="SEA"), CodeMapping.objects.get(vendor_code="PARK")
    (changed,) = entries_of(sea)
    (added,) = entries_of(park)
    assert [(row["label"], row["before"], row["after"]) for row in audit_changes(changed)] == [
        ("note", "old note", "sea side")
    ]
    assert added.action_flag == ADDITION
    assert ("hub code", "", "parking") in [(row["label"], row["before"], row["after"]) for row in audit_changes(added)]


def test_a_hub_switch_is_recorded_as_the_superusers():
    superuser = UserFactory(is_staff=True, is_superuser=True)

    switch = hub_environment_switch(to="production", user=superuser)

    (entry,) = entries_of(switch)
    assert (entry.user, entry.action_flag) == (superuser, ADDITION)
    assert ("to", "", "Production") in [
        (row["label"].split()[0], row["before"], row["after"]) for row in audit_changes(entry)
    ]


def test_the_trail_is_listed_and_filtered_for_superusers_only(client):
    prop = PropertyFactory()
    staff = member(prop, "staff")
    superuser = UserFactory(is_staff=True, is_superuser=True)
    membership_grant(user=staff, property=prop, role="manager", by=superuser)
    url = reverse("admin:admin_logentry_changelist")

    client.force_login(superuser)
    listed = client.get(url, {"user__id__exact": superuser.pk}, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(member(prop, "manager"))
    refused = client.get(url)

    assert [entry.user for entry in listed.context["cl"].result_list] == [superuser]
    assert '<td class="vh-after">Manager</td>' in listed.content.decode()
    assert refused.status_code == 403

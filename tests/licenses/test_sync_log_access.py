"""License rows of the sync log (business numbers, owner names) are for the property's managers only."""

import pytest
from django.urls import reverse

from integration.models import ResourceKind, SyncAttempt, SyncState
from tests.factories import member

pytestmark = pytest.mark.django_db


def test_staff_see_content_rows_but_not_license_rows(client, property_a):
    staff = member(property_a, "staff")
    manager = member(property_a, "manager")
    content = SyncState.objects.create(kind=ResourceKind.PROPERTY, object_id=property_a.pk, property=property_a)
    license_state = SyncState.objects.create(kind=ResourceKind.LICENSE, object_id=1, property=property_a)
    for state in (content, license_state):
        SyncAttempt.objects.create(
            state=state,
            property=property_a,
            method="POST",
            path="/p",
            outcome="success",
            duration_ms=1,
            request_body={"data": {"owner_name": "홍길동"}},
        )

    client.force_login(staff)
    states = client.get(reverse("admin:integration_syncstate_changelist")).context["cl"].result_list
    attempts = client.get(reverse("admin:integration_syncattempt_changelist")).context["cl"].result_list
    assert [s.kind for s in states] == [ResourceKind.PROPERTY]
    assert [a.state.kind for a in attempts] == [ResourceKind.PROPERTY]

    client.force_login(manager)
    states = client.get(reverse("admin:integration_syncstate_changelist")).context["cl"].result_list
    assert {s.kind for s in states} == {ResourceKind.PROPERTY, ResourceKind.LICENSE}

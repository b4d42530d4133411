"""The hub's calls as staff read them: bodies indented, headers readable, paths decoded."""

from urllib.parse import quote

import pytest
from django.urls import reverse

from bookings.models import InboundCall

from .factories import create_body, sellable

pytestmark = pytest.mark.django_db


def test_bodies_are_indented_and_paths_decoded(admin_client, hub_client):
    _room_type, standalone, _package = sellable()
    hub_client.post("/bookings", create_body(standalone))
    hub_client.get("/bookings/없는-예약")
    created = InboundCall.objects.get(method="POST")
    missing = InboundCall.objects.get(method="GET")
    assert quote("없는-예약") in missing.path  # stored as it arrived

    listing = admin_client.get(reverse("admin:bookings_inboundcall_changelist")).content.decode()
    detail = admin_client.get(reverse("admin:bookings_inboundcall_change", args=[created.pk])).content.decode()

    assert "/bookings/없는-예약" in listing
    assert quote("없는-예약") not in listing
    assert detail.count('<pre class="vh-log-body">{\n  &quot;') == 3  # headers, request, answer

"""The benchmarks' logins: a superuser passes the second factor as staff do, so that a measured page is the
page itself, not the redirect to the second step (bench.ari's grid answered 302)."""

import django.test
import pytest
from django.urls import reverse

from bench.pages import admin_client, superuser_client
from tests.factories import PropertyFactory

pytestmark = pytest.mark.django_db


def test_the_benchmarks_superuser_reaches_the_admin_pages():
    prop = PropertyFactory()
    client = superuser_client(django.test.Client)  # not tests.login's client, which passes the step itself

    assert client.get(reverse("admin:index")).status_code == 200
    assert client.get(reverse("admin:integration_property_calendar", args=[prop.pk])).status_code == 200


def test_the_screens_benchmarks_read_english():
    page = admin_client(django.test.Client).get(reverse("admin:index"))

    assert page.status_code == 200
    assert '<html lang="en"' in page.content.decode()

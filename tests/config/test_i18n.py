"""The admin speaks Korean and English; the project's strings are translated and compiled."""

import pytest
from django.urls import reverse
from django.utils import translation

pytestmark = pytest.mark.django_db


def test_korean_translations_are_compiled():
    with translation.override("ko"):
        assert translation.gettext("Your properties") == "담당 숙소"


def test_login_page_is_korean_by_default_and_offers_the_switch(client):
    response = client.get(reverse("admin:login"))

    page = response.content.decode()
    assert "vendorhub 백오피스" in page
    assert 'id="language-switch"' in page
    assert 'value="en"' in page


def test_switching_language_turns_the_dashboard_english(client, staff_a):
    client.force_login(staff_a)

    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("admin:index")}, follow=True)

    page = response.content.decode()
    assert "Your properties" in page
    assert "vendorhub back office" in page
    assert "담당 숙소" not in page


def test_browser_language_is_honoured(client, staff_a):
    client.force_login(staff_a)

    page = client.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()

    assert "Your properties" in page

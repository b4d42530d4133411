"""A refused page reads like the rest of the admin: header, language switch, a way back and the dashboard,
in the reader's language (config.errors), instead of Django's bare "403 Forbidden"."""

import pytest
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

LICENSES = reverse("admin:licenses_licenserequest_changelist")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("ko", ["이 페이지를 열 수 없습니다", "대시보드로 가기"]),
        ("en", ["You cannot open this page", "Go to the dashboard"]),
    ],
)
def test_a_refused_page_is_an_admin_page_in_the_readers_language(client, staff_a, language, words):
    client.force_login(staff_a)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    response = client.get(LICENSES, HTTP_REFERER="http://testserver/admin/")

    page = response.content.decode()
    assert response.status_code == 403
    assert all(word in page for word in words)
    assert 'id="language-switch"' in page
    assert 'id="user-tools"' in page
    assert f'href="{reverse("admin:index")}" id="forbidden-dashboard"' in page
    assert 'href="http://testserver/admin/" id="forbidden-back"' in page


def test_the_way_back_never_leads_off_the_site(client, staff_a):
    client.force_login(staff_a)

    page = client.get(LICENSES, HTTP_REFERER="https://evil.example/admin/").content.decode()

    assert "evil.example" not in page
    assert 'id="forbidden-back"' not in page

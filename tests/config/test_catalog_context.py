"""The Korean catalog read in context: words that name different things in English are told apart in
Korean, our words never replace Django's own, and the specific mistakes of issue 15 stay fixed."""

import gettext
from pathlib import Path

import django
import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.forms import AdminUserCreationForm
from django.utils import translation

from bookings.models import Booking
from integration.catalog.choices import CatalogGroup
from integration.content.choices import ContentStatus
from integration.models import Property, PropertyPhoto, PropertyTranslation
from licenses.choices import ReviewStatus

OUR_CATALOG = Path(settings.BASE_DIR) / "locale" / "ko" / "LC_MESSAGES" / "django.mo"
SANDBOX_CATALOG = Path(settings.BASE_DIR) / "hubsandbox" / "locale" / "ko" / "LC_MESSAGES" / "django.mo"

#: Words we translate differently from Django's own catalog although they mean the same thing there
#: (작업/액션, 객체 ID/오브젝트 아이디, 버전/버젼, 이력/히스토리, 아니요/아니오: the standard spelling).
SAME_MEANING_AS_DJANGO = {"Action", "History", "No", "object id", "version"}

#: Django's own Korean catalog is wrong for these (a stray "1" in "보기위한 1%s 를(을) 선택", "뷰" for "view",
#: "독자는"): every view-only list and page is titled with them, so our catalog says them properly.
DJANGO_IS_WRONG = {
    "Select %s to view",
    "View %s",
    "You don\u2019t have permission to view or edit anything.",
}


def _catalog(path):
    with path.open("rb") as file:
        return {key: value for key, value in gettext.GNUTranslations(file)._catalog.items() if isinstance(key, str)}


def _korean(text):
    with translation.override("ko"):
        return str(text)


def test_the_property_pages_name_translations_photos_and_tags_as_such():
    with translation.override("ko"):
        assert str(PropertyTranslation._meta.verbose_name) == "숙소 번역"
        assert str(PropertyPhoto._meta.verbose_name) == "숙소 사진"
        assert str(Property._meta.get_field("property_tags").verbose_name) == "숙소 특징"
        # The inline's "add another" button names what it adds.
        assert str(PropertyPhoto._meta.verbose_name) != str(Property._meta.verbose_name)


def test_no_two_kinds_of_thing_share_a_korean_name():
    """A model named in Korean like another model (숙소 사진 read as 숙소) offers to add the wrong thing."""
    named = {}
    for model in apps.get_models():
        named.setdefault(_korean(model._meta.verbose_name), set()).add(str(model._meta.verbose_name))
    clashes = {korean: english for korean, english in named.items() if len(english) > 1}
    assert clashes == {}


def test_no_field_is_named_like_a_model_it_does_not_point_to():
    """A field labelled 숙소 that is not the property (the property tags were) reads as the wrong thing."""
    models_by_korean = {_korean(model._meta.verbose_name): model for model in apps.get_models()}
    wrong = []
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if not hasattr(field, "verbose_name") or field.auto_created:
                continue
            named_like = models_by_korean.get(_korean(field.verbose_name))
            if named_like is None or named_like is getattr(field, "related_model", None):
                continue
            # The same English word is the same thing by design (a sandbox row's "rate plan model").
            if str(field.verbose_name) not in (
                str(named_like._meta.verbose_name),
                str(named_like._meta.verbose_name_plural),
            ):
                wrong.append(f"{model.__name__}.{field.name}: {_korean(field.verbose_name)}")
    assert wrong == []


def test_our_words_never_replace_djangos_own():
    """Our catalog is read before Django's: a msgid both have must mean the same (else msgctxt)."""
    ours = _catalog(OUR_CATALOG)
    djangos = {}
    for mo in Path(django.__file__).parent.rglob("locale/ko/LC_MESSAGES/django.mo"):
        djangos.update(_catalog(mo))
    differing = {
        msgid: (ours[msgid], djangos[msgid])
        for msgid in ours.keys() & djangos.keys()
        if msgid and ours[msgid] != djangos[msgid] and msgid not in SAME_MEANING_AS_DJANGO | DJANGO_IS_WRONG
    }
    assert differing == {}


def test_djangos_password_login_choice_is_not_our_sale_status(superuser, rf):
    with translation.override("ko"):
        form = AdminUserCreationForm()
        labels = [str(label) for _value, label in form.fields["usable_password"].choices]
        assert "판매 중" not in labels
        assert "판매 중지" not in labels
        assert str(ContentStatus.ENABLED.label) == "판매 중"
        assert str(ContentStatus.DISABLED.label) == "판매 중지"


def test_a_confirmed_booking_and_a_confirmed_license_read_differently():
    with translation.override("ko"):
        assert str(Booking.Status.CONFIRMED.label) == "확정됨"
        assert str(ReviewStatus.CONFIRM.label) == "승인됨"
        assert str(CatalogGroup.PROPERTY.label) == "숙소 특징"
        assert str(CatalogGroup.VIEW.label) == "전망"


def test_the_sandbox_catalog_agrees_with_the_one_that_shadows_it():
    """Django reads the project's catalog over the sandbox's: an entry both have must say the same,
    or the sandbox's is a dead, misleading copy."""
    ours, sandbox = _catalog(OUR_CATALOG), _catalog(SANDBOX_CATALOG)
    differing = {
        msgid: (sandbox[msgid], ours[msgid])
        for msgid in ours.keys() & sandbox.keys()
        if msgid and ours[msgid] != sandbox[msgid]
    }
    assert differing == {}


@pytest.mark.parametrize(
    ("language", "expected"), [("en", "A scan or photo of the license"), ("ko", "라이선스를 스캔하거나")]
)
def test_the_license_file_help_follows_the_language_of_the_request(language, expected):
    from licenses.forms import LicenseFileField

    field = LicenseFileField()
    with translation.override(language):
        assert str(field.help_text).startswith(expected)


@pytest.mark.django_db
def test_view_only_lists_and_pages_are_titled_in_proper_korean(admin_client):
    """Bookings and inbound calls are shown, never changed: their titles are Django's view-only ones."""
    from django.conf import settings as django_settings
    from django.urls import reverse

    from bookings.models import InboundCall

    call = InboundCall.objects.create(method="GET", path="/bookings/1", status=200, duration_ms=3)
    admin_client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "ko"
    titles = [
        admin_client.get(url).context["title"]
        for url in (
            reverse("admin:bookings_booking_changelist"),
            reverse("admin:bookings_inboundcall_changelist"),
            reverse("admin:bookings_inboundcall_change", args=[call.pk]),
        )
    ]

    assert titles == ["조회할 예약 선택", "조회할 수신 호출 선택", "수신 호출 보기"]


#: One Korean word per term of the back office (docs/development.md, Translations): the sidebar, the checklist and help
#: text say the same. The words it replaced, each once beside it, must not come back.
GLOSSARY = {
    "license request": ("라이선스 요청", ("인허가 신청", "인허가 서류")),
    "sync state": ("연동 상태", ("동기화 상태",)),
    "code catalog": ("코드 카탈로그", ("코드 목록",)),
}


@pytest.mark.parametrize("term", GLOSSARY)
def test_one_korean_word_for_each_glossary_term(term):
    word, rivals = GLOSSARY[term]
    entries = {
        msgid: value for msgid, value in _catalog(OUR_CATALOG).items() if term in msgid.split("\x04")[-1].lower()
    }
    assert entries
    assert {msgid: value for msgid, value in entries.items() if word not in value} == {}
    assert [value for value in _catalog(OUR_CATALOG).values() if any(rival in value for rival in rivals)] == []

"""The vendor id rule (OURS, decision 0017, integration.hub.endpoints.VENDOR_ID_PATTERN): letters, digits, "-", "_" and
".", starting with a letter or a digit, refused with a clear message on every content screen, in English
and Korean; and the spec's single-line address and refund keys, refused before anything is sent."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import translation

from integration.models import Property, PropertyTranslation, RatePlan, RatePlanModel, RoomType, SyncState
from tests.admin_forms import submit
from tests.factories import PropertyFactory, RatePlanModelFactory, RoomTypeFactory, korean

pytestmark = pytest.mark.django_db

MESSAGE = "Use only letters, digits, “-”, “_” and “.” in an id, starting with a letter or a digit"
KOREAN_MESSAGE = "ID에는 글자, 숫자, “-”, “_”, “.”만 쓸 수 있고 글자나 숫자로 시작해야 합니다"


@pytest.fixture
def manager_client(client, manager_a):
    client.force_login(manager_a)
    return client


def _add_forms(prop):
    """Each content screen's add page with a valid form but for its vendor id, and the model it adds."""
    room_type = RoomTypeFactory(property=prop, vendor_id="ondol")
    model = RatePlanModelFactory(property=prop, vendor_id="std", type="standalone")
    return [
        ("property", {"name": "Stay", "translations-0-name": "숙소"}, Property),
        ("roomtype", {"property": prop.pk, "name": "Room", "translations-0-name": "방"}, RoomType),
        (
            "rateplanmodel",
            {"property": prop.pk, "name": "Package", "type": "package", "translations-0-name": "패키지"},
            RatePlanModel,
        ),
        ("rateplan", {"room_type": room_type.pk, "model": model.pk}, RatePlan),
    ]


@pytest.mark.parametrize("vendor_id", ["a/b", "=1+2", "..", ".hidden", "has space", "a%2Fb", "a?b", "-x"])
def test_every_content_screen_refuses_an_id_outside_the_rule(manager_client, property_a, settings, vendor_id):
    settings.LANGUAGE_CODE = "en"
    for name, fields, model in _add_forms(property_a):
        before = model.objects.count()

        response, errors, _ = submit(
            manager_client, reverse(f"admin:integration_{name}_add"), vendor_id=vendor_id, **fields
        )

        assert response.status_code == 200, name
        assert any(MESSAGE in error for error in errors["vendor_id"]), (name, errors)
        assert model.objects.count() == before
    assert not SyncState.objects.exists()


def test_the_message_is_korean_on_a_korean_screen(manager_client, settings):
    settings.LANGUAGE_CODE = "ko"

    response, errors, _ = submit(
        manager_client,
        reverse("admin:integration_property_add"),
        vendor_id="a/b",
        name="숙소",
        **{"translations-0-name": "숙소"},
    )

    assert response.status_code == 200
    assert any(KOREAN_MESSAGE in error for error in errors["vendor_id"]), errors


@pytest.mark.parametrize("vendor_id", ["seochon", "서촌-hanok", "room_1.v2", "A-1", "7"])
def test_letters_of_any_script_digits_dash_underscore_and_dot_are_accepted(manager_client, vendor_id):
    response, errors, _ = submit(
        manager_client,
        reverse("admin:integration_property_add"),
        vendor_id=vendor_id,
        name="Stay",
        **{"translations-0-name": "숙소"},
    )

    assert response.status_code == 302, errors
    assert Property.objects.filter(vendor_id=vendor_id).exists()


@pytest.mark.parametrize("address", ["부산광역시\n해운대구", "부산광역시\r\n해운대구", "부산광역시\u2028해운대구"])
def test_an_address_holds_one_line(address):
    prop = PropertyFactory()
    translation_ = PropertyTranslation(property=prop, locale="ko-KR", name="숙소", address=address)

    with translation.override("en"), pytest.raises(ValidationError) as raised:
        translation_.full_clean()

    assert raised.value.message_dict["address"] == ["Write it on one line: the hub takes no line breaks here."]


@pytest.mark.parametrize("key", ["01d", "1D", "\u0661d", "d1"])
def test_refund_keys_are_days_written_as_the_spec_has_them(key):
    prop = PropertyFactory(refunds={key: 50})
    korean(prop)

    with pytest.raises(ValidationError) as raised:
        prop.full_clean()

    assert "refunds" in raised.value.message_dict


@pytest.mark.parametrize(("language", "said"), [("en", "at most 40 characters (it has 41)"), ("ko", "40")])
def test_an_id_too_long_is_said_never_cut_by_the_browser(manager_client, property_a, language, said):
    """A 41-character id: the input carries no maxlength (the browser would cut a pasted id to 40 without a
    word), and saving says how long it may be and how long it is."""
    manager_client.cookies["django_language"] = language
    for name, fields, model in _add_forms(property_a):
        url = reverse(f"admin:integration_{name}_add")
        page = manager_client.get(url).content.decode()
        vendor_id_input = page[page.index('id="id_vendor_id"') - 200 : page.index('id="id_vendor_id"') + 50]
        assert "maxlength" not in vendor_id_input, name
        before = model.objects.count()

        _response, errors, _ = submit(manager_client, url, vendor_id="a" * 41, **fields)

        assert said in " ".join(errors.get("vendor_id", [])), (name, errors)
        assert "41" in " ".join(errors["vendor_id"])
        assert model.objects.count() == before

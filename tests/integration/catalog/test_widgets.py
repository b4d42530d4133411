"""The catalog tag picker and the refund policy editor: what they render, and what posted data cleans to."""

import json

import pytest
from django import forms
from django.http import QueryDict
from django.utils import translation

from integration.catalog.forms import CatalogTagsField
from integration.catalog.selectors import PATH_SEPARATOR
from integration.catalog.widgets import CatalogTagsWidget
from integration.content.forms import RefundPolicyField, catalog_formfield
from integration.content.widgets import RefundPolicyWidget
from integration.models import Property, RoomType
from tests.integration.catalog.data import store_catalog

pytestmark = pytest.mark.django_db


class ContentForm(forms.Form):
    facility_tags = CatalogTagsField("facility", required=False)
    view_tags = CatalogTagsField("view", required=False)
    refunds = RefundPolicyField(required=False)


def path(*names):
    """A nested code's label: its names from the top-level node down."""
    return PATH_SEPARATOR.join(names)


def post(query):
    """A form bound to data as a browser would post it (query string syntax, repeated keys allowed)."""
    return ContentForm(QueryDict(query))


def errors_of(form, field):
    with translation.override("en"):
        return form.errors.get(field, [])


# --- The tag picker ---------------------------------------------------------------------------


def test_chosen_codes_clean_to_a_list_of_codes():
    store_catalog()
    form = post("facility_tags=pool&facility_tags=pool.outdoor&view_tags=ocean&refunds=")

    assert form.is_valid(), form.errors
    assert form.cleaned_data["facility_tags"] == ["pool", "pool.outdoor"]
    assert form.cleaned_data["view_tags"] == ["ocean"]


def test_nothing_chosen_cleans_to_an_empty_list():
    form = post("refunds=")

    assert form.is_valid(), form.errors
    assert form.cleaned_data["facility_tags"] == []


def test_a_code_outside_the_group_is_an_error_naming_it():
    store_catalog()
    form = post("facility_tags=pool&facility_tags=ocean&refunds=")

    assert not form.is_valid()
    assert errors_of(form, "facility_tags") == ["ocean is not a code of the hub's catalog (Facility)."]


def test_codes_before_the_catalog_was_fetched_ask_to_fetch_it():
    form = post("facility_tags=pool&refunds=")

    assert not form.is_valid()
    assert "Fetch the hub's code catalog first" in errors_of(form, "facility_tags")[0]


def test_the_picker_lists_the_catalog_in_optgroups_with_the_hubs_names():
    store_catalog()

    with translation.override("en"):
        html = ContentForm(initial={"facility_tags": ["pool.outdoor"]})["facility_tags"].as_widget()
    with translation.override("ko"):
        korean = ContentForm()["facility_tags"].as_widget()

    assert '<select name="facility_tags"' in html
    assert "multiple" in html
    assert '<optgroup label="수영장">' in html
    assert f'<option value="pool.outdoor" selected>{path("수영장", "야외 수영장")}</option>' in html
    assert '<optgroup label="Other">' in html  # our own label, in the active language
    assert '<option value="wifi">와이파이</option>' in html
    assert '<optgroup label="수영장">' in korean
    assert '<option value="wifi">와이파이</option>' in korean


def test_an_unknown_stored_code_stays_visible_and_selected():
    store_catalog()

    with translation.override("en"):
        html = ContentForm(initial={"facility_tags": ["spa", "pool"]})["facility_tags"].as_widget()

    assert '<option value="spa" selected class="vh-tag-unknown">spa</option>' in html
    assert '<li class="vh-tag-unknown" title="Not in the hub&#x27;s catalog">spa</li>' in html
    assert '<option value="pool" selected>수영장</option>' in html


def test_the_chosen_codes_are_readable_without_javascript():
    store_catalog()

    with translation.override("en"):
        html = ContentForm(initial={"facility_tags": ["pool.outdoor", "wifi"]})["facility_tags"].as_widget()

    chosen = html[html.index('class="vh-tags-chosen"') :]
    assert f"<li>{path('수영장', '야외 수영장')}</li>" in chosen
    assert "<li>와이파이</li>" in chosen


def test_the_picker_without_a_catalog_says_to_fetch_it():
    with translation.override("en"):
        html = ContentForm()["facility_tags"].as_widget()

    assert "fetch the hub's code catalog first" in html


def test_another_order_of_the_same_codes_is_no_change():
    field = CatalogTagsField("facility")

    assert not field.has_changed(["wifi", "pool"], ["pool", "wifi"])
    assert field.has_changed(["wifi"], ["pool", "wifi"])


def test_the_widgets_bring_their_script_and_styles():
    media = str(ContentForm().media)

    assert "vendorhub/catalog_widgets.js" in media
    assert "defer" in media
    assert "vendorhub/catalog_widgets.css" in media


# --- The refund policy editor -------------------------------------------------------------------


def test_rows_clean_to_the_refund_map_by_days():
    form = post(
        "refunds=&refunds_days=7&refunds_percent=100&refunds_days=1&refunds_percent=50&refunds_days=0&refunds_percent=0"
    )

    assert form.is_valid(), form.errors
    assert list(form.cleaned_data["refunds"].items()) == [("0d", 0), ("1d", 50), ("7d", 100)]


def test_empty_rows_are_ignored_and_fractions_kept():
    form = post(
        "refunds=&refunds_days=&refunds_percent=&refunds_days=3&refunds_percent=12.5&refunds_days=&refunds_percent="
    )

    assert form.is_valid(), form.errors
    assert form.cleaned_data["refunds"] == {"3d": 12.5}


def test_removing_every_row_empties_the_policy():
    widget = RefundPolicyWidget()

    assert widget.value_from_datadict(QueryDict("refunds="), {}, "refunds") == []
    assert not widget.value_omitted_from_data(QueryDict("refunds="), {}, "refunds")
    assert widget.value_omitted_from_data(QueryDict("other=1"), {}, "refunds")
    form = post("refunds=")
    assert form.is_valid()
    assert form.cleaned_data["refunds"] == {}


@pytest.mark.parametrize(
    ("rows", "error"),
    [
        ("refunds_days=-1&refunds_percent=50", "Row 1: the days before check-in must be a whole number of 0 or more."),
        ("refunds_days=two&refunds_percent=50", "Row 1: the days before check-in must be a whole number of 0 or more."),
        ("refunds_days=1.5&refunds_percent=50", "Row 1: the days before check-in must be a whole number of 0 or more."),
        ("refunds_days=1&refunds_percent=101", "Row 1: the refund must be a percentage from 0 to 100."),
        ("refunds_days=1&refunds_percent=-5", "Row 1: the refund must be a percentage from 0 to 100."),
        ("refunds_days=1&refunds_percent=half", "Row 1: the refund must be a percentage from 0 to 100."),
        ("refunds_days=1&refunds_percent=NaN", "Row 1: the refund must be a percentage from 0 to 100."),
        ("refunds_days=1&refunds_percent=", "Row 1: give both the days before check-in and the refund percentage."),
        ("refunds_days=&refunds_percent=30", "Row 1: give both the days before check-in and the refund percentage."),
    ],
)
def test_a_bad_row_is_an_error_naming_it(rows, error):
    form = post(f"refunds=&{rows}")

    assert not form.is_valid()
    assert errors_of(form, "refunds") == [error]


def test_days_given_twice_name_both_rows_and_every_bad_row_is_reported():
    form = post(
        "refunds=&refunds_days=3&refunds_percent=20&refunds_days=5&refunds_percent=200"
        "&refunds_days=3&refunds_percent=30"
    )

    assert not form.is_valid()
    assert errors_of(form, "refunds") == [
        "Row 2: the refund must be a percentage from 0 to 100.",
        "Row 3 repeats the days before check-in of row 1 (3).",
    ]


def test_a_form_with_errors_shows_the_rows_as_typed():
    form = post("refunds=&refunds_days=3&refunds_percent=abc")

    html = form["refunds"].as_widget()

    assert 'value="3"' in html
    assert 'value="abc"' in html


def test_the_stored_policy_is_shown_as_rows_by_days_with_a_blank_row_to_add_one():
    with translation.override("en"):
        html = ContentForm(initial={"refunds": {"7d": 100, "0d": 0, "3d": 50.0}})["refunds"].as_widget()

    rows = html[html.index('class="vh-refund-rows"') : html.index('class="vh-refund-prototype"')]
    days = [part.split('"')[0] for part in rows.split('name="refunds_days" value="')[1:]]
    percents = [part.split('"')[0] for part in rows.split('name="refunds_percent" value="')[1:]]
    assert days == ["0", "3", "7", ""]
    assert percents == ["0", "50", "100", ""]
    assert "Days before check-in" in html
    assert 'class="button vh-refund-add vh-js-only"' in html


def test_a_stored_key_that_is_not_days_is_shown_and_refused_rather_than_dropped():
    form = ContentForm(initial={"refunds": {"soon": 10}})

    assert 'value="soon"' in form["refunds"].as_widget()
    bound = post("refunds=&refunds_days=soon&refunds_percent=10")
    assert errors_of(bound, "refunds") == ["Row 1: the days before check-in must be a whole number of 0 or more."]


def test_the_policy_posted_back_as_its_value_round_trips():
    # What a client that posts each field's value unchanged sends (tests/admin_forms.py does).
    value = ContentForm(initial={"refunds": {"1d": 50, "0d": 0}})["refunds"].value()

    form = ContentForm({"refunds": value})

    assert json.loads(value) == {"1d": 50, "0d": 0}
    assert form.is_valid(), form.errors
    assert form.cleaned_data["refunds"] == {"0d": 0, "1d": 50}


def test_the_same_policy_in_other_rows_is_no_change():
    field = RefundPolicyField()

    assert not field.has_changed({"0d": 0, "7d": 100}, [("7", "100"), ("0", "0.0"), ("", "")])
    assert field.has_changed({"0d": 0}, [("0", "10")])
    assert field.has_changed({"0d": 0}, [("x", "10")])


# --- Model forms ------------------------------------------------------------------------------


def test_catalog_formfield_gives_the_pickers_and_the_refund_editor_to_model_forms():
    store_catalog()
    PropertyForm = forms.modelform_factory(
        Property, fields=["classifications", "facility_tags", "refunds", "name"], formfield_callback=_formfield
    )
    RoomTypeForm = forms.modelform_factory(RoomType, fields=["view_tags"], formfield_callback=_formfield)

    form = PropertyForm()
    assert isinstance(form.fields["classifications"].widget, CatalogTagsWidget)
    assert form.fields["classifications"].group == "classification"
    assert form.fields["facility_tags"].group == "facility"
    assert isinstance(form.fields["refunds"], RefundPolicyField)
    assert not form.fields["refunds"].required
    assert type(form.fields["name"]) is forms.CharField
    assert RoomTypeForm().fields["view_tags"].group == "view"
    with translation.override("en"):
        assert str(form.fields["facility_tags"].label) == "Facilities"


def test_a_model_form_saves_what_the_widgets_post():
    store_catalog()
    PropertyForm = forms.modelform_factory(
        Property, fields=["vendor_id", "name", "facility_tags", "refunds"], formfield_callback=_formfield
    )

    form = PropertyForm(
        QueryDict(
            "vendor_id=p-1&name=Seaside&facility_tags=pool.outdoor&facility_tags=wifi"
            "&refunds=&refunds_days=2&refunds_percent=50&refunds_days=10&refunds_percent=100"
        )
    )

    assert form.is_valid(), form.errors
    prop = form.save()
    prop.refresh_from_db()
    assert prop.facility_tags == ["pool.outdoor", "wifi"]
    assert prop.refunds == {"2d": 50, "10d": 100}


def _formfield(db_field, **kwargs):
    return catalog_formfield(db_field, **kwargs) or db_field.formfield(**kwargs)

"""Going live, the spec's start-up order end to end (docs/staff/owner.md, "Go live"): from an empty database the
code catalog is fetched from the staging hub, the content and a year of rates and availability reach it
through the worker, the licenses are confirmed, and the go-live checklist passes in the browser; then the
switch to production by command re-creates everything at the production hub (the sandbox under another
base URL), and the checklist there waits only for the new hub's own license confirmations."""

import datetime

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import transaction
from playwright.sync_api import expect

from core.dates import korea_today
from hubsandbox import state as hub_state
from integration.ari.dates import DateRange
from integration.ari.services.bulk import ari_edit_apply
from integration.ari.services.edits import AriEdit, Operation
from integration.content.services import content_saved
from integration.hub.environments import HubEnvironment
from licenses.choices import ReviewStatus
from tests.browser.login import second_factor
from tests.factories import PASSWORD, PropertyFactory, hub_content
from tests.hub_fixtures import all_synced, hub_ids, wait_until
from tests.licenses.factories import BusinessLicenseRequestFactory, LicenseRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

READY = "판매 개시 준비 완료"


def test_from_an_empty_database_to_staging_then_production(page, live_server, worker, production_hub, superuser):
    call_command("hub_catalog", verbosity=0)
    prop = PropertyFactory(vendor_id="going-live")
    room_type, standalone, package, plans = hub_content(prop)
    with transaction.atomic():
        for obj in (prop, room_type, standalone, package, *plans):
            content_saved(obj=obj, created=True, user=superuser)
    year = (DateRange(korea_today(), korea_today() + datetime.timedelta(days=settings.ARI_HORIZON_DAYS - 1)),)
    ari_edit_apply(AriEdit(ranges=year, operation=Operation.SET, value=120_000, rate_plans=(plans[0],)))
    ari_edit_apply(AriEdit(ranges=year, operation=Operation.SET, value=20_000, rate_plans=(plans[1],)))
    ari_edit_apply(AriEdit(ranges=year, operation=Operation.SET_AVAILABILITY, value=4, room_types=(room_type,)))
    LicenseRequestFactory(property=prop, status=ReviewStatus.CONFIRM, hub_id=1)
    BusinessLicenseRequestFactory(property=prop, status=ReviewStatus.CONFIRM, hub_id=2)
    wait_until(all_synced, message="everything at the staging hub")

    checklist = f"{live_server.url}/admin/integration/property/{prop.pk}/checklist/"
    page.goto(f"{live_server.url}/admin/login/?next={checklist}")
    page.fill("#id_username", superuser.username)
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    second_factor(page, superuser)
    expect(page.locator("#hub-environment")).to_have_class("hub-env hub-env-staging")
    expect(page.locator(".vh-checklist-summary")).to_contain_text(READY)
    expect(page.locator("tr.vh-fail")).to_have_count(0)

    call_command("hub_environment", "--switch-to", "production", "--yes", verbosity=0)
    # The command sends in its own process; what the worker was sending meanwhile, the worker finishes.
    wait_until(all_synced, message="everything at the production hub")

    objects = (("property", prop), ("roomtype", room_type), ("rateplan_model", standalone))
    objects += (("rateplan_model", package), *(("rateplan", plan) for plan in plans))
    for kind, obj in objects:
        held = hub_state.get_resource(kind, *hub_ids(obj), hub=HubEnvironment.PRODUCTION)
        assert held is not None, f"the production hub does not know {obj}"
        assert held == hub_state.get_resource(kind, *hub_ids(obj))
    production_rates = hub_state.rates_of(
        prop.vendor_id, room_type.vendor_id, plans[0].vendor_id, hub=HubEnvironment.PRODUCTION
    )
    assert len(production_rates) == settings.ARI_HORIZON_DAYS

    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page.goto(checklist)
    expect(page.locator("#hub-environment")).to_have_class("hub-env hub-env-production")
    # Every item passes at the new hub but the licenses: the production hub reviews its own submissions.
    expect(page.locator("tr.vh-fail")).to_have_count(1)
    expect(page.locator("tr.vh-fail.vh-check-license")).to_have_count(1)
    expect(page.locator("tr.vh-check-catalog.vh-pass")).to_have_count(1)

"""A property ready to go live, built for the go-live tests: every checklist item passes."""

import datetime

from django.utils import timezone

from core.dates import korea_today
from integration.ari.models import RatePlanDay, RoomTypeDay
from integration.ari.services.horizon import hub_days_record
from integration.content.choices import RatePlanType
from integration.models import SyncState
from integration.sync.choices import SyncStatus
from integration.sync.models import ResourceKind
from integration.sync.services.outbox import sync_state_ensure
from licenses.choices import ReviewStatus
from tests.factories import hub_content
from tests.integration.catalog.data import store_catalog
from tests.licenses.factories import BusinessLicenseRequestFactory, LicenseRequestFactory

DAYS = 365


def mark_synced(obj, kind=None):
    """obj's outbox row as the hub acknowledged it."""
    state = sync_state_ensure(obj, kind=kind)
    SyncState.objects.filter(pk=state.pk).update(
        status=SyncStatus.SYNCED, known_to_hub=True, last_synced_at=timezone.now()
    )
    return state


def give_ari(room_type, plans, days=DAYS):
    """Availability and rates for the next days, as the hub holds them."""
    dates = [korea_today() + datetime.timedelta(days=n) for n in range(days)]
    RoomTypeDay.objects.bulk_create(RoomTypeDay(room_type=room_type, date=d, allotment=3, available=3) for d in dates)
    for plan in plans:
        standalone = plan.model.type == RatePlanType.STANDALONE
        RatePlanDay.objects.bulk_create(
            RatePlanDay(rate_plan=plan, date=d, **({"rate": 100000} if standalone else {"rate_modify": 20000}))
            for d in dates
        )
        hub_days_record(mark_synced(plan, ResourceKind.ARI_RATES), dates, replace=True)
    hub_days_record(mark_synced(room_type, ResourceKind.ARI_AVAILS), dates, replace=True)


def make_ready(prop):
    """Give prop everything the checklist asks for; returns (room_type, standalone, package, plans)."""
    store_catalog()
    prop.facility_tags = ["parking"]
    prop.save()
    room_type, standalone, package, plans = hub_content(prop)
    for obj in (prop, room_type, standalone, package, *plans):
        mark_synced(obj)
    give_ari(room_type, plans)
    LicenseRequestFactory(property=prop, status=ReviewStatus.CONFIRM, hub_id=1)
    BusinessLicenseRequestFactory(property=prop, status=ReviewStatus.CONFIRM, hub_id=2)
    return room_type, standalone, package, plans

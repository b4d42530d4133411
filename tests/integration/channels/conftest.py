"""Fixtures of the sales channel tests: a property the sandbox hub knows, with its content."""

import pytest

from hubsandbox import state
from integration.models import SalesChannel, SyncState
from integration.sync.choices import SyncStatus
from integration.sync.services.batch import sync_pending
from integration.sync.services.outbox import sync_mark_changed
from tests.factories import PropertyFactory, hub_content
from tests.hub_fixtures import wait_until


@pytest.fixture
def manual_review(settings):
    """Only the sandbox admin reviews channel open requests (no automatic review while a test runs)."""
    settings.HUB_SANDBOX_CHANNEL_REVIEW_SECONDS = -1


def at_hub(prop):
    """Send a property's content to the sandbox hub now (in-process), as the queue would. A test's worker
    takes some of the sends the marks queue (the in-process send finds those rows busy, and their
    children waiting): the content is at the hub once every row is synced, whoever sent it."""
    for obj in [prop, *prop.room_types.all(), *prop.rate_plan_models.all(), *prop.rate_plans.all()]:
        sync_mark_changed(obj)
    summary = sync_pending(property=prop)
    assert not summary.failures, summary.failures
    rows = SyncState.objects.filter(property=prop)
    wait_until(lambda: not rows.exclude(status=SyncStatus.SYNCED).exists(), message="the property's content")
    assert state.get_resource("property", prop.vendor_id) is not None


@pytest.fixture
def hub_property(hub, manual_review):
    """A property with a room type and two rate plans, known to the sandbox hub; the hub's channel list read."""
    from integration.channels.services import sales_channels_refresh

    prop = PropertyFactory(vendor_id="seoul-stay", name="Seoul Stay")
    room_type, _standalone, _package, plans = hub_content(prop)
    at_hub(prop)
    sales_channels_refresh()
    return prop, room_type, plans


def channel(channel_id):
    return SalesChannel.objects.get(channel_id=channel_id)

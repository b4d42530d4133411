"""manage.py hub_environment: shows the environments, asks for --yes, then switches and sends everything
to the new hub in this process (no worker in this module: the command alone does the sending)."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from hubsandbox import state as hub_state
from integration.catalog.models import CatalogSnapshot
from integration.hub.environments import HubEnvironment
from integration.hub.selectors import hub_environment_active
from integration.models import Property
from tests.factories import PropertyFactory, hub_content

pytestmark = pytest.mark.django_db(transaction=True)

PRODUCTION = HubEnvironment.PRODUCTION


def test_the_command_asks_for_confirmation_then_switches_and_sends(production_hub, capsys):
    PropertyFactory(vendor_id="by-command")
    hub_content(Property.objects.get(vendor_id="by-command"))

    with pytest.raises(CommandError, match="Run again with --yes to confirm"):
        call_command("hub_environment", "--switch-to", "production")
    assert hub_environment_active() == HubEnvironment.STAGING

    call_command("hub_environment", "--switch-to", "production", "--yes", verbosity=0)

    out = capsys.readouterr().out
    assert "Switched Staging -> Production: 9 resources to send" in out
    assert "done: synced 9, pending 0, failed 0 of 9" in out
    assert len(hub_state.list_resources("rateplan", "by-command", hub=PRODUCTION)) == 2
    assert hub_state.list_resources("property", hub=HubEnvironment.STAGING) == []
    assert CatalogSnapshot.objects.filter(environment=PRODUCTION).exists()
    call_command("hub_environment")
    assert "* production" in capsys.readouterr().out

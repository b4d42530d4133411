"""The sandbox's channels are seeded after migrate and flush, and a migrate to zero has nothing to seed."""

import pytest
from django.apps import apps as real_apps
from django.apps.registry import Apps

from hubsandbox.apps import _seed_channels
from hubsandbox.channels import SANDBOX_CHANNELS
from hubsandbox.models import SandboxChannel

pytestmark = pytest.mark.django_db


def test_the_channels_are_seeded_after_migrate_and_after_flush():
    SandboxChannel.objects.all().delete()
    _seed_channels(sender=None, apps=real_apps)
    assert SandboxChannel.objects.count() == len(SANDBOX_CHANNELS)
    SandboxChannel.objects.all().delete()
    _seed_channels(sender=None)  # flush sends no apps
    assert SandboxChannel.objects.count() == len(SANDBOX_CHANNELS)


def test_a_migrate_to_zero_seeds_nothing():
    # `migrate hubsandbox zero` ends on a state without the sandbox's models: its post_migrate has no table.
    SandboxChannel.objects.all().delete()
    _seed_channels(sender=None, apps=Apps(installed_apps=["django.contrib.contenttypes"]))
    assert not SandboxChannel.objects.exists()

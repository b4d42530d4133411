"""A worker yields the CPU to the web process: its main process, before it forks its pool, raises its
niceness by WORKER_NICENESS (none at 0)."""

import os

import pytest

from config import celery


@pytest.mark.parametrize(("niceness", "calls"), [(10, [10]), (0, [])])
def test_a_worker_starts_at_the_niceness_of_its_setting(settings, monkeypatch, niceness, calls):
    settings.WORKER_NICENESS = niceness
    made = []
    monkeypatch.setattr(os, "nice", made.append)

    celery._niceness(sender="worker@host")

    assert made == calls


def test_the_handler_runs_when_a_worker_starts():
    receivers = [receiver() for _key, receiver in celery.signals.celeryd_init.receivers]
    assert celery._niceness in receivers

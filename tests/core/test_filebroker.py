"""The development broker hands a worker whole messages only: kombu's filesystem transport wrote a message's
file in place, and a worker that took it still empty died on it."""

import os
from queue import Empty

import pytest
from celery import current_app
from kombu import Connection

from core.background import filebroker


@pytest.fixture
def channel(tmp_path):
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path), "store_processed": False}
    with Connection("filesystem://", transport=filebroker.Transport, transport_options=options) as connection:
        yield connection.default_channel


def test_a_message_cannot_be_taken_before_it_is_written_whole(channel, monkeypatch):
    seen_while_writing = []
    replace = os.replace

    def rename_into_the_queue(source, target):
        # The message's bytes are all on disk under a name no reader takes; a worker polling now finds none.
        with pytest.raises(Empty):
            channel._get("hub")
        seen_while_writing.append(os.path.getsize(source))
        replace(source, target)

    monkeypatch.setattr(filebroker.os, "replace", rename_into_the_queue)
    channel._put("hub", {"body": "x" * 100_000})

    assert len(seen_while_writing) == 1
    assert seen_while_writing[0] > 100_000
    assert channel._get("hub") == {"body": "x" * 100_000}
    assert not [name for name in os.listdir(channel.data_folder_in) if not name.startswith(".")]


def test_the_development_setup_uses_it():
    assert current_app.conf.broker_url.startswith("filesystem://") == (
        current_app.conf.broker_transport == "core.background.filebroker:Transport"
    )

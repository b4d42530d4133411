"""The development broker (no server): kombu's filesystem transport, with each message written whole before a
worker can take it. kombu writes a message's file in place, under its final name: a worker polling the folder
could take it while still empty and die on it (JSONDecodeError), which stopped `make run` under load."""

import os
import uuid
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    """kombu's channel, whose messages are written under a name no reader takes, then renamed into the queue
    (a rename within a folder is atomic: a reader sees the whole message or none)."""

    # kombu names the message payload here and message in the abstract channel: either name overrides one.
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"  # kombu's name: readers sort by it
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{name}.part")
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    """kombu's filesystem transport with Channel (settings.CELERY_BROKER_TRANSPORT)."""

    Channel = Channel

"""What the drift tests share: content synced to the sandbox, and a clock that tests advance."""

from integration.sync.services.batch import sync_pending
from tests.factories import hub_content, korean


def synced_content(prop):
    """Give prop the full content the hub needs (with an email) and send it all to the hub now; returns
    (room_type, standalone, package, plans)."""
    prop.email = "front@example.com"
    prop.save()
    korean(prop, name=f"{prop.name} 한국어")
    content = hub_content(prop)
    summary = sync_pending(full=True, property=prop)
    assert not summary.failures, summary.failures
    return content


class FakeClock:
    """A monotonic clock that only sleep() moves: tests count the waits instead of spending them."""

    def __init__(self):
        self.now = 0.0
        self.sleeps = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


class TimedClient:
    """The real hub client, noting the clock's time of each call (when the pacer let it go)."""

    def __init__(self, client, clock):
        self.client = client
        self.clock = clock
        self.times = []

    def call(self, endpoint, **kwargs):
        self.times.append(self.clock())
        return self.client.call(endpoint, **kwargs)

"""What only the broker knows: whether it lost the messages queued before (a Redis restarted empty), and
how many messages wait in a queue; and what the sweepers make of it (which queued records' messages are
still waiting rather than lost)."""

from celery import current_app

_EPOCH_KEY = "vendorhub:broker-epoch:{}"


def broker_lost_messages(reader):
    """Whether the broker may have lost its messages since reader last asked: true the first time, and
    after a Redis that keeps nothing on disk restarted (the key set here is gone with the messages).
    Always false for other brokers (the development filesystem broker keeps its files)."""
    if not current_app.conf.broker_url.startswith(("redis://", "rediss://", "sentinel://")):
        return False
    with current_app.connection_for_write() as connection:
        return bool(connection.default_channel.client.set(_EPOCH_KEY.format(reader), 1, nx=True))


def broker_queue_of(task_name):
    """The name of the queue that task_name is routed to."""
    return current_app.amqp.router.route({}, task_name)["queue"].name


def broker_queue_depth(task_name):
    """How many messages wait on the broker in the queue that task_name is routed to: those not yet taken
    by a worker (a message with a countdown is taken at once and held by the worker until it is due)."""
    with current_app.connection_for_write() as connection:
        return connection.default_channel.queue_declare(queue=broker_queue_of(task_name)).message_count


def broker_still_queued_since(task_name, queued, stale):
    """The moment from which records queued for task_name's queue are taken as still waiting in it rather
    than lost: stale (a grace ago), or earlier while the queue holds a backlog. The broker hands messages
    out in the order they were queued, so the records queued last, as many as the queue holds, are still
    in it, however long ago: a backlog is not queued a second time while it drains. queued: the records
    whose message may wait in that queue (a queryset of a model with a `queued_at` field); a queue that
    also holds other messages only makes the moment earlier (fewer records taken as lost)."""
    waiting = broker_queue_depth(task_name)
    if not waiting:
        return stale
    last_queued = queued.filter(queued_at__isnull=False).order_by("-queued_at").values_list("queued_at", flat=True)
    oldest_waiting = last_queued[waiting - 1 : waiting].first()
    return min(stale, oldest_waiting) if oldest_waiting else stale

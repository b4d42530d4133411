"""What only the broker knows: whether it lost the messages queued before (a Redis restarted empty), and
how many messages wait in a queue."""

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


def broker_queue_depth(task_name):
    """How many messages wait on the broker in the queue that task_name is routed to: those not yet taken
    by a worker (a message with a countdown is taken at once and held by the worker until it is due)."""
    queue = current_app.amqp.router.route({}, task_name)["queue"].name
    with current_app.connection_for_write() as connection:
        return connection.default_channel.queue_declare(queue=queue).message_count

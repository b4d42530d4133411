"""Queueing a Celery task by name once the caller's transaction commits.

By name (`send_task`), never through the current process's task registry: a web process imports only
what its URLs need, so a task it never imported is unknown there (while pytest, which imports every
module, sees nothing wrong). The worker knows every task: `tests/core/test_task_names.py` checks that in
fresh processes.
"""

import logging
import time

from celery import current_app
from django.db import transaction

logger = logging.getLogger(__name__)

#: After the broker refused a message, this process does not try again for this long: the callers' work
#: is recorded in the database and the sweeper queues it once the broker is back, so a broker outage must
#: not add a connection attempt to every request (the vendor API answers the hub meanwhile).
BROKER_PAUSE_SECONDS = 5.0
_broker_paused_until = 0.0


def publish(task_name, args=(), *, kwargs=None, countdown=None):
    """Send one message for task_name now. Returns False, logged, when the broker cannot take it."""
    global _broker_paused_until  # one flag per process: the broker is the same for every thread
    if time.monotonic() < _broker_paused_until:
        logger.warning("not queued while the broker is down: %s%r", task_name, tuple(args))
        return False
    try:
        current_app.send_task(task_name, args=list(args), kwargs=kwargs, countdown=countdown)
    except Exception:  # the broker is down or refused the message: the caller's record stays to be swept
        _broker_paused_until = time.monotonic() + BROKER_PAUSE_SECONDS
        logger.warning("could not queue %s%r", task_name, tuple(args), exc_info=True)
        return False
    return True


def publish_many(task_name, args_list):
    """Send a message for task_name(*args) for each args of args_list now, in order, over one broker
    connection. Returns how many the broker took: it stops at the first refusal (logged), leaving the
    rest to the caller's sweeper."""
    global _broker_paused_until
    if time.monotonic() < _broker_paused_until:
        logger.warning("not queued while the broker is down: %d messages of %s", len(args_list), task_name)
        return 0
    sent = 0
    try:
        with current_app.producer_or_acquire() as producer:
            for args in args_list:
                current_app.send_task(task_name, args=list(args), producer=producer)
                sent += 1
    except Exception:  # the broker is down or refused a message: the callers' records stay to be swept
        _broker_paused_until = time.monotonic() + BROKER_PAUSE_SECONDS
        logger.warning("could queue only %d of %d messages of %s", sent, len(args_list), task_name, exc_info=True)
    return sent


def queue_after_commit(task_name, *args, kwargs=None, countdown=None, on_failure=None):
    """Queue task_name(*args) once the caller's transaction commits (nothing if it rolls back; at once
    outside a transaction). on_failure() runs when the broker could not take the message, so that the
    caller can mark its record for the sweeper."""

    def send():
        if not publish(task_name, args, kwargs=kwargs, countdown=countdown) and on_failure is not None:
            on_failure()

    transaction.on_commit(send)

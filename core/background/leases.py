"""Leases of the rows Celery tasks work on (a hub send's outbox row, a durable job), and tasks that lose the
database in the middle of a run.

A run holds its row until a time (its lease), so that no other run takes it meanwhile. When the database
connection breaks during a run (PostgreSQL restarted, the connection was killed), the run cannot even
release its row: it retries itself a few seconds later, for as long as the database is down, and the retry,
the same Celery task (same id), takes its own lease back at once instead of waiting for it to expire.
"""

import logging
from contextlib import contextmanager

from django.db import InterfaceError, OperationalError, connection
from django.db.models import Q

logger = logging.getLogger(__name__)

#: Seconds before a run that lost the database tries again: doubling from 1 up to this.
DATABASE_RETRY_CAP_SECONDS = 4


def lease_free_for(task, now):
    """The rows whose lease task (a Celery task id, or None) may take at now: free, expired or its own."""
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    return free | Q(lease_task=task) if task else free


def lease_free_for_sql(task, now):
    """lease_free_for as SQL over the row's columns, and its params."""
    return "(lease_until IS NULL OR lease_until < %s OR lease_task = %s)", [
        connection.ops.adapt_datetimefield_value(now),
        task,  # NULL (no task) equals nothing
    ]


def database_lost(error):
    """Whether error is the database connection lost (not a query the database refused): the connection
    no longer answers."""
    if not isinstance(error, OperationalError | InterfaceError):
        return False
    return connection.connection is None or not connection.is_usable()


@contextmanager
def retried_if_database_lost(task):
    """Run the block of a Celery task; when it loses the database, retry the task shortly (its lease stays
    taken, for the retry to take back). Not for a task run eagerly, inside its caller."""
    try:
        yield
    except (OperationalError, InterfaceError) as error:
        if task.request.is_eager or not database_lost(error):
            raise
        countdown = min(2**task.request.retries, DATABASE_RETRY_CAP_SECONDS)
        logger.warning("%s[%s] lost the database, retrying in %d s: %s", task.name, task.request.id, countdown, error)
        # For as long as the database is down, whatever the task's max_retries (Celery reads None as those).
        retries = task.request.retries + 1
        raise task.retry(exc=error, countdown=countdown, max_retries=retries) from error

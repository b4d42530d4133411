"""Periodic tasks work through many rows: one row that cannot be handled must not stop the others."""

import contextlib
import logging

from django.db import transaction

logger = logging.getLogger(__name__)


def for_each_row(ids, action, *, what, atomic=True):
    """Call action(pk) for each pk, each in its own transaction (a savepoint inside the caller's). A row
    whose action raises is rolled back, logged with its pk and skipped; the next runs of the task try it
    again. Returns how many actions returned a true value (or their sum, for counts).

    atomic=False for an action that calls the network: it keeps its own transactions short.

    ids must be primary keys only (values_list("pk", flat=True)): loading whole rows up front would let
    one unreadable row fail them all.
    """
    done = 0
    for pk in ids:
        try:
            with transaction.atomic() if atomic else contextlib.nullcontext():
                done += action(pk)
        except Exception:
            logger.exception("%s: row %s failed and was skipped", what, pk)
    return done

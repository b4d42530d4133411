"""A transaction run again when PostgreSQL gives it up to a deadlock or a serialization failure: what
concurrent transactions may cause now and then, never the caller's fault, so never an error answer."""

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection
from psycopg import errors

logger = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

#: The causes worth another attempt: the database rolled the whole transaction back, changing nothing.
RETRIED_CAUSES = (errors.DeadlockDetected, errors.SerializationFailure)
#: Attempts in all, the first included.
ATTEMPTS = 4
#: The ceiling of the first pause, in seconds; each later one doubles it. The pause is drawn at random
#: below it, so that the transactions that met do not meet again at the same moment.
PAUSE = 0.05


def retried_on_conflict(function: Callable[P, R]) -> Callable[P, R]:
    """Decorate a function that runs one transaction of its own (transaction.atomic inside or below it):
    on a deadlock or a serialization failure it is run again, whole, up to ATTEMPTS times, after a short
    random pause; the last failure is raised. Called inside a caller's transaction it runs once: the
    failure aborted the caller's transaction too, which only its owner can run again."""

    @functools.wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:
            return function(*args, **kwargs)
        for attempt in range(1, ATTEMPTS):
            try:
                return function(*args, **kwargs)
            except OperationalError as error:
                if not isinstance(error.__cause__, RETRIED_CAUSES):
                    raise
                logger.warning(
                    "%s: %s, attempt %d of %d; running it again",
                    function.__qualname__,
                    type(error.__cause__).__name__,
                    attempt,
                    ATTEMPTS,
                )
            time.sleep(random.uniform(0, PAUSE * 2 ** (attempt - 1)))  # noqa: S311 (a pause, not a secret)
        return function(*args, **kwargs)

    return run

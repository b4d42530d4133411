"""core.db.transactions runs a transaction again when PostgreSQL gives it up to a deadlock or a serialization
failure, and only then (a real deadlock of the vendor API: tests/bookings/test_lock_scope.py)."""

import pytest
from django.db import OperationalError, transaction
from psycopg import errors

from core.db import transactions
from core.db.transactions import ATTEMPTS, retried_on_conflict


def given_up(cause):
    """The error Django raises when the database gives the transaction up for cause."""
    error = OperationalError(str(cause))
    error.__cause__ = cause
    return error


def flaky(*failures):
    """A function that raises failures in turn, then answers "done"; and the list of its calls."""
    pending, calls = list(failures), []

    def work():
        calls.append(1)
        if pending:
            raise pending.pop(0)
        return "done"

    return work, calls


@pytest.fixture(autouse=True)
def no_pause(monkeypatch):
    monkeypatch.setattr(transactions, "PAUSE", 0)


@pytest.mark.parametrize("cause", [errors.DeadlockDetected(), errors.SerializationFailure()])
def test_a_transaction_given_up_to_a_conflict_runs_again(cause):
    work, calls = flaky(given_up(cause), given_up(cause))

    assert retried_on_conflict(work)() == "done"
    assert len(calls) == 3


def test_the_last_attempt_s_failure_is_raised():
    work, calls = flaky(*(given_up(errors.DeadlockDetected()) for _ in range(ATTEMPTS)))

    with pytest.raises(OperationalError):
        retried_on_conflict(work)()
    assert len(calls) == ATTEMPTS


def test_other_database_errors_are_raised_at_once():
    work, calls = flaky(given_up(errors.LockNotAvailable()))

    with pytest.raises(OperationalError):
        retried_on_conflict(work)()
    assert len(calls) == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_caller_s_transaction_it_runs_once():
    work, calls = flaky(given_up(errors.DeadlockDetected()))

    with pytest.raises(OperationalError), transaction.atomic():
        retried_on_conflict(work)()
    assert len(calls) == 1

"""A worker keeps its database connection from one task to the next (Celery would open one per task), and
each task starts with it checked as a web request's is: a connection the server dropped is replaced."""

import psycopg
import pytest
from celery import signals
from django.db import connection

from config.celery import app

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def task_starts():
    """What the worker signals before running a task (a real one, not run eagerly)."""
    task = app.tasks["integration.sync.tasks.sync_sweeper_task"]
    signals.task_prerun.send(sender=task, task_id="t", task=task, args=(), kwargs={})


def test_a_task_reuses_the_connection_and_gets_a_new_one_when_the_server_dropped_it(settings, monkeypatch):
    assert app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX >= 100
    # As production has it (the tests' database closes its connections at once).
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    task_starts()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone() == (pid,)  # the same connection, not a new one

    # The server ends the connection between two tasks (a restart, an idle timeout, an operator).
    params = connection.get_connection_params()
    with psycopg.connect(**{**params, "autocommit": True}) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    task_starts()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (new_pid,) = cursor.fetchone()
    assert new_pid != pid

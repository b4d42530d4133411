"""Faults of the database for tests on PostgreSQL: the server ending a connection, as a restart does."""

import psycopg
from django.db import connection


def lose_the_connection():
    """The server ends this thread's database connection (from another connection, as a restart of
    PostgreSQL or an operator would); the next query on it fails."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    with psycopg.connect(**{**connection.get_connection_params(), "autocommit": True}) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])

"""A durable job task for the tests of core.background.jobs: records each run, and fails or retries on request."""

from celery import shared_task
from django.db import connection

from core.background.jobs import JobTask
from tests.database_faults import lose_the_connection

#: The runs of record_task: its arguments, in order.
runs = []
#: What the next runs do instead of returning: "retry", "fail" or "lose the database", taken from the front.
next_outcomes = []


@shared_task(name="tests.core.record_task", base=JobTask, bind=True, ignore_result=True, max_retries=1)
def record_task(self, value):
    """Record value; retry or fail when the test asked for it."""
    runs.append(value)
    outcome = next_outcomes.pop(0) if next_outcomes else None
    if outcome == "retry":
        raise self.retry(countdown=30)
    if outcome == "fail":
        raise ValueError("the task failed")
    if outcome == "lose the database":
        lose_the_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")  # fails: the server ended the connection

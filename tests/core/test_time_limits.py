"""Every task has a soft and a hard time limit, and every lease outlives the hard limit of the task that
holds it: a task cut at its limit is dead before another worker may take its work."""

from datetime import timedelta

from django.conf import settings

from config.celery import app
from core.background.jobs import JobTask
from integration.sync.services.outbox import SEND_TASK
from integration.sync.services.sender import lease_duration


def _limits(task):
    return (
        task.soft_time_limit or app.conf.task_soft_time_limit,
        task.time_limit or app.conf.task_time_limit,
    )


def product_tasks():
    app.loader.import_default_modules()
    return {name: task for name, task in app.tasks.items() if name in settings.CELERY_TASK_ROUTES}


def test_every_task_has_a_soft_limit_below_its_hard_limit():
    tasks = product_tasks()
    assert set(tasks) == set(settings.CELERY_TASK_ROUTES)

    for name, task in tasks.items():
        soft, hard = _limits(task)
        assert soft, name
        assert hard > soft, name


def test_each_jobs_lease_outlives_its_tasks_hard_limit():
    jobs = {name: task for name, task in product_tasks().items() if isinstance(task, JobTask)}
    assert "bookings.settlement.tasks.reconciliation_run_task" in jobs

    for name, task in jobs.items():
        assert task.lease > timedelta(seconds=_limits(task)[1]), name


def test_a_sends_lease_outlives_the_send_tasks_hard_limit():
    soft, hard = _limits(product_tasks()[SEND_TASK])

    assert soft == settings.HUB_CONNECT_TIMEOUT + settings.HUB_READ_TIMEOUT
    assert lease_duration() > timedelta(seconds=hard)


def test_the_e_mail_jobs_leases_are_short_so_that_a_lost_run_delays_its_e_mails_a_minute_or_two():
    # A run cut off by a database restart whose retry message a Redis restarted empty lost too waits for
    # its lease: the e-mails' goal is a minute.
    tasks = product_tasks()
    for name in (
        "bookings.tasks.booking_notify_task",
        "inbox.tasks.event_notify_task",
        "bookings.tasks.booking_email_send_task",
        "inbox.tasks.event_email_send_task",
    ):
        assert tasks[name].lease <= timedelta(minutes=2), name

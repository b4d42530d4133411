"""Durable jobs (core.background.jobs): recorded with the caller's transaction, queued by name after its commit, run
once per job by a real worker, and queued again by the sweeper when the broker was down, lost the message
or the worker died."""

from datetime import timedelta

import pytest
from celery import current_app
from celery.exceptions import Retry
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from core.background import broker, jobs
from core.background import queue as core_queue
from core.models import Job
from tests.hub_fixtures import wait_until

from . import tasks

pytestmark = pytest.mark.django_db(transaction=True)
TASK = "tests.core.record_task"


@pytest.fixture(autouse=True)
def _fresh_runs():
    tasks.runs.clear()
    tasks.next_outcomes.clear()


@pytest.fixture
def sent(monkeypatch, empty_queues):
    """The messages published, as (task name, args, kwargs, countdown), instead of the broker (whose
    queues, which the sweeper reads, stay empty)."""
    messages = []

    def publish(task_name, args=(), *, kwargs=None, countdown=None):
        messages.append((task_name, list(args), kwargs, countdown))
        return True

    monkeypatch.setattr(core_queue, "publish", publish)
    # The sweeper has seen this broker before, as in a running system: without it, the first sweep in a Redis
    # database (each xdist worker has its own) takes every job for lost in a Redis restarted empty.
    jobs.broker_lost_messages("jobs")
    return messages


def test_a_job_is_recorded_in_the_transaction_and_queued_only_after_its_commit(sent):
    with transaction.atomic():
        job = jobs.job_queue(TASK, "a")
        assert sent == []

    assert sent == [(TASK, ["a"], {"job": job.pk}, None)]
    assert Job.objects.get().args == ["a"]


def test_a_rolled_back_transaction_leaves_no_job_and_queues_nothing(sent):
    with transaction.atomic():
        jobs.job_queue(TASK, "a")
        transaction.set_rollback(True)

    assert sent == []
    assert not Job.objects.exists()


def test_a_run_deletes_its_job_and_a_second_delivery_does_not_run_it_again(sent):
    job = jobs.job_queue(TASK, "a")

    _run_as_worker(job)
    _run_as_worker(job)  # the same message delivered again (or queued again by the sweeper)

    assert tasks.runs == ["a"]
    assert not Job.objects.exists()


def test_a_job_running_elsewhere_is_not_run_twice(sent):
    job = jobs.job_queue(TASK, "a")
    Job.objects.filter(pk=job.pk).update(lease_until=timezone.now() + timedelta(minutes=5))

    _run_as_worker(job)

    assert tasks.runs == []
    assert Job.objects.filter(pk=job.pk).exists()


def test_a_retry_keeps_the_job_due_later_and_a_failure_keeps_it_failed(sent):
    job = jobs.job_queue(TASK, "a")
    tasks.next_outcomes[:] = ["retry"]
    before = timezone.now()

    with pytest.raises(Retry):
        _run_as_worker(job)

    kept = Job.objects.get(pk=job.pk)
    assert kept.failed_at is None
    assert kept.lease_until is None
    assert kept.due_at >= before + timedelta(seconds=29)

    tasks.next_outcomes[:] = ["fail"]
    with pytest.raises(ValueError, match="the task failed"):
        _run_as_worker(job)
    failed = Job.objects.get(pk=job.pk)
    assert failed.failed_at is not None
    assert "the task failed" in failed.last_error
    assert jobs.job_sweep() == 0  # a failed job is not queued again


def _run_as_worker(job):
    """Run the task as a worker does: under a request that is not eager, with the message's job keyword."""
    task = current_app.tasks[TASK]
    task.push_request(args=["a"], kwargs={"job": job.pk}, retries=0, is_eager=False, called_directly=False)
    try:
        return task("a", job=job.pk)
    finally:
        task.pop_request()


def test_a_broker_down_at_commit_leaves_the_job_for_the_next_sweep(monkeypatch, sent):
    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.undo()  # the real publish, against a broker that refuses
    monkeypatch.setattr(current_app, "send_task", broker_down)
    job = jobs.job_queue(TASK, "a")
    assert Job.objects.get(pk=job.pk).queued_at is None
    # Later calls in this process do not even try while the broker is down, and mark their jobs alike.
    second = jobs.job_queue(TASK, "b")
    assert Job.objects.get(pk=second.pk).queued_at is None

    monkeypatch.undo()
    core_queue._broker_paused_until = 0.0  # the broker is back
    resent = []
    monkeypatch.setattr(core_queue, "publish", lambda task_name, args=(), **options: resent.append(args) or True)
    assert jobs.job_sweep() == 2  # at once: no grace for a message that was never sent
    assert sorted(resent) == [["a"], ["b"]]


def test_the_sweeper_queues_a_lost_message_after_the_grace_and_a_dead_workers_job_after_its_lease(sent):
    jobs.job_queue(TASK, "lost")
    running = jobs.job_queue(TASK, "running")
    now = timezone.now()
    Job.objects.filter(pk=running.pk).update(lease_until=now + timedelta(minutes=5))
    sent.clear()
    assert jobs.job_sweep() == 0  # both messages are still on their way, or running

    long_ago = now - jobs.QUEUE_GRACE * 2
    Job.objects.update(queued_at=long_ago, due_at=long_ago)
    assert jobs.job_sweep() == 1
    assert [args for _name, args, _kwargs, _countdown in sent] == [["lost"]]

    Job.objects.filter(pk=running.pk).update(lease_until=now - timedelta(seconds=1))  # its worker died
    sent.clear()
    jobs.job_sweep()
    assert [args for _name, args, _kwargs, _countdown in sent] == [["running"]]


def test_a_sweep_queues_at_most_a_batch_and_leaves_the_rest_to_the_next(monkeypatch, sent):
    for value in ("a", "b", "c"):
        jobs.job_queue(TASK, value)
    Job.objects.update(queued_at=None)  # none reached the broker
    sent.clear()
    monkeypatch.setattr(jobs, "SWEEP_BATCH", 2)

    assert jobs.job_sweep() == 2
    assert jobs.job_sweep() == 1
    assert sorted(args[0] for _name, args, _kwargs, _countdown in sent) == ["a", "b", "c"]


def test_a_job_that_ran_too_often_is_failed_not_queued_again(sent):
    job = jobs.job_queue(TASK, "a")
    Job.objects.filter(pk=job.pk).update(attempts=jobs.MAX_RUNS, queued_at=None)

    assert jobs.job_sweep() == 0
    assert Job.objects.get(pk=job.pk).failed_at is not None


def test_a_job_that_ran_too_often_is_not_run_again_even_by_its_own_retry(sent):
    job = jobs.job_queue(TASK, "a")
    Job.objects.filter(pk=job.pk).update(attempts=jobs.MAX_RUNS)

    _run_as_worker(job)

    assert tasks.runs == []


def test_after_the_broker_lost_its_messages_every_job_not_running_is_queued_again(monkeypatch, sent):
    waiting = jobs.job_queue(TASK, "just queued")
    later = jobs.job_queue(TASK, "retry in an hour")
    Job.objects.filter(pk=later.pk).update(due_at=timezone.now() + timedelta(hours=1))
    sent.clear()
    monkeypatch.setattr(jobs, "broker_lost_messages", lambda reader: True)

    assert jobs.job_sweep() == 2
    countdowns = {args[0]: countdown for _name, args, _kwargs, countdown in sent}
    assert countdowns["just queued"] is None
    assert 3500 < countdowns["retry in an hour"] <= 3600
    assert waiting.pk in {kwargs["job"] for _name, _args, kwargs, _countdown in sent}


def test_the_sweeper_leaves_a_draining_backlog_alone_and_queues_what_the_broker_no_longer_holds(empty_queues):
    """A backlog of e-mails drains for longer than QUEUE_GRACE: the jobs whose messages still wait in their
    queue (the last queued, as many as it holds) are not queued a second time; an older one, whose message
    the broker no longer holds, is (the real broker of the run: memory, Redis in CI)."""
    long_ago = timezone.now() - jobs.QUEUE_GRACE * 5
    backlog = [jobs.job_queue(TASK, f"backlog {n}") for n in range(4)]
    for n, job in enumerate(backlog):  # queued one a grace apart, all before the grace, the first long before
        Job.objects.filter(pk=job.pk).update(queued_at=long_ago + jobs.QUEUE_GRACE * n, due_at=long_ago)
    current_app.control.purge()
    broker.broker_lost_messages("jobs")  # seen before: nothing was lost since (a Redis restarted empty is not)
    # The messages of the three last jobs still wait (a message of another task of the queue counts as one).
    for job in backlog[2:]:
        assert core_queue.publish(TASK, job.args, kwargs={"job": job.pk})
    assert core_queue.publish("bookings.settlement.tasks.reconciliations_nightly_task")
    try:
        assert jobs.job_sweep() == 1
        assert Job.objects.get(pk=backlog[0].pk).queued_at > long_ago + jobs.QUEUE_GRACE * 4
        assert [Job.objects.get(pk=job.pk).queued_at for job in backlog[1:]] == [
            long_ago + jobs.QUEUE_GRACE * n for n in (1, 2, 3)
        ]

        # The queue is empty: the three still marked queued long ago were lost (the first was just queued).
        current_app.control.purge()
        assert jobs.job_sweep() == 3
    finally:
        current_app.control.purge()


@pytest.mark.redis
def test_a_redis_restarted_empty_is_noticed_once_per_reader(settings):
    import redis

    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    client.delete("vendorhub:broker-epoch:test")
    assert broker.broker_lost_messages("test") is True  # first look, or after a restart
    assert broker.broker_lost_messages("test") is False
    client.flushdb()  # what a restart of a Redis that keeps nothing on disk leaves
    assert broker.broker_lost_messages("test") is True
    assert broker.broker_lost_messages("test") is False


@pytest.mark.postgres
def test_a_run_that_loses_the_database_is_retried_at_once_and_takes_its_lease_back(celery_worker_thread):
    # More times in a row than the task's max_retries (1) and Celery's default (3): a longer outage.
    tasks.next_outcomes[:] = ["lose the database"] * 4
    with transaction.atomic():
        job = jobs.job_queue(TASK, "again")

    # Well within the job's lease (10 minutes), which the run that lost the database could not release.
    wait_until(lambda: tasks.runs == ["again"] * 5, message="the run's retries")
    wait_until(lambda: not Job.objects.filter(pk=job.pk).exists(), message="the job's deletion")


def test_a_real_worker_runs_a_job_queued_by_name_and_deletes_it(celery_worker_thread):
    with transaction.atomic():
        jobs.job_queue(TASK, "through the broker")

    wait_until(lambda: tasks.runs == ["through the broker"], message="the worker's run")
    wait_until(lambda: not Job.objects.exists(), message="the job's deletion")

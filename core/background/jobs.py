"""Durable jobs: work that must happen survives a broker outage, a Redis restarted empty and a dead worker.

`job_queue` records the job (a Job row) in the caller's transaction and queues its task by name after the
commit, with the row's id as the keyword `job`. Tasks so queued derive from `JobTask`: a run first claims
the row (a lease, so that a message delivered twice runs once), deletes it when the task returns, keeps
it due later when the task retries, and marks it failed when the task fails for good; a run that lost the
database retries shortly and takes its lease back (core.background.leases). The sweeper (`job_sweep`, every 5 s by
beat) queues again each job whose message is overdue: never published (the broker was down), lost (Redis
restarted empty), or left by a worker that died (its lease expired); never one whose message still waits
in a backlog of its queue (core.background.broker.broker_still_queued_since).
"""

import logging
from collections import defaultdict
from datetime import datetime, timedelta

from celery import Task
from celery.exceptions import Retry
from django.db.models import F, Q
from django.utils import timezone

from core.background import queue
from core.background.broker import broker_lost_messages, broker_queue_of, broker_still_queued_since
from core.background.leases import database_lost, lease_free_for, retried_if_database_lost
from core.models import Job

logger = logging.getLogger(__name__)

#: A job whose message has not started this long after it was due is taken as lost and queued again. A
#: message still waiting in a busy queue is known by the queue's depth (_lost), so a backlog is not queued
#: twice; this covers the way from the broker to a worker's start (a message a dead worker reserved).
QUEUE_GRACE = timedelta(seconds=15)
#: Runs of one job (Celery's retries included) after which it is failed for good: a job that kills its
#: worker every time must not run for ever.
MAX_RUNS = 12
#: Failed jobs are kept this long for the operator (deep health, the admin), then deleted.
FAILED_KEPT = timedelta(days=30)
#: Jobs one sweep queues at most (the rest, the next sweeps): a sweep's work stays bounded, even after a
#: Redis restarted empty lost the messages of thousands.
SWEEP_BATCH = 1000


def job_queue(task_name, *args, countdown=0):
    """Record, in the caller's transaction, that task_name(*args) must run, and queue it after the commit.
    The task must derive from JobTask. Returns the Job."""
    now = timezone.now()
    job = Job.objects.create(task=task_name, args=list(args), due_at=now + timedelta(seconds=countdown), queued_at=now)
    queue.queue_after_commit(
        task_name,
        *args,
        kwargs={"job": job.pk},
        countdown=countdown or None,
        on_failure=lambda: _not_queued(job.pk),
    )
    return job


def _not_queued(job_id):
    # The broker did not take it: the sweeper's next run queues it, without waiting for QUEUE_GRACE.
    Job.objects.filter(pk=job_id).update(queued_at=None)


class JobTask(Task):
    """Base of the tasks queued by job_queue: runs the task once per job and keeps the Job row in step."""

    #: How long a run may hold its job before another worker may run it: longer than the task can run
    #: (a task sets its own: `@shared_task(base=JobTask, lease=timedelta(...))`).
    lease = timedelta(minutes=10)
    #: Messages carry the keyword `job` that run() does not take: Celery must not check a retry's
    #: arguments against run()'s signature.
    typing = False

    def __call__(self, *args, job=None, **kwargs):
        if job is None or self.request.is_eager:  # beat's own runs; apply() in the caller (its retries nest)
            return self.run(*args, **kwargs)
        # A run that loses the database keeps its lease and retries shortly; the retry takes it back.
        with retried_if_database_lost(self):
            if not _claim(job, self.lease, self.request.id):
                logger.info("job %s of %s is done, running elsewhere or failed: not run again", job, self.name)
                return None
            try:
                result = self.run(*args, **kwargs)
            except Retry as retry:
                _due_again(job, retry.when)
                raise
            except Exception as error:
                if not database_lost(error):
                    _failed(job, error)
                raise
            Job.objects.filter(pk=job).delete()
            return result


def _claim(job_id, lease, task):
    """Take the job for lease, as Celery task task: free, expired, or already this task's (its retry after
    it lost the database), and run fewer than MAX_RUNS times. Returns whether it was taken."""
    now = timezone.now()
    return Job.objects.filter(
        lease_free_for(task, now), pk=job_id, failed_at__isnull=True, attempts__lt=MAX_RUNS
    ).update(lease_until=now + lease, lease_task=task, attempts=F("attempts") + 1)


def _due_again(job_id, when):
    now = timezone.now()
    due = when if isinstance(when, datetime) else now + timedelta(seconds=float(when or 0))
    Job.objects.filter(pk=job_id).update(due_at=due, queued_at=now, lease_until=None, lease_task=None)


def _failed(job_id, error):
    Job.objects.filter(pk=job_id).update(
        failed_at=timezone.now(), lease_until=None, lease_task=None, last_error=repr(error)[:2000]
    )


def job_sweep():
    """Queue again (SWEEP_BATCH at most) every job whose message is lost or overdue (or, after the broker
    lost its messages, every job not running), fail those that ran MAX_RUNS times, delete failed ones
    older than FAILED_KEPT. Returns how many were queued."""
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    waiting = Job.objects.filter(free, failed_at__isnull=True)
    waiting.filter(attempts__gte=MAX_RUNS).update(failed_at=now, last_error=f"gave up after {MAX_RUNS} runs")
    Job.objects.filter(failed_at__lt=now - FAILED_KEPT).delete()
    waiting = waiting.filter(attempts__lt=MAX_RUNS)
    if not broker_lost_messages("jobs"):
        waiting = waiting.filter(_lost(waiting, now - QUEUE_GRACE), due_at__lte=now)
    rows = list(waiting.order_by("due_at").values_list("pk", "task", "args", "due_at")[:SWEEP_BATCH])
    # Marked queued in one statement before publishing (as job_queue records before it queues); what the
    # broker refuses is marked unqueued again, in one statement too.
    Job.objects.filter(pk__in=[pk for pk, *_rest in rows]).update(queued_at=now)
    refused = [
        pk
        for pk, task, args, due_at in rows
        if not queue.publish(task, args, kwargs={"job": pk}, countdown=max(0.0, (due_at - now).total_seconds()) or None)
    ]
    if refused:
        Job.objects.filter(pk__in=refused).update(queued_at=None)
    count = len(rows) - len(refused)
    if count:
        logger.info("job sweeper queued %d jobs again", count)
    return count


def _lost(waiting, stale):
    """The jobs of waiting whose message is lost: never published, or published before stale and not among
    the last queued of its queue, as many as the queue holds (jobs of several tasks may share a queue)."""
    tasks_of_queue = defaultdict(list)
    for task in waiting.filter(queued_at__isnull=False).order_by().values_list("task", flat=True).distinct():
        tasks_of_queue[broker_queue_of(task)].append(task)
    lost = Q(queued_at__isnull=True)
    for tasks in tasks_of_queue.values():
        since = broker_still_queued_since(tasks[0], waiting.filter(task__in=tasks), stale)
        lost |= Q(task__in=tasks, queued_at__lt=since, due_at__lt=stale)
    return lost


def jobs_waiting():
    """What the deep health check reports of the jobs: how many are due, since when the oldest waits, and
    how many failed for good."""
    due = Job.objects.filter(failed_at__isnull=True, due_at__lte=timezone.now())
    return {
        "waiting": due.count(),
        "oldest_waiting_since": due.order_by("due_at").values_list("due_at", flat=True).first(),
        "failed": Job.objects.filter(failed_at__isnull=False).count(),
    }

"""A worker process for tests/core/test_mail_once.py: `python -m tests.core.mail_worker <task> <job id>` runs
the durable job as a Celery worker's process does (under a request that is not eager), its e-mails going
through BlockingFileBackend, which keeps the process after the SMTP exchange, for the test to kill it."""

import sys
import time

import django
from django.core.mail.backends.filebased import EmailBackend


class BlockingFileBackend(EmailBackend):
    """Django's file backend (one file per message, in EMAIL_FILE_PATH) that never returns once it has
    written: an SMTP server that took the message, and a process that dies before the job's end."""

    def send_messages(self, email_messages):
        sent = super().send_messages(email_messages)
        sys.stdout.write("sent\n")
        sys.stdout.flush()
        time.sleep(600)
        return sent


def run_job(task_name, job_id):
    """Run the job's task as a worker does."""
    from celery import current_app

    from core.models import Job

    job = Job.objects.get(pk=job_id)
    task = current_app.tasks[task_name]
    task.push_request(args=job.args, kwargs={"job": job.pk}, retries=0, is_eager=False, called_directly=False)
    try:
        task(*job.args, job=job.pk)
    finally:
        task.pop_request()


if __name__ == "__main__":
    django.setup()
    from config.celery import app

    app.loader.import_default_modules()
    run_job(sys.argv[1], int(sys.argv[2]))

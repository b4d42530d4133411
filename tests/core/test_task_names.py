"""Every task the code queues by name, or beat schedules, is known to a worker; and a web process, which
imports only what its URLs need, can queue each one. Checked in fresh processes: pytest's own imports
every module and would hide a task that only a test ever imported."""

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from tests.packages import project_packages

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
#: The functions that queue a task by name, with the task's name as first argument.
QUEUEING = {"job_queue", "queue_after_commit", "publish", "send_task"}


def _module_name(path):
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def queued_task_names():
    """{task name: where} for every call of a queueing function whose first argument is a constant,
    resolved in its module (a string, or a name bound to one there)."""
    found = {}
    for package in sorted(project_packages()):
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and node.args):
                    continue
                function = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if function not in QUEUEING:
                    continue
                first = node.args[0]
                if isinstance(first, ast.Constant):
                    name = first.value
                elif isinstance(first, ast.Name):
                    name = getattr(importlib.import_module(_module_name(path)), first.id, None)
                else:
                    continue  # a variable (the queueing helpers themselves)
                if isinstance(name, str):
                    found[name] = f"{path.relative_to(ROOT)}:{node.lineno}"
    return found


def _fresh_python(code, stdin="", **env):
    """What a new Python process running code prints last, as JSON."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        input=stdin,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


# What `celery -A config worker` registers before it takes a message: the app's autodiscovery, then the
# receivers of worker_init. {name: [module, class name]} of each task.
WORKER = """
import django, json
django.setup()
from celery import signals
from config.celery import app
app.loader.init_worker()
signals.worker_init.send(sender=None)
print(json.dumps({name: [type(task).__module__, type(task).__name__] for name, task in app.tasks.items()}))
"""

# What gunicorn loads (config.wsgi), then one message per name on an in-memory broker, read back.
WEB = """
import json, sys
from config.wsgi import application
from celery import current_app
from core.background.queue import publish
names = json.loads(sys.stdin.read())
queued = [name for name in names if publish(name, (1,), kwargs={"job": 1})]
read = {}
with current_app.connection_for_read() as connection:
    for queue in current_app.conf.task_queues:
        simple = connection.SimpleQueue(queue.name)
        while simple.qsize():
            message = simple.get(timeout=5)
            read[message.headers["task"]] = queue.name
            message.ack()
print(json.dumps({"registered": sorted(current_app.tasks), "read": read}))
"""


def test_every_task_queued_or_scheduled_is_known_to_the_worker():
    queued = queued_task_names()
    scheduled = {
        entry["task"]: f"CELERY_BEAT_SCHEDULE[{key!r}]" for key, entry in settings.CELERY_BEAT_SCHEDULE.items()
    }
    # The scan finds what it must: the tasks that a screen or a hub call queues.
    assert {
        "bookings.tasks.booking_notify_task",
        "bookings.tasks.booking_email_send_task",
        "bookings.settlement.tasks.reconciliation_run_task",
        "integration.sync.tasks.sync_resource_task",
    } <= set(queued)

    registered = set(_fresh_python(WORKER, HUB_SANDBOX_ENABLED="true"))

    unknown = {name: where for name, where in (queued | scheduled).items() if name not in registered}
    assert unknown == {}, f"queued or scheduled but unknown to a worker: {unknown}"


def test_a_web_process_queues_every_task_by_name_without_importing_it():
    names = sorted(queued_task_names())

    answer = _fresh_python(WEB, stdin=json.dumps(names), CELERY_BROKER_URL="memory://localhost/")

    assert sorted(answer["read"]) == names
    # The point: the web process never imported these tasks, and queues them all the same, each on its
    # queue (the routes go by name).
    assert "bookings.settlement.tasks.reconciliation_run_task" not in answer["registered"]
    assert answer["read"]["integration.sync.tasks.sync_resource_task"] == "hub"
    assert answer["read"]["bookings.tasks.booking_email_send_task"] == "jobs"
    assert answer["read"]["bookings.settlement.tasks.reconciliation_run_task"] == "bulk"


def test_every_task_the_worker_knows_is_routed_to_a_queue_by_name():
    registered = {name for name in _fresh_python(WORKER, HUB_SANDBOX_ENABLED="true") if not name.startswith("celery.")}

    assert registered == set(settings.CELERY_TASK_ROUTES)
    assert {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()} == {"hub", "bookings", "jobs", "bulk"}


def test_each_task_is_named_by_its_module_path_and_function_ending_in_task():
    tasks = _fresh_python(WORKER, HUB_SANDBOX_ENABLED="true")

    misnamed = {
        name: ".".join(where)
        for name, where in tasks.items()
        if not name.startswith("celery.") and (name != ".".join(where) or not name.endswith("_task"))
    }
    assert misnamed == {}

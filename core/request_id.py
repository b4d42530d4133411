"""One request id from a screen or a hub call to the hub: taken from the caller's X-Request-ID (when it is
printable and short) or made, kept for the request in a context variable, put on every log line, carried
in the header of every task the request queues (and restored while the task runs, so that the tasks it
queues carry it on), written on the sync attempt and the vendor API's call log, and sent to the hub.

A task that no request queued (beat's) runs under an id of its own, so that its lines still join up.
"""

import contextvars
import logging
import re
import uuid

HEADER = "X-Request-ID"
#: The Celery message header that carries the id into a task.
TASK_HEADER = "vendorhub_request_id"
#: What an incoming id may be: printable ASCII without spaces, at most 128 characters (a UUID, a load
#: balancer's trace id); anything else is replaced by an id of our own.
_VALID = re.compile(r"[\x21-\x7e]{1,128}")

_current = contextvars.ContextVar("request_id", default="")


def request_id_new():
    """A fresh id."""
    return uuid.uuid4().hex


def request_id_valid(value):
    """value when it can be taken as a request id, else ''."""
    return value if isinstance(value, str) and _VALID.fullmatch(value) else ""


def request_id_get():
    """The id of the request or task this code runs for ('' outside both)."""
    return _current.get()


def request_id_set(value):
    """Make value the current id; returns the token that request_id_reset takes."""
    return _current.set(value)


def request_id_reset(token):
    _current.reset(token)


class RequestIdMiddleware:
    """Every request runs under one id: the caller's X-Request-ID when valid, else a new one; the answer
    carries it back in the same header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request_id_valid(request.headers.get(HEADER)) or request_id_new()
        request.request_id = request_id
        # Kept until the response is closed (request_finished): Django logs a 4xx or 5xx after the
        # middleware returned, and that line carries the id too.
        request_id_set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


def request_finished(**kwargs):
    """Django's request_finished: the process's thread goes back to no id."""
    request_id_set("")


class RequestIdLogFilter(logging.Filter):
    """Puts the current request id on every record (`request_id`, '-' outside a request or task)."""

    def filter(self, record):
        record.request_id = request_id_get() or "-"
        return True


def task_publishing(headers, **kwargs):
    """Celery's before_task_publish: the message carries the current id (core.background.queue is the one path)."""
    request_id = request_id_get()
    if request_id and headers is not None:
        headers.setdefault(TASK_HEADER, request_id)


def task_starting(task, **kwargs):
    """Celery's task_prerun: the task runs under the id its message carries, or one of its own."""
    carried = request_id_valid(getattr(task.request, TASK_HEADER, None) or "")
    # An eager run (apply() in the caller) keeps the caller's id: no message carried it.
    task.request.vendorhub_request_id_token = request_id_set(carried or request_id_get() or request_id_new())


def task_finished(task, **kwargs):
    """Celery's task_postrun: the worker's process goes back to no id."""
    token = getattr(task.request, "vendorhub_request_id_token", None)
    if token is not None:
        request_id_reset(token)

"""One request id from a screen or a hub call to the hub: honoured or made, answered, on every log line,
carried into the tasks the request queues, written on the call log and the sync attempts, sent to the hub."""

import logging

import pytest
import requests
from django.core import mail
from django.db import transaction

from bookings.models import Booking, InboundCall, RefusedCall
from core.request_id import RequestIdLogFilter, request_id_get, request_id_reset, request_id_set
from integration.content.services import content_saved
from integration.hub import endpoints
from integration.hub.client import HubClient, HubUnavailable
from integration.models import Property, SyncAttempt
from tests.bookings.factories import create_body, sellable
from tests.bookings.signing import HubClient as SigningClient
from tests.factories import UserFactory, member
from tests.hub_fixtures import wait_until


@pytest.fixture
def request_id():
    """Runs the test's code under an id, as a request or a task would."""
    token = request_id_set("edit-9")
    yield "edit-9"
    request_id_reset(token)


@pytest.fixture
def lines():
    """Every log record of this process, as (request id, logger, message), through the filter that
    production's handler has."""
    seen = []

    class Collect(logging.Handler):
        def emit(self, record):
            seen.append((record.request_id, record.name, record.getMessage()))

    handler = Collect()
    handler.addFilter(RequestIdLogFilter())
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield seen
    root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "kept"),
    [("lb-7f3a9c:edge/1", True), ("x" * 128, True), ("x" * 129, False), ("has space", False), ("tab\there", False)],
)
def test_an_incoming_id_is_honoured_when_printable_and_short_else_one_is_made(client, given, kept):
    response = client.get("/healthz", HTTP_X_REQUEST_ID=given)

    answered = response["X-Request-ID"]
    assert (answered == given) is kept
    if not kept:
        assert len(answered) == 32
        assert answered.isalnum()


@pytest.mark.django_db
def test_every_log_line_of_a_request_carries_its_id_and_the_call_log_row_too(client, lines):
    _room_type, plan, _package = sellable(allotment=2)

    response = SigningClient(client).post("/bookings", create_body(plan), HTTP_X_REQUEST_ID="hub-call-42")

    assert response.status_code == 200
    assert ("hub-call-42", "bookings.api") in {(request_id, name) for request_id, name, _message in lines}
    assert InboundCall.objects.get().request_id == "hub-call-42"
    assert InboundCall.objects.get().code == ""

    # Django logs a refusal after the middleware has returned: that line carries the id as well.
    refused = client.post("/bookings", b"{}", content_type="application/json", HTTP_X_REQUEST_ID="hub-call-43")
    assert refused.status_code == 403
    assert ("hub-call-43", "django.request") in {(request_id, name) for request_id, name, _message in lines}
    # A refused call is kept narrow (bookings.RefusedCall: no body, no headers, no id): its log line has the id.
    assert RefusedCall.objects.get().code == "2000"
    assert request_id_get() == ""  # the request is over: this thread has no id any more


def test_the_hub_client_sends_the_current_id(monkeypatch, request_id):
    hub = HubClient(base_url="http://hub.invalid", token="t")
    sent = {}

    def request(method, url, **kwargs):
        sent.update(kwargs["headers"])
        raise requests.ConnectionError("not sent")

    monkeypatch.setattr(hub.session, "request", request)
    with pytest.raises(HubUnavailable):
        hub.call(endpoints.CATALOG)

    assert sent["X-Request-ID"] == request_id


@pytest.mark.django_db(transaction=True)
def test_one_id_joins_a_bookings_lines_across_the_web_request_and_the_workers_tasks(worker, client, lines):
    """The hub confirms a booking: the vendor API's lines, the e-mail tasks run by a real worker (the
    notification, then the send it queues), and the sync of the availability to the hub all carry the
    hub's id, and so does each sync attempt."""
    room_type, plan, _package = sellable(allotment=2)
    member(room_type.property, "manager", email="manager@example.com")
    signing = SigningClient(client)
    number = signing.post("/bookings", create_body(plan)).json()["vendor_booking_number"]
    lines.clear()

    answer = signing.put(f"/bookings/{number}/confirm", HTTP_X_REQUEST_ID="hub-confirm-1")
    assert answer.status_code == 200
    wait_until(lambda: len(mail.outbox) == 1, message="the booking e-mail")
    wait_until(
        lambda: {"bookings.tasks.booking_email_send_task"} <= tasks_run(lines, "hub-confirm-1"),
        message="the e-mail task's lines",
    )

    assert ("hub-confirm-1", "bookings.api") in {(request_id, name) for request_id, name, _message in lines}
    assert {"bookings.tasks.booking_notify_task", "bookings.tasks.booking_email_send_task"} <= tasks_run(
        lines, "hub-confirm-1"
    )
    assert Booking.objects.get(vendor_booking_number=number).calls.get(path__endswith="/confirm").request_id == (
        "hub-confirm-1"
    )
    joined = [f"  {name}: {message}" for rid, name, message in lines if rid == "hub-confirm-1"]
    print("log lines of request hub-confirm-1:", *joined, sep="\n")


def tasks_run(lines, request_id):
    """The names of the tasks whose success Celery logged under request_id."""
    return {
        message.split("[", 1)[0].removeprefix("Task ")
        for rid, name, message in lines
        if rid == request_id and name == "celery.app.trace" and " succeeded " in message
    }


@pytest.mark.django_db(transaction=True)
def test_a_sync_attempt_records_the_id_of_the_edit_that_caused_it(worker, request_id):
    """The edit's request queues the send; the worker's task runs under the id the message carries."""
    with transaction.atomic():
        prop = Property.objects.create(vendor_id="rid-1", name="Request id")
        prop.translations.create(locale="ko-KR", name="요청")
        content_saved(obj=prop, created=True, user=UserFactory(is_superuser=True))

    wait_until(lambda: SyncAttempt.objects.filter(property=prop).exists(), message="the send")
    assert set(SyncAttempt.objects.filter(property=prop).values_list("request_id", flat=True)) == {request_id}

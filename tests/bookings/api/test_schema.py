"""The vendor API's OpenAPI schema at /api/schema/ and its documentation page; schemathesis sends
generated calls, signed as the hub signs them, and finds no 5xx and no answer outside the schema."""

import json
import os

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from schemathesis.core import NotSet
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from werkzeug.test import Client

from ..factories import sellable
from ..signing import hub_headers

pytestmark = pytest.mark.schemathesis

CHECKS = [schemathesis.checks.not_a_server_error, status_code_conformance, content_type_conformance]


def _served_schema():
    """The schema exactly as /api/schema/ serves it (fetched once, at collection; no database needed)."""
    response = Client(WSGIHandler()).get("/api/schema/", headers={"Accept": "application/vnd.oai.openapi+json"})
    return json.loads(response.get_data())


schema = schemathesis.openapi.from_dict(_served_schema())


@pytest.mark.django_db
def test_the_schema_and_the_docs_page_are_served(client):
    schema_response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema_response.status_code == 200
    paths = schema_response.json()["paths"]
    assert set(paths) == {
        "/bookings",
        "/bookings/{number}",
        "/bookings/{number}/confirm",
        "/bookings/{number}/modify",
        "/bookings/{number}/cancel",
        "/refund-policy",
    }
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"/api/schema/" in docs.content


def _call(**kwargs):
    """One call through the WSGI handler that, like Django's test client, keeps the test's connection."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        response = Client(WSGIHandler()).open(**kwargs)
        response.get_data()
        response.close()
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)
    return response


@pytest.mark.django_db
@schema.parametrize()
@settings(
    max_examples=int(os.environ.get("SCHEMATHESIS_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
def test_generated_calls_get_no_5xx_and_answers_inside_the_schema(case):
    sellable()
    if isinstance(case.body, NotSet):
        body = b""
    elif isinstance(case.body, bytes):
        body = case.body
    else:
        body = json.dumps(case.body).encode()
    signed = {name.removeprefix("HTTP_").replace("_", "-").lower(): value for name, value in hub_headers(body).items()}
    headers = {name: str(value) for name, value in (case.headers or {}).items() if name.lower() not in signed}
    headers.update(signed)
    response = _call(
        path=case.formatted_path,
        method=case.method,
        query_string=case.query or None,
        data=body or None,
        headers=headers,
        content_type="application/json" if body else None,
    )
    case.validate_response(response, checks=[*CHECKS, response_schema_conformance])

"""Hostile values in every changelist's filters, search and date parameters (a NUL byte, invalid UTF-8
percent-escapes, 100 KB, a quote, a literal %00, a repeated key) answer a form error, a redirect to the
list's error page or an empty list, never a 500, for a superuser (who reaches every list).

Like the admin crawl (test_admin_crawl), nothing here lists the screens: the changelists are the admin
site's registered model admins, their parameters the names each filter spec expects, the search's q and
the date hierarchy's levels. A new list or filter is fuzzed by itself."""

import time

import pytest
from django.contrib import admin
from django.db import connection, transaction
from django.urls import reverse

from tests.factories import UserFactory
from tests.login import Client

pytestmark = pytest.mark.django_db

#: Hostile values as they arrive in a query string (already percent-encoded), by name.
HOSTILE = {
    "NUL byte": "%00",
    "quote and literal %00": "%27%2500",
    "invalid UTF-8": "%FF%FE%C3",
    "100 KB": "a" * 100_000,
}


def _parameters(changelist):
    """The query keys changelist reads: each filter spec's, the search's and the date hierarchy's."""
    keys = [key for spec in changelist.filter_specs for key in spec.expected_parameters() if key]
    if changelist.search_fields:
        keys.append("q")
    if changelist.date_hierarchy:
        keys.extend(f"{changelist.date_hierarchy}__{level}" for level in ("year", "month", "day"))
    return dict.fromkeys(keys)


def _queries(key):
    """(name, query string) of each hostile value for key, and of the key repeated (an array)."""
    yield from ((name, f"{key}={value}") for name, value in HOSTILE.items())
    yield "repeated key", f"{key}=%27&{key}=%00&{key}=1"


def _server_error(client, url):
    """The answer to url when it is a server error, as "status error"; "" otherwise."""
    savepoint = transaction.savepoint()  # PostgreSQL aborts the transaction on an error in the database
    response = client.get(url)
    transaction.savepoint_rollback(savepoint)
    if response.status_code < 500:
        return ""
    error = getattr(response, "exc_info", None)
    return f"{response.status_code} {error[0].__name__}: {str(error[1])[:200]}" if error else str(response.status_code)


def test_hostile_filter_search_and_date_values_never_answer_a_server_error():
    client = Client(raise_request_exception=False)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    started, requests, failures = time.monotonic(), 0, []
    for model in admin.site._registry:
        changelist_url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        plain = client.get(changelist_url)
        changelist = (plain.context or {}).get("cl")
        if changelist is None:  # a page of its own in the list's place (no filter, no search)
            continue
        for key in _parameters(changelist):
            for name, query in _queries(key):
                requests += 1
                if error := _server_error(client, f"{changelist_url}?{query}"):
                    failures.append(f"{changelist_url} {key} ({name}): {error}")
    elapsed = time.monotonic() - started
    print(f"\nadmin fuzz on {connection.vendor}: {requests} requests in {elapsed:.1f} s")
    assert requests > 100  # the lists' parameters were found
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures)

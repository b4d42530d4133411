"""Hostile values (a NUL byte, invalid UTF-8 percent-escapes, 100 KB, a quote, a literal %00, a repeated
key) in every changelist's filters, search and date parameters answer a form error, a redirect to the list's
error page or an empty list; in every field of every form the admin's pages carry, a form error, a redirect
or a refusal; never a 500, for a superuser (who reaches every list and form).

Like the admin crawl (test_admin_crawl), nothing here lists the screens: the changelists are the admin
site's registered model admins, their parameters the names each filter spec expects, the search's q and
the date hierarchy's levels; the forms are those the crawl meets on its way. A new list, filter or form is
fuzzed by itself."""

import time

import pytest
from django.contrib import admin
from django.db import connection, transaction
from django.urls import reverse

from tests.factories import UserFactory
from tests.login import Client

from .test_admin_crawl import crawled

pytestmark = pytest.mark.django_db

#: Hostile values as they arrive in a query string or a form's body (already percent-encoded), by name.
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


#: Forms the fuzz does not post, with the reason (keyed by the route their action resolves to).
NOT_POSTED = {"logout/": "ends the session the fuzz posts with; it takes no field"}


def _bodies(names):
    """(name, form body) of each hostile value in all of names, and of each of names repeated (an array)."""
    yield from ((name, "&".join(f"{key}={value}" for key in names)) for name, value in HOSTILE.items())
    yield "repeated fields", "&".join(f"{key}=%27&{key}=%00&{key}=1" for key in names)


def _post_error(client, url, body):
    """The answer to posting body to url when it is a server error, as in _server_error; "" otherwise. The
    post is rolled back and the session's cookie kept: a form that changes the password or signs in again
    must not leave the next posts signed out (a redirect to the login would pass)."""
    savepoint, cookies = transaction.savepoint(), client.cookies
    response = client.post(url, body, content_type="application/x-www-form-urlencoded")
    transaction.savepoint_rollback(savepoint)
    client.cookies = cookies
    if response.status_code < 500:
        return ""
    error = getattr(response, "exc_info", None)
    return f"{response.status_code} {error[0].__name__}: {str(error[1])[:200]}" if error else str(response.status_code)


def test_hostile_values_in_every_field_of_every_admin_form_never_answer_a_server_error():
    crawl = crawled("superuser")[0]["superuser"]
    started, requests, failures = time.monotonic(), 0, []
    for (route, _names), (action, names) in crawl.forms.items():
        if route in NOT_POSTED:
            continue
        for name, body in _bodies(names):
            requests += 1
            if error := _post_error(crawl.client, action, body):
                failures.append(f"{action} ({name}): {error}")
    elapsed = time.monotonic() - started
    print(f"\nadmin form fuzz on {connection.vendor}: {len(crawl.forms)} forms, {requests} posts in {elapsed:.1f} s")
    assert len(crawl.forms) > 30  # the pages' forms were found
    assert not failures, f"{len(failures)} server errors:\n" + "\n".join(failures)

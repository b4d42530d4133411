"""The deployment resists slow clients (issue 38): Debian's nginx running the example config operators
install (deploy/nginx/vendorhub.conf, rendered for a temporary prefix and free ports by bench.slow_clients,
never copied) in front of Procfile's gunicorn with its production settings and workers; 3 and then 20
connections trickling their headers or their body a byte at a time leave /healthz answering within 1 s.
Without nginx the same connections hold every sync worker and /healthz gets no answer (python -m
bench.slow_clients prints both)."""

import pytest
from django.db import connection

from bench.harness import free_port, production_environment
from bench.slow_clients import NGINX, PROBE_TIMEOUT, example_nginx, probes_while_slow, procfile_web
from tests.conftest import unavailable

pytestmark = [pytest.mark.postgres, pytest.mark.subprocess, pytest.mark.django_db(transaction=True)]


def test_behind_the_example_nginx_slow_clients_leave_healthz_answering(tmp_path, capsys):
    if not NGINX.exists():
        unavailable(f"needs Debian's nginx at {NGINX} (apt-get install nginx)", required_by="REQUIRE_SERVICES")
    environment = production_environment(connection)

    with (
        procfile_web(environment, free_port(), tmp_path / "web.log") as web,
        example_nginx(tmp_path / "nginx", web) as (http_port, https_port),
    ):
        results = probes_while_slow(http_port, https_port, http_port)

    with capsys.disabled():
        for count, probes in results.items():
            times = ", ".join(f"{seconds * 1000:.0f} ms" for _status, seconds in probes)
            print(f"\nbehind nginx, {count} slow connections: /healthz in {times}")
    for count, probes in results.items():
        # Each probe waits PROBE_TIMEOUT (1 s) at most: an answer is one within it.
        assert [status for status, _seconds in probes] == [200] * len(probes), (count, probes, PROBE_TIMEOUT)

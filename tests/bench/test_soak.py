"""The soak benchmark runs tiny end to end (its own PostgreSQL cluster and redis-server, Procfile's processes,
one fault) and prints and writes the figures each release is compared on; whether the goals are met is the
figures' business, not this test's."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from bench.harness import BENCH_DIR, ROOT
from bench.soak import GOALS_MISSED_EXIT, PG_BIN
from tests.conftest import unavailable

pytestmark = [pytest.mark.subprocess, pytest.mark.postgres]
#: The test run's settings and services, which the soak must not take for its own.
_SERVICES = ("DJANGO_SETTINGS_MODULE", "DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL")


def test_a_tiny_soak_prints_and_writes_each_phases_figures():
    if not (PG_BIN / "initdb").exists() or not shutil.which("redis-server") or os.geteuid() != 0:
        unavailable(
            "needs PostgreSQL 15's programs, redis-server and root (initdb as postgres)", required_by="REQUIRE_SERVICES"
        )
    (BENCH_DIR / "soak.json").unlink(missing_ok=True)

    tiny = ("--minutes", "0.2", "--clients", "2", "--race-clients", "3", "--phases", "steady,worker")
    run = subprocess.run(
        [sys.executable, "-m", "bench.soak", *tiny, "--drain-timeout", "60"],
        cwd=ROOT,
        env={key: value for key, value in os.environ.items() if key not in _SERVICES},
        capture_output=True,
        text=True,
        timeout=600,
    )

    assert run.returncode in (0, GOALS_MISSED_EXIT), run.stdout + run.stderr
    for figure in ("x1000", "deadlocks", "drain s", "e-mail p50/p99/max s", "create p50/p99 ms", "hub 400", "machine:"):
        assert figure in run.stdout
    figures = json.loads((BENCH_DIR / "soak.json").read_text())
    assert [phase["name"] for phase in figures["phases"]] == ["steady", "worker"]
    steady = figures["phases"][0]
    assert steady["outcomes"]["ok"] > 0
    assert {"deadlocks", "drain_seconds", "email_p99_s", "lost", "duplicated", "staff_failed"} <= steady.keys()
    assert {"oversold", "changes_lost", "race_rounds", "race_exactly_one", "died"} <= figures["final"].keys()
    assert figures["machine"]["postgres"].startswith("15")
    assert (run.returncode == GOALS_MISSED_EXIT) == bool(figures["goals_missed"])

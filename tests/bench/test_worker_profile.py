"""The worker's profile: py-spy's samples sorted into Celery's own work and the parts of a send."""

import subprocess
import sys
import time

import pytest

from bench import worker_profile

MAIN = "<module> (/v/bin/celery:8);asynloop (/v/site-packages/celery/worker/loops.py:97)"
TASK = (
    "_worker (/py/concurrent/futures/thread.py:83);trace_task (/v/site-packages/celery/app/trace.py:453);"
    "__protected_call__ (/v/site-packages/celery/app/trace.py:736)"
)
SEND = (
    f"{TASK};sync_resource_task (/app/integration/sync/tasks.py:40);"
    "sync_send (/app/integration/sync/services/sender.py:90);_send (/app/integration/sync/services/sender.py:150)"
)


def test_each_sample_counts_for_the_first_part_on_its_stack():
    lines = [
        f"{MAIN};Channel._brpop_read (/v/site-packages/kombu/transport/redis.py:1000) 10",
        f"{SEND};HubClient.call (/app/integration/hub/client.py:190) 30",
        f"{SEND};AriResource.plan (/app/integration/ari/resources.py:80) 20",
        f"{SEND};_claim (/app/integration/sync/services/sender.py:120) 5",
        f"{SEND};state_release (/app/integration/sync/sql.py:60) 5",
        f"{SEND};_same_hub (/app/integration/sync/services/sender.py:300) 5",
        f"{TASK};sync_switch_publish_task (/app/integration/sync/tasks.py:70) 5",
        "trace_task (/v/site-packages/celery/app/trace.py:453);info (/v/site-packages/celery/app/trace.py:300) 15",
        "Thread.run (/py/threading.py:975) 5",
        "",
    ]

    total, parts = worker_profile.breakdown(lines)

    assert total == 100
    assert parts == [
        ("Celery: taking messages off the broker", 0.10),
        ("send: claim and release the row", 0.10),
        ("send: plan (read, build the body)", 0.20),
        ("send: the hub call (HTTP, JSON)", 0.30),
        ("send: the rest (reading the row, glue)", 0.05),
        ("other tasks (the switch's publish, sweepers)", 0.05),
        ("Celery: running a task (trace, signals, log lines)", 0.15),
        (worker_profile.OTHER, 0.05),
    ]


def test_the_report_shares_the_workers_cpu_per_request_as_the_samples(tmp_path):
    samples = tmp_path / "worker.pyspy"
    samples.write_text(f"{SEND};_record (/app/integration/sync/services/sender.py:330) 3\n{MAIN} 1\n")

    report = worker_profile.report(samples, cpu_ms_per_request=8.0)

    assert "4 samples" in report
    assert report.splitlines()[1:] == [
        f"    {'Celery: taking messages off the broker':52}   25 %    2.0 ms",
        f"    {'send: record the attempt':52}   75 %    6.0 ms",
    ]


@pytest.mark.subprocess
def test_py_spy_samples_a_running_process_while_the_block_runs(tmp_path):
    busy = subprocess.Popen([sys.executable, "-c", "while True: sum(range(1000))"])
    try:
        with worker_profile.sampled(busy.pid, tmp_path / "busy.pyspy") as output:
            time.sleep(1.5)
    finally:
        busy.kill()
        busy.wait()

    lines = output.read_text().splitlines()
    total, parts = worker_profile.breakdown(lines)
    assert total > 50  # 250 a second while the block ran
    assert parts == [(worker_profile.OTHER, 1.0)]
    assert any("<module>" in line for line in lines)

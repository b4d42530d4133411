"""`make run`'s Ctrl-C (config.dev_processes): each process is asked alone to stop and given the time it
takes (a Celery worker finishing its task), its children are left to it, and the stop is no error."""

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

ROOT = Path(__file__).resolve().parents[2]
#: A process that, asked to stop, takes longer than honcho's own 5 s, then reports whether the child it
#: started (in its process group, as a Celery worker's pool processes are) is still alive.
SLOW_TO_STOP = """
import os, signal, subprocess, sys, time
child = subprocess.Popen(["sleep", "60"])
def stop(signum, frame):
    time.sleep(6)
    print("stopped after its task, child alive:", child.poll() is None, flush=True)
    child.kill()
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)
print("ready", flush=True)
while True:
    time.sleep(1)
"""


def test_ctrl_c_lets_each_process_finish_and_ends_without_error(tmp_path):
    (tmp_path / "slow.py").write_text(SLOW_TO_STOP)
    # Beside it, one that stops at once (as the web server): its end must not cut the other's stop short.
    (tmp_path / "Procfile").write_text(f"slow: exec {sys.executable} {tmp_path / 'slow.py'}\nquick: exec sleep 60\n")
    runner = subprocess.Popen(
        [sys.executable, "-m", "config.dev_processes", "--procfile", str(tmp_path / "Procfile"), "start"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = []
    for line in runner.stdout:
        lines.append(line)
        if "ready" in line:
            break
    started = time.monotonic()

    runner.send_signal(signal.SIGINT)  # what Ctrl-C sends honcho
    output = "".join(lines) + runner.stdout.read()
    code = runner.wait(timeout=60)

    assert "stopped after its task, child alive: True" in output
    assert "SIGKILL" not in output
    assert time.monotonic() - started >= 6
    assert code == 0

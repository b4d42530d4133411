"""Where a running worker's CPU goes: py-spy samples the worker process while it works (only the threads
holding the interpreter, i.e. running Python), and the samples are sorted into Celery's own work and the parts
of a send, by the functions on each sample's stack.

The profile of `bench.estate --profile` shows a send in one process; this one shows what the deployed
worker adds around it (taking messages off the broker, running a task, its log lines) with eight threads
sharing one interpreter."""

import contextlib
import shutil
import signal
import subprocess
from collections import Counter
from pathlib import Path

_SENDER = "integration/sync/services/sender.py"
#: The parts of a send, each named by a function (its name, and the end of its file's path; a part may have
#: several, none within another): this profile's and bench.estate's in-process one.
SEND_PARTS = (
    ("distribution paused?", "hub_distribution_paused_since", "integration/hub/selectors.py"),
    ("urgent rows first?", "_send_urgent_first", _SENDER),
    ("claim and release the row", "_claim", _SENDER),
    ("claim and release the row", "state_release", "integration/sync/sql.py"),
    ("load the object", "load", "integration/sync/resources.py"),
    ("parents known to the hub?", "_unknown_to_hub", _SENDER),
    ("parents known to the hub?", "parents", "resources.py"),
    ("parents known to the hub?", "blocked", "resources.py"),
    ("plan (read, build the body)", "plan", "resources.py"),
    ("the hub call (HTTP, JSON)", "call", "integration/hub/client.py"),
    ("record the attempt", "_record", _SENDER),
    ("children waiting for it", "_queue_waiting_children", _SENDER),
    ("mark synced", "state_synced", "integration/sync/sql.py"),
)
#: The worker's parts, tried in order: a sample counts for the first part whose function is on its stack.
PARTS = (
    ("Celery: taking messages off the broker", "asynloop", "celery/worker/loops.py"),
    *((f"send: {label}", function, path) for label, function, path in SEND_PARTS),
    ("send: the rest (reading the row, glue)", "sync_send", _SENDER),
    ("other tasks (the switch's publish, sweepers)", "__protected_call__", "celery/app/trace.py"),
    ("Celery: running a task (trace, signals, log lines)", "trace_task", "celery/app/trace.py"),
)
OTHER = "stacks read only in part (mostly psycopg sending a statement)"


@contextlib.contextmanager
def sampled(pid: int, output: Path, rate: int = 250):
    """py-spy records the process pid (threads holding the GIL only) into output (raw, collapsed stacks)
    while the block runs."""
    spy = shutil.which("py-spy")
    if spy is None:
        raise SystemExit("--sample-worker needs py-spy (requirements-dev.txt)")
    # Non-blocking: the worker is not stopped for each sample (which would add to the CPU measured).
    command = [spy, "record", "--pid", str(pid), "--gil", "--nonblocking", "--rate", str(rate), "--format", "raw"]
    recorder = subprocess.Popen(  # noqa: S603
        [*command, "--output", str(output)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        yield output
    finally:
        # Interrupted, py-spy writes what it has and ends.
        recorder.send_signal(signal.SIGINT)
        _out, errors = recorder.communicate(timeout=60)
        if not output.exists():
            raise SystemExit(f"py-spy wrote no profile: {errors.decode(errors='replace').strip()}")


def _function(frame: str) -> tuple[str, str]:
    """A raw frame "Class.method (path/file.py:line)" as (method, path)."""
    name, _space, place = frame.rpartition(" (")
    return name.rsplit(".", 1)[-1], place.rsplit(":", 1)[0]


def breakdown(lines) -> tuple[int, list[tuple[str, float]]]:
    """The samples of py-spy's raw lines ("frame;frame;... count") and each part's share of them."""
    counts: Counter[str] = Counter()
    for line in lines:
        stack, _space, count = line.rstrip().rpartition(" ")
        if not stack:
            continue
        functions = {_function(frame) for frame in stack.split(";")}
        part = next(
            (
                label
                for label, function, path in PARTS
                if any(name == function and file.endswith(path) for name, file in functions)
            ),
            OTHER,
        )
        counts[part] += int(count)
    total = sum(counts.values())
    labels = [*dict.fromkeys(label for label, _function_name, _path in PARTS), OTHER]
    return total, [(label, counts[label] / total if total else 0.0) for label in labels if counts[label]]


def report(path: Path, cpu_ms_per_request: float) -> str:
    """The breakdown of the profile at path, each part also in ms per hub request (the worker's CPU per
    request shared as the samples are)."""
    total, parts = breakdown(path.read_text().splitlines())
    lines = [f"  where the worker's CPU goes ({total:,} samples of threads running Python):"]
    lines += [f"    {label:52}{100 * share:>5.0f} %{share * cpu_ms_per_request:>7.1f} ms" for label, share in parts]
    return "\n".join(lines)

"""WSGI entry point of bench.soak's sandbox hub: config.wsgi's hub, whose faults the soak flips while it runs.

The faults are read, before each request, from the file SOAK_FAULTS_FILE names: its text is
HUB_SANDBOX_FAULTS' ("error_rate=1", "latency_ms=35000", empty for a healthy hub), which the sandbox's
fault injection reads per request (hubsandbox.faults.environment_injector)."""

import os
from pathlib import Path

from config.wsgi import application as hub

_FAULTS = Path(os.environ["SOAK_FAULTS_FILE"])
#: The file's modification time and text when last read: it is read again only once it changed.
_read = (0, "")


def application(environ, start_response):
    os.environ["HUB_SANDBOX_FAULTS"] = _faults()
    return hub(environ, start_response)


def _faults():
    global _read
    try:
        changed = _FAULTS.stat().st_mtime_ns
    except FileNotFoundError:
        return ""
    if changed != _read[0]:
        _read = (changed, _FAULTS.read_text().strip())
    return _read[1]

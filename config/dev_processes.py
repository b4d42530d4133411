"""`make run`'s process manager: honcho running Procfile.dev, with a clean stop on Ctrl-C.

honcho alone sends SIGTERM to each process's whole group and SIGKILL to what is left 5 s later: Celery's
pool processes, in their worker's group, died in the middle of their task, a worker still finishing one
was killed, and the Ctrl-C ended as an error (exit 130, "Error 130" from make). Here SIGTERM goes to each
process alone (a worker then takes no new task and lets its pool finish the current ones: Celery's warm
shutdown), SIGKILL only to what is left after STOP_SECONDS, and a stop asked by Ctrl-C ends with 0.
Procfile.dev runs each command with exec, so that the process honcho signals is the program itself."""

import contextlib
import os
import signal
import sys

from honcho import command, compat, manager

#: How long the processes have to stop after Ctrl-C before they are killed: a hub send or a booking e-mail
#: finishes in seconds (a bulk task may be cut short; its job or outbox row brings it back).
STOP_SECONDS = 30
#: honcho's exit code when SIGINT (Ctrl-C) stopped everything.
_STOPPED_BY_CTRL_C = 130


class _LeaderOnly(compat.ProcessManager):
    """SIGTERM to the process itself, not its group (its children are its own to stop); SIGKILL to all."""

    def terminate(self, pid):
        with contextlib.suppress(ProcessLookupError):  # already gone
            os.kill(pid, signal.SIGTERM)


class _Manager(manager.Manager):
    """honcho's manager, signalling each process alone."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._procmgr = _LeaderOnly()


def main(argv):
    """honcho's command line (`start` and the rest) with the stop above; returns the exit code."""
    manager.KILL_WAIT = STOP_SECONDS
    command.Manager = _Manager
    try:
        command.main(argv)
    except SystemExit as stop:
        return 0 if stop.code == _STOPPED_BY_CTRL_C else stop.code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

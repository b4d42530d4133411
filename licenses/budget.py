"""A check of an uploaded file run in a forked child process, so that a file that would take too long or
too much memory costs a refused upload, never a web worker: the child caps its memory and its time, runs the
check and answers with its exit status (it touches nothing the parent holds: no database, no files)."""

import os
import resource
import signal
from collections.abc import Callable

#: The status of a child that ran out of memory (a MemoryError, or any other failure of the check).
OUT_OF_MEMORY = 5


def exit_status_within_budget(check: Callable[[], int], seconds: float, max_bytes: int) -> int | None:
    """check()'s result (an exit status) run in a child process given seconds and max_bytes more memory
    than this process holds; None when the child ran out of either (it is killed by its alarm or ends on
    a MemoryError)."""
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = OUT_OF_MEMORY
        try:
            signal.signal(signal.SIGALRM, signal.SIG_DFL)
            signal.setitimer(signal.ITIMER_REAL, seconds)
            with open("/proc/self/statm") as statm:
                held = int(statm.read().split()[0]) * resource.getpagesize()
            resource.setrlimit(resource.RLIMIT_AS, (held + max_bytes, resource.RLIM_INFINITY))
            status = check()
        finally:
            os._exit(status)
    _, wait_status = os.waitpid(pid, 0)
    status = os.waitstatus_to_exitcode(wait_status)
    return None if status < 0 or status == OUT_OF_MEMORY else status

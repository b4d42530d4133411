"""functools.cache for values that threads of one process may ask for at the same moment."""

import functools
import threading
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


def made_once(function: Callable[..., T]) -> Callable[..., T]:
    """Cache function's value per (positional, hashable) arguments, made once under a lock: functools.cache
    alone lets two racing threads each make one, and the value dropped may be one that must not be made twice
    (a metric) or that tears down what the kept one still uses (a Redis client closes its pool when
    collected)."""
    cached = functools.cache(function)
    lock = threading.Lock()

    @functools.wraps(function)
    def once(*args: Hashable) -> T:
        with lock:
            return cached(*args)

    return once

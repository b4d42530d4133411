"""Fault injection for the sandbox hub: 5xx answers, 429 with Retry-After, added latency, dropped connections,
and settlement records that differ from the vendor's bookings.

Two ways to turn faults on:

- the environment, for a whole process (`make run`, benchmarks):
  HUB_SANDBOX_FAULTS="error_rate=0.2,throttle_rate=0.1,drop_rate=0.05,latency_ms=20,seed=7"
  (the faults of a sequence are separated by "|": "sequence=error|drop|ok");
- inject_faults(...), a context manager (and decorator) for one test. It changes process-wide state,
  so it also reaches the sandbox when pytest-django's live_server thread serves it in the same process;
  it takes precedence over the environment until it exits.

Each request draws its fault from one random generator, so a given seed gives the same faults in the
same order of requests. A `sequence` fixes the faults of the first requests (then the rates apply),
for tests that need "first a 503, then success" exactly.

Settlement (operations 19-20): `settlement_drift_rate` is the share of the sales the sandbox stores whose
settlement record will differ from what the vendor answered, each by one kind drawn from
`settlement_drift` ("amount|status|unknown|unsent": another amount, another status, an extra record of a
booking the vendor never received, the sale left out of the lists); `settlement_page_size` makes the
list answer fewer records per page than asked, as decision 0007 allows the hub to.

Request budget: `budget=N` counts each property's requests per kind per clock minute and answers 429 beyond N,
as Channex does (budget.py); 0, the default, counts nothing.

Dropped connections: the sandbox shuts down the client's socket (SHUT_RDWR) from the view and lets the
server's write of the answer fail. The socket is reached through what the server puts in the WSGI
environ: `gunicorn.socket` under gunicorn, and the request-line reader behind `wsgi.input` under
Django's runserver and the live_server of tests (Django's LimitedStream keeps the reader's bound
`read`). Both servers treat the failed write as a client that went away and stay healthy, and a
`requests` client sees a ConnectionError (remote end closed the connection without a response).
Where no socket can be reached (Django's test Client, other servers) the view raises
ConnectionDropped instead: the test Client re-raises it, another server answers 500.
"""

import contextlib
import logging
import os
import random
import socket
import threading
from collections import Counter, deque
from dataclasses import dataclass, fields
from enum import StrEnum
from http import HTTPStatus
from typing import Any

from django.http import HttpResponse, JsonResponse

from .models import SettlementDrift

logger = logging.getLogger(__name__)

ENVIRONMENT_VARIABLE = "HUB_SANDBOX_FAULTS"
_SERVER_ERRORS = tuple(status.value for status in HTTPStatus if status.value >= 500)


class Fault(StrEnum):
    """What the sandbox does with one request."""

    OK = "ok"
    ERROR = "error"  # answers error_status
    THROTTLE = "throttle"  # answers 429 with Retry-After
    DROP = "drop"  # closes the connection without an answer


class ConnectionDropped(ConnectionResetError):
    """Raised where a dropped connection cannot be made real (no socket reachable), e.g. in the test Client."""


@dataclass(frozen=True)
class FaultConfig:
    """How often and how the sandbox misbehaves; the defaults are a healthy hub."""

    error_rate: float = 0.0  # share of requests answered with error_status
    error_status: int = 503
    throttle_rate: float = 0.0  # share answered 429
    drop_rate: float = 0.0  # share whose connection is closed without an answer
    retry_after: int = 1  # seconds, sent as Retry-After with 429 and 503
    latency_ms: int = 0  # every answer leaves this long after its request came in (or later: its work took longer)
    latency_jitter_ms: int = 0  # plus a random 0..jitter on top
    seed: int | None = None
    sequence: tuple[Fault, ...] = ()  # faults of the first requests, in order
    settlement_drift_rate: float = 0.0  # share of stored sales whose settlement record differs
    settlement_drift: tuple[SettlementDrift, ...] = tuple(SettlementDrift)  # the kinds of difference drawn from
    settlement_page_size: int = 0  # > 0: the settlement list answers at most this many records per page
    budget: int = 0  # > 0: requests per property, kind and clock minute beyond which it answers 429 (budget.py)

    def __post_init__(self):
        object.__setattr__(self, "sequence", tuple(Fault(item) for item in self.sequence))
        object.__setattr__(self, "settlement_drift", tuple(SettlementDrift(item) for item in self.settlement_drift))
        if not 0 <= self.settlement_drift_rate <= 1 or not self.settlement_drift:
            raise ValueError("settlement_drift_rate must be within 0..1, with at least one settlement_drift kind")
        if min(self.settlement_page_size, self.budget) < 0:
            raise ValueError("settlement_page_size and budget must be >= 0")
        rates = (self.error_rate, self.throttle_rate, self.drop_rate)
        if any(not 0 <= rate <= 1 for rate in rates) or sum(rates) > 1:
            raise ValueError("error_rate, throttle_rate and drop_rate must be within 0..1 and add up to at most 1")
        if self.error_status not in _SERVER_ERRORS:
            raise ValueError(f"error_status must be one of {', '.join(map(str, _SERVER_ERRORS))}")
        if min(self.retry_after, self.latency_ms, self.latency_jitter_ms) < 0:
            raise ValueError("retry_after, latency_ms and latency_jitter_ms must be >= 0")

    @classmethod
    def parse(cls, text: str) -> "FaultConfig":
        """Reads "name=value,name=value" as HUB_SANDBOX_FAULTS writes it; unknown names are an error."""
        names = [option.name for option in fields(cls)]
        options: dict[str, Any] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            name = name.strip()
            if name not in names:
                raise ValueError(f"{ENVIRONMENT_VARIABLE}: unknown option {name!r}; known: {', '.join(names)}")
            try:
                if name in ("sequence", "settlement_drift"):
                    kind = Fault if name == "sequence" else SettlementDrift
                    options[name] = tuple(kind(part.strip()) for part in value.split("|") if part.strip())
                elif name in ("error_rate", "throttle_rate", "drop_rate", "settlement_drift_rate"):
                    options[name] = float(value)
                else:
                    options[name] = int(value)
            except ValueError as error:
                raise ValueError(f"{ENVIRONMENT_VARIABLE}: {name}: {error}") from None
        try:
            return cls(**options)
        except ValueError as error:
            raise ValueError(f"{ENVIRONMENT_VARIABLE}: {error}") from None


@dataclass(frozen=True)
class Decision:
    """The fault drawn for one request and the latency to add before answering."""

    fault: Fault
    delay_seconds: float


class FaultInjector:
    """Draws the fault of each request from one FaultConfig; thread-safe, reproducible given a seed.

    counts tells how many requests got each Fault (Fault.OK included), for tests to check against.
    """

    def __init__(self, config: FaultConfig):
        self.config = config
        self.counts: Counter[Fault] = Counter()
        self._random = random.Random(config.seed)  # noqa: S311 - simulation, not security
        self._sequence = deque(config.sequence)
        # Its own generator: storing sales must not shift the faults drawn for requests.
        self._drift_random = random.Random(config.seed)  # noqa: S311 - simulation, not security
        self._lock = threading.Lock()

    def draw_drift(self) -> SettlementDrift | None:
        """How the settlement record of the sale being stored will differ from the vendor's, or None."""
        with self._lock:
            if self._drift_random.random() >= self.config.settlement_drift_rate:
                return None
            return self._drift_random.choice(self.config.settlement_drift)

    def draw(self) -> Decision:
        """The fault and delay of the next request."""
        config = self.config
        with self._lock:
            # One draw per request, whatever the outcome, keeps the run reproducible for a seed.
            roll = self._random.random()
            jitter = self._random.uniform(0, config.latency_jitter_ms) if config.latency_jitter_ms else 0
            if self._sequence:
                fault = self._sequence.popleft()
            elif roll < config.drop_rate:
                fault = Fault.DROP
            elif roll < config.drop_rate + config.error_rate:
                fault = Fault.ERROR
            elif roll < config.drop_rate + config.error_rate + config.throttle_rate:
                fault = Fault.THROTTLE
            else:
                fault = Fault.OK
            self.counts[fault] += 1
        return Decision(fault, (config.latency_ms + jitter) / 1000)


_lock = threading.Lock()
_overrides: list[FaultInjector] = []
# The injector built from the environment, with the text it was built from (rebuilt when that changes).
_from_environment: tuple[str, FaultInjector] | None = None


def environment_injector() -> FaultInjector:
    """The injector configured by HUB_SANDBOX_FAULTS (a healthy hub when unset); raises ValueError if invalid."""
    global _from_environment
    text = os.environ.get(ENVIRONMENT_VARIABLE, "")
    with _lock:
        if _from_environment is None or _from_environment[0] != text:
            _from_environment = (text, FaultInjector(FaultConfig.parse(text)))
        return _from_environment[1]


def active_injector() -> FaultInjector:
    """The injector in force: the innermost inject_faults(), else the environment's."""
    with _lock:
        if _overrides:
            return _overrides[-1]
    return environment_injector()


@contextlib.contextmanager
def inject_faults(**options):
    """Makes the sandbox misbehave while the block runs; options are FaultConfig's fields.

    Yields the FaultInjector, whose counts tell what was injected:

        with inject_faults(error_rate=0.5, seed=1) as faults:
            ...
        assert faults.counts[Fault.ERROR] == 3
    """
    injector = FaultInjector(FaultConfig(**options))
    with _lock:
        _overrides.append(injector)
    try:
        yield injector
    finally:
        with _lock:
            _overrides.remove(injector)


def fault_response(decision: Decision, config: FaultConfig) -> JsonResponse | None:
    """The answer that replaces the real one for an ERROR or THROTTLE decision; None otherwise."""
    if decision.fault is Fault.THROTTLE:
        response = JsonResponse({"message": "Too many requests (injected by the sandbox)"}, status=429)
    elif decision.fault is Fault.ERROR:
        phrase = HTTPStatus(config.error_status).phrase
        response = JsonResponse({"message": f"{phrase} (injected by the sandbox)"}, status=config.error_status)
    else:
        return None
    if response.status_code in (429, 503):
        response["Retry-After"] = str(config.retry_after)
    return response


def _client_socket(environ: dict) -> socket.socket | None:
    """The client's socket as the WSGI server exposes it, or None."""
    candidate = environ.get("gunicorn.socket")
    if candidate is None:
        # Django's dev/live server: wsgi.input is a LimitedStream over the connection's reader, which is
        # a buffered reader over a SocketIO that holds the socket.
        reader = getattr(getattr(environ.get("wsgi.input"), "_read", None), "__self__", None)
        candidate = getattr(getattr(reader, "raw", None), "_sock", None)
    return candidate if isinstance(candidate, socket.socket) else None


def drop_connection(environ: dict) -> HttpResponse:
    """Closes the client's connection without an answer (see the module's docstring for how).

    Returns the response the view should return: the server's attempt to write it fails, which is the
    point. Raises ConnectionDropped where no socket can be reached.
    """
    client = _client_socket(environ)
    if client is None:
        raise ConnectionDropped("The sandbox dropped the connection (injected fault).")
    with contextlib.suppress(OSError):  # the client is already gone: nothing left to drop
        client.shutdown(socket.SHUT_RDWR)
    logger.info(
        "Dropped the connection of %s %s (injected fault)", environ.get("REQUEST_METHOD"), environ.get("PATH_INFO")
    )
    # Never delivered; a 2xx keeps Django from logging it as a failed request.
    return HttpResponse()

"""The hub API client: one requests.Session per process, the Authorization header of decision 0002,
connect and read timeouts, and typed errors that carry the hub's status and message."""

import email.utils
import functools
import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import requests
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.metrics import hub_request_observed
from core.request_id import HEADER as REQUEST_ID_HEADER
from core.request_id import request_id_get

from .budget import budget_limit, budget_take
from .endpoints import Endpoint
from .environments import HubEnvironment, hub_address
from .selectors import hub_environment_active

logger = logging.getLogger(__name__)

#: Statuses worth trying again later: the hub was busy, slow or broken, not our request.
RETRYABLE_STATUSES = frozenset({408, 429}) | frozenset(range(500, 600))


@dataclass(frozen=True)
class HubResponse:
    """A 2xx answer of the hub."""

    status: int
    data: Any
    duration_ms: int


class HubError(Exception):
    """A hub call that did not succeed; retryable says whether trying again later may help."""

    def __init__(
        self, message: str, *, status: int | None = None, retry_after: float | None = None, duration_ms: int = 0
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.duration_ms = duration_ms

    @property
    def retryable(self) -> bool:
        return False


class HubHTTPError(HubError):
    """The hub answered with a non-2xx status; message is the hub's own {"message"}."""

    @property
    def retryable(self) -> bool:
        return self.status in RETRYABLE_STATUSES


class HubUnavailable(HubError):
    """No answer: the connection failed or timed out."""

    @property
    def retryable(self) -> bool:
        return True


class HubNotConfigured(HubError):
    """The environment's base URL or token is not set: no call can be made until it is."""


class HubBudgetSpent(Exception):
    """The property's request budget of a kind has no slot free for seconds (decision 0022): nothing was sent.
    Not a HubError: the hub was not asked, and nothing failed."""

    def __init__(self, *, kind: str, limit: int, seconds: float) -> None:
        self.kind, self.limit, self.seconds = kind, limit, seconds
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """Why the call waits, for staff."""
        kinds = {
            "rates": pgettext("request budget", "rates"),
            "availability": pgettext("request budget", "availability"),
            "content": pgettext("request budget", "content"),
        }
        return _("Waiting for the property's request budget (%(limit)d a minute for %(kind)s).") % {
            "limit": self.limit,
            "kind": kinds.get(self.kind, self.kind),
        }


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def encode_body(body: Any) -> bytes:
    """A JSON body as it goes on the wire: compact UTF-8 rather than requests' \\uXXXX escapes, so that
    Korean text travels in about half the bytes."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _hub_message(response: requests.Response) -> str:
    if response.is_redirect:
        # Redirects are never followed (our token must not go elsewhere): name where the hub pointed.
        return _("The hub redirected this call to %(location)s; redirects are not followed.") % {
            "location": response.headers["Location"]
        }
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return body["message"]
    return f"HTTP {response.status_code} {response.reason or ''}".strip()


class HubClient:
    """Calls the hub API. Create through get_hub_client(), which keeps one session per process."""

    def __init__(
        self,
        *,
        base_url: str,
        token: str,
        auth_scheme: str = "",
        connect_timeout: float = 5.0,
        read_timeout: float = 30.0,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = (connect_timeout, read_timeout)
        self.session = requests.Session()
        # SPEC: the token goes in Authorization as issued; a scheme word only if the operator asks.
        self.session.headers["Authorization"] = f"{auth_scheme} {token}".strip()
        self.session.headers["Accept"] = "application/json"
        # What the environment says for this hub (HTTPS_PROXY and NO_PROXY, REQUESTS_CA_BUNDLE) is read once
        # here rather than by requests on every call (some 5 % of a send's CPU); no ~/.netrc can then replace
        # the token either.
        environment = self.session.merge_environment_settings(self.base_url, {}, None, None, None)
        self.session.proxies, self.session.verify = environment["proxies"], environment["verify"]
        self.session.trust_env = False

    def __repr__(self) -> str:
        return f"<HubClient {self.base_url}>"  # never the token

    def call(
        self,
        endpoint: Endpoint,
        *,
        path_params: dict[str, Any] | None = None,
        query: dict[str, Any] | None = None,
        body: Any = None,
        wait: bool = True,
    ) -> HubResponse:
        """Send one request; return a HubResponse for 2xx, raise HubHTTPError (3xx included) or HubUnavailable
        otherwise.

        A call about a property first takes a slot of its request budget (decision 0022): it sleeps until one
        frees, or with wait=False raises HubBudgetSpent before sending anything."""
        self._budget_slot(endpoint, path_params or {}, body, wait=wait)
        path = endpoint.path(**(path_params or {}))
        started = time.monotonic()
        data = None if body is None else encode_body(body)
        headers = {"Content-Type": "application/json; charset=utf-8"} if data is not None else {}
        if request_id := request_id_get():
            # The hub's operator can find our request by the id our logs and sync attempts carry.
            headers[REQUEST_ID_HEADER] = request_id
        try:
            # Never follow a redirect: requests would send our Authorization header along to wherever it
            # points (same host, other scheme or port included).
            response = self.session.request(
                endpoint.method,
                self.base_url + path,
                params=query,
                data=data,
                headers=headers,
                timeout=self.timeout,
                allow_redirects=False,
            )
        except requests.RequestException as exc:
            seconds = time.monotonic() - started
            duration_ms = round(seconds * 1000)
            timed_out = isinstance(exc, requests.Timeout)
            hub_request_observed(endpoint.name, endpoint.method, "timeout" if timed_out else "unreachable", seconds)
            kind = "timed out" if timed_out else "could not be reached"
            logger.warning("hub %s %s %s after %d ms", endpoint.method, path, kind, duration_ms)
            raise HubUnavailable(f"The hub {kind} ({exc.__class__.__name__}).", duration_ms=duration_ms) from exc
        seconds = time.monotonic() - started
        duration_ms = round(seconds * 1000)
        hub_request_observed(endpoint.name, endpoint.method, response.status_code, seconds)
        logger.info("hub %s %s -> %s in %d ms", endpoint.method, path, response.status_code, duration_ms)
        if not 200 <= response.status_code < 300:
            raise HubHTTPError(
                _hub_message(response),
                status=response.status_code,
                retry_after=parse_retry_after(response.headers.get("Retry-After")),
                duration_ms=duration_ms,
            )
        try:
            data = response.json() if response.content else None
        except ValueError:
            data = None
        return HubResponse(status=response.status_code, data=data, duration_ms=duration_ms)

    def _budget_slot(self, endpoint: Endpoint, params: dict[str, Any], body: Any, *, wait: bool) -> None:
        property_id = endpoint.budget_property(params, body)
        if property_id is None:
            return
        while seconds := budget_take(self.base_url, property_id, endpoint.budget):
            if not wait:
                raise HubBudgetSpent(kind=endpoint.budget, limit=budget_limit(endpoint.budget), seconds=seconds)
            logger.info(
                "hub %s for property %s waits %.1f s for its request budget", endpoint.name, property_id, seconds
            )
            time.sleep(seconds)


@functools.lru_cache(maxsize=4)
def _client_for(base_url: str, token: str, auth_scheme: str, connect_timeout: float, read_timeout: float) -> HubClient:
    return HubClient(
        base_url=base_url,
        token=token,
        auth_scheme=auth_scheme,
        connect_timeout=connect_timeout,
        read_timeout=read_timeout,
    )


def get_hub_client(environment: HubEnvironment | str | None = None) -> HubClient:
    """The process's hub client for an environment (by default the active one), one session reused.

    Raises HubNotConfigured when the environment has no base URL or token."""
    address = hub_address(environment or hub_environment_active())
    if not address.configured:
        raise HubNotConfigured(
            _("The %(environment)s hub has no base URL or token configured.")
            % {"environment": address.environment.label}
        )
    return _client_for(
        address.base_url,
        address.token,
        settings.HUB_AUTH_SCHEME,
        settings.HUB_CONNECT_TIMEOUT,
        settings.HUB_READ_TIMEOUT,
    )

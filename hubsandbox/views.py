"""The sandbox hub's endpoints. HubView does what every endpoint shares; the subclasses call one service."""

import hmac
import time

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.views import View
from django.views.decorators.csrf import csrf_exempt

from . import faults, selectors, services
from .budget import budget_refusal
from .catalog import catalog_tree
from .errors import HubError, MethodNotAllowed, NotFound, PayloadTooLarge, Unauthorized
from .hubs import STAGING, current_hub, hub_token, serving
from .models import SandboxRequest
from .paths import route_as_sent
from .selectors import ResourceKind
from .validation import parse_json, validate_no_query


def _answer(data: dict | list, status: int = 200) -> JsonResponse:
    # safe=False: the channel lists (operations 21, 23, 25) are JSON arrays.
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"ensure_ascii": False})


def _hub_path(request) -> str:
    """The request's path as the hub would see it (as sent: paths.py), without the prefix the sandbox is
    mounted at."""
    prefix = reverse(f"{request.resolver_match.namespace}:meta").removesuffix("gds/vendor/meta")
    return "/" + request.path.removeprefix(prefix)


def _authenticate(request):
    token = hub_token(current_hub())
    expected = f"{settings.HUB_AUTH_SCHEME} {token}".strip()
    given = request.headers.get("Authorization", "")
    # A hub whose token is not configured accepts no one (an empty header would match an empty token).
    if not token or not hmac.compare_digest(given.encode(), expected.encode()):
        raise Unauthorized("Authorization: missing or invalid access token")


def _answer_after(started: float, latency: float) -> None:
    """Hold the answer until latency seconds after the request came in (time.monotonic() at started): a hub
    answering after 200 ms answers then, its own work included, whatever that costs the stand-in on the
    cores it shares with us."""
    remaining = started + latency - time.monotonic()
    if remaining > 0:
        time.sleep(remaining)


@method_decorator(csrf_exempt, name="dispatch")
class HubView(View):
    """Base of every endpoint: injected faults, the token check, JSON in and out, {"message"} errors,
    and one SandboxRequest row per request received."""

    def dispatch(self, request, *args, hub=STAGING, **kwargs):
        match = route_as_sent(request)
        if match is not None:
            # Django routed the decoded path (a%2Fb as a/b): the view of the path as sent answers.
            return match.func(request, *match.args, **match.kwargs)
        # The prefix the request came under names the hub (hubs.py); everything below is addressed to it.
        with serving(hub):
            return self._dispatch(request, *args, **kwargs)

    def _dispatch(self, request, *args, **kwargs):
        started = time.monotonic()
        try:
            raw_body = request.body
        except RequestDataTooBig:
            raw_body = None
        injector = faults.active_injector()
        decision = injector.draw()
        # Counted as received, before the answer's latency (a 429 of the budget is an answer like any other).
        refusal = budget_refusal(current_hub(), request.method, _hub_path(request), raw_body, injector.config.budget)
        if decision.fault is faults.Fault.DROP:
            _answer_after(started, decision.delay_seconds)
            self._record(request, raw_body, started, None, decision.fault)
            return faults.drop_connection(request.environ)
        response = refusal or faults.fault_response(decision, injector.config)
        if response is None:
            try:
                _authenticate(request)
                if raw_body is None:
                    raise PayloadTooLarge("body: larger than the hub accepts")
                response = self.respond(request, raw_body, *args, **kwargs)
            except HubError as error:
                response = _answer({"message": error.message}, status=error.status)
        _answer_after(started, decision.delay_seconds)
        self._record(request, raw_body, started, response, decision.fault)
        return response

    def respond(self, request, raw_body: bytes, *args, **kwargs) -> JsonResponse:
        """Calls the handler of the method (get, post, patch, put) and answers its dict or list with 200.

        post, patch and put handlers receive the parsed JSON object as the keyword argument `body`.
        """
        method = request.method.lower()
        handler = getattr(self, method, None) if method in ("get", "post", "patch", "put") else None
        if handler is None:
            raise MethodNotAllowed(f"{request.method} is not allowed on this path")
        if method in ("post", "patch", "put"):
            kwargs["body"] = parse_json(raw_body, request.content_type)
        return _answer(handler(request, *args, **kwargs))

    def _record(self, request, raw_body, started, response, fault):
        SandboxRequest.objects.create(
            hub=current_hub(),
            method=request.method,
            path=_hub_path(request)[:500],
            query=request.META.get("QUERY_STRING", "")[:1000],
            request_body=(raw_body or b"").decode("utf-8", errors="replace"),
            request_bytes=len(raw_body) if raw_body is not None else int(request.META.get("CONTENT_LENGTH") or 0),
            response_status=response.status_code if response is not None else None,
            response_body=response.content.decode("utf-8", errors="replace") if response is not None else "",
            response_bytes=len(response.content) if response is not None else 0,
            fault="" if fault is faults.Fault.OK else fault,
            duration_ms=(time.monotonic() - started) * 1000,
        )


class CatalogView(HubView):
    """GET /gds/vendor/meta: the code catalog. SPEC: no parameters; any is refused (400)."""

    def get(self, request):
        validate_no_query(request.GET)
        return {"data": catalog_tree()}


class PropertyCollectionView(HubView):
    """POST /gds/vendor/properties."""

    def post(self, request, body):
        return services.property_create(body=body).as_hub_json()


class PropertyView(HubView):
    """GET and PATCH /gds/vendor/properties/{pid}."""

    def get(self, request, property_id):
        return selectors.resource_get(ResourceKind.PROPERTY, property_id).as_hub_json()

    def patch(self, request, property_id, body):
        return services.property_update(property_id=property_id, body=body).as_hub_json()


class RoomtypeCollectionView(HubView):
    """POST /gds/vendor/properties/{pid}/roomtypes."""

    def post(self, request, property_id, body):
        return services.roomtype_create(property_id=property_id, body=body).as_hub_json()


class RoomtypeView(HubView):
    """GET and PATCH /gds/vendor/properties/{pid}/roomtypes/{rid}."""

    def get(self, request, property_id, roomtype_id):
        return selectors.resource_get(ResourceKind.ROOMTYPE, property_id, roomtype_id).as_hub_json()

    def patch(self, request, property_id, roomtype_id, body):
        return services.roomtype_update(property_id=property_id, roomtype_id=roomtype_id, body=body).as_hub_json()


class RateplanModelCollectionView(HubView):
    """POST /gds/vendor/properties/{pid}/rateplan-models."""

    def post(self, request, property_id, body):
        return services.rateplan_model_create(property_id=property_id, body=body).as_hub_json()


class RateplanModelView(HubView):
    """GET and PATCH /gds/vendor/properties/{pid}/rateplan-models/{mid}."""

    def get(self, request, property_id, model_id):
        return selectors.resource_get(ResourceKind.RATEPLAN_MODEL, property_id, model_id).as_hub_json()

    def patch(self, request, property_id, model_id, body):
        return services.rateplan_model_update(property_id=property_id, model_id=model_id, body=body).as_hub_json()


class RateplanCollectionView(HubView):
    """POST /gds/vendor/properties/{pid}/roomtypes/{rid}/rateplans."""

    def post(self, request, property_id, roomtype_id, body):
        return services.rateplan_create(property_id=property_id, roomtype_id=roomtype_id, body=body).as_hub_json()


class RateplanView(HubView):
    """GET and PATCH /gds/vendor/properties/{pid}/roomtypes/{rid}/rateplans/{rpid}."""

    def get(self, request, property_id, roomtype_id, rateplan_id):
        return selectors.resource_get(ResourceKind.RATEPLAN, property_id, roomtype_id, rateplan_id).as_hub_json()

    def patch(self, request, property_id, roomtype_id, rateplan_id, body):
        rateplan = services.rateplan_update(
            property_id=property_id, roomtype_id=roomtype_id, rateplan_id=rateplan_id, body=body
        )
        return rateplan.as_hub_json()


class UnknownPathView(HubView):
    """Any other path under the sandbox: 404 with the hub's {"message"} body rather than Django's page."""

    def respond(self, request, raw_body, *args, **kwargs):
        raise NotFound(f"no hub endpoint {request.method} {_hub_path(request)}")

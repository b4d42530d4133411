"""The hub's paths as they were sent, so that an id holding "/" (a%2Fb: one segment) is found.

The spec's ids are any string of at most 40 characters, and a client quotes each path segment whole:
/properties/a%2Fb names the property "a/b". A WSGI server decodes the whole path before Django routes
it, so Django would see /properties/a/b, a path of another shape. The sandbox routes on the request
target as sent instead, each segment decoded on its own: gunicorn passes it as RAW_URI, uWSGI and Apache
as REQUEST_URI, and Django's development and test servers as RAW_URI too once keep_request_target() ran
(the app's ready()). Without it (Django's test client, say) the decoded path is all there is.

Paths are routed in an escaped form: "%" and "/" inside a segment written %25 and %2F, which the
`hubid` path converter decodes back into the id.
"""

from urllib.parse import unquote, urlsplit

from django.urls import resolve

#: The WSGI environ keys that servers put the request target in, as sent.
REQUEST_TARGET_KEYS = ("RAW_URI", "REQUEST_URI")


def _escape(segment):
    return segment.replace("%", "%25").replace("/", "%2F")


class HubIdConverter:
    """A path segment of the escaped form above, as the id it stands for."""

    regex = "[^/]+"

    def to_python(self, value):
        return unquote(value)

    def to_url(self, value):
        return _escape(value)


def escaped_path_info(environ, path_info):
    """path_info with each segment as sent, decoded on its own, and escaped (see above)."""
    sent = next((environ[key] for key in REQUEST_TARGET_KEYS if environ.get(key)), "")
    script = environ.get("SCRIPT_NAME", "").rstrip("/")
    target = urlsplit(sent).path
    if target and unquote(target) == script + path_info:
        segments = [unquote(segment) for segment in target.split("/")]
        # The script name's segments are not the path's; the leading "" stays, so the path keeps its "/".
        segments = segments[:1] + segments[1 + script.count("/") :]
    else:
        segments = path_info.split("/")
    return "/".join(_escape(segment) for segment in segments)


def route_as_sent(request):
    """The URL match of the request's path as sent, once request.path_info (and path) hold it in the
    escaped form; None when Django routed that form already."""
    if getattr(request, "routed_as_sent", False):
        return None
    request.routed_as_sent = True
    path_info = escaped_path_info(request.META, request.path_info)
    if path_info == request.path_info:
        return None
    request.path = request.META.get("SCRIPT_NAME", "").rstrip("/") + path_info
    request.path_info = path_info
    request.resolver_match = resolve(path_info)
    return request.resolver_match


def keep_request_target():
    """Have Django's development and test servers pass the request target as sent, as RAW_URI (what
    gunicorn calls it), so that the sandbox they serve finds ids holding "/". Idempotent."""
    from django.core.servers.basehttp import WSGIRequestHandler

    if getattr(WSGIRequestHandler.get_environ, "keeps_request_target", False):
        return
    get_environ = WSGIRequestHandler.get_environ

    def get_environ_with_target(handler):
        environ = get_environ(handler)
        environ.setdefault("RAW_URI", handler.path)
        return environ

    # A deliberate patch of Django's development server, marked so that it is applied once.
    get_environ_with_target.keeps_request_target = True  # type: ignore[attr-defined]
    WSGIRequestHandler.get_environ = get_environ_with_target  # type: ignore[method-assign]

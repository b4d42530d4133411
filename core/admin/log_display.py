"""How the exchange logs (the sync attempts, the hub's inbound calls) show what went over the wire: JSON
bodies indented, paths with their percent-escapes decoded."""

import json
from urllib.parse import unquote

from django.utils.html import format_html


def pretty_json(value):
    """A body as an indented, readable block: a decoded JSON value, or text that holds JSON (shown as
    it is when it does not parse); an empty body shows "-"."""
    if value in (None, "", b""):
        return "-"
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return format_html('<pre class="vh-log-body">{}</pre>', value)
    return format_html('<pre class="vh-log-body">{}</pre>', json.dumps(value, ensure_ascii=False, indent=2))


def decoded_path(path):
    """A request path as staff read it: /properties/대청 rather than /properties/%EB%8C%80%EC%B2%AD."""
    return unquote(path or "")

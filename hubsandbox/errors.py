"""Errors the sandbox hub answers with a JSON body {"message": ...}; each carries its HTTP status."""


class HubError(Exception):
    """An error answer of the hub: status is the HTTP status, message the body's text."""

    status = 500

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class Unauthorized(HubError):
    """The Authorization header is missing or does not carry the vendor's token."""

    status = 401


class NotFound(HubError):
    """The resource, or a parent named in the path, does not exist."""

    status = 404


class MethodNotAllowed(HubError):
    """The path exists but not with this HTTP method."""

    status = 405


class Conflict(HubError):
    """A create names a resource that already exists."""

    status = 409


class PayloadTooLarge(HubError):
    """The body is larger than the server accepts."""

    status = 413


class UnsupportedMediaType(HubError):
    """A body was sent with a content type other than JSON."""

    status = 415

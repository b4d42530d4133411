"""The version in the admin's pages."""

from django.http import HttpRequest

from core.version import VERSION


def version(request: HttpRequest) -> dict[str, str]:
    """Context processor: `vendorhub_version`, shown in the admin's footer."""
    return {"vendorhub_version": VERSION}

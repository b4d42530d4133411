"""vendorhub's own deploy checks (`manage.py check --deploy`): settings Django cannot judge itself."""

from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core import checks

from core.client_address import PROXY_COUNT_MAX


@checks.register(checks.Tags.security, deploy=True)
def check_proxy_count(app_configs: Sequence[AppConfig] | None, **kwargs: Any) -> list[checks.CheckMessage]:
    """DJANGO_PROXY_COUNT against the rest of the configuration: 0 while the settings trust a proxy's
    X-Forwarded-Proto (every client then shares the proxy's address), or more proxies than any deployment
    of ours has (a client then chooses its own address)."""
    count = settings.PROXY_COUNT
    if count < 0 or count > PROXY_COUNT_MAX:
        return [
            checks.Warning(
                f"DJANGO_PROXY_COUNT is {count}: expected 0 to {PROXY_COUNT_MAX}.",
                hint="Set it to the number of proxies in front of gunicorn that append to X-Forwarded-For; "
                "too many lets a client choose the address the allow-list and the lockout see.",
                id="vendorhub.W001",
            )
        ]
    if count == 0 and getattr(settings, "SECURE_PROXY_SSL_HEADER", None):
        return [
            checks.Warning(
                "DJANGO_PROXY_COUNT is 0 although SECURE_PROXY_SSL_HEADER trusts a proxy.",
                hint="Behind a proxy, set DJANGO_PROXY_COUNT to the number of proxies that append to "
                "X-Forwarded-For; otherwise every client shares the proxy's address in the lockout, the "
                "vendor API's allow-list and its call log.",
                id="vendorhub.W002",
            )
        ]
    return []

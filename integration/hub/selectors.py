"""Reads of which hub environment is active, and whether distribution to it is paused."""

import logging
from datetime import datetime

from django.db import connection
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from core.db.plain_sql import Columns

from .environments import HubEnvironment
from .models import CONNECTION_PK, HubConnection

logger = logging.getLogger(__name__)

#: What the pause read that every send makes reads of the connection's row.
_PAUSED = Columns(HubConnection, "connection", "paused_at")


def hub_environment_active() -> HubEnvironment:
    """The hub environment every call goes to now (staging until a switch)."""
    value = HubConnection.objects.filter(pk=CONNECTION_PK).values_list("environment", flat=True).first()
    return HubEnvironment(value or HubEnvironment.STAGING)


def hub_distribution_paused_since() -> datetime | None:
    """When distribution to the hub was paused (an incident at the hub), or None while it runs: one read of
    the connection's row, which every send makes. Plain SQL (the column read as the ORM reads it): building
    the query through the ORM costs more CPU than the database spends on it."""
    with connection.cursor() as cursor:
        statement = f"SELECT {_PAUSED.select()} FROM {_PAUSED.table} WHERE {_PAUSED.column('pk')} = %s"  # noqa: S608
        cursor.execute(statement, [CONNECTION_PK])
        row = cursor.fetchone()
    found = _PAUSED.build(row) if row else None
    return found.paused_at if found else None


def hub_distribution_pause_read() -> HubConnection | None:
    """The connection's row with who paused distribution, while it is paused (for the screens); else None."""
    return HubConnection.objects.select_related("paused_by").filter(pk=CONNECTION_PK, paused_at__isnull=False).first()


def hub_paused_refusal() -> str | None:
    """What staff read when they ask for a read of the hub (a drift check, a reconciliation, a refresh)
    while distribution is paused: a hub with an incident is not read either. None while distribution runs."""
    since = hub_distribution_paused_since()
    if since is None:
        return None
    return _(
        "Distribution to the hub is paused since %(since)s: nothing is read from the hub either. "
        "Ask again once an administrator resumes it."
    ) % {"since": formats.localize(timezone.localtime(since))}


def hub_scheduled_read_held(what: str) -> bool:
    """True, with one line in the log, when a scheduled read of the hub (what: the job's name) skips this
    run because distribution is paused; the job's next run after the resume does the work."""
    since = hub_distribution_paused_since()
    if since is None:
        return False
    logger.info("%s skipped: distribution to the hub is paused since %s", what, since.isoformat())
    return True

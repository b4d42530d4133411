"""Rows that grow with every call (the hub sync attempts, the vendor API's calls and the webhook-ids it
has seen) are kept for a while, then deleted by a periodic task."""

import datetime
import logging

from django.db import transaction
from django.utils import timezone

from core.background.periodic import for_each_row

logger = logging.getLogger(__name__)

#: Rows deleted per statement, so that no delete holds its locks for long.
BATCH = 5000


def purge_older_than(queryset, *, days, now=None):
    """Delete the rows of queryset created more than days ago (none when days <= 0: kept for ever), as
    purge_before does. Returns how many."""
    if days <= 0:
        return 0
    return purge_before(queryset, (now or timezone.now()) - datetime.timedelta(days=days))


def purge_before(queryset, cutoff):
    """Delete the rows of queryset created before cutoff, a batch at a time; a batch that fails is deleted
    row by row, and a row that fails is logged and left. Returns how many."""
    old = queryset.filter(created_at__lt=cutoff).order_by("pk").values_list("pk", flat=True)
    purged, last = 0, None
    # Onwards from the last batch's pk, so that rows left behind are not selected again.
    while batch := list((old if last is None else old.filter(pk__gt=last))[:BATCH]):
        purged += _delete(queryset.model, batch)
        last = batch[-1]
    return purged


def _delete(model, pks):
    label = model._meta.label
    try:
        with transaction.atomic():
            return model.objects.filter(pk__in=pks).delete()[0]
    except Exception:
        logger.warning("purge of %s: a batch of %d rows failed; deleting them one at a time", label, len(pks))
    return for_each_row(pks, lambda pk: model.objects.filter(pk=pk).delete()[0], what=f"purge of {label}")

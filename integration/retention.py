"""Logs that grow with every call (the hub sync attempts, the vendor API's calls) are kept for a number
of days, then deleted by a daily task."""

import datetime

from django.utils import timezone

#: Rows deleted per statement, so that no delete holds its locks for long.
BATCH = 5000


def purge_older_than(queryset, *, days, now=None):
    """Delete the rows of queryset created more than days ago (none when days <= 0: kept for ever), a
    batch at a time. Returns how many."""
    if days <= 0:
        return 0
    cutoff = (now or timezone.now()) - datetime.timedelta(days=days)
    old = queryset.filter(created_at__lt=cutoff).order_by("pk")
    purged = 0
    while batch := list(old.values_list("pk", flat=True)[:BATCH]):
        purged += queryset.model.objects.filter(pk__in=batch).delete()[0]
    return purged

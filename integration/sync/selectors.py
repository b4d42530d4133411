"""Reads of the sync to the hub that other screens show."""

from django.db.models import OuterRef, Subquery

from .models import SyncState


def with_sync_state(queryset, kind):
    """queryset annotated with each object's sync_status and sync_error (as kind), in the same query."""
    states = SyncState.objects.filter(kind=kind, object_id=OuterRef("pk"))
    return queryset.annotate(
        sync_status=Subquery(states.values("status")[:1]),
        sync_error=Subquery(states.values("last_error")[:1]),
    )

"""What the sync engine needs to know of each kind of hub resource: how to load it, what to send for
it, its parents, and the order in which kinds go out (parents before children).

A resource plans a send as a list of calls; the sender makes them, records each attempt, and handles
retries and failures the same way for every kind.
"""

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import models
from django.db.models import Q, prefetch_related_objects

from core.db.plain_sql import RowWithParents

from ..hub import endpoints
from .models import SyncState


class PlanError(Exception):
    """What to send cannot be built (a license's file is gone, say): the resource is failed with this
    message, for staff to see, instead of the send crashing again at every retry."""


@dataclass(frozen=True)
class Call:
    """One request to the hub. if_exists is the call to make instead when the hub answers 409 (OURS, decision 0003:
    the resource exists already), if_missing the one when it answers 404 (OURS, decision 0003: it does not know it)."""

    endpoint: endpoints.Endpoint
    params: dict
    body: Any
    if_exists: "Call | None" = None
    if_missing: "Call | None" = None


@dataclass
class Plan:
    """What one send does: its calls (none when the hub is up to date), the body the hub holds once they
    succeed, and what to do then."""

    calls: list[Call]
    acked_body: Any = None
    on_done: Callable[[list], None] | None = field(default=None, repr=False)


@dataclass(frozen=True)
class Resource:
    """One kind of hub resource."""

    kind: str
    model: type[models.Model]
    rank: int
    related: tuple = ()
    prefetch: tuple = ()
    #: Whether a switch to another hub environment sends the resource there again (content and ARI), or
    #: leaves what the old hub acknowledged with it (a license request: the new hub reviews anew).
    follows_switch: bool = True

    def load(self, object_id: int) -> Any:
        """The object with what its calls need, or None when it no longer exists: the object and its related
        parents in one plain SQL statement (every send loads one), then what it prefetches."""
        obj = _row_reader(self.model, self.related).get(object_id)
        if obj is not None and self.prefetch:
            prefetch_related_objects([obj], *self.prefetch)
        return obj

    def parents(self, obj: Any) -> list[tuple[str, models.Model]]:
        """The resources the hub must know before this one: (kind, object) pairs."""
        return []

    def children(self, state: SyncState) -> Q | None:
        """The outbox rows that may wait for the resource of state, as a Q of SyncState (None: nothing
        waits for it): what its first send queues. By default every row of the property one rank down;
        a kind that knows its own children names them, so that a send does not queue rows that still
        wait for another parent."""
        next_kinds = kinds_of_rank(self.rank + 1)
        return Q(property_id=state.property_id, kind__in=next_kinds) if next_kinds else None

    def blocked(self, obj: Any) -> str:
        """Why obj cannot be sent yet although its parents may be known (something it needs does not
        exist yet), for staff to see while it waits; "" when nothing blocks it."""
        return ""

    def plan(self, state: SyncState, obj: Any, *, full: bool) -> Plan:
        """The calls that bring the hub up to date with obj (full: its whole state, a resync); raises
        PlanError when they cannot be built."""
        raise NotImplementedError

    def describe(self, obj: Any) -> str:
        """How the hub and its logs name obj, for summaries."""
        return str(obj)


@cache
def _row_reader(model: type[models.Model], related: tuple[str, ...]) -> RowWithParents:
    """The statement reading an object of model with its related parents, built once per kind of send."""
    return RowWithParents(model, related)


#: Every kind of hub resource the engine sends, by kind; the areas and apps that own them register them.
RESOURCES: dict[str, Resource] = {}
#: The kind an object of each model is synced as when no kind is named (a rate plan's content, say,
#: rather than its rates).
KIND_OF_MODEL: dict[type[models.Model], str] = {}


def register(resource: Resource, *, default_for_model: bool = True) -> None:
    """Add a kind of hub resource that an area or app owns (content, rates and availability, licenses);
    call it from the app's ready()."""
    RESOURCES[resource.kind] = resource
    if default_for_model:
        KIND_OF_MODEL.setdefault(resource.model, resource.kind)


def kinds_of_rank(rank: int) -> list[str]:
    """The kinds of hub resource sent at rank."""
    return [kind for kind, resource in RESOURCES.items() if resource.rank == rank]


def objects_of(
    states: Iterable[SyncState], *, prefetch: Mapping[type[models.Model], Iterable[str]] | None = None
) -> dict[tuple[str, int], models.Model]:
    """The objects sync states stand for, {(kind, object_id): object}, one query per kind; objects that no
    longer exist are left out. prefetch maps a model to what to prefetch_related with it (for naming)."""
    wanted: dict[str, set[int]] = {}
    for state in states:
        wanted.setdefault(state.kind, set()).add(state.object_id)
    found: dict[tuple[str, int], models.Model] = {}
    for kind, ids in wanted.items():
        resource = RESOURCES.get(kind)
        if resource is None:
            continue
        queryset = resource.model._default_manager.filter(pk__in=ids)
        if resource.related:
            queryset = queryset.select_related(*resource.related)
        queryset = queryset.prefetch_related(*(prefetch or {}).get(resource.model, ()))
        found.update(((kind, obj.pk), obj) for obj in queryset)
    return found

"""Reads of the inbox: the events a person sees, and how many of them they have not read."""

from typing import TYPE_CHECKING, TypedDict, cast

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Exists, OuterRef, Q, QuerySet

from integration.access.choices import MembershipRole
from integration.access.selectors import properties_for_user
from integration.models import Property, PropertyMembership

from .choices import BOOKING_KINDS, MANAGER_KINDS
from .models import Event, EventRead, PropertyChoice


class _Unread(TypedDict):
    unread: bool


if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

    #: An event annotated `unread` for the person reading.
    UnreadEvent = WithAnnotations[Event, _Unread]

#: The header's badge counts up to this many, then says "99+".
BADGE_CAP = 99


def events_for_user(user: User | AnonymousUser) -> "QuerySet[UnreadEvent]":
    """The events of the properties user holds a role at (license events: where they manage; every one
    for a superuser; booking events where they did not turn them off) and user's own personal events, newest
    first, each annotated `unread` for user."""
    events = Event.objects.all()
    if not user.is_active:
        # No rows: none has an unread to read.
        return cast("QuerySet[UnreadEvent]", events.none())
    hidden = PropertyChoice.objects.filter(user=user, bookings_shown=False).values("property_id")
    events = events.exclude(Q(kind__in=BOOKING_KINDS) & Q(property__in=hidden))
    of_properties = Q(user__isnull=True)
    if not user.is_superuser:
        managed = properties_for_user(user, roles=(MembershipRole.MANAGER,)).values("pk")
        of_properties &= Q(property__in=properties_for_user(user).values("pk")) & (
            ~Q(kind__in=MANAGER_KINDS) | Q(property__in=managed)
        )
    events = events.filter(of_properties | Q(user=user))
    read = EventRead.objects.filter(event=OuterRef("pk"), user=user, read_at__gte=OuterRef("last_at"))
    return events.annotate(unread=~Exists(read))


def unread_count(user: User | AnonymousUser) -> int:
    """How many of user's events are unread, counted up to BADGE_CAP + 1 (one query)."""
    return events_for_user(user).filter(unread=True)[: BADGE_CAP + 1].count()


def event_email_recipients(event: Event) -> QuerySet[User]:
    """The active people with an address who see event and asked for its e-mails: a booking event's by
    their choice for its property (PropertyChoice), any other by turning the inbox's e-mails on; a personal
    event's only its owner."""
    users = get_user_model().objects.filter(is_active=True).exclude(email="")
    if event.user_id is not None:
        return users.filter(pk=event.user_id, inbox_preference__emails=True)
    property_id = cast(int, event.property_id)  # Event's check: an event of no person is a property's
    if event.kind in BOOKING_KINDS:
        choices = PropertyChoice.objects.filter(
            property_id=property_id, bookings_shown=True, bookings_emailed=True
        ).values("user_id")
        users = users.filter(pk__in=choices)
    else:
        users = users.filter(inbox_preference__emails=True)
    members = PropertyMembership.objects.filter(property_id=property_id)
    if event.kind in MANAGER_KINDS:
        members = members.filter(role=MembershipRole.MANAGER)
    return users.filter(Q(is_superuser=True) | Q(pk__in=members.values("user_id")))


def property_choices(user: User, properties: list[Property]) -> dict[int, PropertyChoice]:
    """{property id: user's PropertyChoice} for those of properties they made one for (one query)."""
    rows = PropertyChoice.objects.filter(user=user, property__in=properties)
    return {choice.property_id: choice for choice in rows}

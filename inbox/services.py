"""Writes of the inbox: recording events (folding repeats), read marks, the e-mail opt-in, the e-mails
(durable jobs, core.background.jobs) and the purge of old events."""

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import lazy

from bookings.notifications import email_language
from core.background.jobs import job_queue
from core.background.retention import purge_before
from core.mail import mail_message, mail_send_once

from .display import event_text
from .models import Event, EventRead, InboxPreference, PropertyChoice
from .selectors import event_email_recipients

logger = logging.getLogger(__name__)

#: The same happening of the same object within this long is one event, counted ("3 times").
FOLD_WINDOW = timedelta(days=1)
#: Events read (by someone who sees them) are kept this long after they last happened; every event
#: at most ALL_KEPT.
READ_KEPT = timedelta(days=30)
ALL_KEPT = timedelta(days=365)
#: The Celery tasks (inbox.tasks), queued by name: services never import tasks.
NOTIFY_TASK = "inbox.tasks.event_notify_task"
SEND_TASK = "inbox.tasks.event_email_send_task"


@transaction.atomic
def event_record(
    *,
    property_id: int | None,
    kind: str,
    object_id: int,
    subject: str,
    detail: str = "",
    user_id: int | None = None,
    now: datetime | None = None,
) -> Event:
    """Record, in the caller's transaction, that kind happened to the object (of the property, or, with
    user_id and no property, to that one person): a repeat within FOLD_WINDOW counts on the same event
    (unread again for all), a new event is also queued for e-mail."""
    now = now or timezone.now()
    event = (
        Event.objects.select_for_update(of=("self",))
        # A None in Q is IS NULL: a person's event folds with that person's only.
        .filter(
            Q(property_id=property_id, user_id=user_id), kind=kind, object_id=object_id, last_at__gte=now - FOLD_WINDOW
        )
        .order_by("-last_at")
        .first()
    )
    if event is not None:
        event.count += 1
        event.last_at, event.subject, event.detail = now, subject[:200], detail
        event.save(update_fields=["count", "last_at", "subject", "detail"])
        return event
    event = Event.objects.create(
        property_id=property_id,
        user_id=user_id,
        kind=kind,
        object_id=object_id,
        subject=subject[:200],
        detail=detail,
        last_at=now,
    )
    job_queue(NOTIFY_TASK, event.pk)
    return event


def events_mark_read(*, user: User, events: Iterable[Event]) -> int:
    """Mark events (a queryset or list of user's events) read by user now. Returns how many."""
    now = timezone.now()
    rows = [EventRead(event_id=event.pk, user=user, read_at=now) for event in events]
    EventRead.objects.bulk_create(
        rows, update_conflicts=True, unique_fields=["event", "user"], update_fields=["read_at"]
    )
    return len(rows)


def inbox_emails_set(*, user: User, emails: bool) -> InboxPreference:
    """Record whether user receives the inbox's events by e-mail."""
    preference, _created = InboxPreference.objects.update_or_create(user=user, defaults={"emails": emails})
    return preference


def property_choices_set(*, user: User, choices: dict[int, tuple[bool, bool]]) -> int:
    """Record user's choices {property id: (bookings shown, bookings e-mailed)}; an e-mail of events the
    inbox does not show is not sent, so e-mailed implies shown. Returns how many were recorded."""
    rows = [
        PropertyChoice(user=user, property_id=property_id, bookings_shown=shown, bookings_emailed=shown and emailed)
        for property_id, (shown, emailed) in choices.items()
    ]
    PropertyChoice.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["user", "property"],
        update_fields=["bookings_shown", "bookings_emailed", "updated_at"],
    )
    return len(rows)


def event_notify(*, event_id: int) -> int:
    """Queue one e-mail of the event per person who asked for them and sees it. Returns how many."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    user_ids = list(event_email_recipients(event).values_list("pk", flat=True))
    with transaction.atomic():
        for user_id in user_ids:
            job_queue(SEND_TASK, event_id, user_id)
    return len(user_ids)


def event_email_send(*, event_id: int, user_id: int) -> bool:
    """Send one person the e-mail of an event, if they still ask for them, see it and were not sent it
    already (an event is e-mailed once, when it is new). Returns whether it was sent; SMTP errors
    (OSError) reach the caller, which retries."""
    event = Event.objects.select_related("property").filter(pk=event_id).first()
    user = event_email_recipients(event).filter(pk=user_id).first() if event else None
    if event is None or user is None:
        return False
    return mail_send_once(
        event_email_message(event=event, user=user), key=f"inbox:{event_id}", user=user, event_at=event.created_at
    )


def event_email_message(*, event: Event, user: User) -> EmailMultiAlternatives:
    """The e-mail telling user of event, in their e-mail language, linking to the inbox's open view (which
    marks it read and leads to where it is handled)."""
    context = {
        "event": event,
        "text": lazy(event_text, str)(event),  # rendered in the e-mail's language
        "user": user,
        "open_url": settings.SITE_URL + reverse("admin:inbox_event_open", args=[event.pk]),
    }
    return mail_message(
        template_prefix="inbox/email/event", context=context, language=email_language(user), to=[user.email]
    )


def events_purge(*, now: datetime | None = None) -> int:
    """Delete events read (by anyone) more than READ_KEPT after they last happened, and every event older
    than ALL_KEPT. Returns how many rows were deleted (their read marks included)."""
    now = now or timezone.now()
    read = EventRead.objects.filter(event=OuterRef("pk"), read_at__gte=OuterRef("last_at"))
    read_cutoff, all_cutoff = now - READ_KEPT, now - ALL_KEPT
    purged = purge_before(Event.objects.filter(Exists(read), last_at__lt=read_cutoff), read_cutoff)
    return purged + purge_before(Event.objects.filter(last_at__lt=all_cutoff), all_cutoff)

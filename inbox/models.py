"""The inbox's events (one per property and happening, repeats within a day folded in), who read them,
and who wants them by e-mail."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from integration.models import Property

from .choices import EventKind


class Event(models.Model):
    """Something that happened to one object of a property (a license, a channel, a resource sent to the
    hub, a drift check, a booking), or to one person (their login: user is set, property is not). The
    same happening again within a day adds to count and moves last_at, which makes it unread again for
    everyone who read it before."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+", null=True, blank=True
    )
    #: The one person a personal event is for (no property's people see it).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("for"),
        on_delete=models.CASCADE,
        related_name="+",
        null=True,
        blank=True,
    )
    kind = models.CharField(_("kind"), max_length=20, choices=EventKind.choices)
    #: The object the event is about (its model follows from kind: inbox.links).
    object_id = models.PositiveBigIntegerField(_("object id"))
    #: What the object is called, as of the event (the object may be gone since).
    subject = models.CharField(_("subject"), max_length=200)
    #: The hub's reason, the error, or the number of differences, as of the last occurrence.
    detail = models.TextField(_("detail"), blank=True)
    count = models.PositiveIntegerField(_("times"), default=1)
    created_at = models.DateTimeField(_("first at"), auto_now_add=True)
    last_at = models.DateTimeField(_("when"), db_index=True)

    class Meta:
        verbose_name = _("event")
        verbose_name_plural = _("events")
        ordering = ["-last_at", "-pk"]
        indexes = [models.Index(fields=["property", "kind", "object_id", "-last_at"], name="inbox_event_fold")]
        constraints = [
            models.CheckConstraint(
                condition=Q(property__isnull=False) | Q(user__isnull=False), name="inbox_event_of_property_or_person"
            )
        ]

    def __str__(self):
        return f"{self.get_kind_display()}: {self.subject}"


class EventRead(models.Model):
    """When one user last read an event: it is unread for them again once the event repeats after that."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="reads")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    read_at = models.DateTimeField(_("read at"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "user"], name="inbox_read_once_per_user")]

    def __str__(self):
        return f"{self.user_id} read {self.event_id} at {self.read_at}"


class InboxPreference(models.Model):
    """Whether a person receives the inbox's events by e-mail too (off until they turn it on). The
    e-mail's language is the one of their booking e-mails (bookings.notifications.email_language)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="inbox_preference"
    )
    emails = models.BooleanField(_("e-mail me these events"), default=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("inbox e-mail setting")
        verbose_name_plural = _("inbox e-mail settings")

    def __str__(self):
        return str(self.user)


class PropertyChoice(models.Model):
    """One person's choice, for one property, about its booking events (new bookings and cancellations:
    choices.BOOKING_KINDS): whether the inbox shows them and whether they are e-mailed. Without a row they
    are shown and not e-mailed (the booking e-mails already tell them: bookings.notifications)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.CASCADE, related_name="+"
    )
    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    bookings_shown = models.BooleanField(_("show new and canceled bookings"), default=True)
    bookings_emailed = models.BooleanField(_("e-mail new and canceled bookings"), default=False)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("inbox choice per property")
        verbose_name_plural = _("inbox choices per property")
        constraints = [models.UniqueConstraint(fields=["user", "property"], name="inbox_choice_once_per_property")]

    def __str__(self):
        return f"{self.user_id} at {self.property_id}"

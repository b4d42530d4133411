"""Rates, business days and availability per day (per sales channel where they differ), and the date
ranges still to be pushed to the hub, and the history of every change (who, when, old and new values)."""

import json

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from ..channels.models import SalesChannel
from ..content.models import Property, RatePlan, RoomType
from ..sync.models import SyncState


class RatePlanDay(models.Model):
    """A rate plan's rate (standalone) or difference from the standalone rate (package), and whether it
    sells, on one day."""

    rate_plan = models.ForeignKey(RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, related_name="days")
    date = models.DateField(_("date"))
    rate = models.PositiveIntegerField(_("rate (KRW)"), null=True, blank=True)
    rate_modify = models.IntegerField(_("difference from the base rate (KRW)"), null=True, blank=True)
    business_day = models.BooleanField(_("open for sale"), default=True)

    class Meta:
        verbose_name = _("rate plan day")
        verbose_name_plural = _("rate plan days")
        ordering = ["rate_plan", "date"]
        constraints = [
            models.UniqueConstraint(fields=["rate_plan", "date"], name="rateplanday_one_per_day"),
            models.CheckConstraint(
                condition=Q(rate__isnull=True) | Q(rate_modify__isnull=True), name="rateplanday_rate_or_modify"
            ),
        ]

    def __str__(self):
        return f"{self.rate_plan_id} {self.date}"


class RoomTypeDay(models.Model):
    """A room type's stock on one day: what staff allot, what bookings hold (pending) and have taken
    (confirmed), and what is left. The database keeps available = allotment - held - taken >= 0."""

    room_type = models.ForeignKey(RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="days")
    date = models.DateField(_("date"))
    allotment = models.PositiveIntegerField(_("rooms to sell"), default=0)
    held = models.PositiveIntegerField(_("held by pending bookings"), default=0)
    taken = models.PositiveIntegerField(_("taken by bookings"), default=0)
    available = models.PositiveIntegerField(_("available"), default=0)

    class Meta:
        verbose_name = _("room type day")
        verbose_name_plural = _("room type days")
        ordering = ["room_type", "date"]
        constraints = [
            models.UniqueConstraint(fields=["room_type", "date"], name="roomtypeday_one_per_day"),
            models.CheckConstraint(condition=Q(available__gte=0), name="roomtypeday_available_not_negative"),
            models.CheckConstraint(
                condition=Q(available=F("allotment") - F("held") - F("taken")),
                name="roomtypeday_available_is_what_is_left",
            ),
        ]

    def __str__(self):
        return f"{self.room_type_id} {self.date}: {self.available}/{self.allotment}"


class ChannelRateDay(models.Model):
    """A rate plan's rate (or difference) on one channel and day, instead of the common one; both empty
    means the channel sells at the common value."""

    rate_plan = models.ForeignKey(
        RatePlan, verbose_name=_("rate plan"), on_delete=models.CASCADE, related_name="channel_days"
    )
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE)
    date = models.DateField(_("date"))
    rate = models.PositiveIntegerField(_("rate (KRW)"), null=True, blank=True)
    rate_modify = models.IntegerField(_("difference from the base rate (KRW)"), null=True, blank=True)

    class Meta:
        verbose_name = _("channel rate")
        verbose_name_plural = _("channel rates")
        ordering = ["rate_plan", "channel", "date"]
        constraints = [
            models.UniqueConstraint(fields=["rate_plan", "channel", "date"], name="channelrateday_one_per_day"),
            models.CheckConstraint(
                condition=Q(rate__isnull=True) | Q(rate_modify__isnull=True), name="channelrateday_rate_or_modify"
            ),
        ]

    def __str__(self):
        return f"{self.rate_plan_id} @{self.channel_id} {self.date}"


class ChannelAvailDay(models.Model):
    """At most this many rooms of a room type sell on one channel and day (empty: no cap)."""

    room_type = models.ForeignKey(
        RoomType, verbose_name=_("room type"), on_delete=models.CASCADE, related_name="channel_days"
    )
    channel = models.ForeignKey(SalesChannel, verbose_name=_("channel"), on_delete=models.CASCADE)
    date = models.DateField(_("date"))
    cap = models.PositiveIntegerField(_("channel cap"), null=True, blank=True)

    class Meta:
        verbose_name = _("channel availability cap")
        verbose_name_plural = _("channel availability caps")
        ordering = ["room_type", "channel", "date"]
        constraints = [
            models.UniqueConstraint(fields=["room_type", "channel", "date"], name="channelavailday_one_per_day")
        ]

    def __str__(self):
        return f"{self.room_type_id} @{self.channel_id} {self.date}"


class AriDirtyRange(models.Model):
    """Days of a rate plan's rates or a room type's availability that changed and are not yet at the
    hub; written in the same transaction as the change, removed once the hub has them."""

    state = models.ForeignKey(SyncState, on_delete=models.CASCADE, related_name="dirty_ranges")
    date_from = models.DateField()
    date_to = models.DateField()

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(date_from__lte=F("date_to")), name="aridirtyrange_from_before_to")
        ]

    def __str__(self):
        return f"{self.date_from}..{self.date_to}"


class AriChangeSource(models.TextChoices):
    """The screen or import a change of rates and availability came through."""

    CELL = "cell", _("grid cell edit")
    BULK = "bulk", _("bulk edit")
    CSV = "csv", _("CSV import")
    UNDO = "undo", _("undo")
    COPY = "copy", _("copy of a period")
    #: Demo data, management commands and other code calling the edits directly.
    PROGRAM = "program", _("program")


class AriChangeSet(models.Model):
    """One change of a property's rates and availability as staff made it (a cell, a bulk edit, an
    import, an undo): who, when and through which screen. Its cells are AriCellChange rows."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="ari_changes"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.SET_NULL, null=True, blank=True
    )
    source = models.CharField(_("through"), max_length=8, choices=AriChangeSource.choices)
    description = models.CharField(_("description"), max_length=300, blank=True)
    undo_of = models.ForeignKey(
        "self", verbose_name=_("undoes"), on_delete=models.SET_NULL, null=True, blank=True, related_name="undos"
    )
    cell_count = models.PositiveIntegerField(_("cells"), default=0)
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("change of rates and availability")
        verbose_name_plural = _("changes of rates and availability")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["property", "-created_at"], name="arichangeset_property_recent")]

    def __str__(self):
        return f"{self.get_source_display()} {self.created_at:%Y-%m-%d %H:%M}"


class AriCellChange(models.Model):
    """One cell's value before and after a change: a rate plan's rate, difference or business day (1 open,
    0 closed), or a room type's rooms to sell; with a channel, that channel's own rate or cap."""

    change_set = models.ForeignKey(AriChangeSet, on_delete=models.CASCADE, related_name="cells")
    rate_plan = models.ForeignKey(RatePlan, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    room_type = models.ForeignKey(RoomType, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    channel = models.ForeignKey(SalesChannel, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    date = models.DateField(_("date"))
    field = models.CharField(_("value"), max_length=16)
    old = models.IntegerField(_("before"), null=True, blank=True)
    new = models.IntegerField(_("after"), null=True, blank=True)

    class Meta:
        ordering = ["change_set", "pk"]
        indexes = [
            models.Index(fields=["rate_plan", "date"], name="aricellchange_rate_plan_date"),
            models.Index(fields=["room_type", "date"], name="aricellchange_room_type_date"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(rate_plan__isnull=False, room_type__isnull=True)
                | Q(rate_plan__isnull=True, room_type__isnull=False),
                name="aricellchange_one_target",
            )
        ]

    def __str__(self):
        return f"{self.date} {self.field}: {self.old} -> {self.new}"

    @property
    def target(self):
        return self.rate_plan or self.room_type


class AriImportStatus(models.TextChoices):
    """Where a CSV import stands: checked by one job, applied by another."""

    QUEUED = "queued", _("Waiting to be checked")
    CHECKING = "checking", _("Checking")
    CHECKED = "checked", _("Checked")
    APPLYING = "applying", _("Applying")
    APPLIED = "applied", _("Applied")
    FAILED = "failed", _("Failed")


class AriImport(models.Model):
    """A rates and availability CSV file uploaded for a property: checked row by row by a job on the bulk
    queue (its progress here, its error and change rows as AriImportLine), then applied without the rows
    with errors by another job."""

    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("user"), on_delete=models.SET_NULL, null=True, blank=True
    )
    file_name = models.CharField(_("file"), max_length=255)
    #: The file's text, until it is applied (the apply reads it again against the data of that moment).
    content = models.TextField(blank=True)
    #: The language of the person who uploaded it: the jobs write the rows' messages in it.
    language = models.CharField(max_length=10)
    status = models.CharField(
        _("status"), max_length=8, choices=AriImportStatus.choices, default=AriImportStatus.QUEUED
    )
    #: Progress of the check, in thousandths, and the file's rows (0 until it has read them).
    permille = models.PositiveSmallIntegerField(default=0)
    rows = models.PositiveIntegerField(_("rows"), default=0)
    change_count = models.PositiveIntegerField(_("rows that change"), default=0)
    unchanged_count = models.PositiveIntegerField(_("unchanged rows"), default=0)
    error_count = models.PositiveIntegerField(_("rows with errors"), default=0)
    #: What the check showed of the rows without errors: the apply writes nothing when they read otherwise.
    fingerprint = models.CharField(max_length=64, blank=True)
    #: Why it failed, or why the last apply wrote nothing.
    note = models.TextField(blank=True)
    change_set = models.ForeignKey(
        AriChangeSet, verbose_name=_("change"), on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("uploaded"), auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("import of rates and availability")
        verbose_name_plural = _("imports of rates and availability")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["property", "-created_at"], name="ariimport_property_recent")]

    def __str__(self):
        return self.file_name

    def is_running(self):
        """Whether a job still works on it (the page follows its progress)."""
        return self.status in (AriImportStatus.QUEUED, AriImportStatus.CHECKING, AriImportStatus.APPLYING)


class AriImportLine(models.Model):
    """A line of an import's file that has an error or changes something, as written, with what the check
    said of it (the reasons of an error, or the changes)."""

    ari_import = models.ForeignKey(AriImport, on_delete=models.CASCADE, related_name="lines")
    line = models.PositiveIntegerField(_("line"))
    error = models.BooleanField()
    #: The line's values in the columns of the file format (integration.ari.csv_parse.ARI_CSV_COLUMNS), a
    #: JSON list kept as text: a JSON column costs several times more to write for 100,000 lines.
    cells = models.TextField()
    #: The reasons of an error, or the changes, one a line.
    details = models.TextField()

    class Meta:
        ordering = ["ari_import", "line"]
        indexes = [models.Index(fields=["ari_import", "error", "line"], name="ariimportline_listed")]

    def __str__(self):
        return f"{self.ari_import_id}:{self.line}"

    def values(self):
        """The line's values, in the file's columns."""
        return json.loads(self.cells)


class AriSeason(models.Model):
    """A named season of a property ("Summer peak", "Christmas"): its date ranges, which a bulk edit can
    target instead of dates typed each time."""

    property = models.ForeignKey(
        Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="ari_seasons"
    )
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        ordering = ["property", "name"]
        constraints = [models.UniqueConstraint(fields=["property", "name"], name="ariseason_one_name")]

    def __str__(self):
        return self.name


class AriSeasonRange(models.Model):
    """Days of a season, from date_from to date_to, both included."""

    season = models.ForeignKey(AriSeason, on_delete=models.CASCADE, related_name="ranges")
    date_from = models.DateField(_("from"))
    date_to = models.DateField(_("to"))

    class Meta:
        ordering = ["season", "date_from"]
        constraints = [
            models.CheckConstraint(condition=Q(date_from__lte=F("date_to")), name="ariseasonrange_from_before_to")
        ]

    def __str__(self):
        return f"{self.date_from}..{self.date_to}"

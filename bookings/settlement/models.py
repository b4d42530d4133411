"""A reconciliation of the hub's settlement list against our bookings, and one row per booking compared."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from bookings.models import Booking
from integration.models import Property

from .choices import Basis, Category, RunStatus, hub_status_as_ours


class Reconciliation(models.Model):
    """One run over some properties, a period and a date basis: its progress while it pages through the
    hub's list, then the totals of its rows per category and per month."""

    properties = models.ManyToManyField(Property, verbose_name=_("properties"), related_name="+")
    basis = models.CharField(_("date basis"), max_length=8, choices=Basis.choices, default=Basis.CHECKIN)
    date_from = models.DateField(_("from"))
    date_to = models.DateField(_("to"))
    #: Who asked for it; empty for the nightly run.
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("requested by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    status = models.CharField(_("status"), max_length=8, choices=RunStatus.choices, default=RunStatus.QUEUED)
    #: The hub's count of records over every property, once its first answers are in.
    records_expected = models.PositiveIntegerField(_("records at the hub"), null=True, blank=True)
    records_seen = models.PositiveIntegerField(_("records read"), default=0)
    error = models.TextField(_("error"), blank=True)
    #: {category: {"count", "hub_total", "our_total"}} once done.
    totals = models.JSONField(_("totals"), default=dict, blank=True)
    #: [{"month": "YYYY-MM", category: count, ...}] once done, oldest month first.
    monthly = models.JSONField(_("totals per month"), default=list, blank=True)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("settlement reconciliation")
        verbose_name_plural = _("settlement reconciliations")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return f"{self.date_from} - {self.date_to} ({self.get_basis_display()})"


class ReconciliationRow(models.Model):
    """One booking of a reconciliation: the hub's record beside ours, and what their comparison found."""

    reconciliation = models.ForeignKey(
        Reconciliation, verbose_name=_("reconciliation"), on_delete=models.CASCADE, related_name="rows"
    )
    category = models.CharField(_("result"), max_length=10, choices=Category.choices)
    vendor_booking_number = models.CharField(_("vendor booking number"), max_length=100)
    booking = models.ForeignKey(
        Booking,
        verbose_name=_("booking"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    property = models.ForeignKey(Property, verbose_name=_("property"), on_delete=models.CASCADE, related_name="+")
    #: The booking's date on the reconciliation's basis (Korea), and its month's first day.
    date = models.DateField(_("date"))
    month = models.DateField(_("month"))
    hub_status = models.CharField(_("status at the hub"), max_length=20, blank=True)
    our_status = models.CharField(_("our status"), max_length=10, blank=True)
    hub_total_amount = models.DecimalField(
        _("total amount at the hub"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    our_total_amount = models.DecimalField(
        _("our total amount"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    hub_net_price = models.DecimalField(
        _("net price at the hub"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    our_net_price = models.DecimalField(_("our net price"), max_digits=14, decimal_places=2, null=True, blank=True)
    #: Whether the front desk marked our booking a no-show when the run compared it (its status stays
    #: confirmed: a no-show is still a booking the channel may settle).
    our_no_show = models.BooleanField(_("no-show"), default=False)

    class Meta:
        verbose_name = _("reconciliation row")
        verbose_name_plural = _("reconciliation rows")
        ordering = ["date", "id"]
        indexes = [
            # The report's pages in their order (date, id), whole and by category.
            models.Index(fields=["reconciliation", "date", "id"], name="settlement_row_date"),
            models.Index(fields=["reconciliation", "category", "date", "id"], name="settlement_row_category"),
            models.Index(fields=["reconciliation", "vendor_booking_number"], name="settlement_row_number"),
        ]

    def __str__(self):
        return f"{self.vendor_booking_number}: {self.get_category_display()}"

    # Methods, not properties: the class body's `property` is the field. Templates call them alike.
    def hub_status_label(self):
        """The hub's status in the user's language when it means one of ours, as the hub wrote it otherwise."""
        return _status_label(hub_status_as_ours(self.hub_status))

    def our_status_label(self):
        """Our status in the user's language, and "no-show" beside it when the front desk marked one."""
        label = _status_label(self.our_status)
        if self.our_no_show:
            return f"{label} · {Booking.Desk.NO_SHOW.label}"
        return label


def _status_label(value):
    return Booking.Status(value).label if value in Booking.Status.values else value
